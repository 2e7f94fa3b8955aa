"""The statistics of a report, in plain Python: Wilson intervals, exact quantiles of a
histogram, mean differences with normal intervals, and Bradley–Terry ratings."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "QUANTILES",
    "Z95",
    "Moments",
    "bradley_terry",
    "histogram_summary",
    "quantile",
    "wilson",
]

Z95 = 1.959964
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score 95% interval of a proportion (``(0, 0)`` when ``n == 0``)."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(hist: Sequence[tuple[float, int]], q: float) -> float:
    """The ``q`` quantile of the values a sorted ``(value, count)`` histogram holds, linearly
    interpolated between order statistics (numpy's default method)."""
    n = sum(c for _, c in hist)
    if n == 0:
        return math.nan
    pos = (n - 1) * q
    lo_rank, frac = math.floor(pos), pos - math.floor(pos)
    lo = hi = None
    seen = 0
    for value, count in hist:
        if lo is None and lo_rank < seen + count:
            lo = value
        if lo_rank + 1 < seen + count:
            hi = value
            break
        seen += count
    assert lo is not None
    return lo if hi is None or frac == 0 else lo + (hi - lo) * frac


def histogram_summary(counts: Mapping[float, int]) -> dict[str, float | int]:
    """Count, mean, sample sd, min, the :data:`QUANTILES` and max of a value histogram."""
    hist = sorted((v, c) for v, c in counts.items() if c)
    n = sum(c for _, c in hist)
    if n == 0:
        return {"n": 0}
    mean = sum(v * c for v, c in hist) / n
    var = sum(c * (v - mean) ** 2 for v, c in hist) / (n - 1) if n > 1 else 0.0
    out: dict[str, float | int] = {"n": n, "mean": mean, "sd": math.sqrt(var), "min": hist[0][0]}
    for q in QUANTILES:
        out[f"p{round(q * 100)}"] = quantile(hist, q)
    out["max"] = hist[-1][0]
    return out


@dataclass
class Moments:
    """Running count, sum and sum of squares of one quantity (e.g. a paired difference)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float, count: int = 1) -> None:
        self.n += count
        self.total += x * count
        self.squares += x * x * count

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    @property
    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        return math.sqrt(max(0.0, (self.squares - self.total * self.mean) / (self.n - 1)))

    def interval(self) -> tuple[float, float]:
        """Normal-approximation 95% interval of the mean."""
        half = Z95 * self.sd / math.sqrt(self.n) if self.n else math.nan
        return (self.mean - half, self.mean + half)


def _solve(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """``a^-1 b`` by Gauss–Jordan elimination with partial pivoting (small dense systems)."""
    n = len(a)
    m = [row[:] + rhs[:] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        m[col] = [x / p for x in m[col]]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [row[n:] for row in m]


def bradley_terry(
    names: Sequence[str], wins: Mapping[tuple[str, str], float], prior: float = 1.0
) -> dict[str, tuple[float, float]] | None:
    """Bradley–Terry strengths ``(theta, standard error)`` per name, centred on mean 0.

    ``wins[(a, b)]`` is how often ``a`` beat ``b`` (ties count half to each). ``prior`` adds
    that many drawn comparisons to every pair that met, so an agent that never lost still
    gets a finite rating. None when the agents do not all meet through some chain of games.
    """
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    w = [[0.0] * k for _ in range(k)]
    for (a, b), x in wins.items():
        w[idx[a]][idx[b]] += x
    n = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and n[i][j] > 0:
                w[i][j] += prior / 2
                n[i][j] += prior
    # connected?
    reach, stack = {0}, [0]
    while stack:
        i = stack.pop()
        for j in range(k):
            if n[i][j] > 0 and j not in reach:
                reach.add(j)
                stack.append(j)
    if len(reach) < k:
        return None
    theta = [0.0] * k
    info: list[list[float]] = []
    for _ in range(100):  # Newton on theta[1:], theta[0] = 0
        grad = [0.0] * k
        info = [[0.0] * k for _ in range(k)]
        for i in range(k):
            for j in range(k):
                if i == j or n[i][j] == 0:
                    continue
                p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
                grad[i] += w[i][j] - n[i][j] * p
                h = n[i][j] * p * (1 - p)
                info[i][i] += h
                info[i][j] -= h
        sub = [row[1:] for row in info[1:]]
        step = _solve(sub, [[g] for g in grad[1:]])
        for i in range(1, k):
            theta[i] += step[i - 1][0]
        if max((abs(s[0]) for s in step), default=0.0) < 1e-10:
            break
    cov_sub = _solve(
        [row[1:] for row in info[1:]], [[float(i == j) for j in range(k - 1)] for i in range(k - 1)]
    )
    cov = [[0.0] * k for _ in range(k)]
    for i in range(1, k):
        for j in range(1, k):
            cov[i][j] = cov_sub[i - 1][j - 1]
    # centre: theta_i - mean(theta); var = c^T cov c with c = e_i - 1/k
    mean = sum(theta) / k
    row_means = [sum(cov[i]) / k for i in range(k)]
    all_mean = sum(row_means) / k
    out = {}
    for i, name in enumerate(names):
        var = cov[i][i] - 2 * row_means[i] + all_mean
        out[name] = (theta[i] - mean, math.sqrt(max(0.0, var)))
    return out
