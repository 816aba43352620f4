"""Whole random games with Legendary Expeditions (alone, with Inuit Myths, with
Walking on Ice), every invariant of ``test_invariants.py`` checked after every
action (Walking on Ice's too, ``test_module_walking_games.py``), plus:

* the explorer cards: each set in one place (a seat, a dealt pair, the box); a
  dealt pair only while its seat's ``explorer`` decision waits; every set in play
  at most once;
* the explorer events: those of the sets in play are in the game's card set (in a
  deck, the discards, this round's event or kept by a seat), the others nowhere;
  both decks keep the base size at set-up;
* a view never shows another seat's dealt pair nor the box;
* event 51's set-aside sailor: there while nobody has taken it;
* every sailor gained is told by a ``SailorGained``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from erebus.games.iceandsnow import legends
from erebus.games.iceandsnow.layout import SLED, F
from iceandsnow.legendskit import MODULE, legends_on  # noqa: F401
from iceandsnow.test_invariants import Checker, pick
from iceandsnow.test_module_walking_games import WalkingChecker
from support.whole_game import fuzz_settings


class LegendsMixin:
    """The module's invariants on top of a checker (see the module docstring)."""

    st: Any

    def check_state(self) -> None:
        st = self.st
        in_play = [k for k in st.explorer if k]
        assert len(set(in_play)) == len(in_play), "a set in play twice"
        dealt = [k for pair in st.ex_dealt for k in pair]
        assert sorted([*in_play, *dealt, *st.ex_box]) == sorted(legends.sets())
        pending = {int(d[1]) for d in st.decisions if d[0] == "explorer"}
        for s in range(st.n):
            assert bool(st.ex_dealt[s]) == (s in pending), "a dealt pair without its choice"
            assert bool(st.explorer[s]) != (s in pending)
        rescuing = any(
            op.op == "rescue_sailor"
            for k in in_play
            for op in st.content.events[int(legends.sets()[k]["event"])].effect.take
        )
        assert st.ex_sailor in ((0, 1) if rescuing else (0,))
        super().check_state()  # type: ignore[misc]


class LegendsChecker(LegendsMixin, Checker):
    def check_views(self, determinize: bool) -> None:
        super().check_views(determinize)
        st = self.st
        for seat in [*range(st.n), None]:
            v = st.view(seat)
            assert v["ex_box"] == [], "a view shows the boxed explorers"
            for s, pair in enumerate(v["ex_dealt"]):
                if s != seat:
                    assert pair == [], f"view({seat}) shows seat {s}'s dealt explorers"


class LegendsWalkingChecker(LegendsChecker, WalkingChecker):
    """Walking on Ice's invariants too.  Franklin's maintenance may stand 1 above his
    sled level: the walking checker's bound is checked against his sled + 1 (his
    sled level is raised for the check and put back; the legal actions are
    recomputed afterwards)."""

    def check_state(self) -> None:
        st = self.st
        seat = legends.holder(st, "long_voyage")
        over = legends.maintenance_over_sled(st, seat) if seat is not None else 0
        if not over or not st.abandoned:
            super().check_state()
            return
        assert seat is not None
        assert 1 <= st.maint[seat] <= max(1, st.p(seat, SLED) + over)
        st.legal_actions()  # cached before the change: the rules see the real sled
        st.pv[F * seat + SLED] += over
        try:
            super().check_state()
        finally:
            st.pv[F * seat + SLED] -= over
            st._legal = None


def run(players: int, seed: int, options: dict[str, Any], policy_seed: int) -> Any:
    walking = "walking_on_ice" in options["modules"]
    klass = LegendsWalkingChecker if walking else LegendsChecker
    ch = klass(players, seed, options)
    rnd = random.Random(policy_seed)
    i = 0
    while not ch.st.is_over and i < 4000:
        ch.check_views(determinize=i % 5 == 0)
        ch.step(pick(ch.st, rnd), illegal=i % 3 == 0)
        i += 1
    ch.check_views(determinize=False)
    ch.check_replay()
    return ch


@hs.composite
def legends_args(draw: Any) -> tuple[int, int, dict[str, Any], int]:
    players = draw(hs.integers(2, 4))
    extra = draw(
        hs.sampled_from(
            ((), ("inuit_myths",), ("walking_on_ice",), ("inuit_myths", "walking_on_ice"))
        )
    )
    options: dict[str, Any] = {"modules": [MODULE, *extra]}
    options["modes"] = [m for m in ("survival", "shelters", "dual_species") if draw(hs.booleans())]
    options["upgrades"] = draw(hs.sampled_from(("base", "all")))
    if draw(hs.booleans()):
        options["explorers"] = draw(hs.permutations(list("ABCDEFGHIJ")))[:players]
    else:
        options["explorers"] = "random"
    return players, draw(hs.integers(0, 2**32)), options, draw(hs.integers(0, 2**16))


@fuzz_settings(examples=25)
@given(args=legends_args())
def test_random_games_with_the_module_keep_every_invariant(
    args: tuple[int, int, dict[str, Any], int],
) -> None:
    run(*args)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"modules": [MODULE]}),
        (3, {"modules": [MODULE, "inuit_myths"], "explorers": ["A", "B", "I"]}),
        (4, {"modules": [MODULE, "walking_on_ice"], "explorers": ["D", "E", "F", "G"]}),
        (4, {"modules": [MODULE, "walking_on_ice"], "explorers": ["A", "B", "C", "H"]}),
        (1, {"modules": [MODULE], "scenario": "lost-expedition"}),
        (1, {"modules": [MODULE, "inuit_myths"], "scenario": "magnetic-north-pole"}),
    ],
    ids=["2p", "3p-myths", "4p-walk", "4p-walk-franklin", "le", "mnp"],
)
def test_seeded_games_with_the_module_keep_every_invariant(
    players: int, options: dict[str, Any]
) -> None:
    for seed in range(2):
        run(players, 500 + seed, {"explorers": "random", **options}, seed)


def test_kellett_known_card_with_dual_species_in_a_determinization() -> None:
    """A game the fuzzing found: Kellett's known hunting card had been cut into the box
    by a determinization, and putting it back on top boxed a dual species card."""
    options = {"modules": [MODULE], "modes": ["dual_species"], "explorers": "random"}
    run(3, 3593, {**options, "upgrades": "base"}, 4394)


def test_random_games_reach_the_explorer_events_and_abilities() -> None:
    """The whole-game tests really reach the module's rules."""
    seen: set[str] = set()
    for seed in range(12):
        n = 2 + seed % 3
        letters = list("ABCDEFGHIJ")
        random.Random(seed).shuffle(letters)
        st = legends_game(n, seed, letters[:n])
        rnd = random.Random(seed)
        while not st.is_over:
            a = pick(st, rnd)
            if a.kind == "benevolent" and a.use:
                seen.add("benevolent")
            if a.kind == "take" and a.slot is not None:
                seen.add("slot")
            for e in st.apply(a):
                name = type(e).__name__
                if name == "EventRevealed" and e.number in legends.event_numbers():
                    seen.add(str(e.number))
                if name == "SailorGained":
                    seen.add("sailor")
    assert {"benevolent", "slot"} <= seen
    assert len({s for s in seen if s.isdigit()}) >= 6, seen


def legends_game(players: int, seed: int, explorers: list[str]) -> Any:
    from erebus.games import iceandsnow as game

    return game.new_game(players, seed, {"modules": [MODULE], "explorers": explorers})


# ------------------------------------------------------------------ bots


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {"modules": [MODULE]}),
        (2, {"modules": [MODULE, "walking_on_ice"], "explorers": ["A", "I"]}),
        (4, {"modules": [MODULE, "inuit_myths"], "explorers": ["B", "E", "F", "D"]}),
        (1, {"modules": [MODULE], "scenario": "lost-expedition"}),
    ],
    ids=["3p", "2p-walk", "4p-myths", "le"],
)
def test_every_bot_plays_whole_games_with_the_module(players: int, options: dict[str, Any]) -> None:
    from erebus.bots import make_bot
    from erebus.games import iceandsnow as game
    from support.bots import play_legal

    names = ["mcts", "greedy", "random", "greedy"]
    state = game.new_game(players, seed=players, options=options)
    play_legal(state, [make_bot(names[i], seed=i, iterations=8) for i in range(players)])
    assert state.is_over


def test_bots_do_not_see_the_other_dealt_explorers() -> None:
    """Seat 1 chooses its explorer: the other pairs and the box dealt anew, same choice."""
    from erebus.games import iceandsnow as game
    from support.bots import assert_same_choice

    state = game.new_game(3, 4, {"modules": [MODULE]})
    state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat == 1 and state.pending == "explorer"
    other = state.clone()
    other.resample_hidden(987654321, seat=seat)
    assert other.ex_dealt[1] == state.ex_dealt[1]
    assert other.ex_dealt[2] != state.ex_dealt[2] or other.ex_box != state.ex_box
    assert state.view(seat) == other.view(seat)
    for name in ("greedy", "mcts"):
        assert_same_choice(name, state, other)
