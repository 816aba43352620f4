"""Walking on Ice in the wire view (src/erebus/games/iceandsnow/wire_walking.py).

Random walking games are viewed at every step from every seat and the spectator, as
the base game's wire test does: plain JSON, the module's fields present in every
phase (before and after the ships are abandoned), decision options exactly the legal
actions, the walking deck's order in nobody's view (a determinization gives the same
view).  Then each new dialog is checked on a set-up position: what it costs and why a
choice is missing."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from erebus.games.iceandsnow import SPEC, default_content, kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.layout import FOOD, WOOD, F
from erebus.games.iceandsnow.state import State
from erebus.games.iceandsnow.wire import wire_view
from erebus.games.iceandsnow.wire_content import content_document
from erebus.games.iceandsnow.wire_walking import walking_content_doc
from iceandsnow import walkkit
from iceandsnow.test_wire import (
    SEAT,
    TOP,
    check_decision,
    check_secrets,
    play,
    small_json,
)

WALK = {"modules": ["walking_on_ice"]}
GAMES = [
    (2, WALK, 1),
    (2, {**WALK, "walking_forced": "any"}, 3),
    (3, WALK, 4),
    (2, {"sled": True}, 5),
    (3, {"sled": True}, 6),
]
WALKING = {
    "abandoned", "may_abandon", "crossing", "crossing_types", "walking_deck",
    "walking_discard", "cans_box", "cans_total", "forced_below_fuel", "guilt_modifiers",
}  # fmt: skip
SLED = {
    "on_sled", "maintenance", "maintenance_max", "food_cap", "cargo_used", "cargo_cap",
    "cans", "guilt", "sick_sailor", "inuit_customs",
}  # fmt: skip


def on_the_sled(players: int, seed: int) -> Iterator[State]:
    """A game whose ships are abandoned in round 1 (Central West placed), then
    played on at random as :func:`play` does: every crossing phase is reached."""
    st = walkkit.walking(players, seed)
    walkkit.at_leader_check(st)
    st.apply(Action("abandon", use=True))
    rng = random.Random(seed)
    yield st
    while not st.is_over:
        legal = st.legal_actions()
        passes = [a for a in legal if a.kind == "pass"]
        st.apply(passes[0] if passes and rng.random() < 0.15 else rng.choice(legal))
        yield st


def games(players: int, options: dict[str, Any], seed: int) -> Iterator[State]:
    if options.get("sled"):
        return on_the_sled(players, seed)
    return play(players, options, seed)


@pytest.mark.parametrize(("players", "options", "seed"), GAMES)
def test_every_view_of_a_random_walking_game(
    players: int, options: dict[str, Any], seed: int
) -> None:
    kinds: set[str] = set()
    abandoned = False
    for step, st in enumerate(games(players, options, seed)):
        for seat in [None, *range(players)]:
            v = SPEC.wire_view(st, seat)
            small_json(v)
            assert json.loads(json.dumps(v)) == v
            assert set(v) == TOP | {"walking"}
            assert set(v["walking"]) == WALKING
            for b in v["seats"]:
                assert set(b) == SEAT | {"sled_board"}
                assert set(b["sled_board"]) == SLED
                assert b["cans"] == b["sled_board"]["cans"]
            check_secrets(v, st, seat)
            deck = st.walk_deck  # type: ignore[attr-defined]
            if len(deck) > 1:  # the walking deck's order is nobody's to see
                assert json.dumps(deck)[1:-1] not in json.dumps(v)
            assert v["walking"]["walking_deck"] == len(st.walk_deck)  # type: ignore[attr-defined]
            if st.abandoned:  # type: ignore[attr-defined]
                abandoned = True
                cans = sum(b["cans"] for b in v["seats"])
                assert cans + v["walking"]["cans_box"] == v["walking"]["cans_total"]
                for b in v["seats"]:
                    sb = b["sled_board"]
                    assert sb["on_sled"] and sb["cargo_used"] is not None
            if seat is not None and seat == st.current_player and not st.is_over:
                kinds |= check_decision(v, st)
                d = v["decision"]
                if d["kind"] == "action":
                    free = [a.to_json() for a in st.legal_actions() if a.kind in FREE]
                    assert [f["action"] for f in d.get("free", [])] == free
                elif d["kind"] == "voyage" and st.abandoned:  # type: ignore[attr-defined]
                    kinds.add("crossing")
                    assert d["crossing"] is True
            elif not st.is_over:
                assert "options" not in v["decision"]
            # (a set-up position has no investors, which a determinization deals anew)
            if step % 11 == 0 and not options.get("sled"):
                det = State.from_view(st.view(seat), seed=step + 1)
                assert wire_view(det, seat) == v
    assert "action" in kinds or options.get("sled")  # a sled game may starve at once
    if abandoned:
        assert "crossing" in kinds or st.is_over


FREE = ("open_can", "release_sailor")


def test_the_games_above_abandon_the_ships_and_cross() -> None:
    """At least one of the random games reaches the sled (the loop above would
    otherwise test only the base game's part)."""
    seen = set()
    for players, options, seed in GAMES:
        for st in games(players, options, seed):
            if st.abandoned:  # type: ignore[attr-defined]
                seen.add("abandoned")
                if st.pending == "voyage":
                    seen.add("crossing")
    assert {"abandoned", "crossing"} <= seen


def test_the_base_game_has_no_walking_fields() -> None:
    st = kit.game(2, 1, {})
    v = wire_view(st, 0)
    assert "walking" not in v and all("sled_board" not in b for b in v["seats"])


def _mover(st: State) -> dict[str, Any]:
    seat = st.current_player
    d: dict[str, Any] = wire_view(st, seat)["decision"]
    assert d["mine"] and [o["action"] for o in d["options"]] == [
        a.to_json() for a in st.legal_actions()
    ]
    for other in [None, *range(st.n)]:
        if other != seat:
            assert "options" not in wire_view(st, other)["decision"]
    return d


def test_the_abandon_dialog_says_what_each_player_gets_and_the_guilt() -> None:
    st = walkkit.walking(2, 1)
    kit.set_player(st, 0, fuel=9)
    kit.set_player(st, 1, fuel=5)
    walkkit.at_leader_check(st)
    assert st.pending == "abandon"
    d = _mover(st)
    yes = next(o for o in d["options"] if o["use"])
    no = next(o for o in d["options"] if not o["use"])
    assert yes["guilt"] == 3 + 1 and no["guilt"] == 0 and no["seats"] == []
    assert [s["wood"] for s in yes["seats"]] == [9, 5]
    assert all(s["cans"] == 5 for s in yes["seats"])
    v = wire_view(st, 1)
    assert v["walking"]["may_abandon"] and v["walking"]["abandoned"] is None
    st.apply(Action("abandon", use=True))
    walkkit.settle(st)
    v = wire_view(st, None)
    assert v["walking"]["abandoned"] == "voluntary"
    assert v["seats"][0]["sled_board"]["guilt"] == 4
    assert v["seats"][0]["fuel"]["value"] == 0  # (the wood went to the cargo check)
    assert v["walking"]["cans_box"] == 20 - sum(b["cans"] for b in v["seats"])


def test_the_crossing_dialog_prices_walk_and_march_and_says_why_march_is_missing() -> None:
    st = walkkit.walking(2, 1)
    walkkit.at_leader_check(st)
    st.apply(Action("abandon", use=True))
    walkkit.settle(st)
    # run to the Crossing phase's choice
    while st.pending != "voyage" and not st.is_over:
        legal = st.legal_actions()
        passes = [a for a in legal if a.kind == "pass"]
        st.apply(passes[0] if passes else legal[0])
    assert st.pending == "voyage"
    d = _mover(st)
    assert d["crossing"] is True
    by = {o["voyage"]: o for o in d["options"]}
    assert by["walk"]["feeds"] and not by["walk"]["lowers_maintenance"]
    if "march" in by:
        assert by["march"]["lowers_maintenance"]
    st.maint[:] = [1, 1]  # type: ignore[attr-defined]
    st._legal = None
    d = _mover(st)
    assert [o["voyage"] for o in d["options"]] == ["walk"]
    assert d["missing"] == [{"voyage": "march", "why": "march_maintenance", "needs": 4, "has": 2}]


def test_the_cans_and_cargo_dialogs() -> None:
    st = walkkit.walking(2, 1)
    walkkit.at_leader_check(st)
    st.apply(Action("abandon", use=True))
    walkkit.settle(st)
    # a food shortage with cans in hand: open one or go on
    st.pv[F * 0 + FOOD] = 0
    st.decisions.insert(0, ["cans", 0, 3, "feeding"])
    st._legal = None
    d = _mover(st)
    assert d["kind"] == "cans" and d["need"] == 3 and d["cans"] >= 1
    opened = next(o for o in d["options"] if o["open"])
    assert opened["food"] == 5 and opened["health"] == -1
    st.decisions[0] = ["cargo", 0]
    st.pv[F * 0 + WOOD] = 40
    st._legal = None
    d = _mover(st)
    assert d["kind"] == "cargo" and d["cargo_used"] > d["cargo_cap"]
    assert {o["resource"] for o in d["options"]} | {m["resource"] for m in d["missing"]} == set(
        ("dynamite", "wood", "rifles", "cans")
    )


def test_the_action_board_offers_the_free_actions() -> None:
    st = walkkit.walking(2, 1)
    walkkit.at_leader_check(st)
    st.apply(Action("abandon", use=True))
    walkkit.settle(st)
    while st.pending != "action" and not st.is_over:
        st.apply(st.legal_actions()[0])
    assert st.pending == "action"
    d = wire_view(st, st.current_player)["decision"]
    free = {f["kind"]: f for f in d["free"]}
    assert free["open_can"]["food"] == 5 and free["open_can"]["cans"] >= 1
    assert d["can_pass"] == any(a.kind == "pass" for a in st.legal_actions())


def test_the_content_file_carries_the_walking_sections() -> None:
    doc = content_document(default_content())
    w = doc["modules"]["walking_on_ice"]
    assert w == walking_content_doc(default_content())
    assert {s["id"] for s in w["sections"]} == {"central_west", "west"}
    kinds = {r[3] for s in w["sections"] for side in s["sides"].values() for r in side["routes"]}
    assert "walking" in kinds
    for s in w["sections"]:
        for side in s["sides"].values():
            for a in side["anchors"]:
                assert a in w["anchors"]
    assert [e["number"] for e in w["events"]] == list(range(29, 37))
    assert all(e["name"] and e["text"] for e in w["events"])
    assert all(t["id"] and t["replaces"] for t in w["tiles"])
    # the placement sheet words Build a Cabin's cans with the food they count as
    assert w["cans"]["cabin_food"] == 5
    steps = (Path(__file__).parents[2] / "src/erebus/web/iceandsnow/legal.js").read_text()
    assert '"cans"' in steps.split("export const STEPS")[1].split(";")[0]
