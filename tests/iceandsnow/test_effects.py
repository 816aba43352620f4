"""Event cards' effects are data: the vocabulary refuses what it does not know
at load, and a card added to the data works without engine changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from erebus.games.iceandsnow.content import parse_content, read_data
from erebus.games.iceandsnow.effects import OPS, effect_problems
from erebus.games.iceandsnow.state import new_game
from iceandsnow.datakit import Raw, broken


def event(raw: Raw, number: int) -> Any:
    return next(e for e in raw["cards"]["events"] if e["number"] == number)


def test_every_shipped_card_has_a_valid_effect() -> None:
    for e in read_data()["cards"]["events"]:
        assert effect_problems(e["number"], e["kind"], e["effect"]) == []


def test_unknown_effect_is_refused() -> None:
    def mutate(raw: Raw) -> None:
        event(raw, 1)["effect"] = {"reveal": [{"op": "summon_kraken"}]}

    assert "event 1 effect: unknown effect 'summon_kraken'" in broken(mutate)


def test_bad_parameters_are_refused() -> None:
    def mutate(raw: Raw) -> None:
        event(raw, 2)["effect"] = {"reveal": [{"op": "fleet_loses_fuel", "fuel": -1}]}
        event(raw, 3)["effect"] = {"reveal": [{"op": "each_gains", "gains": {"gold": 1}}]}
        event(raw, 5)["effect"] = {"reveal": [{"op": "each_lowers", "track": "morale"}]}
        event(raw, 6)["effect"] = {"reveal": [{"op": "fleet_loses_fuel", "fuel": 1, "x": 0}]}

    msg = broken(mutate)
    assert "event 2 effect: effect 'fleet_loses_fuel': fuel must be a positive" in msg
    assert "event 3 effect: effect 'each_gains': gains names 'gold'" in msg
    assert "event 5 effect: effect 'each_lowers' needs the parameter 'amount'" in msg
    assert "event 6 effect: effect 'fleet_loses_fuel' has unknown parameter(s) ['x']" in msg


def test_phase_and_kind_are_checked() -> None:
    def mutate(raw: Raw) -> None:
        event(raw, 8)["effect"] = {"reveal": [{"op": "each_gains", "gains": {"food": 1}}]}
        event(raw, 1)["effect"] = {"reveal": [{"op": "taker_gains", "gains": {"food": 1}}]}
        del event(raw, 4)["effect"]

    msg = broken(mutate)
    assert "event 8 effect: an action card needs a 'take' list" in msg
    assert "event 1 effect: effect 'taker_gains' cannot stand in 'reveal'" in msg
    assert "event 4 has no effect field" in msg


def test_one_set_of_parameters_per_modifier() -> None:
    def mutate(raw: Raw) -> None:
        event(raw, 1)["effect"] = {
            "reveal": [{"op": "round_modifier", "modifier": "explore_sled", "amount": -2}]
        }

    assert "gives modifier 'explore_sled'" in broken(mutate)


def test_every_op_is_documented() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "iceandsnow-data.md").read_text("utf-8")
    for name in OPS:
        assert f"`{name}`" in text, f"docs/iceandsnow-data.md does not describe {name!r}"


def test_a_new_card_is_data_only() -> None:
    """A 29th card (an expansion's) in the open deck: its effect runs from data."""
    raw = read_data()
    raw["cards"]["events"].append(
        {
            "number": 29,
            "name": "Northern Lights",
            "deck": "open",
            "kind": "immediate",
            "crew": [],
            "optional": True,
            "effect": {
                "reveal": [
                    {"op": "each_gains", "gains": {"wood": 2}},
                    {"op": "round_modifier", "modifier": "no_walrus"},
                ]
            },
        }
    )
    content = parse_content(raw)  # the reference's 28 cards are a test, not a load check
    st = new_game(2, 3, content=content)
    while st.round == 0:
        st.apply(st.legal_actions()[0])
    wood = [st.player(s)["wood"] for s in range(2)]
    ev: list[Any] = []
    st._reveal_event(29, ev)
    assert [st.player(s)["wood"] for s in range(2)] == [w + 2 for w in wood]
    assert "no_walrus" in st.round_mods
    assert st.to_json()["ev28"] is True  # format 1's flag of that modifier
    assert type(ev[0]).__name__ == "EventRevealed"


def test_round_modifiers_in_format_1() -> None:
    """Modifiers keep format 1's flags; an unknown one in a saved state is refused."""
    st = new_game(2, 5)
    d = st.to_json()
    assert "round_mods" not in d and d["ev4"] is False
    st.round_mods = ("explore_sled",)
    d = st.to_json()
    assert d["ev4"] is True and "round_mods" not in d
    assert type(st).from_json(d).round_mods == ("explore_sled",)
    d["round_mods"] = ["kraken"]
    with pytest.raises(ValueError, match="unknown round modifier"):
        type(st).from_json(d)
