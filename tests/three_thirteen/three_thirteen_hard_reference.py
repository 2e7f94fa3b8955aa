"""The Three-Thirteen ``hard`` agent as it was written in Python (before its decisions moved to
Rust): the reference its Rust port must match decision for decision. Slow and plain on purpose.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore.rng import Rng
from cardcore.three_thirteen.agents import HardAgent, _pick_discard
from cardcore.three_thirteen.melds import MeldRules, discard_deadwoods_of_faces
from cardcore.three_thirteen.rules import (
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    Move,
    Observation,
    card_points,
)


def _unseen_counts(obs: Observation) -> list[int]:
    """Count per face (0..55) of cards this seat has not seen and no opponent is known to hold."""
    counts = [obs.num_decks] * 52 + [0] * 4
    for k in range(obs.jokers):
        counts[52 + k] = 1
    ft = obs.face_of
    for c in obs.hand:
        counts[ft[c]] -= 1
    for c in obs.discard_pile:
        counts[ft[c]] -= 1
    for s, cards in enumerate(obs.taken):
        if s != obs.seat:
            for c in cards:
                counts[ft[c]] -= 1
    return counts


def _rank_hi(face: int, ace_mode: str) -> tuple[int, int]:
    """Rank(s) of a natural face used for adjacency: (low rank, alt rank for ace high)."""
    r = face % 13 + 1
    if r == 1 and ace_mode != "low":
        return (1 if ace_mode == "both" else 14, 14)
    return (r, r)


def _interacts(u: int, naturals: Sequence[int], wilds: int, wild_rank: int, ace_mode: str) -> bool:
    """Whether face ``u`` could ever share a meld with the hand (conservative: may say yes)."""
    if u >= 52 or u % 13 + 1 == wild_rank or wilds >= 2:
        return True
    us = u // 13
    ur = u % 13
    a1, a2 = _rank_hi(u, ace_mode)
    for f in naturals:
        if f % 13 == ur:
            return True
        if f // 13 == us:
            b1, b2 = _rank_hi(f, ace_mode)
            if min(abs(a1 - b1), abs(a1 - b2), abs(a2 - b1), abs(a2 - b2)) <= 2:
                return True
    return False


class ReferenceHardAgent(HardAgent):
    """The Python implementation the Rust decisions must match, decision for decision (the
    tuning knobs are the agent's)."""

    __slots__ = ()

    def act(self, observation: Observation, legal: Sequence[Move], rng: Rng) -> Move:
        obs = observation
        ft = obs.face_of
        wild = obs.wild_rank
        rules = obs.rules
        counts = _unseen_counts(obs)
        if obs.phase == "draw":
            top = obs.discard_pile[-1]
            hand_faces = bytes(obs.hand).translate(ft)
            dws = discard_deadwoods_of_faces(hand_faces + ft[top : top + 1], wild, rules)
            take = min(dws[:-1])
            if take == 0 and obs.own_turns >= obs.min_own_turns_before_out:
                return DRAW_DISCARD
            if take >= dws[-1]:
                return DRAW_STOCK  # the expected stock draw is never worse than keeping
            if obs.out_seat is not None:  # final turn: scored on the hand after it
                stock = self._value_after_draw(hand_faces, dws[-1], counts, wild, rules, 0.0)
                return DRAW_DISCARD if take < stock else DRAW_STOCK
            stock = self._value_after_draw(hand_faces, dws[-1], counts, wild, rules)
            # Same horizon on both sides: the pile card plus one more draw (for the two best
            # discards after taking it), against two stock draws, the second assumed to gain
            # a share ``gamma`` of what the first gains.
            with_top = hand_faces + ft[top : top + 1]
            order = sorted(range(len(dws) - 1), key=dws.__getitem__)[:2]
            take2 = min(
                self._value_after_draw(
                    with_top[:i] + with_top[i + 1 :], dws[i], counts, wild, rules
                )
                for i in order
            )
            stock2 = stock - self.gamma * (dws[-1] - stock)
            return DRAW_DISCARD if take2 < stock2 else DRAW_STOCK
        hand = obs.hand
        hand_faces = bytes(hand).translate(ft)
        dws = discard_deadwoods_of_faces(hand_faces, wild, rules)
        banned = obs.drawn if obs.forbid_return_of_discard_draw and obs.drawn_from_discard else -1
        allowed = [i for i in range(len(hand)) if hand[i] != banned]
        best_now = min(dws[i] for i in allowed)
        if best_now == 0 or obs.out_seat is not None:
            return _pick_discard(obs, legal, dws)
        # Candidates: near-minimal deadwood, one per face (equal faces give equal hands).
        seen_faces: set[int] = set()
        cands: list[tuple[int, int]] = []
        for i in sorted(allowed, key=lambda j: (dws[j], -card_points(hand_faces[j], wild, rules))):
            f = hand_faces[i]
            if f in seen_faces or dws[i] > best_now + self.slack:
                continue
            seen_faces.add(f)
            cands.append((dws[i], i))
            if len(cands) >= self.max_candidates:
                break
        nxt = (obs.seat + 1) % obs.num_players
        feed = [ft[c] for c in obs.taken[nxt]]
        best_score = float("inf")
        best_i = cands[0][1]
        for dw_now, i in cands:
            rest = hand_faces[:i] + hand_faces[i + 1 :]
            score = self._value_after_draw(rest, dw_now, counts, wild, rules)
            f = hand_faces[i]
            if feed and _interacts(f, feed, 0, wild, rules.ace_mode):
                score += self.feed_penalty
            score += self.now_weight * dw_now
            if score < best_score:
                best_score, best_i = score, i
        return Discard(hand[best_i])

    def _value_after_draw(
        self,
        faces: bytes,
        dw_now: int,
        counts: Sequence[int],
        wild: int,
        rules: MeldRules,
        out_bonus: float | None = None,
    ) -> float:
        """Expected optimal deadwood of ``faces`` (n cards) after one stock draw and discard,
        minus ``out_bonus`` times the chance that this draw lets the hand go out."""
        total = 0
        acc = 0.0
        outs = 0
        nat = [f for f in faces if f < 52 and f % 13 + 1 != wild]
        wilds = len(faces) - len(nat)
        one_less: int | None = None
        ace_mode = rules.ace_mode
        for u in range(56):
            cnt = counts[u]
            if cnt <= 0:
                continue
            total += cnt
            if _interacts(u, nat, wilds, wild, ace_mode):
                dws = discard_deadwoods_of_faces(faces + bytes((u,)), wild, rules)
                m = min(dws)
                acc += cnt * m
                if m == 0:
                    outs += cnt
            else:
                if one_less is None:
                    one_less = min(discard_deadwoods_of_faces(faces, wild, rules))
                acc += cnt * min(dw_now, one_less + card_points(u, wild, rules))
        if not total:
            return float(dw_now)
        bonus = self.out_bonus if out_bonus is None else out_bonus
        return (acc - bonus * outs) / total
