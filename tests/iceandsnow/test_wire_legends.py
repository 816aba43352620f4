"""Legendary Expeditions in the wire view (``wire_legends``, docs/iceandsnow-wire.md
``legends``).

Random games with the module (random explorers and fixed sets holding every
interactive ability) are viewed at every step from every seat and the spectator:
the payload is plain JSON, the ``legends`` field agrees with the engine, and no
payload shows what the viewing seat may not know — another seat's dealt pair
while it chooses, a boxed explorer, the card Kellett looked at.  Every decision of
the module lists choices whose action is legal; the free actions (Kellett's
``track``, Collinson's ``chart``) are under ``free``, never among a decision's
options.  A base game has no ``legends`` field; the content file carries the sets
and the explorer events 45–54.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from erebus.games.iceandsnow import legends
from erebus.games.iceandsnow.content import default_content
from erebus.games.iceandsnow.state import State, new_game
from erebus.games.iceandsnow.wire import wire_view
from erebus.games.iceandsnow.wire_content import content_document
from erebus.games.iceandsnow.wire_legends import ABILITY_TEXTS, FREE_ACTIONS, ability_text
from iceandsnow.legendskit import legends_on  # noqa: F401

MODULE = "legendary_expeditions"
SEAT = {
    "seat",
    "set",
    "explorer",
    "choosing",
    "dealt",
    "powers",
    "powers_due",
    "despot_uses_left",
    "apprentice_used",
    "looked",
    "upgrade_spaces",
}
FIELDS = {
    "seats",
    "box",
    "sailors_aside",
    "forbidden_route",
    "voyage_chooser",
    "collinson_special_pp",
}
#: Fixed sets that hold every interactive ability between them (C D G H, F, I).
FIXED = (["C", "D", "H"], ["G", "I", "F"], ["D", "G"], ["H", "C", "I", "F"])


def plain_json(x: Any) -> None:
    """Only JSON types (no tuples, no sets, string keys)."""
    if isinstance(x, dict):
        assert all(isinstance(k, str) for k in x), x
        for v in x.values():
            plain_json(v)
    elif isinstance(x, list):
        for v in x:
            plain_json(v)
    else:
        assert x is None or isinstance(x, bool | int | float | str), (type(x), x)


def play(players: int, explorers: Any, seed: int) -> Iterator[State]:
    """Every state of a random game; the module's own actions are taken often."""
    st = new_game(players, seed, {"modules": [MODULE], "explorers": explorers})
    rng = random.Random(seed * 17 + players)
    yield st
    steps = 0
    while not st.is_over and steps < 1500:
        legal = st.legal_actions()
        mine = [a for a in legal if a.kind in (*FREE_ACTIONS, "despot", "benevolent") or a.slot]
        st.apply(rng.choice(mine) if mine and rng.random() < 0.5 else rng.choice(legal))
        steps += 1
        yield st


def hidden_words(st: State, viewer: int | None) -> set[str]:
    """Names the viewer may not see: explorers and ships of sets dealt to another
    seat (not yet chosen) or boxed."""
    secret = set(st.ex_box)
    for s, pair in enumerate(st.ex_dealt):
        if s != viewer:
            secret |= set(pair)
    secret -= {k for k in st.explorer if k}
    out = set()
    for k in secret:
        out.add(str(legends.sets()[k]["explorer"]))
        out.add(str(legends.sets()[k]["ship"]))
    return out


def looked_cards(st: State, viewer: int | None) -> set[str]:
    """Top cards Kellett looked at, which only his own view may show."""
    out = set()
    for s in range(st.n):
        if s == viewer:
            continue
        raw = st.ex_peek[s]
        for i in range(0, len(raw), 3):
            deck = st.sp_deck if raw[i] == "species" else st.hu_deck
            if deck and deck[0] == raw[i + 1]:
                out.add(str(raw[i + 1]))
    return out


def check(v: dict[str, Any], st: State, seat: int | None) -> None:
    plain_json(v)
    lg = v["legends"]
    assert set(lg) == FIELDS
    assert lg["box"] == len(st.ex_box)
    assert lg["sailors_aside"] == st.ex_sailor
    for s, e in enumerate(lg["seats"]):
        assert set(e) == SEAT
        assert e["set"] == (st.explorer[s] or None)
        if st.explorer[s]:
            assert e["explorer"]["explorer"] == legends.sets()[st.explorer[s]]["explorer"]
        assert e["dealt"] == (st.ex_dealt[s] if s == seat else [])
        assert [p["power"] for p in e["powers"]] == st.ex_held[s]
        for look in e["looked"]:
            if s != seat:
                assert look["card"] is None
    text = json.dumps(v)
    for word in hidden_words(st, seat):
        assert word not in text, (seat, word)
    for card in looked_cards(st, seat):
        assert f'"{card}"' not in text, (seat, card)
    d = v["decision"]
    if d is None or not d["mine"]:
        assert d is None or "options" not in d
        return
    legal = {json.dumps(a.to_json(), sort_keys=True) for a in st.legal_actions()}
    for o in d.get("options", []):
        assert json.dumps(o["action"], sort_keys=True) in legal
        assert o["action"]["type"] not in FREE_ACTIONS
    for f in d.get("free", []):
        assert json.dumps(f["action"], sort_keys=True) in legal
    free = {a for a in legal if json.loads(a)["type"] in FREE_ACTIONS}
    assert free == {
        json.dumps(f["action"], sort_keys=True)
        for f in d.get("free", [])
        if f["kind"] in FREE_ACTIONS
    }


GAMES = [(2, "random", s) for s in range(3)] + [(len(f), f, 10 + i) for i, f in enumerate(FIXED)]


@pytest.mark.parametrize(("players", "explorers", "seed"), GAMES)
def test_every_view_of_random_games(players: int, explorers: Any, seed: int) -> None:
    kinds: set[str] = set()
    for i, st in enumerate(play(players, explorers, seed)):
        if i % 3 and st.pending not in ("explorer", "despot", "benevolent"):
            continue  # every third state, and every state of the module's decisions
        for seat in [None, *range(players)]:
            v = wire_view(st, seat)
            check(v, st, seat)
            if v["decision"] and v["decision"]["mine"]:
                kinds.add(v["decision"]["kind"])
                kinds |= {f["kind"] for f in v["decision"].get("free", [])}
    if explorers == "random":
        assert "explorer" in kinds
    if explorers == FIXED[0]:
        assert {"despot", "track"} <= kinds


def test_the_choice_shows_the_pair_to_its_owner_only() -> None:
    st = new_game(3, 4, {"modules": [MODULE], "explorers": "random"})
    assert st.pending == "explorer"
    me = st.current_player
    v = wire_view(st, me)
    d = v["decision"]
    assert d["kind"] == "explorer" and d["mine"]
    assert sorted(o["card"] for o in d["options"]) == st.ex_dealt[me]
    for o in d["options"]:
        assert o["set"] == o["card"] and o["explorer"] == legends.sets()[o["card"]]["explorer"]
        assert o["ability"] in ABILITY_TEXTS and o["event_name"]
    for other in (None, *(s for s in range(3) if s != me)):
        w = wire_view(st, other)
        assert "options" not in w["decision"]
        text = json.dumps(w)
        for k in st.ex_dealt[me]:
            assert legends.sets()[k]["explorer"] not in text
    st.apply(next(a for a in st.legal_actions()))
    kept = st.explorer[me]
    for other in (None, 0, 1, 2):
        assert wire_view(st, other)["legends"]["seats"][me]["set"] == kept


def test_a_base_game_has_no_legends_field() -> None:
    st = new_game(2, 1)
    assert "legends" not in wire_view(st, 0)


def test_content_file_has_the_sets_and_explorer_events() -> None:
    doc = content_document(default_content())["modules"]["legendary_expeditions"]
    assert [s["set"] for s in doc["sets"]] == list("ABCDEFGHIJ")
    assert [e["number"] for e in doc["events"]] == list(range(45, 55))
    for s in doc["sets"]:
        assert s["text"] == ability_text(s["set"]) and "{" not in s["text"]
    for e in doc["events"]:
        assert e["text"] and "_" not in e["text"], e
