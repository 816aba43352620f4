"""The Boarding phase (§4.7), the final voyage and final scoring (§5)."""

from __future__ import annotations

from typing import Any

import pytest

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    CardsRevealed,
    EventRevealed,
    GameOver,
    LeaderChanged,
    RegionMapped,
    SpeciesEaten,
    VoyageChosen,
)
from erebus.games.iceandsnow.state import State
from iceandsnow.rulekit import (
    RULES,
    C,
    action_phase,
    at_voyage,
    crew,
    deltas,
    fresh,
    of_type,
    pass_all,
    resolve,
    take,
)

SHORT = RULES["shortage"]


def board(st: State) -> list[Any]:
    """Run the Boarding phase from the current position."""
    return kit.start_boarding(st)


# ---------------------------------------------------------------- step 1: boarding


def test_crew_return_from_spaces_and_infirmary_for_the_next_round() -> None:
    st = fresh()
    kit.set_player(st, 0, health=3)  # scurvy this voyage
    kit.start_round(st, leader=0)
    st.apply(Action("destination", to="north_water"))
    st.apply(Action("infirmary", crew=crew(captain=1, carpenter=1)))
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    take(st, "ice_fishing", crew(scientist=1, sailors=3))
    assert st.pending == "action"
    pass_all(st)
    for s in range(2):
        kit.set_player(st, s, health=6, morale=6)
    kit.start_action_phase(st, leader=0)
    sizes = [sum(a.crew) for a in st.legal_actions() if a.space == "ice_fishing"]
    assert max(sizes) == 6


def test_hired_inuit_join_the_crew_at_boarding() -> None:
    st = action_phase()
    take(st, "hire_inuk", crew(captain=1, sailors=1))
    assert st.player(0)["crew"]["inuit"] == 0
    pass_all(st)
    assert st.player(0)["crew"]["inuit"] == 1
    assert st.player(0)["inuit"] == 1


def test_galley_2_gives_2_food_at_the_start_of_boarding() -> None:
    st = fresh()
    kit.set_player(st, 0, food=0, upgrades=[2], sailors=0, dogs=0, species=[], pp=10)
    kit.set_player(st, 1, food=10, upgrades=[])
    ev = board(st)
    # +2 then feeding 3 officers: 1 food short, -5 PP
    assert deltas(ev, "missing food") == {0: (3 - RULES["galley_food"]) * SHORT["missing_food_pp"]}
    assert st.player(0)["food"] == 0
    assert st.player(1)["food"] == 10 - 6


# ---------------------------------------------------------------- step 2: next leader


def next_leader(dyn: tuple[int, ...], leader: int, lead: int | None = None, **opts: Any) -> int:
    st = fresh(len(dyn), options=opts or None)
    for s, d in enumerate(dyn):
        kit.set_player(st, s, dynamite=d)
    kit.start_action_phase(st, leader=leader)
    if lead is not None:
        while st.current_player != lead:
            take(st, "ice_fishing", crew(sailors=1))
        take(st, "lead", crew(captain=1))
    pass_all(st)
    assert st.pending == "destination"
    assert st.current_player == st.leader
    return st.leader


def test_next_leader_is_the_lead_taker_with_dynamite() -> None:
    assert next_leader((5, 1), leader=0, lead=1) == 1


def test_lead_taker_without_dynamite_the_helm_goes_to_the_most_dynamite() -> None:
    assert next_leader((2, 0, 4), leader=0, lead=1) == 2


def test_next_leader_without_lead_is_the_player_with_most_dynamite() -> None:
    assert next_leader((1, 4, 2), leader=0) == 1
    assert next_leader((5, 4, 2), leader=0) == 0  # a leader who alone has the most keeps it


@pytest.mark.parametrize(
    ("dyn", "leader", "want"),
    [
        ((3, 1, 3), 1, 2),  # tied 0 and 2: first clockwise from the leader
        ((3, 1, 3), 2, 0),  # the tied current leader is excluded
        ((3, 3, 3), 0, 1),
        ((3, 3, 1, 3), 1, 3),
    ],
)
def test_next_leader_tie_first_clockwise_excluding_the_current_leader(
    dyn: tuple[int, ...], leader: int, want: int
) -> None:
    assert next_leader(dyn, leader=leader) == want


def test_next_leader_tie_option_include_leader_keeps_the_helm() -> None:
    assert next_leader((3, 1, 3), leader=2, helm_tie="include_leader") == 2
    assert next_leader((3, 1, 3), leader=1, helm_tie="include_leader") == 2


def test_nobody_has_dynamite_everybody_loses() -> None:
    st = fresh(3)
    for s in range(3):
        kit.set_player(st, s, dynamite=0)
    ev = board(st)
    assert st.is_over and st.outcome == "lost"
    assert [e.outcome for e in of_type(ev, GameOver)] == ["lost"]


def test_leader_change_event() -> None:
    st = fresh(2)
    kit.set_player(st, 0, dynamite=1)
    kit.set_player(st, 1, dynamite=2)
    st.leader = 0
    ev = board(st)
    assert [(e.seat, e.reason) for e in of_type(ev, LeaderChanged)] == [(1, "most dynamite")]


# ---------------------------------------------------------------- step 3: feeding


@pytest.mark.parametrize(("sailors", "inuit"), [(3, 0), (1, 2), (0, 0)])
def test_feeding_costs_1_food_per_crew_member(sailors: int, inuit: int) -> None:
    st = fresh()
    kit.set_player(st, 0, food=20, sailors=sailors, inuit=inuit)
    board(st)
    assert st.player(0)["food"] == 20 - (3 + sailors + inuit)


def test_feeding_includes_crew_in_the_infirmary() -> None:
    st = fresh()
    kit.set_player(st, 0, health=3, food=20)
    kit.start_round(st, leader=0)
    st.apply(Action("destination", to="north_water"))
    st.apply(Action("infirmary", crew=crew(sailors=2)))
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    food = st.player(0)["food"]
    pass_all(st)
    assert st.player(0)["food"] == food - 6


# ---------------------------------------------------------------- food shortage


def test_shortage_species_first_food_and_health_of_the_card() -> None:
    card = next(s for s in C.species.values() if s.health and s.food < 6)
    st = fresh()
    kit.set_player(st, 0, food=0, species=[card.id], dogs=2, pp=20, health=4)
    ev = board(st)
    assert [e.card for e in of_type(ev, SpeciesEaten)] == [card.id]
    assert st.player(0)["species"] == []
    assert st.player(0)["health"] == 4 + card.health
    # 6 to feed: the card gives card.food, then dogs (+2, -2 PP each)
    dogs = -(-(6 - card.food) // SHORT["dog_food"])
    assert st.player(0)["dogs"] == 2 - dogs
    assert st.player(0)["pp"] == 20 + dogs * SHORT["dog_pp"]


def test_shortage_player_chooses_which_species_card_to_eat() -> None:
    st = fresh()
    kit.set_player(st, 0, food=0, species=["polar_bear_1", "arctic_fox_1"], dogs=0, pp=20)
    board(st)
    assert st.pending == "eat" and st.current_player == 0
    assert {a.card for a in st.legal_actions()} == {"polar_bear_1", "arctic_fox_1"}
    st.apply(Action("eat", card="polar_bear_1"))
    # 6 food from the bear covers the 6 crew: the fox is kept
    assert st.player(0)["species"] == ["arctic_fox_1"]
    assert st.player(0)["food"] == 0
    assert st.player(0)["pp"] == 20


@pytest.mark.parametrize(
    ("food", "kw", "left"),
    [(5, {"species": ["polar_bear_1"], "dogs": 0}, 5), (5, {"species": [], "dogs": 3}, 1)],
)
def test_shortage_food_beyond_the_need_stays(food: int, kw: dict[str, Any], left: int) -> None:
    """Decision 9."""
    st = fresh()
    kit.set_player(st, 0, food=food, **kw)
    board(st)
    assert st.player(0)["food"] == left


def test_an_eaten_species_stays_discovered() -> None:
    st = fresh()
    kit.set_player(st, 0, pp=10, food=0, dogs=0)
    kit.reveal(st, species=["polar_bear_1"])
    kit.start_action_phase(st, leader=0)
    ev = take(st, "discover", crew(scientist=1, sailors=1), card="polar_bear_1")
    assert deltas(ev) == {0: RULES["discover_pp"]}
    ev = pass_all(st)
    assert [e.card for e in of_type(ev, SpeciesEaten)] == ["polar_bear_1"]
    kit.set_player(st, 1, pp=10)
    kit.reveal(st, species=["polar_bear_2"])
    kit.start_action_phase(st, leader=1)
    ev = take(st, "discover", crew(scientist=1, sailors=1), card="polar_bear_2")
    assert deltas(ev) == {}


def test_shortage_dogs_give_2_food_and_cost_2_pp_each() -> None:
    st = fresh()
    kit.set_player(st, 0, food=2, species=[], dogs=3, pp=20, sailors=3)
    ev = board(st)
    assert deltas(ev, "dog eaten") == {0: 2 * SHORT["dog_pp"]}
    assert SHORT["dog_food"] == 2 and SHORT["dog_pp"] == -2
    assert st.player(0)["dogs"] == 1
    assert st.player(0)["crew"]["sailors"] == 3
    assert st.player(0)["food"] == 0
    assert st.player(0)["pp"] == 16


def test_shortage_sailors_after_dogs_give_2_food_and_cost_5_pp_each() -> None:
    st = fresh()
    kit.set_player(st, 0, food=0, species=[], dogs=1, pp=20, sailors=3)
    ev = board(st)
    # 6 to feed: dog +2, then sailors +2 each: 2 sailors
    assert SHORT["sailor_food"] == 2 and SHORT["sailor_pp"] == -5
    assert deltas(ev, "dog eaten") == {0: -2}
    assert deltas(ev, "sailor lost to hunger") == {0: -10}
    assert st.player(0)["crew"]["sailors"] == 1
    assert st.player(0)["pp"] == 8


def test_shortage_officers_and_inuit_are_never_discarded_then_5_pp_per_missing_food() -> None:
    st = fresh()
    kit.set_player(st, 0, food=1, species=[], dogs=0, pp=30, sailors=0, inuit=2)
    ev = board(st)
    assert SHORT["missing_food_pp"] == -5
    assert deltas(ev, "missing food") == {0: -5 * 4}
    assert st.player(0)["crew"] == {
        "captain": 1,
        "carpenter": 1,
        "scientist": 1,
        "sailors": 0,
        "inuit": 2,
    }
    assert st.player(0)["food"] == 0
    assert st.player(0)["pp"] == 10


def test_shortage_strict_order_species_dogs_sailors_pp() -> None:
    st = fresh()
    kit.set_player(st, 0, food=0, species=["lemming_1"], dogs=1, sailors=1, inuit=3, pp=40)
    ev = board(st)
    # 7 crew: lemming +1 (1), dog +2 (3), sailor +2 (5): 2 short -> -10
    kinds = [
        type(e).__name__
        for e in ev
        if getattr(e, "seat", None) == 0
        and type(e).__name__ in ("SpeciesEaten", "ResourceChanged", "CrewLost")
    ]
    assert kinds == ["SpeciesEaten", "ResourceChanged", "CrewLost"]
    assert deltas(ev) == {0: -2 - 5 - 10}
    assert st.player(0)["food"] == 0


# ---------------------------------------------------------------- step 4: cleanup


def test_cleanup_discards_the_unchosen_cards_and_the_event() -> None:
    st = fresh()
    at_voyage(st, "north_water")
    kit.next_event(st, "open", 1)
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    hunting, species = st.hunting_cards, st.species_cards
    assert st.current_event == 1
    pass_all(st)
    v = st.view(None)
    assert set(hunting) <= set(v["hu_disc"])
    assert set(species) <= set(v["sp_disc"])
    assert 1 in v["ev_open_disc"]
    assert st.current_event is None
    assert st.hunting_cards == [] and st.species_cards == []


# ---------------------------------------------------------------- §5.1 final voyage


def end_game(st: State, fleet: str = "lands_end", side: str = "A") -> list[Any]:
    """From a blue anchor: the final round's Action phase (all pass), Boarding
    and the final voyage."""
    kit.set_fleet(st, fleet, side=side)
    kit.start_action_phase(st, leader=st.leader)
    ev = pass_all(st)
    assert st.pending == "destination"
    ev += st.apply(st.legal_actions()[0])
    ev += resolve(st)
    assert st.is_over
    return ev


@pytest.mark.parametrize(
    ("fleet", "side", "final"), [("lands_end", "A", 6), ("satellite_bay", "B", 8)]
)
def test_final_voyage_open_sea_only_no_event_no_card_setup_final_pp_to_leader(
    fleet: str, side: str, final: int
) -> None:
    st = fresh(3)
    for s in range(3):
        kit.set_player(st, s, fuel=10, dynamite=1)
    kit.set_player(st, 2, dynamite=3)  # seat 2 leads the final voyage
    ev = end_game(st, fleet, side)
    assert final in RULES["final_pp"]
    assert deltas(ev, "final anchor point") == {2: final}
    assert [e.voyage for e in of_type(ev, VoyageChosen)] == ["open"]
    assert not of_type(ev, EventRevealed)
    assert not [e for e in of_type(ev, CardsRevealed)]
    assert not of_type(ev, RegionMapped)
    # open sea: fuel -1 (and the 8-10 band), attrition as normal
    assert [st.player(s)["fuel"] for s in range(3)] == [9, 9, 9]
    assert st.outcome == "finished"


def test_final_voyage_leader_does_not_choose_coastal() -> None:
    st = fresh(2)
    kit.set_fleet(st, "lands_end")
    kit.start_action_phase(st, leader=0)
    pass_all(st)
    assert [a.kind for a in st.legal_actions()] == ["destination"]
    ev = st.apply(st.legal_actions()[0])
    assert st.is_over  # no voyage decision was asked
    assert [e.voyage for e in of_type(ev, VoyageChosen)] == ["open"]


def test_final_round_is_the_round_at_a_blue_anchor_then_one_final_voyage() -> None:
    st = fresh(2)
    kit.set_fleet(st, "mould_bay")
    kit.start_round(st, leader=0)
    st.apply(Action("destination", to="lands_end"))
    st.apply(Action("voyage", voyage="open"))
    resolve(st)
    assert st.is_final_round
    assert "lab_research" in {a.space for a in st.legal_actions()}
    pass_all(st)
    assert [a.to for a in st.legal_actions()] == ["herschel_island"]
    st.apply(Action("destination", to="herschel_island"))
    resolve(st)
    assert st.is_over


# ---------------------------------------------------------------- §5.2 final scoring


def scoring_game(players: int, **per_seat: tuple[Any, ...]) -> tuple[State, list[Any]]:
    st = fresh(players)
    for s in range(players):
        kit.set_player(st, s, pp=0, dynamite=1, food=30, species=[], cabins=0)
        for k, vals in per_seat.items():
            kit.set_player(st, s, **{k: vals[s]})
    kit.set_player(st, 0, dynamite=2)
    ev = end_game(st)
    return st, ev


SP = sorted(C.species)


@pytest.mark.parametrize(
    ("counts", "want"),
    [
        ((3, 2, 1, 0), (20, 10, 5, 0)),
        ((2, 2, 1, 0), (15, 15, 5, 0)),
        ((1, 1, 1, 1), (8, 8, 8, 8)),
        ((1, 2, 2, 2), (0, 11, 11, 11)),
        ((3, 1, 1, 0), (20, 7, 7, 0)),
        ((0, 0, 0, 0), (0, 0, 0, 0)),
        ((0, 1, 0, 0), (0, 20, 0, 0)),
    ],
)
def test_species_majority_20_10_5_ties_split_and_floor(
    counts: tuple[int, ...], want: tuple[int, ...]
) -> None:
    assert RULES["species_majority"] == [20, 10, 5]
    hands, i = [], 0
    for k in counts:
        hands.append(SP[i : i + k])
        i += k
    _, ev = scoring_game(4, species=tuple(hands))
    got = deltas(ev, "species majority")
    assert tuple(got.get(s, 0) for s in range(4)) == want


def test_species_cards_score_their_printed_pp() -> None:
    hands = (["polar_bear_1", "lemming_1"], ["caribou_1"])
    _, ev = scoring_game(2, species=hands)
    got = deltas(ev, "species cards")
    assert got == {
        0: C.species["polar_bear_1"].pp + C.species["lemming_1"].pp,
        1: C.species["caribou_1"].pp,
    }


@pytest.mark.parametrize(
    ("cabins", "want"),
    [
        ((2, 1, 0), (15, 7, 0)),
        ((1, 1, 0), (11, 11, 0)),
        ((0, 0, 0), (0, 0, 0)),
        ((1, 1, 1), (7, 7, 7)),
        ((3, 1, 1), (15, 3, 3)),
    ],
)
def test_cabins_majority_15_7(cabins: tuple[int, ...], want: tuple[int, ...]) -> None:
    assert RULES["cabins_majority"] == [15, 7]
    _, ev = scoring_game(3, cabins=cabins)
    got = deltas(ev, "cabin majority")
    assert tuple(got.get(s, 0) for s in range(3)) == want


@pytest.mark.parametrize("health", range(2, 8))
def test_health_end_pp_by_space(health: int) -> None:
    # attrition of the final voyage lowers health by 1 before scoring
    st, ev = scoring_game(2, health=(health, 6))
    assert st.player(0)["health"] == health - 1
    assert deltas(ev, "health").get(0, 0) == C.health.end_pp[health - 1]


@pytest.mark.parametrize("morale", range(4, 9))
def test_morale_end_pp_by_space(morale: int) -> None:
    st, ev = scoring_game(2, morale=(morale, 6))
    assert st.player(0)["morale"] == morale - 1
    assert deltas(ev, "morale").get(0, 0) == C.morale.end_pp[morale - 1]


def test_rosa_example_health_plus_1_morale_minus_1() -> None:
    assert C.health.end_pp[5] == 1 and C.morale.end_pp[3] == -1
    _, ev = scoring_game(2, health=(6, 6), morale=(4, 6))
    assert deltas(ev, "health")[0] == 1 and deltas(ev, "morale")[0] == -1


def test_cartography_5_pp_per_mapped_region_whoever_mapped_it() -> None:
    st = fresh(2)
    kit.set_player(st, 0, carto="cartography_2", dynamite=2)  # devon, king_william, amundsen_gulf
    kit.set_player(st, 1, carto="cartography_1")  # baffin, somerset, banks
    st.mapped[:] = ["devon", "amundsen_gulf", "baffin"]
    ev = end_game(st)
    assert deltas(ev, "cartography") == {0: 10, 1: 5}


def test_winner_has_the_most_pp() -> None:
    st, ev = scoring_game(3, pp=(30, 40, 20))
    # seat 0 leads the final voyage (+6); the rest of the scoring is equal
    sc = st.scores()
    assert sc[0] - 30 - 6 == sc[1] - 40 == sc[2] - 20
    assert st.ranking() == [1, 0, 2]
    assert [e.scores for e in of_type(ev, GameOver)] == [tuple(sc)]


def test_tied_winners_share_the_win_listed_in_seat_order() -> None:
    """R1: no tie-break."""
    st, _ = scoring_game(3, pp=(34, 40, 40))
    sc = st.scores()
    assert sc[0] == sc[1] == sc[2]
    assert st.ranking() == [0, 1, 2]
