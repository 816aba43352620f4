"""The worked examples of the rules reference, checked on the engine."""

from __future__ import annotations

from collections.abc import Sequence

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import ScoreChanged
from erebus.games.iceandsnow.scoring import shared_award, split_majority
from erebus.games.iceandsnow.state import State
from erebus.games.iceandsnow.towing import tow

TOWING_PP = {-4: 12, -3: 9, -2: 7, -1: 5, 0: 3, 1: 2, 2: 1}


def deltas(events: Sequence[object], reason: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in events:
        if isinstance(e, ScoreChanged) and e.reason == reason:
            out[e.seat] = out.get(e.seat, 0) + e.delta
    return out


def test_towing_worked_example_pure() -> None:
    """§4.4: fuels 4,4,1,0 after a coastal voyage (−2) are 2,2,0,0 with 1 and 2
    missing; Laia (leader, seat 0) supplies 1 to each towed player, Fernando the rest."""
    res = tow([2, 2, 0, 0], [0, 0, 1, 2], [0, 2, 0, 0], 0, TOWING_PP, -4, 2)
    assert not res.lost
    assert res.missing == 3
    assert res.towed == (2, 3)
    assert res.fuel == (0, 1, 0, 0)
    assert res.towing == (1, 2, -1, -1)
    assert (2, -5, "towed") in res.pp and (3, -5, "towed") in res.pp
    assert (0, 10, "towing") in res.pp
    assert (1, 5, "towing") in res.pp


def test_towing_lost_when_fuel_cannot_cover() -> None:
    res = tow([1, 0, 0], [0, 1, 2], [0, 0, 0], 0, TOWING_PP, -4, 2)
    assert res.lost


def test_towing_per_fuel_reading() -> None:
    res = tow([3, 0], [0, 2], [0, 0], 0, TOWING_PP, -4, 2, per_fuel=True)
    assert (0, 10, "towing") in res.pp


def _at_voyage_step(players: int, seed: int = 5) -> State:
    st = kit.game(players, seed)
    for s in range(players):
        kit.set_player(st, s, health=6, morale=6)
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])  # destination
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.pending == "voyage", st.pending
    return st


def test_towing_worked_example_in_play() -> None:
    st = _at_voyage_step(4)
    for seat, fuel in enumerate((4, 4, 1, 0)):
        kit.set_player(st, seat, fuel=fuel, towing=0, pp=20)
    kit.set_player(st, 1, towing=2)  # Fernando is on the rightmost space
    ev = st.apply(Action("voyage", voyage="coastal"))
    assert deltas(ev, "towed") == {2: -5, 3: -5}
    assert deltas(ev, "towing") == {0: 10, 1: 5}
    assert [st.player(s)["fuel"] for s in range(4)] == [0, 1, 0, 0]
    assert [st.player(s)["towing"] for s in range(4)] == [1, 2, -1, -1]
    # every player is at fuel 0–3 and discards a resource of their choice
    discards = 0
    while st.pending == "discard":
        st.apply(st.legal_actions()[0])
        discards += 1
    assert discards == 4


def test_coastal_forbidden_below_twice_the_players() -> None:
    st = _at_voyage_step(2)
    kit.set_player(st, 0, fuel=2)
    kit.set_player(st, 1, fuel=1)
    assert st.legal_actions() == [Action("voyage", voyage="open")]


def test_species_majority_split_and_floor() -> None:
    values = [20, 10, 5]
    assert split_majority([3, 3, 1, 0], values) == [15, 15, 5, 0]
    assert split_majority([2, 2, 2, 2], values) == [8, 8, 8, 8]
    assert split_majority([4, 2, 2, 1], values) == [20, 7, 7, 0]
    assert split_majority([0, 0], values) == [0, 0]
    assert split_majority([1, 2], [15, 7]) == [7, 15]
    assert shared_award([2, 2, 1], 4) == [2, 2, 0]


def _action_phase(players: int = 2, seed: int = 3) -> State:
    st = kit.game(players, seed)
    for s in range(players):
        kit.set_player(st, s, health=6, morale=6)
    kit.start_action_phase(st, leader=0)
    assert st.pending == "action" and st.current_player == 0
    return st


def test_cabin_example() -> None:
    """§4.6.2: a cabin (5 PP) lowering food by 10 (+5 PP) gives 10 PP."""
    st = _action_phase()
    kit.set_player(st, 0, food=30, wood=2, pp=10)
    cabins = [a for a in st.legal_actions() if a.space == "build_cabin"]
    assert {a.food for a in cabins} == set(range(31))
    a = next(a for a in cabins if a.food == 10)
    st.apply(a)
    assert st.player(0)["pp"] == 20
    assert st.player(0)["food"] == 20
    assert st.player(0)["wood"] == 1
    assert st.player(0)["cabins"] == 1


def test_explore_example() -> None:
    """§4.6.1: sled level 1 (at most 5 PP) and 4 dogs (at most 7 PP) give 5 PP, +2 morale."""
    st = _action_phase()
    kit.set_player(st, 0, sled=1, dogs=4, pp=10, morale=4)
    a = next(a for a in st.legal_actions() if a.space == "explore")
    st.apply(a)
    assert st.player(0)["pp"] == 15
    assert st.player(0)["morale"] == 6


def test_mutiny_example() -> None:
    """§4.3: 7 crew (3 officers, 3 sailors, 1 Inuk) lower food by ⌈7/2⌉ = 4."""
    st = kit.game(2, 4)
    kit.set_player(st, 0, morale=3, health=6, food=25, sailors=3, inuit=1)
    kit.set_player(st, 1, morale=6, health=6)
    kit.start_round(st, leader=0)
    ev = st.apply(st.legal_actions()[0])
    assert st.player(0)["morale"] == 2
    assert st.player(0)["food"] == 21
    assert any(getattr(e, "penalty", None) == "mutiny" for e in ev)


def test_death_at_zero() -> None:
    """§3.4/§4.3: reaching 0 applies Death (−5 PP, lose a sailor) and moves to 1."""
    st = kit.game(2, 4)
    kit.set_player(st, 0, health=1, morale=6, pp=10, sailors=3)
    kit.set_player(st, 1, morale=6, health=6)
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    assert st.player(0)["health"] == 1
    assert st.player(0)["pp"] == 5
    assert st.player(0)["crew"]["sailors"] == 2


def test_scurvy_puts_two_crew_in_the_infirmary() -> None:
    st = kit.game(2, 4)
    kit.set_player(st, 0, health=3, morale=6)
    kit.set_player(st, 1, morale=6, health=6)
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    assert st.pending == "infirmary"
    choice = st.legal_actions()[0]
    assert choice.crew is not None and sum(choice.crew) == 2
    st.apply(choice)
    assert sum(st.avail_crew(0)) == 6 - 2  # 3 officers + 3 sailors, 2 in the infirmary


def test_treatment_room_cancels_scurvy() -> None:
    st = kit.game(2, 4)
    kit.set_player(st, 0, health=3, morale=6, upgrades=[3])
    kit.set_player(st, 1, morale=6, health=6)
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    assert st.pending != "infirmary"


def test_food_shortage_order() -> None:
    """§4.7: dogs (+2 food, −2 PP) then sailors (+2, −5) then −5 PP per missing food."""
    st = kit.game(2, 2)
    kit.set_player(st, 0, food=0, dogs=1, sailors=1, inuit=0, pp=30, species=[])
    ev = kit.start_boarding(st)
    # 5 crew to feed: a dog (+2), a sailor (+2; now 4 to feed), then 0 food short
    assert deltas(ev, "dog eaten") == {0: -2}
    assert deltas(ev, "sailor lost to hunger") == {0: -5}
    assert st.player(0)["food"] == 0
    assert st.player(0)["dogs"] == 0
