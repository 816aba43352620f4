"""The browser's wire view of Through Ice and Snow (``SPEC.wire_view``, docs/iceandsnow-wire.md).

Random games of every player count, mode and scenario are viewed at every step
from every seat and the spectator: the view is plain JSON with small integers,
has every field in every phase, agrees with ``legal_actions()`` (decision options,
the board's ``can_take``) and shows nobody anything hidden — a view computed from
a determinization (every hidden card dealt anew) is the same view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erebus.games.iceandsnow import SPEC, default_content, kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import ScoreChanged
from erebus.games.iceandsnow.state import State, new_game
from erebus.games.iceandsnow.wire import wire_view
from erebus.games.iceandsnow.wire_board import REASONS
from erebus.games.iceandsnow.wire_content import content_document
from erebus.games.iceandsnow.wire_decisions import CATEGORIES, MISSING
from iceandsnow.rulekit import action_phase, at_voyage, fresh
from support.tools import load_tool

FULL = {"modes": ["survival", "shelters", "dual_species"], "upgrades": "all", "extra_events": True}
GAMES = [
    (1, {"scenario": "lost-expedition"}),
    (1, {"scenario": "magnetic-north-pole"}),
    (2, FULL),
    (2, {"modes": ["survival"], "passing": "forced"}),
    (3, {"modes": ["shelters"], "upgrades": "all"}),
    (3, {"modes": ["dual_species"], "extra_events": True, "towing_pp": "per_fuel"}),
    (4, {}),
    (4, FULL | {"helm_tie": "include_leader"}),
]
SEEDS = (1, 2, 3)

TOP = {
    "game", "format", "players", "seat", "options", "round", "phase", "pending", "step",
    "expecting", "leader", "current", "final_round", "final_voyage", "voyage", "over",
    "outcome", "lost", "won", "reason", "scores", "map", "board", "seats", "cards", "decks",
    "decision", "final_scoring",
}  # fmt: skip
MAP = {
    "placed", "fleet", "previous", "destination", "destination_dynamite", "sailed", "ahead",
    "routes", "dynamite_total", "mapped", "cartography_tokens", "cabins", "shelters",
    "blue_anchors", "final_anchors", "scenario",
}  # fmt: skip
SEAT = {
    "seat", "leader", "pp", "food", "health", "morale", "fuel", "sled", "dogs", "inuit",
    "inuit_joining", "towing", "dynamite", "wood", "rifles", "cans", "crew", "rescued",
    "mouths", "upgrades", "cabins", "shelters", "species", "species_kinds", "event_cards",
    "event_cards_due", "times_leader", "explores", "entered_death_or_mutiny", "passed",
    "turns", "investor", "investor_options", "cartography", "cartography_options",
}  # fmt: skip
SPACE = {
    "id", "kind", "column", "slots", "taken", "open", "final", "blocked", "deposit_due",
    "can_take", "why_not", "stands",
}  # fmt: skip
BOARD = {"acting", "spaces", "extra_spaces", "warehouses", "can_pass", "must_take"}
CARDS = {
    "event", "modifiers", "hunting", "species", "discovered", "eaten", "dual_boxed",
    "mast_chosen",
}  # fmt: skip
DECKS = {
    "hunting", "hunting_discard", "species", "species_discard", "events_open",
    "events_coastal", "events_open_discard", "events_coastal_discard", "compass", "search",
    "inuit_pool", "upgrades_left",
}  # fmt: skip
ROUTE = {"to", "dynamite", "extra", "new_section", "leader_can_pay", "table_can_pay"}
CREW = {"captain", "carpenter", "scientist", "sailors", "inuit"}


def games() -> Iterator[tuple[int, dict[str, Any], int]]:
    for players, options in GAMES:
        for seed in SEEDS:
            yield players, options, seed


def play(players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    """Every state of a random game (each decision uniformly among the legal
    actions, passing a little more often so that rounds end)."""
    st = new_game(players, seed, options)
    rng = random.Random(seed * 7919 + players)
    yield st
    while not st.is_over:
        legal = st.legal_actions()
        passes = [a for a in legal if a.kind == "pass"]
        st.apply(passes[0] if passes and rng.random() < 0.15 else rng.choice(legal))
        yield st


def small_json(value: Any, where: str = "view") -> None:
    """JSON types only, no float, every integer small (|x| < 2**31)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        assert abs(value) < 2**31, f"{where}: {value} is not small"
        return
    if isinstance(value, list):
        for i, x in enumerate(value):
            small_json(x, f"{where}[{i}]")
        return
    assert isinstance(value, dict), f"{where}: {type(value).__name__} is not JSON"
    for k, x in value.items():
        assert isinstance(k, str), f"{where}: key {k!r}"
        small_json(x, f"{where}.{k}")


def check_shape(v: dict[str, Any], st: State) -> None:
    assert set(v) == TOP
    assert set(v["map"]) == MAP
    assert set(v["board"]) == BOARD
    assert set(v["cards"]) == CARDS
    assert set(v["decks"]) == DECKS
    assert len(v["seats"]) == st.n
    for s in v["seats"]:
        assert set(s) == SEAT
        for part in ("owned", "free", "placed", "sick"):
            assert set(s["crew"][part]) == CREW
        assert {"value", "max", "zone"} == set(s["health"]) == set(s["morale"])
        assert {"value", "max", "band", "effect"} == set(s["fuel"])
    assert len(v["board"]["spaces"]) == len(st.tables.spaces)
    for sp in v["board"]["spaces"]:
        assert set(sp) == SPACE
    for r in v["map"]["routes"]:
        assert set(r) == ROUTE
    if v["over"]:
        assert v["decision"] is None and v["final_scoring"] is not None
        assert v["final_scoring"]["categories"] == list(CATEGORIES)
    else:
        assert v["final_scoring"] is None
        assert v["decision"]["kind"] == st.pending and v["decision"]["seat"] == st.current_player


def check_decision(v: dict[str, Any], st: State) -> set[str]:
    """The mover's view offers exactly the legal actions; returns the kinds seen."""
    d = v["decision"]
    legal = st.legal_actions()
    assert d["mine"]
    for m in d["missing"]:
        assert m["why"] in MISSING
    if d["kind"] == "action":
        takes = {a.space for a in legal if a.kind == "take"}
        board = v["board"]["spaces"] + v["board"]["extra_spaces"]
        assert {sp["id"] for sp in board if sp["can_take"]} == takes
        for sp in board:
            assert (sp["why_not"] is None) == bool(sp["can_take"]), sp
            assert sp["why_not"] is None or sp["why_not"] in REASONS
        assert d["can_pass"] == any(a.kind == "pass" for a in legal) == v["board"]["can_pass"]
        assert d["takes"] == len(takes and [a for a in legal if a.kind == "take"])
    else:
        sent = [o["action"] for o in d["options"]]
        assert sent == [a.to_json() for a in legal]
    return {d["kind"]}


#: Ids that name a public thing too (the investor "admiralty", the region "admiralty").
_C = default_content()
SHARED = set(_C.regions) | {
    a.id for sec in _C.sections for d in sec.sides.values() for a in d.anchors
}


def check_secrets(v: dict[str, Any], st: State, seat: int | None) -> None:
    """What the rules hide is not in the view, wherever it might appear (a
    secret card's id is looked for in the whole JSON text)."""
    text = json.dumps(v)
    for o in range(st.n):
        if o == seat:
            continue
        other = v["seats"][o]
        assert other["investor_options"] == [] and other["cartography_options"] == []
        if not (st.revealed or st.over):
            assert other["investor"] is None
        public = st.over and st.scenario is None and not st.lost
        if not public:
            assert other["cartography"] is None
            if st.carto[o] is not None:
                assert f'"{st.carto[o]}"' not in text
        for card in st.inv_opts[o]:
            if card in SHARED:
                assert other["investor"] in (None, st.investor[o])
            elif card != st.investor[o] or not st.revealed:
                assert f'"{card}"' not in text, card
    for card in st.sp_deck + st.hu_deck + st.search:
        assert f'"{card}"' not in text, card
    if seat is None or seat != st.leader:
        assert v["cards"]["mast_chosen"] is None
    if st.pending == "mast" and seat != st.current_player:
        assert "options" not in v["decision"]


@pytest.mark.parametrize(("players", "options", "seed"), list(games()))
def test_every_view_of_a_random_game(players: int, options: dict[str, Any], seed: int) -> None:
    kinds: set[str] = set()
    for step, st in enumerate(play(players, options, seed)):
        for seat in [None, *range(players)]:
            v = SPEC.wire_view(st, seat)
            small_json(v)
            assert json.loads(json.dumps(v)) == v
            check_shape(v, st)
            check_secrets(v, st, seat)
            if seat is not None and seat == st.current_player and not st.is_over:
                kinds |= check_decision(v, st)
            elif not st.is_over:
                assert "options" not in v["decision"]
                assert all(sp["can_take"] is None for sp in v["board"]["spaces"])
            if step % 9 == 0:
                # hidden cards dealt anew from what this seat knows: the same view
                det = State.from_view(st.view(seat), seed=step + 1)
                assert wire_view(det, seat) == v
    assert {"destination", "voyage"} <= kinds or players == 1
    assert "action" in kinds


def test_the_view_of_a_spectator_is_the_view_of_nobody() -> None:
    st = new_game(3, 5)
    v = wire_view(st, None)
    assert v["seat"] is None and v["decision"]["mine"] is False
    with pytest.raises(ValueError):
        wire_view(st, 3)
    with pytest.raises(ValueError):
        wire_view(st, True)  # type: ignore[arg-type]


def test_setup_offers_only_to_their_owner() -> None:
    st = new_game(2, 9)
    assert st.pending == "setup" and st.current_player == 0
    mine, other, spectator = wire_view(st, 0), wire_view(st, 1), wire_view(st, None)
    assert mine["seats"][0]["investor_options"] == st.inv_opts[0]
    assert mine["seats"][0]["cartography_options"] == st.carto_opts[0]
    assert [o["card"] for o in mine["decision"]["options"]] == st.inv_opts[0]
    for v in (other, spectator):
        assert v["seats"][0]["investor_options"] == []
        assert v["decision"] == {"kind": "setup", "seat": 0, "mine": False, "stage": "investor"}


def golden(name: str) -> tuple[State, list[Any]]:
    path = Path(__file__).resolve().parents[1] / "golden" / "iceandsnow" / f"{name}.json"
    rec = json.loads(path.read_text(encoding="utf-8"))
    st = new_game(rec["players"], rec["seed"], rec["options"])
    events: list[Any] = []
    for step in rec["steps"]:
        events = st.apply(step["action"])
    return st, events


@pytest.mark.parametrize("name", ["4p-base", "2p-all-modes"])
def test_final_scoring_by_category_is_what_the_end_scored(name: str) -> None:
    st, last = golden(name)
    assert st.outcome == "finished"
    final = {"species majority", "species cards", "cabin majority", "health", "morale"}
    final |= {"cartography", "shelter majority", "final anchor point"}
    scored = [0] * st.n
    for e in last:
        if isinstance(e, ScoreChanged) and (e.reason in final or e.reason.startswith("investor")):
            scored[e.seat] += e.delta
    for seat in [None, *range(st.n)]:
        fs = wire_view(st, seat)["final_scoring"]
        assert fs["scored"] and fs["totals"] == st.scores()
        assert [sum(fs["points"][c][s] for c in CATEGORIES) for s in range(st.n)] == scored
        assert fs["cartography"] == st.carto  # revealed to everybody at the end
        assert [b["cartography"] for b in wire_view(st, seat)["seats"]] == st.carto


def test_a_lost_game_says_how_and_reveals_no_cartography() -> None:
    st = next(s for s in play(4, {}, 1) if s.is_over)
    assert st.lost
    v = wire_view(st, 0)
    assert v["outcome"] == "lost" and v["reason"] == st.reason != ""
    assert v["final_scoring"]["scored"] is False
    assert all(b["cartography"] is None for b in v["seats"][1:])


def test_why_a_space_is_refused() -> None:
    st = action_phase(2, 1, leader=0)
    v = wire_view(st, 0)
    lead = next(sp for sp in v["board"]["spaces"] if sp["id"] == "lead")
    assert lead["can_take"] is False and lead["why_not"] == "leader_first_turn"
    final = [sp for sp in v["board"]["spaces"] if sp["final"]]
    assert final and all(sp["why_not"] == "final_round_only" and not sp["open"] for sp in final)


def test_the_content_file_is_up_to_date_and_complete() -> None:
    tool = load_tool("gen_web_assets")
    assert tool.stale() == []
    doc = json.loads((tool.WEB / "iceandsnow-content.json").read_text(encoding="utf-8"))
    assert doc == json.loads(json.dumps(content_document(default_content())))
    assert [e["number"] for e in doc["cards"]["events"]] == list(range(1, 29))
    for group in ("species", "hunting", "whales", "dual", "events", "upgrades", "investors"):
        for card in doc["cards"][group]:
            assert card["name"] and card["text"], card
    for card in doc["cards"]["cartography"]:
        assert len(card["regions"]) == 3 and card["text"]
    regions = {r["id"] for r in doc["regions"]}
    for sec in doc["sections"]:
        assert set(sec["sides"]) == {"A", "B"}
        for side in sec["sides"].values():
            for a in side["anchors"]:
                assert a in doc["anchors"] and doc["anchors"][a]["region"] in regions
            for src, dst, dyn in side["routes"]:
                assert src in doc["anchors"] and dst in doc["anchors"] and dyn in (0, 1)
    assert all(sp["text"] for sp in doc["board"]["spaces"])
    assert {"scurvy", "mutiny", "death"} <= {
        z for t in ("health", "morale") for z in doc["tracks"][t]["effects"].values()
    }
    assert [b["effect"] for b in doc["tracks"]["fuel"]["bands"]] == ["morale", None, "discard"]


# ---------------------------------------------------------------- each decision's dialog


def mover_decision(st: State) -> dict[str, Any]:
    seat = st.current_player
    d = wire_view(st, seat)["decision"]
    assert [o["action"] for o in d["options"]] == [a.to_json() for a in st.legal_actions()]
    for other in [None, *range(st.n)]:
        if other != seat:
            assert "options" not in wire_view(st, other)["decision"]
    return d


def test_the_eat_dialog_says_what_each_card_feeds() -> None:
    st = fresh()
    kit.set_player(st, 0, food=0, species=["polar_bear_1", "arctic_fox_1"], dogs=0, pp=20)
    kit.start_boarding(st)
    assert st.pending == "eat"
    d = mover_decision(st)
    assert d["food"] == 0 and d["short"] == d["need"] > 0
    by_card = {o["card"]: o for o in d["options"]}
    assert by_card["polar_bear_1"]["food"] == default_content().species["polar_bear_1"].food


def test_the_mast_shows_the_two_cards_to_the_leader_only() -> None:
    st = fresh(options={"upgrades": "all"})
    at_voyage(st, "north_water", leader=0)
    kit.set_player(st, 0, upgrades=[9])
    kit.next_event(st, "open", 3)
    kit.next_event(st, "open", 1)
    st.apply(Action("voyage", voyage="open"))
    assert st.pending == "mast"
    d = mover_decision(st)
    assert sorted(o["card"] for o in d["options"]) == [1, 3]
    st.apply(Action("mast", card="3"))
    assert wire_view(st, 0)["cards"]["mast_chosen"] in (3, None)
    assert wire_view(st, 1)["cards"]["mast_chosen"] is None


def test_the_boiler_dialog_prices_both_answers() -> None:
    st = fresh(options={"upgrades": "all"})
    at_voyage(st, "north_water")
    kit.set_player(st, 0, upgrades=[8], wood=2, fuel=6)
    st.apply(Action("voyage", voyage="coastal"))
    assert st.pending == "boiler"
    d = mover_decision(st)
    pays = {o["use"]: o["pays"] for o in d["options"]}
    assert pays == {True: {"wood": 1, "fuel": 1}, False: {"wood": 0, "fuel": 2}}


def test_the_compass_dialog_lists_the_detours_and_why_others_are_missing() -> None:
    st = fresh(3, options={"extra_events": True})
    at_voyage(st, "north_water", leader=0)
    for s in range(3):
        kit.set_player(st, s, fuel=6)
    kit.next_event(st, "open", 25)
    st.apply(Action("voyage", voyage="open"))
    assert st.pending == "compass"
    d = mover_decision(st)
    assert d["from"] == "cape_york" and d["destination"] == "north_water"
    assert any(o["decline"] for o in d["options"])
    assert {m["to"]: m["why"] for m in d["missing"]}.get("north_water") == "destination"


def test_the_voyage_dialog_says_why_coastal_is_missing() -> None:
    st = fresh()
    at_voyage(st, "north_water")
    for s in range(2):
        kit.set_player(st, s, fuel=1)
    assert st.pending == "voyage"
    d = mover_decision(st)
    assert [o["voyage"] for o in d["options"]] == ["open"]
    assert d["missing"] == [{"voyage": "coastal", "fuel": 2, "why": "coastal_fuel"}]
    assert d["options"][0]["fuel"] == 1 and d["options"][0]["towed"] == []


def test_the_destination_dialog_prices_each_route() -> None:
    st = fresh()
    kit.start_round(st, leader=0)
    assert st.pending == "destination"
    d = mover_decision(st)
    routes = dict(st.destinations())
    for o in d["options"]:
        assert o["dynamite"] == 1 + routes[o["to"]] and o["payable"]
        assert sum(p["dynamite"] for p in o["payers"]) == o["dynamite"]
        assert o["payers"][0]["seat"] == 0
    assert {r["to"] for r in wire_view(st, None)["map"]["routes"]} == set(routes)
