"""The packaged Northwest Passage data holds the values of the rules reference.

``shared/rules/northwest-passage.md`` fixes the default board, the component
counts and every scoring table; the data files (``data/*.json``) carry them.  The
validator only refuses data that cannot be played, so that another printing or a
revised [design] value is a data change; these tests are where the packaged data
is compared with the reference, value by value, and a deliberate change of the
data shows up as a changed expectation here.
"""

from __future__ import annotations

import dataclasses

import pytest

from erebus.games.northwest.content import Content, load_content
from erebus.games.northwest.validate import problems


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def test_components_section_1(content: Content) -> None:
    assert len(content.large_tiles) == 64
    assert len(content.small_tiles) == 32
    assert content.rules.token_supply == {
        "inuit": 9,
        "cairn": 9,
        "franklin": 10,
        "strait": 12,
        "cartography": 20,
    }
    assert content.rules.crew == 7
    assert max(len(t["northwest"]) for t in content.rules.arrow_tokens.values()) == 4
    assert max(len(t["greenland"]) for t in content.rules.arrow_tokens.values()) == 3


def test_default_board_section_3(content: Content) -> None:
    board = content.board
    assert (board.width, board.height) == (14, 8)
    assert board.zones == (3,) * 5 + (2,) * 5 + (1,) * 4
    assert board.border == {
        "top": "s" * 15,
        "bottom": "l" * 15,
        "west": "s" * 6 + "l" * 3,
        "east": "s" + "ll" + "ss" + "l" * 4,
    }
    printed = {(p.x, p.y): (p.id, p.corners, p.symbol) for p in board.printed}
    assert printed == {
        (13, 3): ("board:greenland", "ssss", None),
        (0, 4): ("board:northwest", "ssss", None),
        (9, 6): ("board:cairn-east", "ssll", "cairn"),
        (3, 5): ("board:cairn-west", "sssl", "cairn"),
    }
    assert board.arrows == {"greenland": (13, 3), "northwest": (0, 4)}


def test_sun_and_ice_section_4(content: Content) -> None:
    board = content.board
    assert board.rounds == 10
    assert board.sun_positions == 7
    assert board.sun_start == 3
    assert board.frozen_rows == {1: 6, 2: 4, 3: 2, 4: 0, 5: 2, 6: 4, 7: 6}


def test_setup_section_5(content: Content) -> None:
    assert content.rules.display_size == 4
    assert sorted(content.rules.arrow_tokens) == [2, 3, 4]


def test_action_costs_section_6_and_7(content: Content) -> None:
    assert content.rules.action_costs == {
        "draw": 1,
        "refresh": 2,
        "place": 1,
        "move": 1,
        "transfer": 1,
        "explore": 3,
        "discover": 2,
    }
    assert content.rules.further_action_surcharge == 1
    assert content.rules.token_points == {"inuit": 2, "cairn": 2, "franklin": 1, "strait": 1}


def test_final_scoring_section_8_1(content: Content) -> None:
    rules = content.rules
    assert rules.majorities == {
        "franklin": (13, 7, 4),
        "strait": (11, 5, 2),
        "cartography": (9, 5, 2),
    }
    assert rules.set_points == 6
    assert (rules.abandon_per_crewman, rules.abandon_ship) == (-2, -2)


def test_island_points_section_8_2(content: Content) -> None:
    assert content.rules.island_points == {2: 1, 3: 2, 4: 3, 5: 5, 6: 7, 7: 9, 8: 12}
    assert [content.rules.island_value(n) for n in (1, 2, 8, 9, 20)] == [0, 1, 12, 12, 12]


def test_arrow_tokens_section_8_3(content: Content) -> None:
    assert content.rules.arrow_tokens == {
        4: {"northwest": (12, 9, 6, 3), "greenland": (8, 5, 2)},
        3: {"northwest": (12, 8, 4), "greenland": (8, 4)},
        2: {"northwest": (12, 6), "greenland": (8,)},
    }


# ----------------------------------------------------------- what only these tests check


def _rules(content: Content, **changes: object) -> Content:
    return dataclasses.replace(content, rules=dataclasses.replace(content.rules, **changes))


def test_other_player_counts_and_majorities_are_playable_data(content: Content) -> None:
    """The validator checks structure, not the reference values above: a data set
    for 2-3 players, or without a Cartography majority, loads."""
    two_three = {n: t for n, t in content.rules.arrow_tokens.items() if n != 4}
    assert problems(_rules(content, arrow_tokens=two_three)) == []
    majorities = {k: v for k, v in content.rules.majorities.items() if k != "cartography"}
    assert problems(_rules(content, majorities=majorities)) == []


def test_player_counts_must_run_without_a_gap(content: Content) -> None:
    gap = {n: t for n, t in content.rules.arrow_tokens.items() if n != 3}
    assert "rules: arrow_tokens has no entry for 3 players" in problems(
        _rules(content, arrow_tokens=gap)
    )
    assert "rules: arrow_tokens is empty; it sets the tokens for each player count" in problems(
        _rules(content, arrow_tokens={})
    )
    zero = {0: content.rules.arrow_tokens[2], **content.rules.arrow_tokens}
    assert any(
        "arrow_tokens for 0 players" in p for p in problems(_rules(content, arrow_tokens=zero))
    )
