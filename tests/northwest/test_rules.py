"""One test per rule of ``shared/rules/northwest-passage.md``, named after the rule.

Positions are built with a tile set designed for each test (see ``nwkit``),
so a test fails only when the rule it names breaks.  Rulebook examples are
marked "example N" (seed 000 numbering, see docs/rules-sources.md).
"""

from __future__ import annotations

import pytest

from erebus.core.errors import IllegalAction
from erebus.games.northwest import scoring
from erebus.games.northwest.actions import Action
from erebus.games.northwest.state import CREW_FIELDS, N_KINDS, State, new_game
from northwest.nwkit import (
    SEA2,
    at,
    crew,
    detach,
    filler,
    give,
    kinds,
    make_content,
    new,
    put,
    score_events,
    side,
    sled_deployed,
    turn,
)

# -- tile sets used below ------------------------------------------------------

TILES = {
    # all sea, side b with a Franklin symbol on the west square
    "SEA": (side(SEA2), side(SEA2, "franklin", 0)),
    "SEA2": (side(SEA2), side(("sss", "ssl"))),
    "SEA3": (side(("lss", "sss")), side(SEA2)),
    # a land vertex in the middle of the south edge / north edge (2-tile island)
    "ISL_N": (side(("sss", "sls")), side(("sss", "lss"))),
    "ISL_S": (side(("sls", "sss")), side(("ssl", "sss"))),
    # a land corner at the east end of the north edge (clashes with Greenland sea)
    "CLASH": (side(("ssl", "sss")), side(("ssl", "lss"))),
    # sea-route wall pieces around the Greenland pocket
    "WALL_N": (side(("ssl", "lll")), side(SEA2)),
    "WALL_S": (side(("lll", "ssl")), side(SEA2)),
    "WALL_W": (side(("lll", "sss")), side(("lls", "sss"))),
    # hole-making pieces
    "H1": (side(SEA2), side(("lll", "lll"))),
    "H2": (side(("ssl", "sss")), side(("lll", "lll"))),
    "H3": (side(("sss", "sls")), side(("lll", "lll"))),
    "PLUG": (side(SEA2), side(("lll", "lll"))),
    # symbols
    "INUIT": (side(("lss", "sss"), "inuit", 0), side(("sss", "ssl"), "inuit", 1)),
    "STRAIT": (side(SEA2, "strait", 0), side(SEA2, "strait", 1)),
    "CAIRN": (side(("sss", "lll"), "cairn", 1), side(SEA2)),
    # vertical sea tile for the Greenland column; right column land (east border)
    "VERT": (side(("lls", "sss")), side(SEA2)),
    **filler(12),
}


@pytest.fixture
def content():  # type: ignore[no-untyped-def]
    return make_content(TILES)


def g(content, players: int = 2) -> State:  # type: ignore[no-untyped-def]
    st = new(content, players)
    turn(st, 0)
    return st


# -- §5 setup ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_ship_on_greenland_sled_on_board_all_crew_in_ship(players: int) -> None:
    st = new_game(players, seed=1)
    for seat in range(players):
        assert st.position(seat, "ship") == "greenland"
        assert st.position(seat, "sled") is None
        assert st.crew(seat) == {
            "ship": {"available": 7, "resting": 0},
            "sled": {"available": 0, "resting": 0},
            "lost": 0,
        }
    assert len(st.display) == 4
    assert st.round == 0
    assert st.sun == 3


@pytest.mark.parametrize(
    ("players", "nw", "gl"),
    [(2, [12, 6], [8]), (3, [12, 8, 4], [8, 4]), (4, [12, 9, 6, 3], [8, 5, 2])],
)
def test_setup_arrow_tokens_by_player_count(players: int, nw: list[int], gl: list[int]) -> None:
    st = new_game(players, seed=3)
    assert st.nw_left == nw
    assert st.gl_left == gl


def test_setup_cairn_tokens_on_printed_cairn_squares() -> None:
    st = new_game(2, seed=0)
    assert st.board.token_at(9, 6) == "cairn"
    assert st.board.token_at(3, 5) == "cairn"
    assert st.board.tile_at(9, 6) == "board:cairn-east"
    assert st.board.tile_at(13, 3) == "board:greenland"


@pytest.mark.parametrize("players", [1, 5, 0])
def test_setup_player_count_out_of_range_is_rejected(players: int) -> None:
    with pytest.raises(ValueError, match="2–4 players"):
        new_game(players, seed=0)


def test_setup_piles_hold_small_tiles_by_rotation_class() -> None:
    st = new_game(2, seed=0)
    assert len(st.piles) == 6
    assert sum(st.piles) == 32
    assert all(p >= 4 for p in st.piles)


def test_draft_goes_backwards_from_the_last_player_and_is_free(content) -> None:  # type: ignore[no-untyped-def]
    st = State.new(3, 5, content)
    order = st.order[:]
    drafted = []
    while st.round == 0:
        seat = st.current_player
        first = st.display[0]
        ev = st.apply(Action.draft(0))
        drafted.append(seat)
        assert st.reserve(seat) == [first]
        assert len(st.display) == 4
        assert "CrewSpent" not in kinds(ev)
    assert drafted == order[::-1]
    assert st.round == 1 and st.current_player == order[0]
    assert all(st.crew(s)["ship"]["available"] == 7 for s in range(3))


def test_draft_only_draft_actions_are_legal() -> None:
    st = new_game(2, seed=0)
    assert {a.kind for a in st.legal_actions()} == {"draft"}
    with pytest.raises(IllegalAction, match="draft"):
        st.apply(Action("pass"))


# -- §6 turn structure -----------------------------------------------------------


def test_example_3_move_then_move_costs_three(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA", 11, 3)
    st.apply(Action.move("ship", (13, 3)))
    st.apply(Action.move("ship", (11, 3)))
    assert st.crew(0)["ship"] == {"available": 4, "resting": 3}


def test_example_4_draw_place_move_costs_five(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.disp[0] = detach(st, "SEA")
    st.apply(Action.draw_display("ship", 0))
    st.apply(Action.place("ship", "SEA", 11, 3, 0, "a"))
    st.apply(Action.move("ship", (13, 3)))
    assert st.crew(0)["ship"] == {"available": 2, "resting": 5}


def test_further_action_costs_one_more_than_base(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    assert st.cost_of("draw") == 1 and st.cost_of("explore") == 3
    st.apply(Action.draw_pile("ship", 0))
    assert st.cost_of("draw") == 2 and st.cost_of("explore") == 4 and st.cost_of("refresh") == 3


def test_crew_is_paid_from_the_column_of_the_acting_vehicle(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(3, 0), sled=(4, 0))
    at(st, 0, "sled", "greenland")
    st.apply(Action.draw_pile("sled", 0))
    assert st.crew(0)["sled"] == {"available": 3, "resting": 1}
    assert st.crew(0)["ship"] == {"available": 3, "resting": 0}


def test_cost_error_names_the_column_and_the_cost(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(6, 0), sled=(1, 0))
    at(st, 0, "sled", (9, 6))
    before = st.to_json()
    with pytest.raises(
        IllegalAction, match="the sled column has 1 available crewman; this action costs 2"
    ):
        st.apply(Action("discover", "sled", token="cairn"))
    assert st.to_json() == before


def test_end_turn_needs_an_action_first(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    assert Action("end_turn") not in st.legal_actions()
    with pytest.raises(IllegalAction, match="take an action or pass"):
        st.apply(Action("end_turn"))


def test_end_turn_keeps_available_crew_for_later_turns(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action.draw_pile("ship", 0))
    st.apply(Action("end_turn"))
    assert st.current_player == 1
    assert st.crew(0)["ship"] == {"available": 6, "resting": 1}


def test_pass_moves_all_available_crew_to_resting(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(4, 1), sled=(2, 0))
    at(st, 0, "sled", "greenland")
    st.apply(Action("pass"))
    assert st.crew(0)["ship"] == {"available": 0, "resting": 5}
    assert st.crew(0)["sled"] == {"available": 0, "resting": 2}
    assert st.passed[0]


def test_passed_player_takes_no_more_turns_this_round(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action("pass"))
    for _ in range(3):
        assert st.current_player == 1
        st.apply(Action.draw_pile("ship", 0))
        st.apply(Action("end_turn"))


def test_player_left_alone_takes_turn_after_turn_at_base_cost(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action("pass"))
    st.apply(Action.draw_pile("ship", 0))
    st.apply(Action("end_turn"))
    assert st.current_player == 1 and st.acted == 0
    assert st.cost_of("draw") == 1


def test_spending_the_last_available_crewman_passes_at_once(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(1, 6))
    ev = st.apply(Action.draw_pile("ship", 0))
    assert "Passed" in kinds(ev)
    assert st.passed[0] and st.pass_order == [0]
    assert st.current_player == 1


def test_example_13_passing_order_is_next_rounds_turn_order(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content, players=3)
    st.order = [0, 1, 2]
    st.apply(Action("pass"))  # seat 0 passes first
    assert st.current_player == 1
    st.apply(Action.draw_pile("ship", 0))
    st.apply(Action("end_turn"))
    st.apply(Action("pass"))  # seat 2 passes second
    st.apply(Action("pass"))  # seat 1 last
    assert st.round == 2
    assert st.order == [0, 2, 1]
    assert st.current_player == 0


def test_player_with_no_available_crew_passes_when_the_turn_comes(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 1, ship=(0, 0), sled=(0, 0), lost=7)
    ev = st.apply(Action("pass"))
    assert kinds(ev).count("Passed") == 2  # seat 0 passes, seat 1 is passed for
    assert [e.automatic for e in ev if type(e).__name__ == "Passed"] == [False, True]
    assert st.round == 2


def test_end_of_round_resting_crew_become_available_in_their_column(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(2, 2), sled=(1, 2))
    at(st, 0, "sled", "greenland")
    st.apply(Action("pass"))
    st.apply(Action("pass"))
    assert st.round == 2
    assert st.crew(0)["ship"] == {"available": 4, "resting": 0}
    assert st.crew(0)["sled"] == {"available": 3, "resting": 0}


# -- §4 sun and ice ---------------------------------------------------------------


def test_sun_moves_one_step_each_round_from_III_wrapping_VII_to_I() -> None:
    st = new_game(2, seed=0)
    while st.round == 0:
        st.apply(Action.draft(0))
    suns = []
    while not st.is_over:
        suns.append(st.sun)
        st.apply(Action("pass"))
        if not st.is_over:
            st.apply(Action("pass"))
    assert suns == [3, 4, 5, 6, 7, 1, 2, 3, 4, 5]


@pytest.mark.parametrize(("sun", "rows"), [(1, 6), (2, 4), (3, 2), (4, 0), (5, 2), (6, 4), (7, 6)])
def test_frozen_rows_by_sun_position(sun: int, rows: int) -> None:
    st = new_game(2, seed=0)
    st.sun = sun
    assert st.frozen_rows() == set(range(rows))


def test_game_ends_after_round_ten_without_moving_the_sun(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.round, st.sun = 10, 5
    st.apply(Action("pass"))
    ev = st.apply(Action("pass"))
    assert st.is_over and st.current_player is None
    assert "SunMoved" not in kinds(ev) and kinds(ev)[-1] == "GameOver"
    assert st.legal_actions() == []


def test_sled_on_thawed_sea_is_lost_with_its_crew(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA", 5, 1)  # row 1: frozen under III, thawed under IV
    crew(st, 0, ship=(4, 0), sled=(2, 1))
    at(st, 0, "sled", (5, 1))
    st.apply(Action("pass"))
    ev = st.apply(Action("pass"))
    assert "SledLost" in kinds(ev)
    assert st.position(0, "sled") == "lost"
    assert st.crew(0)["lost"] == 3 and st.crew(0)["sled"] == {"available": 0, "resting": 0}


def test_sled_on_land_or_still_frozen_sea_survives_the_thaw(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA3", 5, 1)  # has a land vertex
    crew(st, 0, ship=(4, 0), sled=(3, 0))
    at(st, 0, "sled", (5, 1))
    st.apply(Action("pass"))
    st.apply(Action("pass"))
    assert st.position(0, "sled") == (5, 1)


def test_lost_sled_never_comes_back(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(7, 0), sled=(0, 0))
    st.loc[1] = -4  # LOST
    assert not [a for a in st.legal_actions() if a.kind == "transfer"]
    with pytest.raises(IllegalAction, match="never comes back"):
        st.apply(Action.transfer("ship", 2, 0))


# -- §7.A/B draw and refresh ----------------------------------------------------


def test_draw_from_display_refills_the_slot_from_the_bag(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    first = st.display[0]
    bag = len(st.bag)
    st.apply(Action.draw_display("ship", 0))
    assert st.reserve(0) == [first]
    assert len(st.display) == 4 and len(st.bag) == bag - 1


def test_draw_from_a_small_pile_takes_its_top_tile(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action.draw_pile("ship", 2))
    assert st.piles[2] == 5 and len(st.reserve(0)) == 1


def test_refresh_draws_four_new_tiles_before_returning_the_old(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    old = set(st.display)
    st.apply(Action("refresh", "ship"))
    assert not old & set(st.display)  # rulebook: the old four cannot come straight back
    assert st.crew(0)["ship"]["resting"] == 2


def test_refresh_is_followed_only_by_a_free_draw_of_the_same_vehicle(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action("refresh", "ship"))
    legal = st.legal_actions()
    assert legal and all(a.kind == "draw" and a.vehicle == "ship" for a in legal)
    with pytest.raises(IllegalAction, match="after a refresh"):
        st.apply(Action("pass"))
    st.apply(legal[0])
    assert st.crew(0)["ship"] == {"available": 5, "resting": 2}
    assert st.cost_of("draw") == 2  # refresh + draw was the turn's first action


def test_refresh_with_two_tiles_in_the_bag_tops_the_display_up_to_four(content) -> None:  # type: ignore[no-untyped-def]
    """Issue 10: the 2 new tiles come first, the old 4 go back, then 2 of them come out
    again, so the display is full for the rest of the game; no tile appears or vanishes."""
    st = g(content)
    st.bag = st.bag[:2]  # a late position: only two large tiles left in the bag
    fresh, old = set(st.bag), set(st.disp)
    tiles = sorted(st.bag + st.disp)
    ev = st.apply(Action("refresh", "ship"))
    assert len(st.disp) == 4 and len(st.bag) == 2
    assert fresh <= set(st.disp)  # the new ones are drawn before the old ones go back
    assert len(old & set(st.disp)) == 2 and set(st.bag) <= old
    assert sorted(st.bag + st.disp) == tiles  # conserved
    shown = next(e for e in ev if type(e).__name__ == "DisplayRefreshed")
    assert list(shown.tiles) == st.display
    st.apply(Action.draw_display("ship", 0))  # the draw after it refills from the bag
    assert len(st.disp) == 4 and len(st.bag) == 1


# -- §7.C place ------------------------------------------------------------------


def test_first_tile_goes_next_to_the_greenland_entrance(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    give(st, 0, "SEA")
    places = {(a.x, a.y) for a in st.legal_actions() if a.kind == "place"}
    assert (11, 3) in places and (12, 2) in places
    assert all(abs(x - 13) + abs(y - 3) <= 3 for x, y in places)
    ev = st.apply(Action.place("ship", "SEA", 11, 3, 0, "a"))
    assert kinds(ev)[:2] == ["CrewSpent", "TilePlaced"]
    assert st.board.tile_at(11, 3) == st.board.tile_at(12, 3) == "SEA"
    assert st.reserve(0) == []


def test_place_must_share_an_edge_with_the_acting_vehicles_tile(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    give(st, 0, "SEA")
    with pytest.raises(IllegalAction, match="share an edge"):
        st.apply(Action.place("ship", "SEA", 5, 5, 0, "a"))


def test_place_every_vertex_must_match_the_fixed_terrain(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    give(st, 0, "CLASH")
    before = st.to_json()
    with pytest.raises(
        IllegalAction, match=r"tile CLASH side a does not match the sea at vertex \(13, 3\)"
    ):
        st.apply(Action.place("ship", "CLASH", 11, 3, 0, "a"))
    assert st.to_json() == before
    assert Action.place("ship", "CLASH", 11, 3, 0, "a") not in st.legal_actions()


def test_example_6_land_and_sea_match_diagonally_too(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA3", 9, 2)  # fixes land at vertex (9, 2)
    put(st, "SEA2", 5, 1)
    at(st, 0, "ship", (5, 1))
    give(st, 0, "F01")  # side a all sea; side b land at its south-east corner
    # At (7, 1) the tile touches SEA3 only diagonally, through vertex (9, 2).
    with pytest.raises(IllegalAction, match=r"does not match the land at vertex \(9, 2\)"):
        st.apply(Action.place("ship", "F01", 7, 1, 0, "a"))
    assert Action.place("ship", "F01", 7, 1, 0, "b") in st.legal_actions()
    st.apply(Action.place("ship", "F01", 7, 1, 0, "b"))


def test_place_only_on_empty_squares_inside_the_board(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    give(st, 0, "SEA")
    with pytest.raises(IllegalAction, match="already covered"):
        st.apply(Action.place("ship", "SEA", 12, 3, 0, "a"))
    with pytest.raises(IllegalAction, match="does not fit on the board"):
        st.apply(Action.place("ship", "SEA", 13, 4, 0, "a"))


def test_place_only_tiles_from_your_reserve(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    with pytest.raises(IllegalAction, match="not in your reserve"):
        st.apply(Action.place("ship", "SEA", 11, 3, 0, "a"))
    with pytest.raises(IllegalAction, match="no tile"):
        st.apply(Action.place("ship", "NOPE", 11, 3, 0, "a"))


def test_small_tiles_are_placed_pattern_side_up(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action.draw_pile("ship", 0))
    tid = st.reserve(0)[0]
    sides = {a.side for a in st.legal_actions() if a.kind == "place"}
    assert sides == {"a"}
    with pytest.raises(IllegalAction, match="no side 'b'"):
        st.apply(Action.place("ship", tid, 12, 2, 0, "b"))


def test_large_tiles_may_be_flipped_and_rotated(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    give(st, 0, "SEA")
    legal = [a for a in st.legal_actions() if a.kind == "place"]
    assert {a.side for a in legal} == {"a", "b"}
    assert {a.rotation for a in legal} == {0, 1, 2, 3}


def test_place_must_leave_a_sea_route_between_the_arrows(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "WALL_N", 12, 1)
    put(st, "WALL_S", 12, 5)
    put(st, "SEA", 9, 2)
    at(st, 0, "ship", (9, 2))
    give(st, 0, "WALL_W")
    before = st.to_json()
    with pytest.raises(IllegalAction, match="sea route"):
        st.apply(Action.place("ship", "WALL_W", 11, 2, 1, "a"))
    assert st.to_json() == before
    assert Action.place("ship", "WALL_W", 11, 2, 1, "a") not in st.legal_actions()
    # side b leaves (12, 4) sea, so the pocket stays open
    assert Action.place("ship", "WALL_W", 11, 2, 1, "b") in st.legal_actions()
    st.apply(Action.place("ship", "WALL_W", 11, 2, 1, "b"))


def test_symbol_on_the_placed_side_gets_its_token(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    give(st, 0, "SEA")
    ev = st.apply(Action.place("ship", "SEA", 11, 3, 0, "b"))
    assert "TokenPlaced" in kinds(ev)
    assert st.board.token_at(11, 3) == "franklin"


def test_symbol_gets_no_token_when_that_kind_has_run_out(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.supply[2] = 0  # franklin
    give(st, 0, "SEA")
    ev = st.apply(Action.place("ship", "SEA", 11, 3, 0, "b"))
    assert "TokenPlaced" not in kinds(ev)
    assert st.board.token_at(11, 3) is None


def _hole_position(content):  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "H1", 5, 4)
    put(st, "H2", 5, 6)
    put(st, "H3", 7, 5, rotation=1)
    at(st, 0, "ship", (5, 6))
    give(st, 0, "PLUG")
    return st


def test_example_7_a_hole_is_filled_with_a_matching_small_tile(content) -> None:  # type: ignore[no-untyped-def]
    st = _hole_position(content)
    ev = st.apply(Action.place("ship", "PLUG", 4, 5, 0, "a"))
    filled = [e for e in ev if type(e).__name__ == "HoleFilled"]
    assert [(e.x, e.y, e.joker) for e in filled] == [(6, 5, False)]
    assert st.piles[1] == 5  # one land corner: class 1
    assert st.board.tile_at(6, 5) is not None
    assert st.board.vertex(7, 6) == "land"


def test_hole_gets_a_joker_when_its_class_is_exhausted(content) -> None:  # type: ignore[no-untyped-def]
    st = _hole_position(content)
    st.pile_counts[1] = 0
    ev = st.apply(Action.place("ship", "PLUG", 4, 5, 0, "a"))
    filled = [e for e in ev if type(e).__name__ == "HoleFilled"]
    assert len(filled) == 1 and filled[0].joker
    assert st.piles[0] == 7  # [design] the Joker comes from the largest pile


def test_hole_stays_empty_when_the_small_piles_are_empty(content) -> None:  # type: ignore[no-untyped-def]
    st = _hole_position(content)
    st.pile_counts[:] = [0] * 6
    ev = st.apply(Action.place("ship", "PLUG", 4, 5, 0, "a"))
    assert "HoleFilled" not in kinds(ev)
    assert st.board.tile_at(6, 5) is None


def _island_position(content):  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "ISL_N", 5, 2)
    put(st, "SEA2", 7, 3)
    at(st, 0, "ship", (7, 3))
    give(st, 0, "ISL_S")
    return st


def test_example_8_two_tile_island_gives_a_cartography_token_and_one_point(content) -> None:  # type: ignore[no-untyped-def]
    st = _island_position(content)
    ev = st.apply(Action.place("ship", "ISL_S", 5, 3, 0, "a"))
    islands = [e for e in ev if type(e).__name__ == "IslandCompleted"]
    assert [(e.size, e.cartography) for e in islands] == [(2, True)]
    assert score_events(ev) == [(0, 1, "island of 2 tiles")]
    assert st.tokens(0)["cartography"] == 1 and st.scores()[0] == 1


def test_island_points_without_a_token_once_cartography_runs_out(content) -> None:  # type: ignore[no-untyped-def]
    st = _island_position(content)
    st.supply[4] = 0
    ev = st.apply(Action.place("ship", "ISL_S", 5, 3, 0, "a"))
    assert st.tokens(0)["cartography"] == 0
    assert score_events(ev) == [(0, 1, "island of 2 tiles")]


def test_land_touching_an_empty_square_is_not_a_completed_island(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA2", 7, 3)
    at(st, 0, "ship", (7, 3))
    give(st, 0, "ISL_S")
    ev = st.apply(Action.place("ship", "ISL_S", 5, 3, 0, "a"))
    assert "IslandCompleted" not in kinds(ev)


def test_land_reaching_the_border_is_mainland_not_an_island(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "CAIRN", 5, 6)  # land along its south edge (row line 7)
    put(st, "H2", 7, 7, side_="b")  # all land
    at(st, 0, "ship", (7, 7))
    give(st, 0, "H1")
    ev = st.apply(Action.place("ship", "H1", 5, 7, 0, "b"))  # all land down to the border
    assert "IslandCompleted" not in kinds(ev)


@pytest.mark.parametrize(
    ("size", "points"), [(1, 0), (2, 1), (3, 2), (4, 3), (5, 5), (6, 7), (7, 9), (8, 12), (12, 12)]
)
def test_island_points_by_size_in_tiles(size: int, points: int) -> None:
    assert new_game(2, seed=0).content.rules.island_value(size) == points


# -- §7.D move -----------------------------------------------------------------


def test_ship_moves_across_a_sea_edge_between_unfrozen_squares(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA", 11, 3)
    moves = [a.to for a in st.legal_actions() if a.kind == "move"]
    assert moves == [(13, 3)]
    st.apply(Action.move("ship", (13, 3)))
    assert (11, 3) in [a.to for a in st.legal_actions() if a.kind == "move"]
    st.apply(Action.move("ship", (12, 3)))  # any square of the destination tile
    assert st.position(0, "ship") == (11, 3)


def test_ship_cannot_enter_or_cross_frozen_squares(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.sun = 2  # rows 0-3 frozen: the Greenland entrance is ice
    with pytest.raises(IllegalAction, match="unfrozen"):
        st.apply(Action.move("ship", (13, 3)))
    assert not [a for a in st.legal_actions() if a.kind == "move"]


def test_example_10_ice_bound_ship_cannot_move_but_its_sled_can(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "VERT", 13, 1, rotation=1)  # (13,1)-(13,2), land along the east border
    put(st, "SEA", 11, 3)
    st.sun = 2  # rows 0-3 frozen
    at(st, 0, "ship", (13, 3))
    at(st, 0, "sled", (13, 3))
    crew(st, 0, ship=(4, 0), sled=(3, 0))
    moves = {(a.vehicle, a.to) for a in st.legal_actions() if a.kind == "move"}
    assert not [m for m in moves if m[0] == "ship"]
    assert ("sled", (13, 1)) in moves  # frozen on both sides
    assert ("sled", "greenland") in moves  # Greenland entrance frozen: sled may go
    assert ("sled", (11, 3)) in moves


def test_sled_moves_across_land_edges_or_between_frozen_squares(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "VERT", 13, 1, rotation=1)
    at(st, 0, "sled", (13, 1))
    crew(st, 0, ship=(4, 0), sled=(3, 0))
    # Sun III: row 2 and row 3 are not frozen, the shared edge (13,3)-(14,3) is sea.
    assert ("sled", (13, 3)) not in {
        (a.vehicle, a.to) for a in st.legal_actions() if a.kind == "move"
    }
    st.sun = 2
    assert ("sled", (13, 3)) in {(a.vehicle, a.to) for a in st.legal_actions() if a.kind == "move"}


def test_any_number_of_vehicles_may_share_a_tile(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action.move("ship", (13, 3)))
    st.apply(Action("end_turn"))
    st.apply(Action.move("ship", (13, 3)))
    assert st.position(0, "ship") == st.position(1, "ship") == (13, 3)


def test_first_to_reach_the_northwest_passage_takes_the_highest_token(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    at(st, 0, "ship", (0, 4))
    at(st, 1, "ship", (0, 4))
    ev = st.apply(Action.move("ship", "northwest"))
    assert score_events(ev) == [(0, 12, "northwest")]
    assert st.tokens(0)["northwest"] == 12
    st.apply(Action.move("ship", (0, 4)))
    ev = st.apply(Action.move("ship", "northwest"))  # once per player
    assert score_events(ev) == []
    st.apply(Action("end_turn"))
    ev = st.apply(Action.move("ship", "northwest"))
    assert score_events(ev) == [(1, 6, "northwest")]


def test_sled_needs_the_arrow_square_frozen_to_use_an_arrow(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    at(st, 0, "sled", (0, 4))
    crew(st, 0, ship=(4, 0), sled=(3, 0))
    assert ("sled", "northwest") not in {
        (a.vehicle, a.to) for a in st.legal_actions() if a.kind == "move"
    }
    st.sun = 1  # rows 0-5 frozen
    st.apply(Action.move("sled", "northwest"))
    assert st.tokens(0)["northwest"] == 12


def test_returning_to_greenland_scores_and_the_expedition_sits_out_later_rounds(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action.move("ship", (13, 3)))
    ev = st.apply(Action.move("ship", "greenland"))
    assert score_events(ev) == [(0, 8, "greenland")]
    assert st.returned(0) and st.tokens(0)["greenland"] == 8
    # the returned player finishes the action phase normally
    assert st.current_player == 0 and st.legal_actions()
    st.apply(Action("pass"))
    st.apply(Action("pass"))
    assert st.round == 2 and st.order == [1]
    st.apply(Action.draw_pile("ship", 0))
    st.apply(Action("end_turn"))
    assert st.current_player == 1


def test_game_ends_when_every_expedition_has_returned(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    for seat in (0, 1):
        at(st, seat, "ship", (13, 3))
    st.apply(Action.move("ship", "greenland"))
    st.apply(Action("pass"))
    st.apply(Action.move("ship", "greenland"))
    ev = st.apply(Action("pass"))
    assert st.is_over and st.round == 1
    assert kinds(ev)[-1] == "GameOver"
    assert st.tokens(1)["greenland"] is None  # 2 players: one Greenland token


def test_ranking_ties_go_to_who_returned_to_greenland_first(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content, players=3)
    st.score[:] = [5, 5, 5]
    st.ret_order[:] = [0, 2, 1]
    assert st.ranking() == [2, 1, 0]


# -- §7.E transfer ---------------------------------------------------------------


def test_example_9_transfer_deploys_the_sled_on_the_ships_tile(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA3", 11, 3)  # has a land vertex
    at(st, 0, "ship", (11, 3))
    ev = st.apply(Action.transfer("ship", 4, 0))
    assert st.crew(0)["ship"] == {"available": 2, "resting": 1}
    assert st.crew(0)["sled"] == {"available": 4, "resting": 0}
    assert st.position(0, "sled") == (11, 3)
    assert "SledDeployed" in kinds(ev)


def test_sled_deploys_only_where_the_ship_has_land_or_ice(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA", 11, 3)
    at(st, 0, "ship", (11, 3))
    assert not [a for a in st.legal_actions() if a.kind == "transfer"]
    with pytest.raises(IllegalAction, match="land or ice"):
        st.apply(Action.transfer("ship", 2, 0))
    st.sun = 1  # rows 0-5 frozen: the tile is ice
    st.apply(Action.transfer("ship", 2, 0))
    assert sled_deployed(st, 0)


def test_sled_deploys_in_greenland_but_not_on_the_northwest_arrow(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.apply(Action.transfer("ship", 1, 0))
    assert st.position(0, "sled") == "greenland"
    assert not st.returned(0)
    at(st, 1, "ship", "northwest")
    st.apply(Action("end_turn"))
    with pytest.raises(IllegalAction, match="land or ice"):
        st.apply(Action.transfer("ship", 1, 0))


def test_transfer_needs_ship_and_sled_on_the_same_tile(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA3", 11, 3)
    at(st, 0, "sled", (11, 3))
    crew(st, 0, ship=(4, 0), sled=(3, 0))
    with pytest.raises(IllegalAction, match="same tile"):
        st.apply(Action.transfer("ship", 4, 0))


def test_transfer_keeps_each_crewmans_state_and_the_payer_may_move(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(3, 2), sled=(2, 0))
    at(st, 0, "sled", "greenland")
    st.apply(Action.transfer("sled", 0, 3))  # the resting payer goes to the sled too
    assert st.crew(0)["sled"] == {"available": 0, "resting": 3}
    assert st.crew(0)["ship"] == {"available": 4, "resting": 0}


def test_emptied_sled_column_sends_the_sled_back_to_the_player_board(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(5, 0), sled=(2, 0))
    at(st, 0, "sled", "greenland")
    ev = st.apply(Action.transfer("ship", 0, 0))
    assert st.position(0, "sled") is None and "SledRecalled" in kinds(ev)
    assert st.crew(0)["ship"] == {"available": 6, "resting": 1}


def test_transfer_that_changes_nothing_is_not_an_action(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    with pytest.raises(IllegalAction, match="change nothing"):
        st.apply(Action.transfer("ship", 0, 0))
    assert Action.transfer("ship", 0, 0) not in st.legal_actions()


def test_transfer_counts_are_bounded_by_the_crew(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    with pytest.raises(IllegalAction, match="only 6 crew are available"):
        st.apply(Action.transfer("ship", 7, 0))
    transfers = [a for a in st.legal_actions() if a.kind == "transfer"]
    assert len(transfers) == 7 * 2 - 1  # available 0..6 × resting 0..1, minus no change


# -- §7.F/G explore and discover ------------------------------------------------


def test_example_11_explore_a_strait_costs_three_and_scores_one_times_zone(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "STRAIT", 3, 2)  # zone x3
    at(st, 0, "ship", (3, 2))
    ev = st.apply(Action("explore", "ship", token="strait"))
    assert st.crew(0)["ship"]["resting"] == 3
    assert score_events(ev) == [(0, 3, "strait ×3")]
    assert st.tokens(0)["strait"] == 1 and st.board.token_at(3, 2) is None


def test_example_12_discover_a_cairn_costs_two_and_scores_two_times_zone(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    at(st, 0, "ship", (9, 6))  # printed cairn, zone x2
    ev = st.apply(Action("discover", "ship", token="cairn"))
    assert st.crew(0)["ship"]["resting"] == 2
    assert score_events(ev) == [(0, 4, "cairn ×2")]


def test_example_14_token_scores_with_the_zone_of_its_symbols_square(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "INUIT", 9, 2, side_="b")  # spans x2 (col 9) and x1 (col 10); symbol on col 10
    crew(st, 0, ship=(4, 0), sled=(3, 0))
    at(st, 0, "sled", (9, 2))
    ev = st.apply(Action("discover", "sled", token="inuit"))
    assert score_events(ev) == [(0, 2, "inuit ×1")]


def test_take_only_a_token_on_the_acting_vehicles_tile(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    with pytest.raises(IllegalAction, match="no cairn token"):
        st.apply(Action("discover", "ship", token="cairn"))
    with pytest.raises(IllegalAction, match="franklin or strait"):
        st.apply(Action("explore", "ship", token="cairn"))


# -- §8 final scoring --------------------------------------------------------------


def test_example_16_tied_majority_players_take_the_lower_place() -> None:
    # black and white tie for most Franklin: both 2nd place (7); ochre 3rd (4); grey none
    assert scoring.majority_points([3, 3, 1, 0], [13, 7, 4]) == [7, 7, 4, 0]


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ([2, 1, 1, 0], [13, 4, 4, 0]),
        ([1, 1, 1, 0], [4, 4, 4, 0]),
        ([1, 1, 1, 1], [0, 0, 0, 0]),
        ([4, 3, 2, 1], [13, 7, 4, 0]),
        ([0, 0], [0, 0]),
    ],
)
def test_majority_places_and_ties(counts: list[int], points: list[int]) -> None:
    assert scoring.majority_points(counts, [13, 7, 4]) == points


def test_sets_of_five_different_tokens_score_six_each() -> None:
    assert scoring.set_points([2, 3, 2, 4, 2], 6) == 12
    assert scoring.set_points([2, 3, 0, 4, 2], 6) == 0


def _end_now(st: State) -> list:  # type: ignore[type-arg]
    st.round = 10
    ev = st.apply(Action("pass"))
    ev += st.apply(Action("pass"))
    assert st.is_over
    return ev


def test_example_17_sled_left_out_with_three_crew_costs_six(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    put(st, "SEA3", 11, 3)
    crew(st, 0, ship=(4, 0), sled=(3, 0))
    at(st, 0, "sled", (11, 3))
    assert (0, -6, "sled abandoned with 3 crew") in score_events(_end_now(st))


def test_abandoned_ship_costs_two_per_crewman_and_two_more(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    at(st, 0, "ship", (13, 3))
    crew(st, 0, ship=(3, 0), lost=4)
    at(st, 1, "ship", "northwest")  # the Northwest arrow is not safety either
    ev = score_events(_end_now(st))
    assert (0, -8, "ship abandoned with 3 crew") in ev
    assert (1, -16, "ship abandoned with 7 crew") in ev


def test_vehicles_in_greenland_on_the_player_board_or_lost_cost_nothing(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    crew(st, 0, ship=(4, 0), sled=(0, 0), lost=3)
    st.loc[1] = -4  # sled lost
    crew(st, 1, ship=(5, 0), sled=(2, 0))
    at(st, 1, "sled", "greenland")
    assert [e for e in score_events(_end_now(st)) if "abandoned" in e[2]] == []


def test_final_scoring_majorities_and_sets_are_score_events(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    st.ptok[0:N_KINDS] = [1, 1, 2, 1, 1]
    st.ptok[N_KINDS : 2 * N_KINDS] = [0, 0, 2, 3, 0]
    ev = score_events(_end_now(st))
    assert (0, 7, "franklin majority") in ev and (1, 7, "franklin majority") in ev
    assert (1, 11, "strait majority") in ev and (0, 5, "strait majority") in ev
    assert (0, 9, "cartography majority") in ev
    assert (0, 6, "1 sets") in ev
    assert sum(d for s, d, _ in ev if s == 0) == st.scores()[0]


def test_crew_block_layout_is_five_per_seat() -> None:
    assert CREW_FIELDS == 5


def test_example_2_a_draw_rests_one_crewman_in_the_ship_column(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)
    ev = st.apply(Action.draw_pile("ship", 1))
    assert [(e.vehicle, e.count) for e in ev if type(e).__name__ == "CrewSpent"] == [("ship", 1)]
    assert st.crew(0)["ship"] == {"available": 6, "resting": 1}


def test_example_1_a_tile_straddling_the_ice_line_is_frozen_only_above_it(content) -> None:  # type: ignore[no-untyped-def]
    st = g(content)  # sun III: rows 0-1 frozen
    put(st, "SEA", 5, 1, rotation=1)  # squares (5,1) frozen and (5,2) open water
    put(st, "SEA2", 5, 3, rotation=1)  # open water below
    put(st, "F02", 3, 1)  # frozen, west of the straddling tile's upper square
    at(st, 0, "ship", (5, 3))
    assert ("ship", (5, 1)) in {(a.vehicle, a.to) for a in st.legal_actions() if a.kind == "move"}
    at(st, 0, "ship", (3, 1))  # in the ice: cannot leave through frozen squares
    assert not [a for a in st.legal_actions() if a.kind == "move"]
    at(st, 0, "ship", (5, 1))
    st.apply(Action.transfer("ship", 2, 0))  # the frozen part carries a sled
    assert st.position(0, "sled") == (5, 1)
    assert st.board.frozen(5, 1) and not st.board.frozen(5, 2)
