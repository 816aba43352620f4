"""The Action phase, one action space at a time (reference §4.5–§4.6)."""

from __future__ import annotations

import pytest

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from iceandsnow.rulekit import (
    RULES,
    TRACKS,
    C,
    action_phase,
    assert_illegal,
    crew,
    deltas,
    fresh,
    pass_all,
    spaces,
    take,
    takes,
)

SPACE = {s.id: s for s in C.spaces.values()}
SLED_PP = TRACKS["sled"]["explore_pp"]
DOG_PP = TRACKS["dogs"]["explore_pp"]
PREY1 = sorted(h.id for h in C.hunting.values() if h.prey == 1)
PREY2 = sorted(h.id for h in C.hunting.values() if h.prey == 2)
FINAL_SPACES = {
    "trace_map",
    "document_methods",
    "lab_research",
    "vow_captain",
    "vow_carpenter",
    "vow_scientist",
}


def take_action(space: str, c: tuple[int, ...], **kw: object) -> Action:
    return Action("take", space=space, crew=c, **kw)  # type: ignore[arg-type]


def skip_turn(st, seat: int) -> None:
    """``seat`` uses a turn on Ice Fishing with one sailor."""
    assert st.current_player == seat
    take(st, "ice_fishing", crew(sailors=1))


# ---------------------------------------------------------------- §4.5 general


def test_leader_takes_the_first_turn_and_turns_go_clockwise_one_action_each() -> None:
    st = action_phase(3, leader=1)
    assert st.current_player == 1
    skip_turn(st, 1)
    assert st.current_player == 2
    skip_turn(st, 2)
    assert st.current_player == 0


def test_passing_is_voluntary_and_a_passed_player_takes_no_more_actions() -> None:
    st = action_phase(3, leader=0)
    assert Action("pass") in st.legal_actions()
    assert any(a.kind == "take" for a in st.legal_actions())
    st.apply(Action("pass"))
    skip_turn(st, 1)
    skip_turn(st, 2)
    assert st.current_player == 1  # seat 0 is skipped
    st.apply(Action("pass"))
    skip_turn(st, 2)
    assert st.current_player == 2
    st.apply(Action("pass"))
    assert st.pending != "action"  # the phase ends when everybody passed


def test_forced_passing_option_only_when_no_action_is_possible() -> None:
    st = action_phase(2, leader=0, options={"passing": "forced"})
    assert Action("pass") not in st.legal_actions()
    assert_illegal(st, Action("pass"))


def test_a_player_with_no_crew_left_must_pass() -> None:
    st = action_phase(2, leader=0)
    kit.set_player(st, 0, sailors=0)
    take(st, "experiment", crew(captain=1, carpenter=1, scientist=1))
    st.apply(Action("pass"))
    assert st.current_player == 0
    assert st.legal_actions() == [Action("pass")]


def test_crew_stay_placed_for_the_rest_of_the_phase() -> None:
    st = action_phase(2, leader=0)
    take(st, "experiment", crew(scientist=1, sailors=2))
    st.apply(Action("pass"))
    assert all(a.crew[2] == 0 and a.crew[3] <= 1 for a in st.legal_actions() if a.kind == "take")


# ---------------------------------------------------------------- slot counts


def fill(st, space: str, expected: int, crew_of) -> None:
    """Seats take ``space`` in turn; it must be legal exactly ``expected`` times."""
    last = None
    for _ in range(expected):
        seat = st.current_player
        acts = [a for a in takes(st, space) if a.crew == crew_of(seat)]
        assert acts, (space, seat)
        last = acts[0]
        st.apply(last)
    seat = st.current_player
    assert takes(st, space) == []
    assert space not in spaces(st)
    assert last is not None
    again = last._replace(crew=crew_of(seat))
    if space == "hunt":
        again = again._replace(card=st.hunting_cards[0])
    elif space == "discover":
        again = again._replace(card=st.species_cards[0])
    assert_illegal(st, again)


@pytest.mark.parametrize(
    ("space", "counts"),
    [
        ("explore", (1, 1, 2)),
        ("hunt", (2, 2, 3)),
        ("recycle_wood", (1, 2, 2)),
        ("hire_inuk", (2, 2, 2)),
        ("upgrade_ship", (2, 2, 2)),
        ("lead", (1, 1, 1)),
        ("visit_inuit", (1, 1, 1)),
        ("build_cabin", (1, 1, 1)),
        ("improve_sled", (1, 1, 1)),
        ("discover", (1, 1, 1)),
        ("experiment", (1, 1, 1)),
    ],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_slots_per_player_count(space: str, counts: tuple[int, int, int], players: int) -> None:
    expected = counts[players - 2]
    assert SPACE[space].slots[players] == expected
    st = action_phase(players, leader=1)
    for s in range(players):
        kit.set_player(st, s, wood=9, rifles=4, dogs=3, inuit=0)
    kit.reveal(st, hunting=PREY1[:4], species=["polar_bear_1", "arctic_fox_1", "arctic_wolf_1"])
    role = {
        "explore": 0,
        "hire_inuk": 0,
        "lead": 0,
        "visit_inuit": 0,
        "hunt": 2,
        "discover": 2,
        "experiment": 2,
    }.get(space, 1)
    size = {"hunt": 1, "recycle_wood": 1, "lead": 1, "visit_inuit": 3, "experiment": 3}.get(
        space, 2
    )

    def crew_of(seat: int) -> tuple[int, ...]:
        c = [0, 0, 0, size - 1, 0]
        c[role] = 1
        return tuple(c)

    if space == "lead":
        skip_turn(st, 1)  # the leader may not open with Lead
    fill(st, space, expected, crew_of)


def test_ice_fishing_has_no_limit() -> None:
    st = action_phase(2, leader=0)
    kit.set_player(st, 0, food=10)
    kit.set_player(st, 1, food=10)
    for _ in range(3):
        for s in (0, 1):
            assert st.current_player == s
            take(st, "ice_fishing", crew(sailors=1))
    assert st.player(0)["food"] == 13 and st.player(1)["food"] == 13


@pytest.mark.parametrize("n", [1, 2, 5, 6])
def test_ice_fishing_gives_food_equal_to_the_crew_assigned(n: int) -> None:
    st = action_phase(2, leader=0)
    kit.set_player(st, 0, food=10)
    sizes = {sum(a.crew) for a in takes(st, "ice_fishing")}
    assert sizes == set(range(1, 7))
    a = next(a for a in takes(st, "ice_fishing") if sum(a.crew) == n)
    st.apply(a)
    assert st.player(0)["food"] == 10 + n


# ---------------------------------------------------------------- Lead


def test_lead_not_on_the_leaders_first_turn() -> None:
    st = action_phase(2, leader=0)
    assert "lead" not in spaces(st)
    assert_illegal(st, take_action("lead", crew(captain=1)))
    skip_turn(st, 0)
    assert "lead" in spaces(st)  # a non-leader may open with Lead
    skip_turn(st, 1)
    assert [a.crew for a in takes(st, "lead")] == [crew(captain=1)]  # leader's 2nd turn


def test_lead_needs_exactly_the_captain() -> None:
    st = action_phase(2, leader=1)
    assert [a.crew for a in takes(st, "lead")] == []
    skip_turn(st, 1)
    assert [a.crew for a in takes(st, "lead")] == [crew(captain=1)]
    assert_illegal(st, take_action("lead", crew(sailors=1)))
    assert_illegal(st, take_action("lead", crew(captain=1, sailors=1)))


# ---------------------------------------------------------------- Explore


@pytest.mark.parametrize(("sled", "dogs"), [(1, 4), (1, 1), (2, 3), (3, 6), (5, 10), (2, 10)])
def test_explore_gains_the_lower_of_sled_and_dog_values_then_2_morale(sled: int, dogs: int) -> None:
    st = action_phase()
    kit.set_player(st, 0, sled=sled, dogs=dogs, pp=10, morale=3)
    ev = take(st, "explore", crew(captain=1, sailors=1))
    want = min(SLED_PP[sled], DOG_PP[dogs])
    assert deltas(ev, "explore") == {0: want}
    assert st.player(0)["pp"] == 10 + want
    assert st.player(0)["morale"] == 3 + 2
    assert st.player(0)["dogs"] == dogs  # dogs are not spent


def test_explore_sled_1_and_4_dogs_is_5_pp() -> None:
    assert min(SLED_PP[1], DOG_PP[4]) == 5 and SLED_PP[1] == 5 and DOG_PP[4] == 7


def test_explore_needs_a_dog() -> None:
    st = action_phase()
    kit.set_player(st, 0, dogs=0)
    assert "explore" not in spaces(st)
    assert_illegal(st, take_action("explore", crew(captain=1, sailors=1)))


def test_explore_captain_plus_1_or_plus_2_crew_only() -> None:
    st = action_phase()
    forms = {a.crew for a in takes(st, "explore")}
    assert crew(captain=1, sailors=1) in forms
    assert crew(captain=1, sailors=2) in forms
    assert crew(captain=1, carpenter=1, scientist=1) in forms
    assert all(c[0] == 1 and sum(c) in (2, 3) for c in forms)
    assert_illegal(st, take_action("explore", crew(captain=1)))
    assert_illegal(st, take_action("explore", crew(captain=1, sailors=3)))
    assert_illegal(st, take_action("explore", crew(carpenter=1, sailors=1)))


# ---------------------------------------------------------------- Visit the Inuit


@pytest.mark.parametrize("form", [crew(captain=1, sailors=2), crew(sailors=2, inuit=1)])
def test_visit_the_inuit_captain_or_inuk_plus_2_crew_gives_a_dog_and_2_fuel(form) -> None:
    st = action_phase()
    kit.set_player(st, 0, inuit=1, dogs=3, fuel=5)
    take(st, "visit_inuit", form)
    assert st.player(0)["dogs"] == 4
    assert st.player(0)["fuel"] == 7


def test_visit_the_inuit_needs_a_captain_or_an_inuk_and_3_pawns() -> None:
    st = action_phase()
    kit.set_player(st, 0, inuit=0)
    forms = {a.crew for a in takes(st, "visit_inuit")}
    assert forms and all(c[0] == 1 and sum(c) == 3 for c in forms)
    assert_illegal(st, take_action("visit_inuit", crew(carpenter=1, sailors=2)))
    assert_illegal(st, take_action("visit_inuit", crew(captain=1, sailors=1)))


# ---------------------------------------------------------------- Hire an Inuk


def test_hire_an_inuk_track_at_once_pawn_at_boarding() -> None:
    st = action_phase()
    take(st, "hire_inuk", crew(captain=1, sailors=1))
    assert st.player(0)["inuit"] == 1
    assert st.player(0)["crew"]["inuit"] == 0
    assert not any(a.crew[4] for a in st.legal_actions() if a.kind == "take")
    pass_all(st)
    assert st.player(0)["crew"]["inuit"] == 1
    assert st.player(0)["inuit"] == 1


def test_hire_an_inuk_captain_plus_1_or_2_crew() -> None:
    st = action_phase()
    forms = {a.crew for a in takes(st, "hire_inuk")}
    assert crew(captain=1, sailors=1) in forms and crew(captain=1, sailors=2) in forms
    assert all(c[0] == 1 and sum(c) in (2, 3) for c in forms)
    assert_illegal(st, take_action("hire_inuk", crew(captain=1)))
    assert_illegal(st, take_action("hire_inuk", crew(sailors=2)))


# ---------------------------------------------------------------- Build a Cabin


@pytest.mark.parametrize(("food", "bonus"), [(0, 0), (1, 0), (2, 1), (7, 3), (10, 5)])
def test_build_a_cabin_5_pp_plus_1_per_2_food_lowered(food: int, bonus: int) -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=2, food=20, pp=10)
    take(st, "build_cabin", crew(carpenter=1, sailors=1), food=food)
    p = st.player(0)
    assert p["pp"] == 10 + RULES["cabin_pp"] + bonus
    assert p["food"] == 20 - food
    assert p["wood"] == 1
    assert p["cabins"] == 1


def test_build_a_cabin_needs_carpenter_plus_1_crew_and_1_wood() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=1, food=5)
    assert all(a.crew[1] == 1 and sum(a.crew) == 2 for a in takes(st, "build_cabin"))
    assert crew(carpenter=1, sailors=1) in {a.crew for a in takes(st, "build_cabin")}
    assert_illegal(st, take_action("build_cabin", crew(sailors=2), food=0))
    assert_illegal(st, take_action("build_cabin", crew(carpenter=1), food=0))
    assert_illegal(st, take_action("build_cabin", crew(carpenter=1, sailors=1), food=6))
    kit.set_player(st, 0, wood=0)
    assert "build_cabin" not in spaces(st)
    assert_illegal(st, take_action("build_cabin", crew(carpenter=1, sailors=1), food=0))


def test_build_a_cabin_at_most_4_cabins() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=2, cabins=RULES["limits"]["cabins"])
    assert "build_cabin" not in spaces(st)
    assert_illegal(st, take_action("build_cabin", crew(carpenter=1, sailors=1), food=0))


# ---------------------------------------------------------------- Improve the Sled


@pytest.mark.parametrize("form", [crew(carpenter=1, sailors=1), crew(sailors=1, inuit=1)])
def test_improve_the_sled_carpenter_or_inuk_plus_1_crew_and_1_wood(form) -> None:
    st = action_phase()
    kit.set_player(st, 0, inuit=1, wood=1, sled=1)
    take(st, "improve_sled", form)
    assert st.player(0)["sled"] == 2
    assert st.player(0)["wood"] == 0


def test_improve_the_sled_requirements() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=1)
    assert_illegal(st, take_action("improve_sled", crew(sailors=2)))
    assert_illegal(st, take_action("improve_sled", crew(carpenter=1)))
    kit.set_player(st, 0, wood=0)
    assert "improve_sled" not in spaces(st)
    assert_illegal(st, take_action("improve_sled", crew(carpenter=1, sailors=1)))


# ---------------------------------------------------------------- Upgrade the Ship


def test_upgrade_the_ship_carpenter_plus_1_crew_and_the_tile_cost() -> None:
    st = action_phase()
    cost = C.upgrades[6].cost
    kit.set_player(st, 0, wood=cost)
    tiles = {a.tile for a in takes(st, "upgrade_ship")}
    assert tiles == {n for n, u in C.upgrades.items() if not u.optional and u.cost <= cost}
    assert {a.crew for a in takes(st, "upgrade_ship")} >= {crew(carpenter=1, sailors=1)}
    assert all(a.crew[1] == 1 and sum(a.crew) == 2 for a in takes(st, "upgrade_ship"))
    assert_illegal(st, take_action("upgrade_ship", crew(sailors=2), tile=6))
    assert_illegal(st, take_action("upgrade_ship", crew(carpenter=1, sailors=1), tile=5))
    take(st, "upgrade_ship", crew(carpenter=1, sailors=1), tile=6)
    assert st.player(0)["upgrades"] == [6]
    assert st.player(0)["wood"] == 0


# ---------------------------------------------------------------- Recycle Ship's Wood


@pytest.mark.parametrize("form", [crew(carpenter=1), crew(carpenter=1, sailors=3, scientist=1)])
def test_recycle_wood_equal_to_crew_for_1_fuel_without_band_effect(form) -> None:
    st = action_phase()
    kit.set_player(st, 0, fuel=4, wood=0, dynamite=1, rifles=1)
    take(st, "recycle_wood", form)
    assert st.player(0)["wood"] == sum(form)
    assert st.player(0)["fuel"] == 3
    assert st.pending == "action" and st.current_player == 1  # no 0-3 discard


def test_recycle_needs_the_carpenter_and_1_fuel() -> None:
    st = action_phase()
    assert all(a.crew[1] == 1 for a in takes(st, "recycle_wood"))
    assert_illegal(st, take_action("recycle_wood", crew(sailors=2)))
    kit.set_player(st, 0, fuel=0)
    assert "recycle_wood" not in spaces(st)
    assert_illegal(st, take_action("recycle_wood", crew(carpenter=1)))


# ---------------------------------------------------------------- Discover


def test_discover_scientist_plus_1_crew_first_of_a_species_gains_5_pp() -> None:
    st = action_phase()
    kit.set_player(st, 0, pp=10)
    kit.set_player(st, 1, pp=10)
    kit.reveal(st, species=["polar_bear_1", "arctic_fox_1"])
    assert all(a.crew[2] == 1 and sum(a.crew) == 2 for a in takes(st, "discover"))
    assert_illegal(st, take_action("discover", crew(sailors=2), card="polar_bear_1"))
    assert_illegal(st, take_action("discover", crew(scientist=1), card="polar_bear_1"))
    ev = take(st, "discover", crew(scientist=1, sailors=1), card="polar_bear_1")
    assert deltas(ev) == {0: RULES["discover_pp"]}
    assert st.player(0)["species"] == ["polar_bear_1"]
    assert st.species_cards == ["arctic_fox_1"]


def test_discover_a_species_already_discovered_gives_no_pp() -> None:
    st = fresh()
    kit.set_player(st, 1, species=["polar_bear_1"])
    st.discovered.append("polar_bear")  # seat 1 discovered it earlier
    kit.set_player(st, 0, pp=10)
    kit.reveal(st, species=["polar_bear_2"])
    kit.start_action_phase(st, leader=0)
    ev = take(st, "discover", crew(scientist=1, sailors=1), card="polar_bear_2")
    assert deltas(ev) == {}
    assert st.player(0)["species"] == ["polar_bear_2"]


# ---------------------------------------------------------------- Hunt


@pytest.mark.parametrize("form", [crew(scientist=1, sailors=1), crew(sailors=1, inuit=1)])
def test_hunt_scientist_or_inuk_crew_and_rifles_equal_to_prey(form) -> None:
    card = C.hunting[PREY2[0]]
    st = action_phase()
    kit.set_player(st, 0, inuit=1, rifles=2, food=10, health=4)
    kit.reveal(st, hunting=[card.id])
    take(st, "hunt", form, card=card.id)
    p = st.player(0)
    assert p["food"] == 10 + card.food
    assert p["health"] == 4 + card.health
    assert p["rifles"] == 2  # rifles are not spent
    assert st.hunting_cards == []


def test_hunt_requirements() -> None:
    card = C.hunting[PREY2[0]]
    st = action_phase()
    kit.set_player(st, 0, inuit=0, rifles=2)
    kit.reveal(st, hunting=[card.id])
    assert all(sum(a.crew) == 2 for a in takes(st, "hunt"))
    assert_illegal(st, take_action("hunt", crew(sailors=2), card=card.id))
    assert_illegal(st, take_action("hunt", crew(scientist=1), card=card.id))
    assert_illegal(st, take_action("hunt", crew(scientist=1, sailors=2), card=card.id))
    kit.set_player(st, 0, rifles=1)
    assert "hunt" not in spaces(st)
    assert_illegal(st, take_action("hunt", crew(scientist=1, sailors=1), card=card.id))


# ---------------------------------------------------------------- Experiment


def test_experiment_scientist_plus_2_crew_and_1_wood_gives_2_fuel_and_1_dynamite() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=1, fuel=5, dynamite=0)
    assert all(a.crew[2] == 1 and sum(a.crew) == 3 for a in takes(st, "experiment"))
    assert_illegal(st, take_action("experiment", crew(scientist=1, sailors=1)))
    assert_illegal(st, take_action("experiment", crew(sailors=3)))
    take(st, "experiment", crew(scientist=1, sailors=2))
    p = st.player(0)
    assert (p["fuel"], p["dynamite"], p["wood"]) == (7, 1, 0)


def test_experiment_needs_wood() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=0)
    assert "experiment" not in spaces(st)
    assert_illegal(st, take_action("experiment", crew(scientist=1, sailors=2)))


# ---------------------------------------------------------------- warehouses


@pytest.mark.parametrize("column", ["captain", "carpenter", "scientist"])
def test_warehouse_exchange_officer_puts_1_resource_takes_the_warehouse_resource(
    column: str,
) -> None:
    w = C.warehouses[column]
    st = action_phase()
    kit.set_player(st, 0, dynamite=1, wood=1, rifles=1, dogs=1)
    officer = crew(**{column: 1})
    forms = {a.crew for a in takes(st, f"exchange_{column}")}
    assert forms == {officer}
    assert_illegal(st, take_action(f"exchange_{column}", crew(sailors=1), resource="dogs"))
    take(st, f"exchange_{column}", officer, resource="dogs")
    p = st.player(0)
    assert p["dogs"] == 0
    assert p[w.gives] == 2
    # the dog lies in the warehouse box: Collect (seat 1's turn) can take it
    assert st.current_player == 1
    collects = takes(st, f"collect_{column}")
    assert collects and all(a.take == (0, 0, 0, 1) for a in collects)


def test_warehouse_exchange_needs_a_resource_to_put_in() -> None:
    st = action_phase()
    kit.set_player(st, 0, dynamite=0, wood=0, rifles=0, dogs=0)
    assert not {"exchange_captain", "exchange_carpenter", "exchange_scientist"} & spaces(st)


def test_warehouse_collect_takes_as_many_resources_as_crew_officer_included() -> None:
    st = action_phase()
    col = list(C.warehouses).index("carpenter")
    st.boxes[4 * col : 4 * col + 4] = [1, 0, 1, 1]  # dynamite, rifle, dog (the §4.6.4 example)
    kit.set_player(st, 0, dynamite=0, wood=0, rifles=0, dogs=0)
    kit.start_action_phase(st, leader=0)
    forms = takes(st, "collect_carpenter")
    assert all(a.crew[1] == 1 for a in forms)
    assert_illegal(st, take_action("collect_carpenter", crew(sailors=3), take=(1, 0, 1, 1)))
    take(st, "collect_carpenter", crew(carpenter=1, sailors=2), take=(1, 0, 1, 1))
    p = st.player(0)
    assert (p["dynamite"], p["wood"], p["rifles"], p["dogs"]) == (1, 0, 1, 1)


def test_warehouse_collect_empty_box_not_possible_and_box_limits_the_take() -> None:
    st = action_phase()
    assert "collect_captain" not in spaces(st)
    assert_illegal(st, take_action("collect_captain", crew(captain=1), take=(0, 0, 0, 0)))
    col = list(C.warehouses).index("captain")
    st.boxes[4 * col : 4 * col + 4] = [0, 1, 0, 0]
    kit.start_action_phase(st, leader=0)
    assert {a.take for a in takes(st, "collect_captain")} == {(0, 1, 0, 0)}


# ---------------------------------------------------------------- upgrades 1, 4, 5


@pytest.mark.parametrize(
    ("tile", "space", "proxy_crew", "kw"),
    [
        (1, "build_cabin", crew(sailors=2), {"food": 0}),
        (4, "experiment", crew(sailors=3), {}),
        (5, "explore", crew(sailors=2), {}),
    ],
)
def test_upgrades_1_4_5_any_crew_as_the_officer_once_per_round(
    tile: int, space: str, proxy_crew: tuple[int, ...], kw: dict[str, object]
) -> None:
    role = {1: "carpenter", 4: "scientist", 5: "captain"}[tile]
    st = action_phase()
    kit.set_player(st, 0, upgrades=[tile], sailors=3, inuit=2, wood=5, dogs=3)
    kit.set_player(st, 1, upgrades=[])
    acts = [a for a in takes(st, space) if a.crew == proxy_crew]
    assert acts and all(a.proxy == role for a in acts)
    st.apply(acts[0])
    # once per round: the proxy is gone for every other space this round
    st.apply(Action("pass"))
    assert all(a.proxy is None for a in st.legal_actions() if a.kind == "take")
    # without the tile nobody may use a proxy
    assert not any(a.proxy for a in action_phase().legal_actions() if a.kind == "take")


def test_proxy_is_available_again_next_round() -> None:
    st = action_phase()
    kit.set_player(st, 0, upgrades=[5], dogs=3)
    take(st, "explore", crew(sailors=2), proxy="captain")
    pass_all(st)
    kit.start_action_phase(st, leader=0)
    assert any(a.proxy == "captain" for a in st.legal_actions() if a.kind == "take")


# ---------------------------------------------------------------- final-round actions


def blue_action_phase(players: int = 2):
    st = fresh(players)
    kit.set_fleet(st, "lands_end")
    kit.start_action_phase(st, leader=0)
    return st


def test_final_round_actions_only_at_a_blue_anchor() -> None:
    st = action_phase()
    assert not FINAL_SPACES & spaces(st)
    assert_illegal(st, take_action("lab_research", crew(scientist=1, sailors=1)))
    st = blue_action_phase()
    assert spaces(st) >= FINAL_SPACES


def test_trace_the_map_1_pp_per_cartography_token() -> None:
    st = blue_action_phase()
    st.mapped[:] = ["baffin", "devon", "banks"]
    kit.set_player(st, 0, pp=10)
    assert all(a.crew[0] == 1 and sum(a.crew) == 2 for a in takes(st, "trace_map"))
    ev = take(st, "trace_map", crew(captain=1, sailors=1))
    assert deltas(ev) == {0: 3}


def test_document_construction_methods_3_pp_per_upgrade() -> None:
    st = blue_action_phase()
    kit.set_player(st, 0, upgrades=[2, 3], pp=10)
    assert all(a.crew[1] == 1 and sum(a.crew) == 2 for a in takes(st, "document_methods"))
    ev = take(st, "document_methods", crew(carpenter=1, sailors=1))
    assert deltas(ev) == {0: 6}


def test_laboratory_research_7_pp() -> None:
    st = blue_action_phase()
    assert all(a.crew[2] == 1 and sum(a.crew) == 2 for a in takes(st, "lab_research"))
    assert_illegal(st, take_action("lab_research", crew(scientist=1)))
    ev = take(st, "lab_research", crew(scientist=1, sailors=1))
    assert deltas(ev) == {0: 7}


@pytest.mark.parametrize("column", ["captain", "carpenter", "scientist"])
def test_vow_of_silence_officer_alone_or_2_crew_1_pp_per_resource_kept(column: str) -> None:
    res = SPACE[f"vow_{column}"].resource
    st = blue_action_phase()
    kit.set_player(st, 0, dynamite=2, wood=3, rifles=4, dogs=1)
    forms = {a.crew for a in takes(st, f"vow_{column}")}
    assert crew(**{column: 1}) in forms and crew(sailors=2) in forms
    assert all(sum(c) == 2 or c == crew(**{column: 1}) for c in forms)
    assert_illegal(st, take_action(f"vow_{column}", crew(sailors=1)))
    ev = take(st, f"vow_{column}", crew(sailors=2))
    have = {"dynamite": 2, "wood": 3, "rifles": 4}[res]
    assert deltas(ev) == {0: have}
    assert st.player(0)[res] == have  # not paid


def test_warehouse_contents_stay_between_rounds() -> None:
    """Decision A3."""
    st = action_phase()
    kit.set_player(st, 0, rifles=1)
    take(st, "exchange_captain", crew(captain=1), resource="rifles")
    pass_all(st)
    kit.start_action_phase(st, leader=1)
    assert {a.take for a in takes(st, "collect_captain")} == {(0, 0, 1, 0)}


@pytest.mark.parametrize("size", [2, 3])
def test_explore_both_crew_forms_have_the_same_effect(size: int) -> None:
    """Decision 4."""
    st = action_phase()
    kit.set_player(st, 0, sled=2, dogs=5, pp=10, morale=3)
    ev = take(st, "explore", crew(captain=1, sailors=size - 1))
    assert deltas(ev, "explore") == {0: min(SLED_PP[2], DOG_PP[5])}


def test_take_accepts_the_json_wire_format() -> None:
    st = action_phase()
    kit.set_player(st, 0, sled=1, dogs=4, pp=10, morale=3)
    st.apply({"type": "take", "space": "explore", "crew": {"captain": 1, "sailors": 1}})
    assert st.player(0)["pp"] == 15 and st.player(0)["morale"] == 5


def test_hire_an_inuk_needs_an_inuk_pawn_left_in_the_supply() -> None:
    """Decision R3: 15 Inuit pawns."""
    st = action_phase()
    assert "hire_inuk" in spaces(st)
    st.inuit_pool = 0
    kit.start_action_phase(st, leader=0)
    assert "hire_inuk" not in spaces(st)
    assert_illegal(st, take_action("hire_inuk", crew(captain=1, sailors=1)))


def test_improve_the_sled_not_beyond_the_track_maximum() -> None:
    st = action_phase()
    kit.set_player(st, 0, wood=1, sled=TRACKS["sled"]["max"])
    assert "improve_sled" not in spaces(st)
    assert_illegal(st, take_action("improve_sled", crew(carpenter=1, sailors=1)))
