"""Rate limits: a token bucket per connection (messages) and per client address (rooms)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["TokenBucket"]


@dataclass(slots=True)
class TokenBucket:
    """Allows ``burst`` events at once and ``rate`` per second on average.

    ``allow(now)`` takes one token if there is one; ``now`` is a monotonic time in seconds.
    """

    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    stamp: float | None = None

    def allow(self, now: float) -> bool:
        if self.stamp is None:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
