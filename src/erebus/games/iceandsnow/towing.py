"""The towing procedure (reference §4.4) as a pure function.

Kept apart from the state so that the worked example of the rulebook can be
checked on plain numbers, and so that the state only has to apply the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TowResult:
    """What towing does; ``lost`` means the towing players could not cover the
    missing fuel (the expedition does not survive, §4.4 game over by fuel)."""

    fuel: tuple[int, ...]
    towing: tuple[int, ...]
    pp: tuple[tuple[int, int, str], ...]  # (seat, delta, reason), in the order they happen
    towed: tuple[int, ...]
    towers: tuple[int, ...]
    missing: int
    lost: bool


def level_pp(pp: Mapping[int, int], level: int) -> int:
    """PP value of a towing-track space (0 for a space the data leave out)."""
    return pp.get(level, 0)


def tow(
    fuel: Sequence[int],
    missing: Sequence[int],
    levels: Sequence[int],
    leader: int,
    pp: Mapping[int, int],
    lo: int,
    hi: int,
    per_fuel: bool = False,
) -> TowResult:
    """Carry out towing.

    ``fuel`` are the fuel levels after lowering (0 for every towed player),
    ``missing`` the unpaid fuel per seat, ``levels`` the towing levels,
    ``pp`` the PP of each towing-track space, ``lo``/``hi`` the track's ends.
    Clockwise is increasing seat number; towers act from the leader on and
    supply the towed players in clockwise order from the leader.  With
    ``per_fuel`` a tower gains the towed player's value per fuel unit
    supplied rather than once per towed player (reading option
    ``"towing_pp"``).
    """
    n = len(fuel)
    order = [(leader + i) % n for i in range(n)]
    towed = [s for s in order if missing[s] > 0]
    total = sum(missing)
    if not towed:
        return TowResult(tuple(fuel), tuple(levels), (), (), (), 0, False)
    towers = [s for s in order if fuel[s] > 0 and missing[s] == 0]
    if sum(fuel[s] for s in towers) < total:
        return TowResult(tuple(fuel), tuple(levels), (), tuple(towed), tuple(towers), total, True)
    new_fuel = list(fuel)
    new_lv = list(levels)
    out: list[tuple[int, int, str]] = []
    for s in towed:
        new_lv[s] = max(lo, new_lv[s] - 1)
        out.append((s, -level_pp(pp, new_lv[s]), "towed"))
    left = {s: missing[s] for s in towed}
    for t in towers:
        if not any(left.values()):
            break
        gain = 0
        supplied_any = False
        for s in towed:
            units = min(left[s], new_fuel[t])
            if units <= 0:
                continue
            left[s] -= units
            new_fuel[t] -= units
            supplied_any = True
            value = level_pp(pp, new_lv[s])
            gain += value * units if per_fuel else value
        if supplied_any:
            if gain:
                out.append((t, gain, "towing"))
            new_lv[t] = min(hi, new_lv[t] + 1)
    return TowResult(
        tuple(new_fuel), tuple(new_lv), tuple(out), tuple(towed), tuple(towers), total, False
    )
