"""The solo scenarios of Through Ice and Snow (rules §7): Lost Expedition (§7.1)
and Magnetic North Pole (§7.2), with the readings of docs/iceandsnow-decisions.md
(items 13, 14 and R2).  Positions are built with the kit; the rules run through
the public ``apply``."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from erebus.core.errors import IllegalAction
from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.action_phase import available_sled_level
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import (
    CompassDrawn,
    DynamitePlaced,
    GameOver,
    ScenarioProgress,
    ScoreChanged,
)
from erebus.games.iceandsnow.state import DIRECTIONS, POLE, State
from iceandsnow.rulekit import first_take, takes

LE = {"scenario": "lost-expedition"}
MNP = {"scenario": "magnetic-north-pole"}
SEARCH = [f"search_{i}" for i in range(1, 6)]


def round_events(st: State) -> list[Any]:
    """Start a round (like ``kit.start_round``) and return its events."""
    st.decisions = []
    st.step = "round"
    st.phase = "flow"
    ev: list[Any] = []
    st._run(ev)
    st._legal = None
    return ev


def next_action_phase(st: State) -> None:
    """Boarding (the crew comes back), then a new Action phase at the same place."""
    fleet = st.fleet
    kit.start_boarding(st)
    kit.set_fleet(st, fleet)
    kit.start_action_phase(st, leader=0)


def pass_all(st: State) -> list[Any]:
    ev: list[Any] = []
    while st.pending == "action" and not st.is_over:
        ev += st.apply(Action("pass"))
    return ev


# ================================================================ Lost Expedition


def le_state(seed: int = 5, *, priority: bool = True, **player: int) -> State:
    """Lost Expedition at the Action phase, the fleet in a priority region (or not)."""
    st = kit.game(1, seed, LE)
    side_a = [a for sec in st.content.sections for a in sec.sides["A"].anchors]
    anchor = next(
        a.id
        for a in side_a
        if (a.region in st.priority) == priority and a.region != "baffin" and not a.edge
    )
    kit.set_fleet(st, anchor)
    kit.set_player(st, 0, **{"health": 6, "morale": 6, "food": 40, **player})
    kit.start_action_phase(st, leader=0)
    return st


def test_le_setup() -> None:
    st = game.new_game(1, 3, LE)
    c = st.content
    assert st.round == 1 and st.pending == "destination", "no setup choices in solo"
    assert st.options["modes"] == ["survival"]
    p = st.player(0)
    assert (p["dynamite"], p["wood"], p["rifles"]) == (7, 6, 2)
    normal = game.new_game(2, 3)
    for k in ("food", "health", "morale", "fuel", "sled", "dogs", "crew", "inuit"):
        assert p[k] == normal.player(0)[k], k
    assert p["pp"] == 10
    assert sorted(st.ev_open) == [1, 2, 3, 4, 5, 6, 7, 9, 11, 12]
    assert sorted(st.ev_coastal) == [14, 15, 16, 17, 18, 19, 20, 21, 23, 24]
    assert st.investor == [None] and st.inv_opts == [[]]
    assert st.carto == [None] and st.carto_opts == [[]]
    assert sorted(st.search) == SEARCH and st.search_rev == []
    assert st.le_progress == 0 and not st.le_found
    # one random cartography card gives the three priority regions; the rest stay unused
    assert len(st.carto_pool) == len(c.cartography) - 1
    drawn = set(c.cartography) - set(st.carto_pool)
    assert len(drawn) == 1
    assert st.priority == list(c.cartography[drawn.pop()].regions)
    assert len(st.priority) == 3


def test_le_search_deck_is_shuffled_per_seed() -> None:
    orders = {tuple(game.new_game(1, seed, LE).search) for seed in range(12)}
    assert len(orders) > 3
    priorities = {tuple(game.new_game(1, seed, LE).priority) for seed in range(12)}
    assert len(priorities) > 2


@pytest.mark.parametrize(
    ("sled", "dogs", "level"),
    [
        (3, 4, 2),  # the reference's example: sled 3, only 4 dogs -> available level 2
        (3, 5, 3),  # "at least one" dog space of level 3 filled (Spanish edition)
        (3, 6, 3),
        (3, 10, 3),  # never above the sled
        (1, 10, 1),
        (5, 9, 5),
        (5, 1, 1),
        (4, 2, 1),
        (2, 3, 2),
    ],
)
def test_le_available_sled_level(sled: int, dogs: int, level: int) -> None:
    st = le_state(sled=sled, dogs=dogs)
    assert available_sled_level(st, 0) == level
    st.le_progress = 0
    st.apply(first_take(st, "explore"))
    assert st.le_progress == level


def test_le_reference_example_explore_in_priority_region() -> None:
    """§7.1 example: Explore in a priority region raises morale by 2 and the
    progress by the available sled level (sled 3 with 4 dogs: +2)."""
    st = le_state(sled=3, dogs=4, morale=4)
    ev = st.apply(first_take(st, "explore"))
    assert st.le_progress == 2
    assert st.player(0)["morale"] == 6
    assert any(isinstance(e, ScenarioProgress) and e.value == 2 for e in ev)
    assert st.player(0)["pp"] == 10, "no PP are gained during a solo game"
    assert not any(isinstance(e, ScoreChanged) for e in ev)


def test_le_explore_outside_the_priority_regions_does_not_search() -> None:
    st = le_state(priority=False, sled=3, dogs=6)
    assert st.region_of(st.fleet) not in st.priority
    st.apply(first_take(st, "explore"))
    assert st.le_progress == 0 and st.search_rev == []


def test_le_excess_reveals_search_cards() -> None:
    st = le_state(sled=3, dogs=6)
    st.le_progress = 3
    st.search = ["search_2", "search_3", "search_4", "search_1", "search_5"]
    st.apply(first_take(st, "explore"))
    # 3 + 3 = 6: progress stays at 5 and the excess (1) reveals one card
    assert st.le_progress == 5
    assert st.search_rev == ["search_2"] and not st.le_found
    next_action_phase(st)
    st.apply(first_take(st, "explore"))
    # 5 + 3: excess 3 reveals three more cards; the third shows the survivors
    assert st.le_progress == 5
    assert st.search_rev == ["search_2", "search_3", "search_4", "search_1"]
    assert st.le_found and st.search == ["search_5"]


def test_le_finding_the_lost_expedition() -> None:
    st = le_state(sled=5, dogs=10, food=40, sailors=3)
    st.le_progress = 5
    st.search = ["search_3", "search_1", "search_2", "search_4", "search_5"]
    crew_before = st.crew_count(0)
    avail_before = st.avail_crew(0)
    ev = st.apply(first_take(st, "explore"))
    assert st.le_found
    # found on the 2nd card: the search stops there
    assert st.search_rev == ["search_3", "search_1"]
    assert any(isinstance(e, ScenarioProgress) and "found" in e.what for e in ev)
    # 4 rescued sailors in the infirmary: fed, never usable, not own crew
    assert st.crew_count(0) == crew_before
    assert st.fed_count(0) == crew_before + 4
    assert st.player(0)["crew"]["sailors"] == 3
    assert sum(st.avail_crew(0)) <= sum(avail_before)
    for a in st.legal_actions():
        if a.crew is not None:
            assert a.crew[3] <= 3, "rescued sailors cannot be placed"
    # Boarding: the infirmary empties but they stay, and they eat
    food = st.player(0)["food"]
    pass_all(st)
    assert st.player(0)["food"] == food - (crew_before + 4)
    assert st.fed_count(0) == crew_before + 4
    # a later explore does not search any more
    next_action_phase(st)
    st.apply(first_take(st, "explore"))
    assert st.search_rev == ["search_3", "search_1"]


def test_le_rescued_sailors_are_not_lost_in_a_food_shortage() -> None:
    """They cannot be discarded: a shortage takes the player's own sailors first
    and then PP, never the rescued ones."""
    st = le_state(sled=5, dogs=0, food=0, sailors=1, pp=30)
    st.le_found = True
    kit.set_player(st, 0, rescued=4, species=[])
    ev = kit.start_boarding(st)
    assert st.player(0)["crew"]["sailors"] == 0
    assert st.fed_count(0) == st.crew_count(0) + 4
    losses = [e for e in ev if isinstance(e, ScoreChanged)]
    assert losses and all(e.delta < 0 for e in losses)


def test_le_no_pp_gained_but_losses_apply_and_zero_loses() -> None:
    st = le_state(wood=3, food=20, pp=6)
    ev = st.apply(first_take(st, "build_cabin", food=8))
    assert st.player(0)["pp"] == 6 and st.player(0)["cabins"] == 1
    assert not any(isinstance(e, ScoreChanged) for e in ev)
    # Death (health 0) costs 5 PP: 6 -> 1, still playing
    kit.set_player(st, 0, health=1, morale=6)
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.player(0)["pp"] == 1 and not st.is_over
    # a second Death: 1 -> -4, the game is lost at once
    st2 = le_state(pp=5, health=1)
    kit.start_round(st2, leader=0)
    ev = st2.apply(st2.legal_actions()[0])
    while st2.pending == "section":
        ev += st2.apply(st2.legal_actions()[0])
    assert st2.is_over and st2.outcome == "lost" and st2.won is False
    assert st2.player(0)["pp"] == 0
    assert any(isinstance(e, GameOver) and e.outcome == "lost" for e in ev)
    assert st2.current_player is None and st2.legal_actions() == []


def _le_objectives_state(**flags: Any) -> State:
    st = le_state()
    st.le_cabin = flags.get("cabin", True)
    st.le_found = flags.get("found", True)
    if flags.get("musk_ox", True):
        kit.set_player(st, 0, species=["musk_ox_1"])
    else:
        kit.set_player(st, 0, species=["arctic_fox_1"])
    return st


def _sail_final_voyage(st: State) -> list[Any]:
    """Run the final voyage from the current position to the end of the game."""
    st.final_voyage = True
    kit.set_player(st, 0, fuel=10, dynamite=5, health=6, morale=6, pp=30)
    kit.start_round(st, leader=0)
    ev: list[Any] = []
    for _ in range(20):
        if st.is_over:
            break
        ev += st.apply(st.legal_actions()[0])
    assert st.is_over
    return ev


@pytest.mark.parametrize(
    ("flags", "missing"),
    [
        ({}, []),
        ({"cabin": False}, ["cabin"]),
        ({"musk_ox": False}, ["musk_ox"]),
        ({"found": False}, ["lost expedition"]),
        ({"cabin": False, "found": False, "musk_ox": False}, ["cabin", "musk_ox", "lost"]),
    ],
)
def test_le_objectives_win_or_lose(flags: dict[str, bool], missing: list[str]) -> None:
    st = _le_objectives_state(**flags)
    assert len(st.objectives_missing()) == len(missing)
    for word, text in zip(missing, st.objectives_missing(), strict=True):
        assert word in text
    ev = _sail_final_voyage(st)
    over = [e for e in ev if isinstance(e, GameOver)]
    assert len(over) == 1
    assert st.won is (not missing)
    assert st.outcome == ("won" if not missing else "lost")
    # final scoring is never calculated in solo play
    assert not any(isinstance(e, ScoreChanged) and e.delta > 0 for e in ev)
    assert st.player(0)["pp"] == 30


def test_le_cabin_objective() -> None:
    """Build a Cabin lowering food by at least 4, not in Baffin, before the finding."""
    st = le_state(wood=5)
    st.apply(first_take(st, "build_cabin", food=3))
    assert not st.le_cabin
    next_action_phase(st)
    st.apply(first_take(st, "build_cabin", food=4))
    assert st.le_cabin
    # in Baffin it does not count
    st = kit.game(1, 5, LE)
    kit.set_fleet(st, "north_water")
    assert st.region_of(st.fleet) == "baffin"
    kit.set_player(st, 0, wood=5, food=30, health=6, morale=6)
    kit.start_action_phase(st, leader=0)
    st.apply(first_take(st, "build_cabin", food=10))
    assert not st.le_cabin
    # after the finding it is too late
    st = le_state(wood=5)
    st.le_found = True
    st.apply(first_take(st, "build_cabin", food=10))
    assert not st.le_cabin


def test_le_objective_species_is_musk_ox() -> None:
    assert game.default_content().scenarios["lost-expedition"]["objective"]["species"] == "musk_ox"


def test_le_exhausted_voyage_deck_forces_the_other_type() -> None:
    st = kit.game(1, 5, LE)
    kit.set_player(st, 0, fuel=10, dynamite=5, health=6, morale=6)
    st.ev_open = []
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.legal_actions() == [Action("voyage", voyage="coastal")]
    st = kit.game(1, 5, LE)
    kit.set_player(st, 0, fuel=10, dynamite=5, health=6, morale=6)
    st.ev_coastal = []
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.legal_actions() == [Action("voyage", voyage="open")]


def test_le_both_decks_exhausted_reshuffle() -> None:
    st = kit.game(1, 5, LE)
    kit.set_player(st, 0, fuel=10, dynamite=5, health=6, morale=6)
    st.ev_open_disc, st.ev_open = st.ev_open, []
    st.ev_coastal_disc, st.ev_coastal = st.ev_coastal, []
    kit.start_round(st, leader=0)
    st.apply(st.legal_actions()[0])
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert {a.voyage for a in st.legal_actions()} == {"open", "coastal"}
    assert len(st.ev_open) == 10 and len(st.ev_coastal) == 10


# ============================================================ Magnetic North Pole


def test_mnp_setup() -> None:
    st = game.new_game(1, 4, MNP)
    c = st.content
    assert st.round == 0 and st.pending == "section"
    assert st.placed == [[0, "B"]], "the East section on its B side"
    assert st.options["modes"] == ["survival"]
    p = st.player(0)
    assert (p["dynamite"], p["wood"], p["rifles"], p["fuel"]) == (9, 3, 2, 8)
    assert sorted(st.ev_open) == list(range(1, 11))
    assert sorted(st.ev_coastal) == [13, 14, 15, 17, 18, 19, 20, 21, 23, 24]
    assert st.sp_deck == [], "the species deck is not used"
    assert st.investor == [None] and st.carto == [None]
    assert st.inv_opts == [[]] and st.carto_opts == [[]]
    assert Counter(st.compass) == Counter({"N": 3, "S": 3, "W": 3, "E": 2, POLE: 1})
    assert st.compass_disc == []
    # Central East on a side of the player's choice, then one of the two starts
    st.apply(Action("section", side="B"))
    assert st.placed == [[0, "B"], [1, "B"]]
    starts = [a.to for a in st.legal_actions()]
    want = [a.id for a in c.sections[0].sides["B"].anchors if a.start]
    assert starts == want and len(starts) == 2
    st.apply(Action("destination", to=starts[0]))
    assert st.fleet == starts[0] and st.round == 1


def test_mnp_pole_is_among_the_bottom_five() -> None:
    positions = Counter()
    for seed in range(80):
        deck = game.new_game(1, seed, MNP).compass
        assert len(deck) == 12
        positions[deck.index(POLE)] += 1
    assert set(positions) <= {7, 8, 9, 10, 11}
    assert len(positions) >= 4, f"the pole should land anywhere in the bottom 5: {positions}"


def test_mnp_blocked_and_replaced_spaces() -> None:
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, health=6, morale=6, inuit=1)
    kit.start_action_phase(st, leader=0)
    assert takes(st, "hire_inuk") == [], "the blocking tile covers Hire an Inuk"
    research = takes(st, "discover")
    assert research, "Magnetic Research sits on the Discover space"
    for a in research:
        assert a.crew is not None and a.crew[2] == 1 and sum(a.crew) == 2
        assert a.card is None
    with pytest.raises(IllegalAction):
        st.apply(Action("take", space="hire_inuk", crew=(1, 0, 0, 1, 0)))


@pytest.mark.parametrize("top", ["N", POLE])
def test_mnp_magnetic_research(top: str) -> None:
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, health=6, morale=6)
    st.compass = [top, "S", "W", "E"]
    st.compass_disc = []
    kit.start_action_phase(st, leader=0)
    ev = st.apply(takes(st, "discover")[0])
    assert [e.card for e in ev if isinstance(e, CompassDrawn)] == [top]
    if top == POLE:
        assert sorted(st.compass) == sorted([POLE, "S", "W", "E"]) and st.compass_disc == []
    else:
        assert st.compass == ["S", "W", "E"] and st.compass_disc == ["N"]
    assert st.player(0)["pp"] == 10


def _mnp_round(anchor: str, compass: list[str], disc: list[str] | None = None, **p: int) -> State:
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, **{"pp": 30, "health": 6, "morale": 6, "fuel": 10, "dynamite": 9, **p})
    kit.set_fleet(st, anchor)
    st.compass = list(compass)
    st.compass_disc = list(disc or [])
    kit.start_round(st, leader=0)
    return st


def farthest(st: State, here: str, direction: str) -> str | None:
    """The anchor along a route (either way) farthest in ``direction`` (§7.2)."""
    dx, dy = DIRECTIONS[direction]
    h = st.tables.anchors[here]
    best: tuple[float, str] | None = None
    for to, _ in st.tables.routes_from(st.placed_key(), here, both_ways=True):
        a = st.tables.anchors[to]
        d = (a.x - h.x) * dx + (a.y - h.y) * dy
        if d > 0 and (best is None or d > best[0]):
            best = (d, to)
    return best[1] if best else None


def test_mnp_not_magnetised_before_central_west() -> None:
    st = _mnp_round("port_leopold", ["W", "N"])
    assert not st.magnetised
    assert st.pending == "destination", "the leader chooses normally"
    assert st.compass == ["W", "N"]


def test_mnp_magnetised_from_the_first_voyage_in_central_west() -> None:
    st = _mnp_round("cape_walker", ["E", "N", "S"])
    assert st.magnetised
    assert st.compass_disc == ["E"]
    assert st.dest == farthest(st, "cape_walker", "E")
    # it stays magnetised when the fleet leaves Central West again
    kit.set_fleet(st, "port_leopold")
    kit.start_round(st, leader=0)
    assert st.magnetised and st.compass_disc == ["E", "N"]


@pytest.mark.parametrize("anchor", ["peel_sound", "griffith_island", "cape_walker", "gjoa_haven"])
@pytest.mark.parametrize("direction", ["N", "S", "E", "W"])
def test_mnp_compass_destination_is_the_farthest(anchor: str, direction: str) -> None:
    st = _mnp_round(anchor, [direction, "N", "S", "E", "W"])
    want = farthest(st, anchor, direction)
    if want is None:
        assert st.dest != anchor and st.dest is not None
        assert st.compass.count(direction) >= 1, "the card went back into the deck"
    else:
        assert st.dest == want
        assert st.compass_disc[0] == direction


def test_mnp_moves_against_the_arrows() -> None:
    """The magnetised compass may follow a route backwards: from Cape Walker the
    routes lead west only, yet an East card moves the fleet back to Peel Sound."""
    st = _mnp_round("cape_walker", ["E"])
    forward = {to for to, _ in st.tables.routes_from(st.placed_key(), "cape_walker")}
    assert "peel_sound" not in forward
    assert st.dest == "peel_sound"


def test_mnp_no_destination_costs_fuel_and_redraws() -> None:
    """§7.2: no anchor in the card's direction: fuel −1, the card back into the
    deck, a new card; repeated as often as needed."""
    here = "bracebridge_inlet"
    st0 = kit.game(1, 3, MNP)
    kit.set_fleet(st0, here)
    assert farthest(st0, here, "N") is None and farthest(st0, here, "E") is not None
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, pp=30, health=6, morale=6, fuel=7, dynamite=9)
    kit.set_fleet(st, here)
    st.compass = ["N", "N", "E", "S"]
    st.compass_disc = []
    ev = round_events(st)
    drawn = [e.card for e in ev if isinstance(e, CompassDrawn)]
    # each N goes back into the deck at a random place and may come up again
    assert drawn[-1] == "E" and set(drawn[:-1]) == {"N"} and len(drawn) >= 3
    assert st.player(0)["fuel"] == 7 - (len(drawn) - 1), "each failed card costs 1 fuel"
    assert st.dest == farthest(st, here, "E")
    assert st.compass_disc == ["E"]
    assert Counter(st.compass) == Counter({"N": 2, "S": 1})


def test_mnp_no_destination_without_fuel_loses() -> None:
    st = _mnp_round("bracebridge_inlet", ["N", "E"], fuel=0)
    assert st.is_over and st.outcome == "lost"


def test_mnp_icebreaking_even_if_dynamite_already_there() -> None:
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, pp=30, health=6, morale=6, fuel=10, dynamite=5)
    kit.set_fleet(st, "cape_walker")
    st.compass, st.compass_disc = ["E"], []
    st.dyn_anchors.append("peel_sound")
    ev = round_events(st)
    assert st.dest == "peel_sound"
    assert any(isinstance(e, DynamitePlaced) and e.anchor == "peel_sound" for e in ev)
    assert st.player(0)["dynamite"] == 4


def _to_voyage(st: State) -> None:
    while st.pending == "section":
        st.apply(st.legal_actions()[0])
    assert st.pending == "voyage", st.pending


def test_mnp_open_sea_to_unmapped_region_returns_the_discard_pile() -> None:
    st = _mnp_round("cape_walker", ["E", "N", "S"], disc=["W", "W"])
    _to_voyage(st)
    assert st.region_of(st.dest) not in st.mapped  # type: ignore[arg-type]
    st.apply(Action("voyage", voyage="open"))
    assert st.compass_disc == []
    assert Counter(st.compass) == Counter({"W": 2, "E": 1, "N": 1, "S": 1})


def test_mnp_open_sea_to_mapped_region_keeps_the_discard_pile() -> None:
    st = _mnp_round("cape_walker", ["E", "N", "S"], disc=["W", "W"])
    _to_voyage(st)
    st.mapped.append(st.region_of(st.dest))  # type: ignore[arg-type]
    st.apply(Action("voyage", voyage="open"))
    assert st.compass_disc == ["W", "W", "E"]
    assert st.compass == ["N", "S"]


def test_mnp_coastal_voyage_keeps_the_discard_pile() -> None:
    st = _mnp_round("cape_walker", ["E", "N", "S"], disc=["W"])
    _to_voyage(st)
    st.apply(Action("voyage", voyage="coastal"))
    assert st.compass_disc == ["W", "E"]
    assert st.region_of(st.fleet) in st.mapped
    assert st.player(0)["pp"] == 30, "mapping gives no PP in solo play"


def test_mnp_exhausted_voyage_deck_forces_the_other_type() -> None:
    st = _mnp_round("cape_walker", ["E", "N", "S"])
    st.ev_coastal = []
    _to_voyage(st)
    assert st.legal_actions() == [Action("voyage", voyage="open")]
    st = _mnp_round("cape_walker", ["E", "N", "S"])
    st.ev_open = []
    _to_voyage(st)
    assert st.legal_actions() == [Action("voyage", voyage="coastal")]


def test_mnp_pole_card_takes_the_direction_of_the_top_discard() -> None:
    st = _mnp_round("cape_walker", [POLE, "N"], disc=["S", "E"])
    assert st.pole_dir == "E"
    assert st.dest == farthest(st, "cape_walker", "E")
    assert st.compass_disc == ["S", "E"], "the pole card is not discarded"


def test_mnp_pole_card_without_destination_goes_back() -> None:
    st = _mnp_round("bracebridge_inlet", [POLE, "E"], disc=["N"], fuel=5)
    assert st.pole_dir is None
    assert st.player(0)["fuel"] == 4
    assert POLE in st.compass
    assert st.dest == farthest(st, "bracebridge_inlet", "E")


TABLE = {"N": (7, 4), "S": (7, 4), "W": (13, 4), "E": (5, 4)}


@pytest.mark.parametrize("direction", ["N", "S", "W", "E"])
@pytest.mark.parametrize(
    ("d_explore", "d_cabin", "found"),
    [(0, 0, True), (-1, 0, False), (0, -1, False), (3, 3, True)],
)
def test_mnp_pole_discovery_thresholds(
    direction: str, d_explore: int, d_cabin: int, found: bool
) -> None:
    explore, cabin = TABLE[direction]
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, food=40, health=6, morale=6, dynamite=5)
    kit.set_fleet(st, "cape_walker")
    st.magnetised = True
    st.pole_dir = direction
    st.mnp_explore = explore + d_explore
    st.mnp_cabin = cabin + d_cabin
    st.compass = ["N", "S", "E", "W", "N"]  # the pole card is on the table
    st.compass_disc = []
    ev = kit.start_boarding(st)  # Boarding, then on into the next round
    assert any(isinstance(e, ScenarioProgress) for e in ev)
    assert st.pole_found is found
    cards = st.compass + st.compass_disc + ([POLE] if st.pole_dir else [])
    if found:
        assert not st.magnetised, "the compass is no longer magnetised"
        assert len(cards) == 5 and POLE not in cards
        assert st.objectives_missing() == []
    else:
        assert st.magnetised
        assert len(cards) == 6 and POLE in cards, "the pole card goes back into the deck"
        assert any(isinstance(e, ScenarioProgress) and "fails" in e.what for e in ev)


def test_mnp_pole_discovery_by_actions_in_the_round() -> None:
    """East: an Explore worth ≥5 PP (sled 1 with 4 dogs: 5) and a cabin lowering
    food by ≥4, in this round; no PP are gained."""
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, food=40, health=6, morale=6, dynamite=5, sled=1, dogs=4, wood=4)
    kit.set_fleet(st, "cape_walker")
    st.magnetised = True
    st.pole_dir = "E"
    kit.start_action_phase(st, leader=0)
    st.mnp_explore, st.mnp_cabin = 0, -1
    st.apply(first_take(st, "explore"))
    assert st.mnp_explore == 5
    st.apply(first_take(st, "build_cabin", food=4))
    assert st.mnp_cabin == 4
    assert st.player(0)["pp"] == 10
    pass_all(st)
    assert st.pole_found and not st.magnetised


def test_mnp_requirements_are_per_round() -> None:
    st = _mnp_round("port_leopold", ["N"])
    st.mnp_explore = 20
    st.mnp_cabin = 10
    kit.start_round(st, leader=0)
    assert st.mnp_explore == 0 and st.mnp_cabin == -1


def test_mnp_objectives() -> None:
    st = kit.game(1, 3, MNP)
    assert [("pole" in m) for m in st.objectives_missing()] == [True]
    kit.set_fleet(st, "cape_walker")
    ev = _sail_final_voyage(st)
    assert st.outcome == "lost" and not st.won
    st = kit.game(1, 3, MNP)
    st.pole_found = True
    kit.set_fleet(st, "cape_walker")
    ev = _sail_final_voyage(st)
    assert st.outcome == "won" and st.won
    assert any(isinstance(e, GameOver) and e.outcome == "won" for e in ev)


def test_mnp_no_pp_gained_in_play() -> None:
    st = kit.game(1, 3, MNP)
    kit.set_player(st, 0, health=6, morale=6, sled=3, dogs=6, wood=4, food=40)
    kit.set_fleet(st, "port_leopold")
    kit.start_action_phase(st, leader=0)
    for space in ("explore", "build_cabin", "lab_research"):
        acts = takes(st, space)
        if acts and st.pending == "action":
            ev = st.apply(acts[-1])
            assert not any(isinstance(e, ScoreChanged) for e in ev), space
    assert st.player(0)["pp"] == 10


@pytest.mark.parametrize("options", [LE, MNP])
def test_solo_reveals_two_hunting_cards_per_round(options: dict[str, Any]) -> None:
    """§7.0: solo play uses the 1–3-player rules: 2 hunting cards per round."""
    st = kit.game(1, 2, options)
    kit.set_player(st, 0, health=6, morale=6, fuel=10, dynamite=5, pp=30)
    kit.start_round(st, leader=0)
    while st.pending != "action":
        st.apply(st.legal_actions()[0])
    assert len(st.hu_rev) == 2
    if options is MNP:
        assert st.sp_rev == []
