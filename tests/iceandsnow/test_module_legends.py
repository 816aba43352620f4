"""Legendary Expeditions (§9.3): the option plumbing (the module accepted,
``explorers``) and the module's data (``data/legends.json``, checked by
``legends_data.legends_problems``).  The rules: ``test_module_legends_rules.py``,
``test_module_legends_explorers.py``, ``test_module_legends_games.py``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import legends_data, options
from erebus.games.iceandsnow.legends_data import ABILITIES, EVENTS, SETS, legends_problems

LEGENDS = {"modules": ["legendary_expeditions"]}


def test_the_module_is_played_with_the_base_game_and_the_solo_scenarios() -> None:
    assert "legendary_expeditions" in options.IMPLEMENTED_MODULES
    st = game.new_game(2, 1, LEGENDS)
    assert st.options["modules"] == ["legendary_expeditions"] and st.pending == "explorer"
    solo = game.new_game(1, 1, {**LEGENDS, "scenario": "lost-expedition"})
    assert solo.pending == "explorer" and len(solo.ex_dealt[0]) == 2
    both = game.new_game(3, 1, {"modules": ["inuit_myths", "legendary_expeditions"]})
    assert both.options["modules"] == ["inuit_myths", "legendary_expeditions"]


def test_the_shipped_data_is_valid_and_matches_the_seed() -> None:
    d = legends_data.load()
    by_set = {s["set"]: s for s in d["sets"]}
    assert sorted(by_set) == list(SETS)
    # the seed's pairs (l. 1245-1340): explorer, ship, event number
    seed = {
        "A": ("John Franklin", "HMS Erebus", 49),
        "B": ("William Edward Parry", "HMS Hecla", 45),
        "C": ("James Clark Ross", "HMS Cove", 46),
        "D": ("Henry Kellett", "HMS Resolute", 51),
        "E": ("Leopold McClintock", "HMS Intrepid", 47),
        "F": ("Robert McClure", "HMS Investigator", 52),
        "G": ("Richard Collinson", "HMS Enterprise", 50),
        "H": ("Edward Belcher", "HMS Assistance", 48),
        "I": ("George Back", "HMS Terror", 54),
        "J": ("Roald Amundsen", "Gjøa", 53),
    }
    for k, (explorer, ship, event) in seed.items():
        s = by_set[k]
        assert (s["explorer"], s["ship"], s["event"]) == (explorer, ship, event)
    assert {s["ability"] for s in d["sets"]} == set(ABILITIES)
    # Franklin's bands replace 8-10 / 4-7 / 0-3 with 7-10 / 3-6 / 0-2
    bands = by_set["A"]["params"]["bands"]
    assert [(b["from"], b["to"], b["effect"]) for b in bands] == [
        (7, 10, "morale"),
        (3, 6, None),
        (0, 2, "discard"),
    ]
    assert by_set["B"]["params"]["food_spaces_1pp"] == 8
    assert by_set["G"]["params"]["mapping_pp"] == 3
    assert by_set["H"]["params"]["uses"] == 2
    assert by_set["J"]["params"]["dogs_as"] == 7


def test_the_explorer_events_are_45_to_54_five_per_deck() -> None:
    events = {e["number"]: e for e in legends_data.load()["events"]}
    assert sorted(events) == list(EVENTS)
    assert sum(e["deck"] == "open" for e in events.values()) == 5
    assert events[48]["deck"] == "coastal"  # Coastal Exploration reveals the coastal deck
    assert events[46]["effect"]["take"] == [{"op": "taker_scores", "pp": 8}]
    assert events[49]["effect"]["reveal"] == [{"op": "each_lowers", "track": "health", "amount": 1}]


def _broken(mutate: Any) -> list[str]:
    raw = copy.deepcopy(legends_data.load())
    mutate(raw)
    return legends_problems(raw)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["sets"].pop(), "the sets must be"),
        (lambda r: r["sets"][0].update(ability="flying"), "unknown ability"),
        (lambda r: r["sets"][0]["params"].pop("bands"), "takes exactly"),
        (lambda r: r["sets"][1].update(ship_rewards={"gold": 1}), "ship_rewards"),
        (lambda r: r["sets"][1].update(ship_rewards={"food": 0}), "positive"),
        (lambda r: r["events"][0].update(deck="coastal"), "as many explorer events per deck"),
        (lambda r: r["events"][0]["effect"]["take"][0].update(op="teleport"), "unknown op"),
        (lambda r: r["events"][2]["effect"]["take"][0].update(power="flight"), "power"),
        (lambda r: r["events"][3]["effect"]["reveal"][0].update(op="taker_scores"), "cannot stand"),
        (lambda r: r["events"][0].update(crew=[]), "crew counts"),
    ],
)
def test_the_validator_names_what_is_wrong(mutate: Any, message: str) -> None:
    problems = _broken(mutate)
    assert problems and any(message in p for p in problems), problems


def test_explorers_letters_are_checked_even_before_the_module_plays() -> None:
    with pytest.raises(ValueError, match="needs the legendary_expeditions module"):
        game.new_game(2, 1, {"explorers": ["A", "B"]})
