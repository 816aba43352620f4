#!/usr/bin/env python3
"""Regenerate the golden playthroughs of Through Ice and Snow in ``tests/golden/iceandsnow/``.

REGENERATE ONLY FOR AN INTENDED CHANGE OF RULES OR DATA, then review the diff of
``tests/golden/iceandsnow/`` like code.  A golden file that changes without such
a change is a regression of the engine, not something to regenerate away.

A golden file records one whole game played by a seeded policy: the setup
(players, seed, options), the action log (wire JSON) and, for every action, a
checkpoint — the number of legal actions, round, pending decision and seat
before it, the scores after it and the text of the events it returned; every
``HASH_EVERY`` actions (and at the end) a SHA-256 of ``to_json()``; and the
final state's whole ``to_json()``.  ``tests/iceandsnow/test_golden.py`` replays
every file and compares all of it::

    .venv/bin/python tools/make_golden_iceandsnow.py            # rewrite the files
    .venv/bin/python tools/make_golden_iceandsnow.py --check    # exit 1 if one would change

The policy (:func:`choose`) is a pure function of ``random.Random(policy_seed)``,
the state and its legal actions: one-step lookahead on every kind of action
(two crew variants of each space/card), valued by PP, half the final scoring
as if the game ended now (solo: the objectives missing) and a liking for
dynamite, fuel, health, food, dogs and sled (self-contained: the bots'
heuristic may change without changing these games), a little noise,
and ``pass`` only when nothing looks better; sometimes a random non-pass action.
The seeds were picked (out of 60 each) for the longest games of this policy:
solo games still end early (the policy never survives a solo scenario), the
2-player game with every mode and the 4-player base game complete the passage
(final scoring included).
"""

from __future__ import annotations

import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from golden_files import render_record, write_goldens  # tools/, next to this script

from erebus.core.fingerprint import data_fingerprint, state_hash
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import scoring
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.layout import DOGS, DYN, FOOD, FUEL, HEALTH, MORALE, PP, SLED, WOOD, F
from erebus.games.iceandsnow.state import State

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden" / "iceandsnow"
HASH_EVERY = 10
FULL = {"modes": ["survival", "shelters", "dual_species"], "upgrades": "all", "extra_events": True}

# name -> (players, game seed, options, policy seed)
GAMES: dict[str, tuple[int, int, dict[str, Any], int]] = {
    "solo-lost-expedition": (1, 12, {"scenario": "lost-expedition"}, 12),
    "solo-magnetic-north-pole": (1, 4, {"scenario": "magnetic-north-pole"}, 4),
    "2p-all-modes": (2, 41, FULL, 41),
    "4p-base": (4, 7, {}, 7),
    # Inuit Myths (§9.2): 4 creatures, curses for all, the passage completed
    "3p-inuit-myths": (3, 20, {"modules": ["inuit_myths"], "modes": ["survival"]}, 20),
    # Walking on Ice (§9.1): the ships abandoned voluntarily, the game ends on foot
    "2p-walking-on-ice": (2, 8, {"modules": ["walking_on_ice"]}, 8),
    # Myths & Legends' solo scenarios (§9.4, §9.5): the longest of seeds 0-29 / 0-19
    "solo-mysterious-epidemic": (1, 0, {"scenario": "mysterious-epidemic"}, 0),
    "solo-amundsens-voyage": (1, 2, {"scenario": "amundsens-voyage"}, 2),
    # Legendary Expeditions (§9.3): explorers dealt and kept, the passage completed
    # (the longest 3-player game of seeds 0-79)
    "3p-legendary-expeditions": (3, 40, {"modules": ["legendary_expeditions"]}, 40),
}
NOTABLE = (
    "CabinBuilt",
    "ShelterBuilt",
    "UpgradeBuilt",
    "SpeciesDiscovered",
    "Towing",
    "RegionMapped",
    "CompassDrawn",
    "ScenarioProgress",
    "CreatureRevealed",
    "ShipsAbandoned",
    "DiseaseRevealed",
    "TreatmentRevealed",
    "ExplorerChosen",
)


def value(st: State, seat: int) -> float:
    """How much the policy likes ``st`` for ``seat``."""
    if st.is_over:
        if st.scenario is not None:
            return 1000.0 if st.won else -1000.0
        return (-1000.0 if st.lost else 200.0) + st.scores()[seat]
    b = F * seat
    pv = st.pv
    # self-contained on purpose: a change of the bots' heuristic must not change
    # the golden games, only a change of the rules
    v = float(pv[b + PP])
    if st.scenario is not None:
        v -= 20.0 * len(st.objectives_missing())
    else:
        v += 0.5 * sum(d for s, d, _ in scoring.final_scores(st) if s == seat)
    v += (
        (4.0 if st.scenario else 1.5) * min(pv[b + DYN], 6)
        + 1.0 * min(pv[b + FUEL], 8)
        + 0.3 * min(pv[b + WOOD], 5)
    )
    v += 4.0 * pv[b + HEALTH] + 2.0 * pv[b + MORALE]
    v += 0.5 * min(pv[b + FOOD], 2 * st.fed_count(seat))
    v += 0.8 * min(pv[b + DOGS], 6) + 2.0 * pv[b + SLED] + 0.5 * min(pv[b + DYN + 2], 6)
    if st.scenario == "lost-expedition":
        v += 4.0 * st.le_progress + 30.0 * st.le_found + 20.0 * st.le_cabin
    return v


def choose(st: State, rnd: random.Random, noise: float = 3.0, explore: float = 0.1) -> Action:
    """The policy: a function of ``rnd``, the state and its legal actions only."""
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]
    groups: dict[tuple[Any, ...], list[Action]] = defaultdict(list)
    for a in legal:
        groups[(a.kind, a.space, a.card, a.tile)].append(a)
    if rnd.random() < explore:
        keys = [k for k in groups if k[0] != "pass"] or list(groups)
        return rnd.choice(groups[rnd.choice(keys)])
    seat = st.current_player
    assert seat is not None
    cands: list[Action] = []
    for acts in groups.values():
        cands += rnd.sample(acts, min(2, len(acts)))
    best: tuple[float, Action] | None = None
    for a in cands:
        c = st.clone()
        c.apply(a)
        v = value(c, seat) + noise * rnd.random() - (2.0 if a.kind == "pass" else 0.0)
        if best is None or v > best[0]:
            best = (v, a)
    assert best is not None
    return best[1]


def checkpoint(st: State, legal: list[Action]) -> dict[str, Any]:
    """What is recorded before an action."""
    return {
        "legal": len(legal),
        "round": st.round,
        "pending": st.pending,
        "seat": st.current_player,
    }


def play(players: int, seed: int, options: dict[str, Any], policy_seed: int) -> dict[str, Any]:
    st = game.new_game(players, seed, options)
    rnd = random.Random(policy_seed)
    steps: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    setup = [e.text() for e in st.setup_events]
    for e in st.setup_events:
        counts[type(e).__name__] += 1
    while not st.is_over:
        legal = st.legal_actions()
        a = choose(st, rnd)
        step = checkpoint(st, legal)
        events = st.apply(a)
        counts.update(type(e).__name__ for e in events)
        step["action"] = a.to_json()
        step["scores"] = st.scores()
        if len(steps) % HASH_EVERY == HASH_EVERY - 1:
            step["hash"] = state_hash(st)
        step["events"] = [e.text() for e in events]
        steps.append(step)
    return {
        "game": "iceandsnow",
        "players": players,
        "seed": seed,
        "options": options,
        "policy_seed": policy_seed,
        "content_sha256": data_fingerprint("erebus.games.iceandsnow"),
        "setup_events": setup,
        "outcome": st.outcome,
        "reason": st.reason,
        "rounds": st.round,
        "scores": st.scores(),
        "ranking": st.ranking(),
        "event_counts": dict(sorted(counts.items())),
        "final_hash": state_hash(st),
        "steps": steps,
        "final_state": st.to_json(),
    }


def main(argv: list[str] | None = None) -> int:
    def records() -> Iterator[tuple[str, str, str]]:
        for name, (players, seed, options, policy_seed) in GAMES.items():
            record = play(players, seed, options, policy_seed)
            ev = record["event_counts"]
            yield (
                name,
                render_record(record, per_line="steps", sorted_keys=("final_state",)),
                f"{players} players, {len(record['steps'])} actions, "
                f"round {record['rounds']}, {record['outcome']} ({record['reason']}), "
                f"scores {record['scores']}; " + ", ".join(f"{k} {ev.get(k, 0)}" for k in NOTABLE),
            )

    return write_goldens((__doc__ or "").splitlines()[0], GOLDEN_DIR, records, argv)


if __name__ == "__main__":
    sys.exit(main())
