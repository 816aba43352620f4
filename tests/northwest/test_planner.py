"""The hard bot's planner and evaluator: routes, features, the search filter, the fit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from erebus.games.northwest import evaluator, new_game, planner
from erebus.games.northwest.layout import GREENLAND, NORTHWEST, SHIP
from erebus.games.northwest.state import State
from support.tools import load_tool

ROOT = Path(__file__).resolve().parents[2]


def _after_draft(players: int = 2, seed: int = 3) -> State:
    st = new_game(players, seed=seed)
    while st.round == 0:
        st.apply(st.legal_actions()[0])
    return st


def test_route_from_greenland_crosses_the_board_through_empty_squares() -> None:
    st = _after_draft()
    seat = st.current_player
    r = planner.route(st, seat)
    assert r.n_empty > 5  # almost nothing is laid yet
    assert r.cost > st.geometry.W  # at least a step per column
    assert r.empty & st.occ == 0  # the route's empty squares are empty
    # A tile in reserve pays for part of the way: the route is cheaper with it.
    assert planner.reserve_squares(st, seat) >= 1
    assert planner.route_cost(st, seat) < r.cost


def test_route_is_zero_once_the_passage_is_reached() -> None:
    st = _after_draft()
    seat = st.current_player
    st.nw_reached[seat] = True
    assert planner.route(st, seat).cost == 0.0
    f = dict(zip(evaluator.FEATURES, evaluator.features(st, seat), strict=True))
    assert f["nw_open"] == f["nw_route"] == f["nw_late"] == 0.0


def test_home_moves_over_the_printed_greenland_entrance() -> None:
    st = _after_draft()
    assert planner.home_moves(st, SHIP, GREENLAND) == 0
    entrance = st.sq_tile[st.geometry.greenland_square]
    assert planner.home_moves(st, SHIP, entrance) == 1
    assert planner.home_moves(st, SHIP, NORTHWEST) is None  # nothing laid in between


def test_features_match_their_names_and_vanish_at_home() -> None:
    st = _after_draft(4)
    for seat in range(4):
        assert len(evaluator.features(st, seat)) == len(evaluator.FEATURES)
    st.ret_order[0] = 1
    assert evaluator.features(st, 0) == [0.0] * len(evaluator.FEATURES)
    assert evaluator.value(st, 0) == evaluator.points_now(st, 0)


def test_every_feature_has_a_fitted_weight() -> None:
    data = json.loads((ROOT / "src/erebus/games/northwest/data/bot/evaluator.json").read_text())
    assert set(data["weights"]) == set(evaluator.FEATURES)
    assert len(evaluator.weights()) == len(evaluator.FEATURES)
    samples = json.loads(
        (ROOT / "src/erebus/games/northwest/data/bot/evaluator_data.json").read_text()
    )
    assert samples["features"] == list(evaluator.FEATURES)
    assert data["fit"]["samples"] == len(samples["rows"])


def test_search_actions_are_legal_and_draw_only_what_the_route_can_use() -> None:
    st = _after_draft()
    seat = st.current_player
    legal = st.legal_actions()
    chosen = evaluator.search_actions(st)
    assert chosen and set(chosen) <= set(legal)
    assert not any(a.kind == "transfer" for a in chosen)
    route = planner.route(st, seat)
    for a in chosen:
        if a.kind == "draw" and a.source == "display":
            assert a.slot is not None
            assert evaluator._fits_route(st, st.disp[a.slot], route.empty)
    # Once home, a seat only ends its turn or passes.
    st.ret_order[seat] = 1
    assert {a.kind for a in evaluator.search_actions(st)} <= {"end_turn", "pass"}


def test_search_actions_keep_the_draft_and_pending_draws_whole() -> None:
    st = new_game(2, seed=4)
    assert evaluator.search_actions(st) == st.legal_actions()


def test_least_squares_fit_recovers_known_weights() -> None:
    import numpy as np

    tool = load_tool("fit_northwest_weights")
    rng = np.random.default_rng(1)
    true = [1.0, -0.5, 2.0]
    x = rng.normal(size=(400, 3))
    y = x @ np.array(true)
    rows = [{"f": list(map(float, f)), "y": float(t)} for f, t in zip(x, y, strict=True)]
    w, r2 = tool.fit(rows, prior=[0.0, 0.0, 0.0], ridge=0.0)
    assert w == pytest.approx(true, abs=1e-6)
    assert r2 == pytest.approx(1.0)
    # The ridge pulls toward the prior, never past it.
    w_ridge, _ = tool.fit(rows, prior=[0.0, 0.0, 0.0], ridge=1.0)
    assert all(abs(a) < abs(b) for a, b in zip(w_ridge, true, strict=True))


def test_a_far_passage_never_looks_better_out_of_reach() -> None:
    # nw_route counts the route's cost up to ROUTE_CAP, so that with the weights in
    # use the passage while open is worth more than out of reach however far it is
    # (uncapped, a 22-action route made giving the passage up look like a gain).
    w = dict(zip(evaluator.FEATURES, evaluator.weights(), strict=True))
    assert w["nw_open"] + w["nw_route"] * evaluator.ROUTE_CAP - w["nw_late"] > 0.0
    st = _after_draft()
    seat = st.current_player
    assert planner.route_cost(st, seat) > evaluator.ROUTE_CAP  # nothing laid yet
    f = dict(zip(evaluator.FEATURES, evaluator.features(st, seat), strict=True))
    assert f["nw_route"] == pytest.approx(f["nw_open"] * evaluator.ROUTE_CAP)
    assert evaluator.passage_possible(st, seat) == pytest.approx(f["nw_open"])


def test_no_draws_once_the_passage_is_out_of_reach() -> None:
    st = _after_draft()
    seat = st.current_player
    st.reserves[seat] = []
    assert any(a.kind == "draw" for a in evaluator.search_actions(st))
    # The last round: no crew left to use a tile on the way to the passage.
    st.round = st.geometry.rounds
    assert evaluator.passage_possible(st, seat) < evaluator.DRAW_POSSIBLE
    assert not any(a.kind in ("draw", "refresh") for a in evaluator.search_actions(st))
