"""Whole random games of Through Ice and Snow, with every invariant checked after every action.

Hypothesis draws the player count (1 with each solo scenario, or 2–4), a random
combination of the modes (Survival, Build Shelters, Dual Species), the upgrade
set, the optional events and the reading options of ``docs/iceandsnow-decisions.md``,
the game seed and the policy seed.  The policy (:func:`pick`) chooses first a
kind/space uniformly and rarely passes, so games are long: they reach the final
voyage, fill warehouses, build cabins and shelters, run out of fuel and tow.

:class:`Checker` lists what is checked around every action:

* every change of a seat's PP, tracks (food, health, morale, fuel, sled, Inuit,
  towing) and resources (dynamite, wood, rifles, dogs) is explained by the
  events returned (``ScoreChanged``, ``TrackChanged``, ``ResourceChanged``,
  ``DynamitePlaced``); the warehouse boxes change only as the action says
  (Survival deposit, Exchange, Collect);
* pawns: officers one each, placed + infirmary never exceed owned, sailors only
  decrease and only with a ``CrewLost``, Inuit pawns never lost, the Inuit pool
  plus the players' Inuit is 15, rescued sailors only appear once (4);
* cards: decks + revealed + discards + held + box = the card set, for hunting,
  species, event, compass, search, investor and cartography cards;
* scores are the sum of the ``ScoreChanged`` deltas (setup included); solo play
  never gains PP and PP ≤ 0 loses;
* JSON round trip (equal state, equal legal actions), views (no seed, no RNG,
  no deck order, no other seat's cartography/options/unrevealed investor, no
  Mast cards of another seat) and determinization (same legal actions, same
  view); illegal actions (mutations of legal ones, malformed JSON) are refused
  with ``IllegalAction`` and leave the state untouched; ``legal_actions`` is
  never empty while the game runs and ``current_player`` is ``None`` iff over;
* at the end, replaying the action log from the seed gives an equal state.

The tests at the end are minimal reproducers of engine bugs found this way,
kept as regression tests (a new bug: add its reproducer as
``xfail(strict=True)`` until the engine is fixed).

Set ``EREBUS_FUZZ=1`` for a ten times longer, randomised (not derandomised) run.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter, defaultdict
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from erebus.core.errors import IllegalAction
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import kit, legends
from erebus.games.iceandsnow.action_phase import column_index
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import CREW_KINDS, RESOURCES
from erebus.games.iceandsnow.events import (
    CardTaken,
    CrewLost,
    DynamitePlaced,
    GameOver,
    ResourceChanged,
    SailorGained,
    ScenarioProgress,
    ScoreChanged,
    TrackChanged,
)
from erebus.games.iceandsnow.layout import (
    FOOD,
    FUEL,
    HEALTH,
    HIRED,
    INF,
    INUIT,
    MORALE,
    PAWNS,
    PP,
    RES,
    RESCUED,
    SAILORS,
    SLED,
    TOW,
    USED,
    F,
)
from erebus.games.iceandsnow.layout import (
    INTERPRETER as CARD17,
)
from erebus.games.iceandsnow.layout import (
    MAP_OPEN_SEA as CARD9,
)
from erebus.games.iceandsnow.state import POLE, State
from support.whole_game import fuzz_settings

TRACK_INDEX = {
    "food": FOOD,
    "health": HEALTH,
    "morale": MORALE,
    "fuel": FUEL,
    "sled": SLED,
    "inuit": INUIT,
    "towing": TOW,
}
MODES = ("survival", "shelters", "dual_species")
SCENARIOS = ("lost-expedition", "magnetic-north-pole")
MAP_KEYS = ("mapped", "priority", "fleet", "prev_fleet", "dest", "dyn_anchors", "cabins_at")
MAP_KEYS += ("shelters_at", "reason", "discovered")
HIDDEN_VIEW_KEYS = ("sp_deck", "hu_deck", "ev_open", "ev_coastal", "compass", "search")


# ------------------------------------------------------------------------ policy


def pick(st: State, rnd: random.Random, pass_chance: float = 0.03) -> Action:
    """A random legal action: first a (kind, space) group uniformly, then an action
    of it; ``pass`` only with a small chance while something else is possible."""
    groups: dict[tuple[str, str | None], list[Action]] = defaultdict(list)
    for a in st.legal_actions():
        groups[(a.kind, a.space)].append(a)
    keys = list(groups)
    if len(keys) > 1 and ("pass", None) in groups and rnd.random() >= pass_chance:
        keys.remove(("pass", None))
    return rnd.choice(groups[rnd.choice(keys)])


# ------------------------------------------------------------------ card sets


def expected_cards(st: State) -> dict[str, Counter[Any]]:
    """The card set of this game, by family."""
    c = st.content
    opts = st.options
    hunting = sorted(c.hunting)
    if opts["upgrades"] == "all":
        hunting += sorted(c.whales)
    if "dual_species" in opts["modes"]:
        hunting += sorted(c.dual)
    scen = st.scen()
    if scen.get("decks"):
        events = [int(x) for x in scen["decks"]["open"] + scen["decks"]["coastal"]]
    elif st.scenario == "amundsens-voyage":  # every base card (some boxed), #53 and #55
        added = [int(x) for x in scen["coastal_deck"]["add"]]
        events = [
            e.number
            for e in c.events.values()
            if not e.optional and (e.number <= 28 or e.number in added)
        ]
    else:
        # Walking on Ice's deck is checked by test_module_walking_games.py
        events = [
            e.number
            for e in c.events.values()
            if (opts["extra_events"] or not e.optional) and e.deck != "walking"
        ]
    if st.explorer:  # Legendary Expeditions: the explorer events of the sets in play only
        ours = [int(legends.sets()[k]["event"]) for k in st.explorer if k]
        events = [e for e in events if e not in legends.event_numbers()] + ours
    out: dict[str, Counter[Any]] = {
        "hunting": Counter(hunting),
        "species": Counter(
            sorted(c.species) if scen.get("species_deck", True) is not False else []
        ),
        "events": Counter(events),
    }
    if st.scenario == "magnetic-north-pole":
        compass: list[str] = []
        for d, k in scen["compass"].items():
            compass += [d] * int(k)
        out["compass"] = Counter([*compass, POLE])
    if st.scenario == "lost-expedition":
        out["search"] = Counter(s["id"] for s in scen["search_cards"])
    if "inuit_myths" in opts["modules"]:
        out["creatures"] = Counter(sorted(c.creatures))
    if st.scenario == "mysterious-epidemic":
        out["diseases"] = Counter(d["id"] for d in scen["diseases"])
        out["treatments"] = Counter(t["id"] for t in scen["treatments"])
    return out


def card_locations(st: State) -> dict[str, Counter[Any]]:
    """Where every card is now, by family (discovered dual cards are back in the
    box, §6.3)."""
    species = st.sp_deck + st.sp_disc + st.sp_eaten + st.sp_rev
    for hand in st.species:
        species += hand
    if st.event_draw is not None:
        species.append(st.event_draw)
    events = st.ev_open + st.ev_coastal + st.ev_open_disc + st.ev_coastal_disc + st.ev_box
    if st.event is not None and st.content.events[st.event].deck != "walking":
        events.append(st.event)
    for num, field in ((9, CARD9), (17, CARD17)):
        held = sum(st.p(s, field) for s in range(st.n))
        assert held <= 1, f"event card {num} held by {held} seats"
        # between Boarding (card given) and Cleanup (card not discarded) it is both
        if held and st.event != num:
            events.append(num)
    if st.explorer:  # Legendary Expeditions: kept explorer events, by their powers
        for s in range(st.n):
            for power in {*st.ex_held[s], *st.ex_due[s]}:
                num = st.tables.powers[power][0]
                if st.event != num:
                    events.append(num)
    out: dict[str, Counter[Any]] = {
        "hunting": Counter(st.hu_deck + st.hu_disc + st.hu_box + st.hu_rev),
        "species": Counter(species),
        "events": Counter(events),
    }
    if st.scenario == "magnetic-north-pole":
        compass = st.compass + st.compass_disc
        if st.pole_dir is not None or st.pole_found:
            compass.append(POLE)  # on the table: revealed, or the pole discovered
        out["compass"] = Counter(compass)
    if st.scenario == "lost-expedition":
        out["search"] = Counter(st.search + st.search_rev)
    if st.curse:  # Inuit Myths: deck, in play, box
        out["creatures"] = Counter(st.cr_deck + st.cr_active + st.cr_box)
    if st.scenario == "mysterious-epidemic":  # deck, discards, beside the board, being drawn
        drawn = [str(d[2]) for d in st.decisions if d[0] == "fall_ill"]
        ill = [str(e[0]) for e in st.ep_ill]
        out["diseases"] = Counter(st.ep_dis_deck + st.ep_dis_disc + ill + drawn)
        out["treatments"] = Counter(st.ep_tr_deck + st.ep_tr_disc + st.ep_treat)
    return out


def held(st: State, seat: int) -> int:
    """Inuit pawns of ``seat`` held on an Inuit Myths creature card (owned, not on the ship)."""
    return st.held_inuit[seat] if st.held_inuit else 0


# ---------------------------------------------------------------------- checker


def _junk_actions() -> list[Any]:
    return [
        None,
        "pass",
        [],
        7,
        {},
        {"type": "fly"},
        {"type": "take"},
        {"type": "take", "space": "hunt", "crew": {"captain": -1}},
        {"type": "take", "space": "hunt", "crew": {"admiral": 1}},
        {"type": "take", "space": "", "crew": {}},
        {"type": "pass", "extra": 1},
        {"type": "destination", "to": 5},
        {"type": "destination"},
        {"type": "voyage", "voyage": "air"},
        {"type": "section", "side": "C"},
        {"type": "boiler", "use": "yes"},
        {"type": "discard", "resource": "gold"},
        {"type": "eat", "card": None},
        {"type": "take", "space": "build_cabin", "crew": {"carpenter": 1}, "food": -3},
        {"type": "take", "space": "collect_captain", "crew": {}, "take": {"gold": 1}},
    ]


JUNK = _junk_actions()


def mutations(a: Action, st: State, rnd: random.Random) -> list[Action]:
    """Near misses of a legal action: other crew, card, space, target, numbers."""
    out: list[Action] = []
    if a.crew is not None:
        i = rnd.randrange(5)
        more = list(a.crew)
        more[i] += 1
        out.append(a._replace(crew=tuple(more)))
        out.append(a._replace(crew=(0, 0, 0, 0, 0)))
        out.append(a._replace(crew=(9, 9, 9, 9, 9)))
    if a.card is not None:
        out.append(a._replace(card=rnd.choice(["nope", "musk_ox_1", "whale_minke_1", "7"])))
    if a.space is not None:
        out.append(a._replace(space=rnd.choice([sp.id for sp in st.tables.spaces])))
        out.append(a._replace(space="build_shelter"))
        out.append(a._replace(space="event"))
    if a.to is not None:
        out.append(a._replace(to=rnd.choice(sorted(st.tables.anchors))))
    if a.food is not None:
        out.append(a._replace(food=a.food + 61))
    if a.tile is not None:
        out.append(a._replace(tile=a.tile + 1))
    if a.take is not None:
        out.append(a._replace(take=(9, 0, 0, 0)))
    if a.kind == "take":
        out.append(a._replace(deposit=rnd.choice(RESOURCES)))
        out.append(a._replace(deposit=None))
    out.append(Action("pass"))
    out.append(Action("voyage", voyage=rnd.choice(["open", "coastal"])))
    out.append(Action("section", side=rnd.choice(["A", "B"])))
    out.append(Action("compass", to=None))
    out.append(Action("boiler", use=True))
    return out


class Checker:
    """The invariants of one game, checked around every action."""

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self.players = players
        self.seed = seed
        self.options = options
        self.st = game.new_game(players, seed, options)
        self.log: list[dict[str, Any]] = []
        self.totals = [0] * players
        self.expected = expected_cards(self.st)
        self.rnd = random.Random(seed * 7 + 1)
        for e in self.st.setup_events:
            if isinstance(e, ScoreChanged):
                self.totals[e.seat] += e.delta
        self.check_state()

    # -- the whole state ------------------------------------------------------------

    def check_state(self) -> None:
        st = self.st
        n = st.n
        c = st.content
        assert (st.current_player is None) == st.is_over
        legal = st.legal_actions()
        if st.is_over:
            assert legal == []
            assert st.outcome in ("won", "lost", "finished")
        else:
            assert legal, f"no legal action in a running game ({st.pending})"
            assert len(set(legal)) == len(legal), "duplicate legal actions"
        assert self.totals == st.scores(), "ScoreChanged deltas must add up to the scores"
        assert sorted(st.ranking()) == list(range(n))
        # pawns
        limit = int(st.rules["limits"]["inuit"])
        inuit = 0
        for s in range(n):
            owned = st.owned_crew(s)
            assert owned[:3] == (1, 1, 1), "each seat has exactly one of each officer"
            avail = st.avail_crew(s)
            for k in range(5):
                used, inf = st.p(s, USED + k), st.p(s, INF + k)
                assert used >= 0 and inf >= 0
                sick = st.sick[s] if st.sick and k == 3 else 0  # Walking on Ice's event 32
                if st.scenario == "mysterious-epidemic":  # crew on disease cards
                    sick = st.ill_crew(s)[k]
                assert used + inf + avail[k] + sick == owned[k]
                assert avail[k] >= 0, f"seat {s}: more {CREW_KINDS[k]} placed than owned"
            assert st.p(s, PAWNS) + st.p(s, HIRED) + held(st, s) == st.p(s, INUIT)
            inuit += st.p(s, PAWNS) + st.p(s, HIRED) + held(st, s)
            assert st.p(s, RESCUED) in (0, int(st.scen().get("rescued_sailors", 4)))
            # bounds of the tracks and resources
            assert 0 <= st.p(s, FOOD) <= st.tables.food_max
            assert 1 <= st.p(s, HEALTH) <= c.health.max
            assert 1 <= st.p(s, MORALE) <= c.morale.max
            assert 0 <= st.p(s, FUEL) <= int(c.tracks["fuel"]["max"])
            assert 0 <= st.p(s, SLED) <= int(c.tracks["sled"]["max"])
            for r, idx in RES.items():
                assert st.p(s, idx) >= 0, f"seat {s}: negative {r}"
            assert st.p(s, RES["dogs"]) <= int(c.tracks["dogs"]["spaces"])
            assert len(set(st.upgrades[s])) == len(st.upgrades[s])
        if st.scenario == "mysterious-epidemic":  # Inuk pawns waiting on the map
            inuit += len(st.ep_inuit)
        assert st.inuit_pool >= 0 and st.inuit_pool + inuit == limit
        assert all(b >= 0 for b in st.boxes)
        # cards
        if st.explorer:  # the explorer events join the game as the sets are chosen
            self.expected["events"] = expected_cards(st)["events"]
        where = card_locations(st)
        for family, cards in self.expected.items():
            assert where[family] == cards, f"{family} cards not conserved"
        if st.scenario is None:
            assert sorted(st.inv_pool + [x for o in st.inv_opts for x in o]) == sorted(c.investors)
            assert sorted(st.carto_pool + [x for o in st.carto_opts for x in o]) == sorted(
                c.cartography
            )
            for s in range(n):
                assert st.investor[s] is None or st.investor[s] in st.inv_opts[s]
                assert st.carto[s] is None or st.carto[s] in st.carto_opts[s]
            assert st.carto_tokens + len(st.mapped) == int(st.rules["limits"]["cartography_tokens"])
        elif st.scenario == "lost-expedition":
            assert len(st.carto_pool) == len(c.cartography) - 1
            assert len(st.priority) == 3
        if st.scenario is not None:
            assert st.options["modes"][0] == "survival"
            assert st.scores()[0] > 0 or st.is_over, "PP ≤ 0 must end a solo game"
            if st.scores()[0] <= 0:
                assert st.outcome == "lost"
        self.check_json()

    def check_json(self) -> None:
        st = self.st
        d = st.to_json()
        text = json.dumps(d)
        back = State.from_json(json.loads(text))
        assert back == st
        assert back.to_json() == d
        assert back.legal_actions() == st.legal_actions()
        assert back.current_player == st.current_player

    # -- views ----------------------------------------------------------------------

    def check_views(self, determinize: bool) -> None:
        st = self.st
        n = st.n
        for seat in [*range(n), None]:
            v = st.view(seat)
            assert "seed" not in v and "rng" not in v
            for k in HIDDEN_VIEW_KEYS + (("cr_deck",) if st.curse else ()):
                assert isinstance(v[k], int), f"view shows the order of {k}"
            for k, pool in v["pools"].items():
                if isinstance(pool, list):
                    assert pool == sorted(pool), f"view pool {k} is not sorted"
            # only the discovered dual cards are known to be in the box (§6.3)
            assert v["hu_box"] == [x for x in st.hu_box if x in st.content.dual], "view: box"
            assert v["ev_box"] == []
            text = json.dumps(v)
            # map fields hold region / anchor names; one region shares its id
            # with an investor ("admiralty"), so they are left out of the search
            cards_text = json.dumps({k: x for k, x in v.items() if k not in MAP_KEYS})
            hidden: set[str] = set(st.carto_pool) | set(st.inv_pool)
            for o in range(n):
                if o == seat:
                    continue
                hidden |= set(st.carto_opts[o])
                if st.carto[o] is not None:
                    hidden.add(st.carto[o])
                opts = set(st.inv_opts[o])
                if st.revealed and st.investor[o] is not None:
                    opts.discard(st.investor[o])
                elif st.investor[o] is not None:
                    opts.add(st.investor[o])
                hidden |= opts
            if seat is not None:
                hidden -= set(st.carto_opts[seat]) | set(st.inv_opts[seat])
            if st.revealed:
                hidden -= {x for x in st.investor if x is not None}
            for card in hidden:
                assert json.dumps(card) not in cards_text, f"view({seat}) shows hidden card {card}"
            for dd in v["decisions"]:
                if dd[0] == "mast" and dd[1] != seat:
                    assert dd[2] is None and dd[3] is None
            if seat != st.leader:
                assert v["event_pending"] is None
            if determinize and (seat == st.current_player or (seat is not None and n > 1)):
                world = game.determinize(json.loads(text), 1234 + len(self.log))
                assert world.view(seat) == v, f"determinize(view({seat})) changes the view"
                if seat == st.current_player:
                    assert world.current_player == st.current_player
                    assert world.legal_actions() == st.legal_actions()

    # -- one action -----------------------------------------------------------------

    def check_illegal(self, legal: list[Action]) -> None:
        st = self.st
        before = st.to_json()
        tries: list[Any] = [self.rnd.choice(JUNK), self.rnd.choice(JUNK)]
        a = self.rnd.choice(legal)
        muts = mutations(a, st, self.rnd)
        tries += self.rnd.sample(muts, min(3, len(muts)))
        legal_set = set(legal)
        for bad in tries:
            if isinstance(bad, Action) and bad in legal_set:
                continue
            with pytest.raises(IllegalAction) as info:
                st.apply(bad)
            assert isinstance(info.value, ValueError)
            assert str(info.value), "an IllegalAction needs a message"
            assert st.to_json() == before, f"refused action {bad!r} changed the state"
        assert st.legal_actions() == legal

    def step(self, a: Action, illegal: bool = True) -> list[Any]:
        st = self.st
        legal = st.legal_actions()
        assert a in legal
        if illegal:
            self.check_illegal(legal)
        pv0 = st.pv[:]
        held0 = [held(st, s) for s in range(st.n)]
        boxes0 = st.boxes[:]
        was_over = st.is_over
        box_delta = self.expected_box_delta(a)
        events = st.apply(a)
        self.log.append(a.to_json())
        assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
        self.explain(pv0, events, held0)
        # an action may end the game before its effect (an Inuit Myths creature's Death cost)
        if not (st.is_over and not was_over):
            assert [b - b0 for b, b0 in zip(st.boxes, boxes0, strict=True)] == box_delta, (
                f"warehouse boxes changed beyond what {a} says"
            )
        for e in events:
            d = e.to_json()
            assert d["type"] == type(e).__name__
            assert isinstance(e.text(), str)
            if isinstance(e, ScoreChanged):
                self.totals[e.seat] += e.delta
                if st.scenario is not None:
                    assert e.delta < 0, "no PP are gained during a solo game"
            if isinstance(e, CardTaken) and e.deck == "dual species":
                assert e.card in st.hu_box, "a discovered dual card goes to the box (§6.3)"
        over_events = [e for e in events if isinstance(e, GameOver)]
        assert len(over_events) == (1 if st.is_over and not was_over else 0)
        self.check_state()
        return events

    def expected_box_delta(self, a: Action) -> list[int]:
        st = self.st
        delta = [0] * len(st.boxes)
        if a.kind != "take" or a.space not in st.tables.space_index:
            return delta
        sp = st.tables.spaces[st.tables.space_index[a.space]]
        ci = column_index(st, sp.column)
        if a.deposit is not None:
            delta[4 * ci + RESOURCES.index(a.deposit)] += 1
        kind = st.scen().get("replaced_spaces", {}).get(a.space, a.space)
        if kind.startswith("exchange"):
            assert a.resource is not None
            delta[4 * ci + RESOURCES.index(a.resource)] += 1
        elif kind.startswith("collect"):
            assert a.take is not None
            for i, k in enumerate(a.take):
                delta[4 * ci + i] -= k
        return delta

    def explain(self, pv0: list[int], events: list[Any], held0: list[int] | None = None) -> None:
        """Every change of a seat's numbers is told by an event."""
        st = self.st
        model = pv0[:]
        lost_sailors = Counter[int]()
        for e in events:
            if isinstance(e, ScoreChanged):
                model[F * e.seat + PP] += e.delta
            elif isinstance(e, TrackChanged):
                idx = F * e.seat + TRACK_INDEX[e.track]
                assert model[idx] == e.old, f"{e}: the track was at {model[idx]}"
                model[idx] = e.new
            elif isinstance(e, ResourceChanged):
                model[F * e.seat + RES[e.resource]] += e.delta
            elif isinstance(e, DynamitePlaced):
                assert e.count > 0
                model[F * e.seat + RES["dynamite"]] -= e.count
            elif isinstance(e, CrewLost):
                assert e.kind == "sailor"
                lost_sailors[e.seat] += 1
            elif isinstance(e, SailorGained):  # Legendary Expeditions' event 51
                lost_sailors[e.seat] -= 1
            elif isinstance(e, ScenarioProgress) and e.what == "the lost expedition is found":
                assert pv0[RESCUED] == 0 and st.p(0, RESCUED) > 0
        fields = {"pp": PP, **TRACK_INDEX, **RES}
        for s in range(st.n):
            for name, idx in fields.items():
                assert st.pv[F * s + idx] == model[F * s + idx], (
                    f"seat {s}: {name} {pv0[F * s + idx]} -> {st.pv[F * s + idx]}, "
                    f"the events say {model[F * s + idx]}"
                )
            sailors0, sailors = pv0[F * s + SAILORS], st.p(s, SAILORS)
            assert sailors0 - sailors == lost_sailors[s], "sailors lost without a CrewLost"
            before = pv0[F * s + PAWNS] + (held0[s] if held0 else 0)
            assert st.p(s, PAWNS) + held(st, s) >= before, "an Inuk pawn was lost"
            assert st.p(s, RESCUED) >= pv0[F * s + RESCUED]

    # -- the end --------------------------------------------------------------------

    def check_replay(self) -> None:
        again = game.replay(self.players, self.seed, self.log, self.options)
        assert again == self.st
        assert again.to_json() == self.st.to_json()
        assert again.legal_actions() == self.st.legal_actions()


def run_game(
    players: int,
    seed: int,
    options: dict[str, Any],
    policy_seed: int,
    view_every: int = 1,
    limit: int = 5000,
) -> Checker:
    ch = Checker(players, seed, options)
    rnd = random.Random(policy_seed)
    i = 0
    while not ch.st.is_over and i < limit:
        ch.check_views(determinize=i % view_every == 0)
        ch.step(pick(ch.st, rnd), illegal=i % 2 == 0)
        i += 1
    ch.check_views(determinize=False)
    ch.check_replay()
    return ch


# ------------------------------------------------------------------- strategies


@hs.composite
def game_args(draw: Any) -> tuple[int, int, dict[str, Any], int]:
    players = draw(hs.integers(1, 4))
    options: dict[str, Any] = {}
    if players == 1:
        options["scenario"] = draw(hs.sampled_from(SCENARIOS))
    else:
        options["modes"] = [m for m in MODES if draw(hs.booleans())]
        options["upgrades"] = draw(hs.sampled_from(("base", "all")))
        options["extra_events"] = draw(hs.booleans())
    if draw(hs.booleans()):
        options["towing_pp"] = draw(hs.sampled_from(("per_player", "per_fuel")))
    if draw(hs.booleans()):
        options["helm_tie"] = draw(hs.sampled_from(("exclude_leader", "include_leader")))
    if draw(hs.booleans()):
        options["passing"] = draw(hs.sampled_from(("voluntary", "forced")))
    seed = draw(hs.integers(0, 2**32))
    policy_seed = draw(hs.integers(0, 2**16))
    return players, seed, options, policy_seed


# ------------------------------------------------------------------------ tests


@fuzz_settings(examples=100)
@given(args=game_args())
def test_random_games_keep_every_invariant(args: tuple[int, int, dict[str, Any], int]) -> None:
    players, seed, options, policy_seed = args
    run_game(players, seed, options, policy_seed, view_every=3)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {"scenario": "lost-expedition"}),
        (1, {"scenario": "magnetic-north-pole"}),
        (2, {"modes": ["survival", "shelters"], "upgrades": "all"}),
        (3, {"modes": ["dual_species"], "extra_events": True, "helm_tie": "include_leader"}),
        (4, {"modes": list(MODES), "upgrades": "all", "extra_events": True}),
        (4, {"towing_pp": "per_fuel", "passing": "forced"}),
    ],
    ids=["le", "mnp", "2p-surv-shel", "3p-dual-extra", "4p-full", "4p-readings"],
)
def test_seeded_games_keep_every_invariant(players: int, options: dict[str, Any]) -> None:
    """A few fixed games with every check at every action (determinization included)."""
    for seed in range(2):
        run_game(players, 100 + seed, options, seed)


def test_random_games_visit_the_rules() -> None:
    """The policy really reaches the interesting parts of the rules (else the
    invariants above would be checked on dull games)."""
    seen: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    for seed in range(12):
        players = 2 + seed % 3
        opts = {"modes": list(MODES), "upgrades": "all", "extra_events": True}
        st = game.new_game(players, seed, opts)
        rnd = random.Random(seed)
        while not st.is_over:
            a = pick(st, rnd)
            seen[a.space or a.kind] += 1
            for e in st.apply(a):
                seen[type(e).__name__] += 1
        outcomes[str(st.outcome)] += 1
    for what in (
        "build_cabin",
        "build_shelter",
        "hunt",
        "discover",
        "upgrade_ship",
        "CabinBuilt",
        "ShelterBuilt",
        "Towing",
        "RegionMapped",
        "CrewToInfirmary",
    ):
        assert seen[what] > 0, f"random games never reach {what}"
    assert sum(outcomes.values()) == 12


@fuzz_settings(examples=60)
@given(
    data=hs.one_of(
        hs.none(),
        hs.integers(),
        hs.text(max_size=8),
        hs.lists(hs.integers(), max_size=3),
        hs.dictionaries(
            hs.sampled_from(["type", "space", "crew", "card", "to", "food", "take", "x"]),
            hs.one_of(
                hs.none(),
                hs.integers(-3, 100),
                hs.text(max_size=12),
                hs.sampled_from(["take", "pass", "hunt", "voyage", "destination", "eat"]),
                hs.dictionaries(hs.sampled_from((*CREW_KINDS, "x")), hs.integers(-2, 3)),
            ),
            max_size=5,
        ),
    )
)
def test_malformed_actions_are_refused(data: Any) -> None:
    st = kit.game(2, 3)
    kit.start_action_phase(st, leader=0)
    before = st.to_json()
    legal = [a.to_json() for a in st.legal_actions()]
    if data in legal:
        return
    with pytest.raises(IllegalAction):
        st.apply(data)
    assert st.to_json() == before
    if isinstance(data, dict):
        with contextlib.suppress(ValueError):  # never KeyError or TypeError
            Action.from_json(data)


# ------------------------------------------------- engine bugs found (regressions)


def _discovered_dual() -> State:
    st = kit.game(2, 1, {"modes": ["dual_species"]})
    kit.set_player(st, 0, health=6, morale=6, upgrades=[7])
    kit.reveal(st, hunting=["dual_arctic_cod"])
    kit.start_action_phase(st, leader=0)
    a = next(a for a in st.legal_actions() if a.space == "discover" and a.card == "dual_arctic_cod")
    st.apply(a)
    return st


def test_discovered_dual_card_goes_to_the_box() -> None:
    """§6.3: discovering a dual card gives 8 PP and returns it to the box (the
    engine used to remove it from the table without putting it anywhere, so the
    state's card locations no longer added up to the hunting deck)."""
    st = kit.game(2, 1, {"modes": ["dual_species"]})
    kit.set_player(st, 0, health=6, morale=6, upgrades=[7])
    kit.reveal(st, hunting=["dual_arctic_cod"])
    kit.start_action_phase(st, leader=0)
    box = len(st.hu_box)
    a = next(a for a in st.legal_actions() if a.space == "discover" and a.card == "dual_arctic_cod")
    st.apply(a)
    assert "dual_arctic_cod" not in st.hu_rev
    assert len(st.hu_box) == box + 1 and "dual_arctic_cod" in st.hu_box


def test_a_boxed_dual_card_stays_out_of_play_in_determinizations() -> None:
    """Everyone saw the dual card go to the box: views show it there, and
    determinizations never deal it back into the hunting deck."""
    st = _discovered_dual()
    setup_box = [x for x in st.hu_box if x != "dual_arctic_cod"]
    for seat in (0, 1, None):
        v = st.view(seat)
        assert v["hu_box"] == ["dual_arctic_cod"]
        assert "dual_arctic_cod" not in v["pools"]["hu_deck"]
        assert sorted(v["pools"]["hu_deck"]) == sorted(st.hu_deck + setup_box)
    view = st.view(1)
    for seed in range(10):
        world = game.determinize(json.loads(json.dumps(view)), seed)
        assert "dual_arctic_cod" in world.hu_box and "dual_arctic_cod" not in world.hu_deck
        assert Counter(world.hu_deck + world.hu_box) == Counter(st.hu_deck + st.hu_box)
        assert world.view(1) == view
        again = st.clone()
        again.resample_hidden(seed, 0)
        assert "dual_arctic_cod" in again.hu_box and "dual_arctic_cod" not in again.hu_deck
        assert Counter(again.hu_deck + again.hu_box) == Counter(st.hu_deck + st.hu_box)


def test_determinize_keeps_the_mast_cards_once() -> None:
    """Found by the property test (3 players, seed 2436, survival + dual species,
    all upgrades, extra events, policy seed 40, action 57, determinize seed 0).
    ``_deal_hidden`` used to shuffle the open-sea pool (deck + box), cut the deck,
    then put the two cards the leader saw through the Mast (upgrade 9) on top; when
    one of them was cut into the box it ended up in both places."""
    st = _mast_pending()
    assert st.ev_box
    view = st.view(0)
    seen = [int(x) for x in st.decisions[0][2:4]]
    for seed in range(20):
        world = game.determinize(json.loads(json.dumps(view)), seed)
        assert len(world.ev_open) == len(st.ev_open), f"determinize seed {seed}"
        assert world.ev_open[:2] == seen
        assert Counter(world.ev_open + world.ev_coastal + world.ev_box) == Counter(
            st.ev_open + st.ev_coastal + st.ev_box
        )
        assert world.view(0) == view


def _mast_pending(boiler: bool = False) -> State:
    st = kit.game(2, 1, {"extra_events": True, "upgrades": "all"})
    for s in (0, 1):
        kit.set_player(st, s, health=6, morale=6, fuel=10)
    kit.set_player(st, 0, upgrades=[9])
    if boiler:  # a Boiler decision follows the Mast
        kit.set_player(st, 1, upgrades=[8], wood=1)
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    st.apply(Action("voyage", voyage="open"))
    assert st.pending == "mast" and st.decisions[0][0] == "mast"
    return st


def test_determinize_keeps_the_mast_choice_and_the_card_put_under() -> None:
    """After the Mast choice the leader knows the next event card (on top) and the
    card put under the deck; the other seats know neither."""
    st = _mast_pending(boiler=True)
    chosen, other = int(st.decisions[0][3]), int(st.decisions[0][2])
    st.apply(Action("mast", card=str(chosen)))
    assert st.event_pending == chosen and st.ev_open[0] == chosen and st.ev_open[-1] == other
    assert st.view(0)["pools"]["ev_under"] == other
    assert st.view(1)["pools"]["ev_under"] is None and st.view(1)["event_pending"] is None
    view = st.view(0)
    for seed in range(10):
        world = game.determinize(json.loads(json.dumps(view)), seed)
        assert world.ev_open[0] == chosen and world.ev_open[-1] == other
        assert Counter(world.ev_open + world.ev_coastal + world.ev_box) == Counter(
            st.ev_open + st.ev_coastal + st.ev_box
        )
        assert world.view(0) == view
        mine = st.clone()
        mine.resample_hidden(seed, 0)
        assert mine.ev_open[0] == chosen and mine.ev_open[-1] == other
        theirs = st.clone()
        theirs.resample_hidden(seed, 1)
        assert theirs.event_pending is None
        assert Counter(theirs.ev_open + theirs.ev_coastal + theirs.ev_box) == Counter(
            st.ev_open + st.ev_coastal + st.ev_box
        )
        assert theirs.view(1) == st.view(1)


def test_resample_hides_another_seats_mast_cards() -> None:
    st = _mast_pending()
    tops = set()
    for seed in range(10):
        world = st.clone()
        world.resample_hidden(seed, 1)
        dd = world.decisions[0]
        assert [int(dd[2]), int(dd[3])] == world.ev_open[:2]
        tops.add((dd[2], dd[3]))
        assert world.view(1) == st.view(1)
    assert len(tops) > 1, "seat 1 must not learn the cards the leader saw"
