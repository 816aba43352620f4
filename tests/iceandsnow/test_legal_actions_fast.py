"""The Action phase's caches never change a legal list.

:func:`action_phase.take_actions` keeps, shared by every state, the open spaces of a
board (``Tables.take_rows``), one key per available crew and per tuple of crew
options (``take_crews``, ``take_opts``), the in-game upgrade tiles (``take_tiles``)
and the built blocks of actions (``_BLOCKS``).  A key that left out something its
block depends on would hand one state another's block: so every list is computed
twice, with the caches as the games before left them (warm, shared across option
sets, player counts and boards) and with every cache emptied first (cold), and the
two must be equal — also with caches so small that they are emptied all the time.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from erebus.games.iceandsnow import action_phase, new_game, tables
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.state import State

ALL = ["walking_on_ice", "inuit_myths", "legendary_expeditions"]
FULL = {"modes": ["survival", "shelters", "dual_species"], "upgrades": "all", "extra_events": True}
# (players, options): every module, mode and scenario, with Sedna, Kellett, Ross, Back …
GAMES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, FULL),
    (3, {"modules": ["inuit_myths"], "modes": ["survival"]}),
    (4, {"modules": ["inuit_myths"], **FULL}),
    (2, {"modules": ["walking_on_ice"], **FULL}),
    (3, {"modules": ["legendary_expeditions"], "explorers": ["C", "D", "E"]}),
    (3, {"modules": ["legendary_expeditions"], **FULL, "explorers": ["F", "I", "J"]}),
    (4, {"modules": ALL, "modes": ["survival", "shelters"]}),
    (2, {"modules": ALL, **FULL, "explorers": ["B", "H"]}),
    (1, {"scenario": "lost-expedition"}),
    (1, {"scenario": "magnetic-north-pole", "modules": ["inuit_myths"]}),
    (1, {"scenario": "mysterious-epidemic"}),
    (1, {"scenario": "amundsens-voyage", "modes": ["survival"]}),
]


def _empty_caches() -> None:
    action_phase._BLOCKS.clear()
    for t in tables._CACHE.values():
        t.take_rows.clear()
        t.take_crews.clear()
        t.take_opts.clear()
        t.take_tiles.clear()


def _pick(legal: list[Action], rng: random.Random) -> Action:
    """A random action, the kind and space first (not passing while something else
    is possible), so that games go on to the final round."""
    groups: dict[tuple[str, str | None], list[Action]] = {}
    for a in legal:
        groups.setdefault((a.kind, a.space), []).append(a)
    keys = list(groups)
    if len(keys) > 1 and ("pass", None) in groups:
        keys.remove(("pass", None))
    return rng.choice(groups[rng.choice(keys)])


def _check(st: State) -> int:
    """Warm and cold lists of every seat's takes and of the legal actions; how many."""
    warm = [action_phase.take_actions(st, s) for s in range(st.n)]
    legal = st._compute_legal()
    _empty_caches()
    assert [action_phase.take_actions(st, s) for s in range(st.n)] == warm
    assert st._compute_legal() == legal
    return len(legal)


def _play(players: int, options: dict[str, Any], seed: int, every: int) -> int:
    st = new_game(players, seed, options)
    rng = random.Random(seed)
    checked = steps = 0
    while not st.is_over and steps < 400:
        legal = st._legal_list()
        assert legal
        if st.phase == "action" and not st.decisions and steps % every == 0:
            assert _check(st) == len(legal)
            checked += 1
        st.apply(_pick(legal, rng))
        steps += 1
    return checked


def test_warm_caches_give_the_lists_of_cold_ones() -> None:
    checked = 0
    for seed in range(3):
        for players, options in GAMES:  # the caches are shared from one game to the next
            checked += _play(players, options, seed, every=3)
    assert checked > 300


def test_caches_emptied_all_the_time_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(action_phase, "_BLOCKS_MAX", 7)
    monkeypatch.setattr(action_phase, "_CREWS_MAX", 2)
    monkeypatch.setattr(action_phase, "_BLOCK_MAX_LEN", 5)
    checked = 0
    for players, options in GAMES[:9]:
        checked += _play(players, options, 11, every=2)
    assert checked > 100
