"""The engine API contract on Through Ice and Snow: JSON round trip, replay,
illegal actions, views and determinization."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from erebus.core.errors import IllegalAction
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.state import State

FULL = {"modes": ["survival", "shelters", "dual_species"], "upgrades": "all", "extra_events": True}


def random_actions(players: int, seed: int, options: dict[str, Any], limit: int) -> list[Action]:
    st = game.new_game(players, seed, options)
    rnd = random.Random(seed)
    out: list[Action] = []
    while not st.is_over and len(out) < limit:
        a = rnd.choice(st.legal_actions())
        st.apply(a)
        out.append(a)
    return out


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (4, FULL),
        (1, {"scenario": "lost-expedition"}),
        (1, {"scenario": "magnetic-north-pole"}),
    ],
)
def test_json_round_trip_and_replay(players: int, options: dict[str, Any]) -> None:
    actions = random_actions(players, 11, options, 400)
    st = game.new_game(players, 11, options)
    for a in actions:
        st.apply(a)
        d = st.to_json()
        back = State.from_json(json.loads(json.dumps(d)))
        assert back.to_json() == d
        assert back.legal_actions() == st.legal_actions()
    again = game.replay(players, 11, [a.to_json() for a in actions], options)
    assert again.to_json() == st.to_json()
    assert again == st


def test_actions_round_trip_through_json() -> None:
    st = game.new_game(3, 2, FULL)
    rnd = random.Random(2)
    for _ in range(300):
        if st.is_over:
            break
        for a in st.legal_actions():
            assert Action.from_json(json.loads(json.dumps(a.to_json()))) == a
        st.apply(rnd.choice(st.legal_actions()))


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("pv"),
        lambda d: d.update(pv="x"),
        lambda d: d.update(fleet="atlantis"),
        lambda d: d.update(step="nowhere"),
        lambda d: d.update(n=9),
        lambda d: d.update(species=[["no_such_card"], []]),
        lambda d: d.update(placed=[[7, "A"]]),
        lambda d: d.update(options={"modes": ["x"]}),
        lambda d: d.update(decisions=[["eat"]]),
        lambda d: d.update(format=99),
    ],
)
def test_damaged_json_raises_value_error(damage: Any) -> None:
    d = game.new_game(2, 1).to_json()
    damage(d)
    with pytest.raises(ValueError):
        State.from_json(d)


def test_illegal_actions_leave_the_state_untouched() -> None:
    st = kit.game(2, 6)
    before = st.to_json()
    for bad in (
        Action("pass"),
        Action("voyage", voyage="coastal"),
        Action("destination", to="point_barrow"),
        Action("take", space="hunt", crew=(0, 0, 1, 0, 0), card="nope"),
        {"type": "destination"},
        {"type": "fly"},
        "pass",
    ):
        with pytest.raises(IllegalAction):
            st.apply(bad)  # type: ignore[arg-type]
        assert st.to_json() == before
    kit.start_action_phase(st, leader=0)
    before = st.to_json()
    with pytest.raises(IllegalAction, match="first turn"):
        st.apply(Action("take", space="lead", crew=(1, 0, 0, 0, 0)))
    with pytest.raises(IllegalAction, match="crew"):
        st.apply(Action("take", space="ice_fishing", crew=(0, 0, 0, 9, 0)))
    assert st.to_json() == before


def test_view_hides_secrets() -> None:
    st = game.new_game(3, 8)
    while st.round == 0:
        v = st.view(st.current_player)
        st.apply(st.legal_actions()[0])
    for seat in (0, 1, 2, None):
        v = st.view(seat)
        text = json.dumps(v)
        assert "seed" not in v and "rng" not in v
        for other in range(3):
            if other != seat:
                assert v["carto"][other] is None
                assert v["carto_opts"][other] == [] and v["inv_opts"][other] == []
                card = st.carto[other]
                assert card is not None and card not in text
            else:
                assert v["carto"][other] == st.carto[other]
        assert isinstance(v["hu_deck"], int) and isinstance(v["ev_open"], int)
        assert v["investor"] == st.investor  # revealed simultaneously after setup
    with pytest.raises(ValueError):
        st.view(5)


def test_unrevealed_investor_choice_is_hidden() -> None:
    st = game.new_game(2, 8)
    st.apply(st.legal_actions()[0])  # seat 0 chooses an investor
    v = st.view(1)
    assert v["investor"][0] is None
    assert st.view(0)["investor"][0] == st.investor[0]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_determinize_is_consistent_with_the_view(players: int) -> None:
    options: dict[str, Any] = {"scenario": "lost-expedition"} if players == 1 else FULL
    st = game.new_game(players, 4, options)
    rnd = random.Random(4)
    for step in range(250):
        if st.is_over:
            break
        seat = st.current_player
        if step % 5 == 0:
            view = st.view(seat)
            world = game.determinize(view, 99 + step)
            assert world.current_player == seat
            assert world.legal_actions() == st.legal_actions()
            assert world.view(seat) == view
            world.resample_hidden(7)
            assert world.legal_actions() == st.legal_actions()
            a = rnd.choice(world.legal_actions())
            world.apply(a)
        st.apply(rnd.choice(st.legal_actions()))


def test_clone_is_independent() -> None:
    st = kit.game(2, 9)
    c = st.clone()
    c.apply(c.legal_actions()[0])
    assert c.to_json() != st.to_json()
    assert st.clone().to_json() == st.to_json()


def test_queries() -> None:
    st = kit.game(3, 2)
    assert st.round == 1
    assert 0 <= st.leader < 3
    assert st.fleet in st.tables.anchors
    p = st.player(0)
    assert set(p) == {
        "pp",
        "food",
        "health",
        "morale",
        "fuel",
        "sled",
        "inuit",
        "towing",
        "dynamite",
        "wood",
        "rifles",
        "dogs",
        "cans",
        "crew",
        "upgrades",
        "cabins",
        "species",
    }
    assert set(p["crew"]) == {"captain", "carpenter", "scientist", "sailors", "inuit"}
    assert p["pp"] == 10 and p["food"] >= 25
    assert not st.is_final_round
    assert st.ranking() == sorted(range(3), key=lambda s: (-st.scores()[s], s))


JUNK: list[Any] = [None, -1, 10**30, "x", [], [[1]], {}, True, 1.5, ["x"], [None]]


def test_from_json_fuzz_only_value_error() -> None:
    """Every field replaced by junk: loading fails with ValueError or succeeds."""
    rnd = random.Random(1)
    st = game.new_game(3, 5, FULL)
    for _ in range(60):
        st.apply(rnd.choice(st.legal_actions()))
    base = st.to_json()
    for key in base:
        for junk in JUNK:
            d = json.loads(json.dumps(base))
            d[key] = junk
            try:
                back = State.from_json(d)
            except ValueError:
                continue
            back.legal_actions()
            back.view(0)


@pytest.mark.parametrize("players", [2, 3])
def test_determinize_from_any_seat(players: int) -> None:
    """Every seat's view (not only the mover's) gives a playable world."""
    st = game.new_game(players, 12)
    rnd = random.Random(12)
    for step in range(120):
        if st.is_over:
            break
        for seat in [*range(players), None]:
            world = game.determinize(st.view(seat), step)
            assert world.current_player == st.current_player
            assert world.legal_actions()
            world.apply(rnd.choice(world.legal_actions()))
        st.apply(rnd.choice(st.legal_actions()))
