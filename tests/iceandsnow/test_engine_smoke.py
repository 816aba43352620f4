"""Whole random games of Through Ice and Snow run to the end for every player
count, scenario and option combination, keeping the engine's invariants."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from typing import Any

import pytest

from erebus.games import iceandsnow as game
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import ScoreChanged
from erebus.games.iceandsnow.state import State

MODES = ["survival", "shelters", "dual_species"]


def pick(st: State, rnd: random.Random) -> Action:
    """A random action, choosing first the kind/space uniformly (so that the
    many crew variants of one space do not drown the others) and not passing
    while something else is possible: games then often reach the end."""
    groups: dict[tuple[str, str | None], list[Action]] = defaultdict(list)
    for a in st.legal_actions():
        groups[(a.kind, a.space)].append(a)
    keys = list(groups)
    if len(keys) > 1 and ("pass", None) in groups:
        keys.remove(("pass", None))
    return rnd.choice(groups[rnd.choice(keys)])


def play(players: int, seed: int, options: dict[str, Any], biased: bool = True) -> State:
    st = game.new_game(players, seed, options)
    totals = [0] * players
    for e in st.setup_events:
        if isinstance(e, ScoreChanged):
            totals[e.seat] += e.delta
    rnd = random.Random(seed)
    for _ in range(20_000):
        if st.is_over:
            break
        legal = st.legal_actions()
        assert legal, "no legal action in a running game"
        assert st.current_player is not None
        a = pick(st, rnd) if biased else rnd.choice(legal)
        for e in st.apply(a):
            if isinstance(e, ScoreChanged):
                totals[e.seat] += e.delta
    assert st.is_over
    assert st.current_player is None
    assert st.legal_actions() == []
    assert totals == st.scores(), "the ScoreChanged deltas must add up to the scores"
    assert sorted(st.ranking()) == list(range(players))
    return st


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_base_games_end(players: int, seed: int) -> None:
    play(players, seed, {})
    play(players, seed, {}, biased=False)


@pytest.mark.parametrize("scenario", ["lost-expedition", "magnetic-north-pole"])
@pytest.mark.parametrize("seed", range(8))
def test_solo_scenarios_end(scenario: str, seed: int) -> None:
    st = play(1, seed, {"scenario": scenario})
    assert st.won in (True, False)
    assert st.outcome in ("won", "lost")


OPTION_SETS = [
    {"modes": list(m), "upgrades": u, "extra_events": x}
    for r in range(len(MODES) + 1)
    for m in itertools.combinations(MODES, r)
    for u in ("base", "all")
    for x in (False, True)
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: str(o))
def test_every_option_combination(options: dict[str, Any]) -> None:
    for players in (2, 3, 4):
        play(players, 7 * players + len(options["modes"]), options)


@pytest.mark.parametrize(
    "reading",
    [{"towing_pp": "per_fuel"}, {"helm_tie": "include_leader"}, {"passing": "forced"}],
)
def test_reading_options(reading: dict[str, str]) -> None:
    for players in (2, 4):
        for seed in range(3):
            play(players, seed, reading)


def test_some_games_complete_the_passage() -> None:
    finished = 0
    for seed in range(30):
        st = play(3, seed, {})
        finished += st.outcome == "finished"
    assert finished > 0


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (1, {}, "scenario"),
        (2, {"scenario": "lost-expedition"}, "1 player"),
        (2, {"colour": "red"}, "unknown option"),
        (2, {"modes": ["walking"]}, "unknown mode"),
        (2, {"upgrades": "some"}, "upgrades"),
        (2, {"extra_events": "yes"}, "extra_events"),
        (5, {}, "1–4 players"),
    ],
)
def test_bad_options_are_refused(players: int, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game.new_game(players, 1, options)


def test_module_shape() -> None:
    assert game.NAME == "iceandsnow"
    assert game.TITLE == "Through Ice and Snow"
    assert game.PLAYERS == (1, 2, 3, 4)
    assert game.determinize == State.from_view
    st = game.new_game(2, 3)
    assert st.game == "iceandsnow"
    assert isinstance(game.heuristic(st, 0), float)
