"""The action wire format of ``shared/design/engine-api.md``: round trips and bad input."""

from __future__ import annotations

from typing import Any

import pytest

from erebus.core.errors import IllegalAction
from erebus.games.northwest import Action, new_game

EXAMPLES: list[dict[str, Any]] = [
    {"type": "draft", "index": 1},
    {"type": "draw", "vehicle": "ship", "source": "display", "index": 2},
    {"type": "draw", "vehicle": "sled", "source": "pile", "pile": 3},
    {"type": "refresh", "vehicle": "ship"},
    {"type": "place", "vehicle": "ship", "tile": "L17", "x": 5, "y": 2, "rotation": 1, "side": "b"},
    {"type": "move", "vehicle": "sled", "to": [5, 2]},
    {"type": "move", "vehicle": "ship", "to": "greenland"},
    {"type": "move", "vehicle": "ship", "to": "northwest"},
    {"type": "transfer", "vehicle": "ship", "sled": {"available": 2, "resting": 1}},
    {"type": "explore", "vehicle": "ship", "token": "franklin"},
    {"type": "explore", "vehicle": "sled", "token": "strait"},
    {"type": "discover", "vehicle": "sled", "token": "inuit"},
    {"type": "discover", "vehicle": "ship", "token": "cairn"},
    {"type": "end_turn"},
    {"type": "pass"},
]


@pytest.mark.parametrize("data", EXAMPLES, ids=lambda d: d["type"])
def test_action_json_round_trip(data: dict[str, Any]) -> None:
    action = Action.from_json(data)
    assert action.to_json() == data
    assert Action.from_json(action.to_json()) == action
    assert str(action)  # short and readable
    assert len(str(action)) < 60


MALFORMED: list[Any] = [
    None,
    [],
    "pass",
    42,
    {},
    {"type": "fly"},
    {"type": 3},
    {"type": "draft"},
    {"type": "draft", "index": "1"},
    {"type": "draft", "index": True},
    {"type": "draw", "vehicle": "boat", "source": "pile", "pile": 1},
    {"type": "draw", "vehicle": "ship", "source": "bag", "index": 1},
    {"type": "draw", "vehicle": "ship", "source": "pile"},
    {"type": "place", "vehicle": "ship", "tile": "L17", "x": 5, "y": 2, "rotation": 1, "side": "c"},
    {"type": "place", "vehicle": "ship", "tile": 17, "x": 5, "y": 2, "rotation": 1},
    {"type": "place", "vehicle": "ship", "tile": "L17", "x": 5.5, "y": 2, "rotation": 1},
    {"type": "move", "vehicle": "ship"},
    {"type": "move", "vehicle": "ship", "to": [1]},
    {"type": "move", "vehicle": "ship", "to": [1, "2"]},
    {"type": "move", "vehicle": "ship", "to": "iceland"},
    {"type": "transfer", "vehicle": "ship", "sled": 3},
    {"type": "transfer", "vehicle": "ship", "sled": {"available": 2}},
    {"type": "explore", "vehicle": "ship", "token": "inuit"},
    {"type": "discover", "vehicle": "ship", "token": "strait"},
    {"type": "discover", "vehicle": "ship"},
]


@pytest.mark.parametrize("data", MALFORMED, ids=repr)
def test_malformed_action_json_raises_value_error_naming_the_problem(data: Any) -> None:
    with pytest.raises(ValueError) as info:
        Action.from_json(data)
    assert not isinstance(info.value, (KeyError, TypeError))
    assert str(info.value)


def test_illegal_action_is_a_value_error_and_leaves_the_state_untouched() -> None:
    st = new_game(3, seed=11)
    before = st.to_json()
    with pytest.raises(IllegalAction) as info:
        st.apply(Action.draft(9))
    assert isinstance(info.value, ValueError)
    assert "display tile #9" in str(info.value)
    assert st.to_json() == before


def test_apply_accepts_the_json_form_of_an_action() -> None:
    st = new_game(2, seed=5)
    st.apply({"type": "draft", "index": 0})
    assert st.reserve(st.order[-1])


def test_apply_rejects_non_actions() -> None:
    st = new_game(2, seed=5)
    with pytest.raises(IllegalAction, match="not an action"):
        st.apply(("draft", 0))  # type: ignore[arg-type]
