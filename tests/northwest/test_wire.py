"""Northwest's wire view (``erebus.games.northwest.wire``): what the browser gets.

Every field is checked against the engine's public queries for random positions of
random games; the view is plain JSON with no integer a browser would round, holds no
hidden information (the bag's order), and carries every field the client reads."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erebus.games import northwest
from erebus.games.northwest.events import CrewSpent
from erebus.games.northwest.wire import COSTED_KINDS, action_cost, wire_view

WEB = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web"
TOP_FIELDS = {
    "game", "players", "seat", "round", "rounds", "sun", "over", "current", "acted",
    "refresh_draw", "board", "tiles", "tokens", "arrows", "display", "piles", "bag_size",
    "supply", "order", "pass_order", "draft_left", "seats", "costs", "token_rules",
}  # fmt: skip
SEAT_FIELDS = {
    "seat", "score", "passed", "returned", "reached_northwest", "ship", "sled", "crew",
    "tokens", "northwest", "greenland", "reserve",
}  # fmt: skip


def _position(players: int, seed: int, moves: int) -> northwest.State:
    """The state after ``moves`` random legal actions of a new game."""
    state = northwest.new_game(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


positions = st.builds(
    _position,
    st.integers(2, 4),
    st.integers(0, 2**63 - 1),
    st.one_of(st.integers(0, 40), st.integers(0, 400)),
)
seats_of = st.integers(-1, 3)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _seat(state: northwest.State, k: int) -> int | None:
    return None if k < 0 else k % state.players


@SETTINGS
@given(positions, seats_of)
def test_every_field_matches_the_engine(state: northwest.State, k: int) -> None:
    seat = _seat(state, k)
    w = wire_view(state, seat)
    assert set(w) == TOP_FIELDS
    engine = state.view(seat)
    board = state.board
    assert (w["game"], w["players"], w["seat"]) == ("northwest", state.players, seat)
    assert (w["round"], w["sun"], w["acted"]) == (engine["round"], engine["sun"], engine["acted"])
    assert w["rounds"] == state.geometry.rounds
    assert w["over"] is state.is_over and w["current"] == state.current_player
    assert w["refresh_draw"] == (
        None if engine["pending"] < 0 else ("ship", "sled")[engine["pending"]]
    )
    # the board: terrain per vertex, zones per column, the frozen rows
    b = w["board"]
    assert (b["width"], b["height"]) == (board.width, board.height)
    assert b["vertices"] == [
        [board.vertex(x, y) for x in range(board.width + 1)] for y in range(board.height + 1)
    ]
    assert all(
        b["zones"][x] == board.zone(x, y) for x in range(board.width) for y in range(board.height)
    )
    assert b["frozen_rows"] == len(state.frozen_rows())
    assert all(board.frozen(0, y) == (y < b["frozen_rows"]) for y in range(board.height))
    # the tiles cover exactly the squares the engine says, once each
    covered: dict[tuple[int, int], str] = {}
    geo = state.geometry
    by_id = {geo.all_ids[t]: (anchor, orient) for t, anchor, orient in engine["tiles"]}
    assert [t["id"] for t in w["tiles"]] == list(by_id)
    for t in w["tiles"]:
        assert set(t) == {"id", "x", "y", "w", "h", "rotation", "side", "printed", "symbol"}
        anchor, orient = by_id[t["id"]]
        assert (t["x"], t["y"]) == geo.xy(anchor)
        assert t["printed"] == t["id"].startswith("board:")
        if orient >= 0:
            o = geo.orientations[orient]
            assert (t["rotation"], t["side"], t["w"], t["h"]) == (o.rotation, o.side, o.w, o.h)
        else:
            assert t["rotation"] is None and (t["w"], t["h"]) == (1, 1)
            assert t["side"] == (None if t["printed"] else "joker")
        for dy in range(t["h"]):
            for dx in range(t["w"]):
                assert (t["x"] + dx, t["y"] + dy) not in covered
                covered[t["x"] + dx, t["y"] + dy] = t["id"]
        if t["symbol"] is not None:
            sx, sy = t["symbol"]["x"], t["symbol"]["y"]
            assert covered.get((sx, sy)) == t["id"]
    on_board = {
        (x, y): state.tile_at(x, y)
        for y in range(board.height)
        for x in range(board.width)
        if state.tile_at(x, y) is not None
    }
    assert covered == on_board
    tokens = {(x, y): board.token_at(x, y) for y in range(board.height) for x in range(board.width)}
    assert {(t["x"], t["y"]): t["kind"] for t in w["tokens"]} == {
        xy: kind for xy, kind in tokens.items() if kind is not None
    }
    # the supply, the arrows, the order
    assert w["display"] == state.display and w["piles"] == state.piles
    assert w["bag_size"] == engine["bag_size"]
    assert list(w["supply"].values()) == engine["supply"]
    assert w["arrows"] == {"greenland": engine["gl_left"], "northwest": engine["nw_left"]}
    assert (w["order"], w["pass_order"], w["draft_left"]) == (
        engine["order"],
        engine["pass_order"],
        engine["draft_left"],
    )
    # each seat
    assert [s["seat"] for s in w["seats"]] == list(range(state.players))
    for i, s in enumerate(w["seats"]):
        assert set(s) == SEAT_FIELDS
        assert s["score"] == state.scores()[i] and s["passed"] == engine["passed"][i]
        assert bool(s["returned"]) == state.returned(i) and s["returned"] == engine["returned"][i]
        assert s["reached_northwest"] == engine["nw_reached"][i]
        assert s["crew"] == state.crew_of(i) and s["reserve"] == state.reserve_of(i)
        toks = state.tokens(i)
        assert s["northwest"] == toks.pop("northwest") and s["greenland"] == toks.pop("greenland")
        assert s["tokens"] == toks
        for vehicle in ("ship", "sled"):
            where = state.position(i, vehicle)
            if isinstance(where, tuple):
                assert s[vehicle] == {"at": list(where), "tile": state.tile_at(*where)}
            else:
                assert s[vehicle] == where and where in ("greenland", "northwest", "lost", None)
    # the costs of the seat to move
    rules = state.content.rules
    assert w["costs"] == {
        kind: {"base": rules.action_costs[kind], "now": state.cost_of(kind)}
        for kind in COSTED_KINDS
    }
    # what each symbol's token is worth and which action takes it
    points = rules.token_points
    assert w["token_rules"] == {
        "inuit": {"taken_by": "discover", "points_per_zone": points["inuit"]},
        "cairn": {"taken_by": "discover", "points_per_zone": points["cairn"]},
        "franklin": {"taken_by": "explore", "points_per_zone": points["franklin"]},
        "strait": {"taken_by": "explore", "points_per_zone": points["strait"]},
    }


@SETTINGS
@given(positions, seats_of)
def test_json_round_trip_and_no_integer_a_browser_would_round(
    state: northwest.State, k: int
) -> None:
    w = wire_view(state, _seat(state, k))
    text = json.dumps(w, allow_nan=False)
    integers: list[int] = []
    assert json.loads(text, parse_int=lambda d: integers.append(int(d)) or int(d)) == w
    assert integers and all(-(2**53) < i < 2**53 for i in integers)
    assert not re.search(r"\d{16,}", text)  # no bitboard, even as a string


@SETTINGS
@given(positions, seats_of, st.randoms(use_true_random=False))
def test_the_bag_order_is_not_in_the_view(
    state: northwest.State, k: int, rnd: random.Random
) -> None:
    seat = _seat(state, k)
    other = state.clone()
    rnd.shuffle(other.bag)
    assert wire_view(other, seat) == wire_view(state, seat)
    text = json.dumps(wire_view(state, seat))
    assert '"bag"' not in text and '"seed"' not in text and '"rng"' not in text
    # only the echo of the seat differs between seats (nothing else is hidden)
    w = wire_view(state, None)
    for s in range(state.players):
        assert {**wire_view(state, s), "seat": None} == w


@SETTINGS
@given(positions)
def test_each_legal_action_costs_what_the_engine_charges(state: northwest.State) -> None:
    for action in state.legal_actions():
        after = state.clone()
        spent = sum(e.count for e in after.apply(action) if isinstance(e, CrewSpent))
        assert action_cost(state, action) == spent, action
        assert action_cost(state, action.to_json()) == spent


def test_a_seat_outside_the_game_is_refused() -> None:
    state = northwest.new_game(2, 1)
    for seat in (2, -1, True, "0"):
        try:
            wire_view(state, seat)  # type: ignore[arg-type]
        except ValueError:
            continue
        raise AssertionError(f"seat {seat!r} was accepted")


def _client_sources() -> str:
    """The client code that reads a Northwest view: the shell, core/ and its board
    (another game's board folder reads its own game's view)."""
    files = [*WEB.glob("*.js"), *(WEB / "core").rglob("*.js"), *(WEB / "northwest").rglob("*.js")]
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(files))


def test_it_carries_every_field_the_client_reads() -> None:
    source = _client_sources()
    top = set(re.findall(r"\b(?:v|view|APP\.view)\.([a-z_]+)", source))
    assert {"board", "seats", "costs", "tiles", "tokens"} <= top  # the scan sees the reads
    assert top <= TOP_FIELDS, top - TOP_FIELDS
    per_seat = set(re.findall(r"\b(?:me|seatOf\([^()]*\))\.([a-z_]+)", source))
    assert {"crew", "reserve", "returned"} <= per_seat
    assert per_seat <= SEAT_FIELDS, per_seat - SEAT_FIELDS
    board = set(re.findall(r"\b(?:board|b)\.([a-z_]+)", source)) & {
        "width", "height", "vertices", "zones", "frozen_rows"
    }  # fmt: skip
    assert board == {"width", "height", "vertices", "zones", "frozen_rows"}
    # and none of the engine's internals the client once decoded
    for gone in ("BASE_COST", "LOC_GREENLAND", "view.land", "board_tokens", ".ptok", "nw_left"):
        assert gone not in source, gone


def test_action_costs_price_a_list_as_action_cost_does() -> None:
    """The server's ``legal_costs`` come from ``action_costs``: the same numbers as
    pricing each action alone, at every step of a random game."""
    import random

    from erebus.games import get_game

    spec = get_game("northwest")
    assert spec.action_costs is not None and spec.action_cost is not None
    st = spec.new_game(3, 11)
    rng = random.Random(3)
    while not st.is_over:
        legal = st.legal_actions()
        assert spec.action_costs(st, legal) == [spec.action_cost(st, a) for a in legal]
        st.apply(rng.choice(legal))
