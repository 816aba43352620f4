"""The Myths & Legends options (§9): ``modules`` and ``explorers``, their
canonical form and the compatibility the seed states (l. 939: Walking on Ice
not with a solo scenario; l. 1166, 1215: Inuit Myths and Legendary Expeditions
with everything)."""

from __future__ import annotations

import pytest

from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import options
from erebus.games.iceandsnow.options import MODULES, normalize
from erebus.games.iceandsnow.spec import parse_options

SOLO = {"scenario": "lost-expedition"}


@pytest.fixture
def all_enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every module counted as implemented (checks the compatibility rules alone)."""
    monkeypatch.setattr(options, "IMPLEMENTED_MODULES", frozenset(MODULES))


def test_defaults_are_stored_in_the_canonical_options() -> None:
    opts = normalize({}, 2)
    assert opts["modules"] == [] and opts["explorers"] == "random"
    assert game.new_game(2, 1).options["modules"] == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("inuit_myths", "must be a list"),
        (["inuit_myth"], "unknown module"),
        ([3], "must be a list"),
        (["inuit_myths", "inuit_myths"], "twice"),
    ],
)
def test_bad_module_lists_are_refused(value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_options(2, {"modules": value})


def test_a_module_not_yet_implemented_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(options, "IMPLEMENTED_MODULES", frozenset())
    for m in MODULES:
        with pytest.raises(ValueError, match="not implemented yet"):
            normalize({"modules": [m]}, 2)


@pytest.mark.usefixtures("all_enabled")
def test_modules_are_stored_in_canonical_order() -> None:
    opts = normalize({"modules": ["legendary_expeditions", "walking_on_ice", "inuit_myths"]}, 3)
    assert opts["modules"] == list(MODULES)


@pytest.mark.usefixtures("all_enabled")
def test_walking_on_ice_is_refused_with_a_solo_scenario() -> None:
    for scenario in ("lost-expedition", "magnetic-north-pole"):
        with pytest.raises(ValueError, match="cannot be played with a solo scenario"):
            normalize({"modules": ["walking_on_ice"], "scenario": scenario}, 1)


@pytest.mark.usefixtures("all_enabled")
def test_the_other_modules_combine_with_everything() -> None:
    both = ["inuit_myths", "legendary_expeditions"]
    assert normalize({**SOLO, "modules": both}, 1)["modules"] == both
    assert normalize({"modules": list(MODULES), "modes": ["survival"]}, 4)["modules"] == list(
        MODULES
    )


@pytest.mark.usefixtures("all_enabled")
def test_explorers_one_set_letter_per_seat() -> None:
    legends = {"modules": ["legendary_expeditions"]}
    assert normalize({**legends, "explorers": ["a", "J"]}, 2)["explorers"] == ["A", "J"]
    assert normalize(legends, 2)["explorers"] == "random"
    for value, message in [
        (["A"], "one set letter per player"),
        (["A", "A"], "twice"),
        (["A", "K"], "unknown explorer set"),
        ("A", "must be"),
        ([1, 2], "must be"),
    ]:
        with pytest.raises(ValueError, match=message):
            normalize({**legends, "explorers": value}, 2)


def test_explorers_need_the_legendary_expeditions_module() -> None:
    with pytest.raises(ValueError, match="needs the legendary_expeditions module"):
        normalize({"explorers": ["A", "B"]}, 2)


def test_a_saved_game_without_module_options_still_loads() -> None:
    st = game.new_game(2, 5)
    d = st.to_json()
    for key in ("modules", "explorers"):
        del d["options"][key]
    assert game.State.from_json(d).options["modules"] == []
