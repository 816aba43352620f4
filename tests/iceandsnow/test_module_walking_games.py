"""Whole random games with Walking on Ice (alone and with Inuit Myths), every
invariant of ``test_invariants.py`` checked after every action, plus:

* maintenance and guilt change only with a ``TrackChanged`` of that track; guilt
  only rises; maintenance stays within 1 and the sled level once the ships are
  abandoned (0 before);
* food cans: 0 before abandoning; afterwards the cans held plus the cans in the
  box are the module's 20; every change is a ``ResourceChanged``;
* food never above the maintenance level's cap, cargo never above its spaces
  once the queued cargo decisions are answered;
* walking events 29–36: beside the table until the ships are abandoned, then in
  the deck, the discards, this round's event or (36) with its holder; the deck's
  order never in a view;
* after abandonment no ship action is legal: no abandon decision, no coastal or
  open voyage, none of the spaces the tiles cover; before it no tile and no
  walking route.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as hs

from erebus.games.iceandsnow import walking_rules as wr
from erebus.games.iceandsnow.events import ResourceChanged, TrackChanged
from erebus.games.iceandsnow.layout import CANS, FOOD, FUEL, SLED
from iceandsnow.test_invariants import Checker, pick
from iceandsnow.walkkit import WALK
from support.whole_game import fuzz_settings

COVERED = {"visit_inuit", "experiment", "recycle_wood", "document_methods", "vow_carpenter"}
TILES = {"revisit_inuit", "tin_refining", "sled_maintenance", "document_sled", "vow_dogs"}


class WalkingChecker(Checker):
    """:class:`Checker` plus the invariants of the module (see the module docstring)."""

    def explain(self, pv0: list[int], events: list[Any], held0: list[int] | None = None) -> None:
        st = self.st
        sled = [
            e for e in events if isinstance(e, TrackChanged) and e.track in ("maintenance", "guilt")
        ]
        rest = [e for e in events if e not in sled]
        for e in sled:
            model = self.maint0 if e.track == "maintenance" else self.guilt0
            assert model[e.seat] == e.old, f"{e}: the track was at {model[e.seat]}"
            if e.track == "guilt":
                assert e.new > e.old, "guilt only rises"
            model[e.seat] = e.new
        assert self.maint0 == st.maint and self.guilt0 == st.guilt, "sled tracks without events"
        cans = Counter[int]()
        for e in rest:
            if isinstance(e, ResourceChanged) and e.resource == "cans":
                cans[e.seat] += e.delta
        for s in range(st.n):
            assert pv0[CANS + 40 * s] + cans[s] == st.p(s, CANS)
        super().explain(pv0, rest, held0)

    def check_state(self) -> None:
        super().check_state()
        st = self.st
        if not hasattr(self, "maint0"):
            self.maint0, self.guilt0 = st.maint[:], st.guilt[:]
        w = wr.data(st)
        legal = st.legal_actions()
        walking_events = sorted(w.events)
        if not st.abandoned:
            assert st.maint == [0] * st.n and st.guilt == [0] * st.n and st.sick == [0] * st.n
            assert all(st.p(s, CANS) == 0 for s in range(st.n))
            assert st.walk_deck == [] and st.walk_disc == []
            assert not any(a.kind == "take" and a.space in TILES for a in legal)
            if st.pending == "destination":
                closed = st.tables.walking_routes
                assert not any((st.fleet, a.to) in closed for a in legal)
            return
        # abandoned
        self.seen_abandoned = True
        assert sum(st.p(s, CANS) for s in range(st.n)) + wr.cans_in_box(st) == int(w.cans["box"])
        assert wr.cans_in_box(st) >= 0
        for s in range(st.n):
            assert 1 <= st.maint[s] <= max(1, min(st.p(s, SLED), w.max_maintenance))
            assert st.p(s, FOOD) <= wr.food_cap(st, s)
            assert st.p(s, FUEL) == 0
            if not any(d[0] == "cargo" and d[1] == s for d in st.decisions) and not st.is_over:
                assert wr.over_cargo(st, s) == 0 or st.decisions, f"seat {s} over its cargo"
            assert len(st.upgrades[s]) <= 3 or any(d[0] == "drop_upgrade" for d in st.decisions)
        for a in legal:
            assert a.kind != "abandon"
            assert not (a.kind == "voyage" and a.voyage in ("coastal", "open"))
            assert not (a.kind == "take" and a.space in COVERED)
        where = st.walk_deck + st.walk_disc
        if st.event is not None and st.event in w.events:
            where.append(st.event)
        held = sum(1 for c in st.customs if c == 2)
        if held and st.event != 36:
            where.append(36)
        assert sorted(where) == walking_events, "walking events not conserved"
        assert st.ev_open == [] and st.ev_coastal == []

    def check_views(self, determinize: bool) -> None:
        super().check_views(determinize)
        for seat in [*range(self.st.n), None]:
            v = self.st.view(seat)
            assert isinstance(v["walk_deck"], int), "a view shows the walking deck's order"


def run(players: int, seed: int, options: dict[str, Any], policy_seed: int, abandon: float) -> Any:
    ch = WalkingChecker(players, seed, options)
    rnd = random.Random(policy_seed)
    i = 0
    while not ch.st.is_over and i < 4000:
        ch.check_views(determinize=i % 5 == 0)
        st = ch.st
        if st.pending == "abandon":
            yes = rnd.random() < abandon
            a = next(x for x in st.legal_actions() if x.use is yes)
        else:
            a = pick(st, rnd)
        ch.step(a, illegal=i % 3 == 0)
        i += 1
    ch.check_views(determinize=False)
    ch.check_replay()
    return ch


@hs.composite
def walking_args(draw: Any) -> tuple[int, int, dict[str, Any], int, float]:
    players = draw(hs.integers(2, 4))
    modules = ["walking_on_ice"] + (["inuit_myths"] if draw(hs.booleans()) else [])
    options: dict[str, Any] = {"modules": modules}
    options["modes"] = [m for m in ("survival", "shelters", "dual_species") if draw(hs.booleans())]
    options["upgrades"] = draw(hs.sampled_from(("base", "all")))
    if draw(hs.booleans()):
        options["towing_pp"] = draw(hs.sampled_from(("per_player", "per_fuel")))
    return (
        players,
        draw(hs.integers(0, 2**32)),
        options,
        draw(hs.integers(0, 2**16)),
        draw(hs.sampled_from((0.3, 0.7, 1.0))),
    )


@fuzz_settings(examples=25)
@given(args=walking_args())
def test_random_walking_games_keep_every_invariant(
    args: tuple[int, int, dict[str, Any], int, float],
) -> None:
    run(*args)


def test_seeded_walking_games_abandon_and_finish() -> None:
    """Fixed seeds that abandon the ships voluntarily, are forced to, and end the game."""
    outcomes = Counter()
    abandoned = 0
    for seed in range(6):
        ch = run(2 + seed % 3, seed, dict(WALK), seed, 0.5)
        abandoned += bool(ch.st.abandoned)
        outcomes[ch.st.outcome] += 1
    assert abandoned >= 3
    assert sum(outcomes.values()) == 6


def test_every_bot_plays_walking_games() -> None:
    """Greedy, random and search bots play whole walking games with legal actions
    (search determinizes the walking deck: ``view`` hides its order)."""
    from erebus.bots import make_bot
    from erebus.games import iceandsnow as game
    from support.bots import play_legal

    for players, options in (
        (2, dict(WALK)),
        (3, {**WALK, "modules": ["walking_on_ice", "inuit_myths"]}),
    ):
        state = game.new_game(players, seed=players, options=options)
        bots = [
            make_bot(n, seed=i, iterations=8) for i, n in enumerate(("greedy", "mcts", "random"))
        ]
        play_legal(state, bots[:players])
