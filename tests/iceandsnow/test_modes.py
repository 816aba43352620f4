"""The game modes of Through Ice and Snow (rules §6): Survival (§6.1, with the
reference's five-step worked example), Build Shelters (§6.2) and Dual Species
(§6.3).  Positions are built with the kit; the rules run through ``apply``."""

from __future__ import annotations

from typing import Any

import pytest

from erebus.games import iceandsnow as game
from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.content import RESOURCES
from erebus.games.iceandsnow.events import CardTaken, ResourceChanged, ScoreChanged, ShelterBuilt
from erebus.games.iceandsnow.scoring import final_scores
from erebus.games.iceandsnow.state import State
from iceandsnow.rulekit import first_take, takes

SURVIVAL = {"modes": ["survival"]}
SHELTERS = {"modes": ["shelters"]}
DUAL = {"modes": ["dual_species"]}
DUALS = ("dual_greenland_shark", "dual_arctic_cod", "dual_greenland_halibut")
FISHING_BOAT = 7


def box(st: State, column: str) -> dict[str, int]:
    ci = st.tables.columns.index(column)
    return dict(zip(RESOURCES, st.boxes[4 * ci : 4 * ci + 4], strict=True))


def action_phase(players: int, options: dict[str, Any], seed: int = 3, **p: int) -> State:
    st = kit.game(players, seed, options)
    for s in range(players):
        kit.set_player(st, s, **{"health": 6, "morale": 6, "food": 30, **p})
    kit.start_action_phase(st, leader=0)
    return st


# ======================================================================= Survival


def test_survival_reference_example() -> None:
    """§6.1 example: Fernando (leader, seat 0), Linus (seat 1), Laia (seat 2)."""
    st = action_phase(3, SURVIVAL, dynamite=2, wood=3, rifles=1, dogs=3, inuit=1)
    fernando, linus, laia = 0, 1, 2
    # 1. Hire an Inuk is below the captain column's warehouse: no deposit
    assert st.current_player == fernando
    hires = takes(st, "hire_inuk")
    assert hires and all(a.deposit is None for a in hires)
    st.apply(hires[0])
    assert box(st, "captain") == dict.fromkeys(RESOURCES, 0)
    # 2. Linus: Improve the Sled, above the carpenter warehouse: a deposit is due
    assert st.current_player == linus
    sleds = takes(st, "improve_sled")
    assert sleds and all(a.deposit is not None for a in sleds)
    assert {a.deposit for a in sleds} == set(RESOURCES)
    ev = st.apply(first_take(st, "improve_sled", deposit="dynamite"))
    assert ResourceChanged(linus, "dynamite", -1, "survival deposit") in ev
    assert st.player(linus)["dynamite"] == 1 and st.player(linus)["sled"] == 2
    assert box(st, "carpenter") == {"dynamite": 1, "wood": 0, "rifles": 0, "dogs": 0}
    # 3. Laia: Build a Cabin, same column: Linus already paid this round
    assert st.current_player == laia
    cabins = takes(st, "build_cabin")
    assert cabins and all(a.deposit is None for a in cabins)
    st.apply(cabins[0])
    # 4. Fernando collects the dynamite from the carpenter warehouse
    assert st.current_player == fernando
    collect = first_take(st, "collect_carpenter", take=(1, 0, 0, 0))
    st.apply(collect)
    assert st.player(fernando)["dynamite"] == 3
    assert box(st, "carpenter") == dict.fromkeys(RESOURCES, 0)
    # ... the cost still counts as paid for the round
    assert st.col_paid[st.tables.columns.index("carpenter")] == 1
    # 5. Linus: Explore, above the captain warehouse nobody has paid for yet
    assert st.current_player == linus
    explores = takes(st, "explore")
    assert explores and all(a.deposit is not None for a in explores)
    st.apply(explores[0])
    assert sum(box(st, "captain").values()) == 1


def test_survival_deposit_needs_a_spare_resource() -> None:
    """The deposit comes on top of the action's own cost (and Explore keeps a dog)."""
    st = action_phase(2, SURVIVAL, dynamite=0, wood=1, rifles=0, dogs=0)
    assert takes(st, "improve_sled") == [], "the only wood pays the sled"
    assert takes(st, "experiment") == []
    st = action_phase(2, SURVIVAL, dynamite=0, wood=2, rifles=0, dogs=0)
    assert {a.deposit for a in takes(st, "improve_sled")} == {"wood"}
    st = action_phase(2, SURVIVAL, dynamite=0, wood=0, rifles=0, dogs=1)
    assert takes(st, "explore") == [], "the single dog must stay to explore"


def test_survival_below_the_warehouses_and_general_actions_are_free() -> None:
    st = action_phase(2, SURVIVAL, dynamite=2, wood=3, rifles=2, dogs=3)
    for a in st.legal_actions():
        if a.kind != "take" or a.space not in st.tables.space_index:
            continue
        sp = st.tables.spaces[st.tables.space_index[a.space]]
        assert (a.deposit is not None) == sp.above_warehouse, a


def test_survival_boxes_keep_their_contents_between_rounds() -> None:
    st = action_phase(2, SURVIVAL, dynamite=2, wood=3, rifles=1, dogs=3)
    st.apply(first_take(st, "improve_sled", deposit="rifles"))
    while st.pending == "action":
        st.apply(Action("pass"))
    kit.start_boarding(st)
    for s in range(2):
        kit.set_player(st, s, health=6, morale=6, food=30, dynamite=2)
    kit.start_action_phase(st, leader=0)
    assert box(st, "carpenter")["rifles"] == 1, "the deposit stays in the warehouse"
    assert st.col_paid == [0, 0, 0], "but the column is unpaid again"
    assert all(a.deposit is not None for a in takes(st, "build_cabin"))


def test_no_deposit_without_survival() -> None:
    st = action_phase(2, {}, dynamite=2, wood=3, rifles=1, dogs=3)
    assert all(a.deposit is None for a in st.legal_actions())
    with pytest.raises(ValueError):
        st.apply(first_take(st, "improve_sled")._replace(deposit="dynamite"))


# ================================================================= Build Shelters


def test_shelter_requirement_and_effect() -> None:
    st = action_phase(2, SHELTERS, inuit=0, food=10)
    assert takes(st, "build_shelter") == [], "Build Shelter needs an Inuk"
    st = action_phase(2, SHELTERS, inuit=1, food=10)
    shelters = takes(st, "build_shelter")
    assert shelters
    for a in shelters:
        assert a.crew is not None and a.crew[4] == 1 and sum(a.crew) == 2
    ev = st.apply(shelters[0])
    assert ShelterBuilt(0, st.fleet) in ev
    assert st.shelters_at == [[st.fleet, 0]]
    assert st.player(0)["food"] == 12


def test_no_shelter_action_without_the_mode() -> None:
    st = action_phase(2, {}, inuit=2)
    assert takes(st, "build_shelter") == []


def _shelter_at(anchor: str, fleet: str, **p: int) -> State:
    st = kit.game(2, 3, SHELTERS)
    kit.set_fleet(st, fleet)
    for s in range(2):
        kit.set_player(st, s, **{"health": 6, "morale": 6, "food": 10, "inuit": 2, **p})
    kit.set_player(st, 0, shelters=p.get("shelters", 1))
    st.shelters_at = [[anchor, 0]]
    kit.start_action_phase(st, leader=0)
    return st


@pytest.mark.parametrize(
    ("anchor", "fleet", "active"),
    [
        ("port_leopold", "maxwell_bay", True),  # same section (Central East)
        ("port_leopold", "peel_sound", False),  # another section
        ("griffith_island", "maxwell_bay", True),  # shared edge: active in both
        ("griffith_island", "peel_sound", True),
        ("griffith_island", "north_water", False),
        ("croker_bay", "north_water", True),  # East / Central East edge
        ("croker_bay", "port_leopold", True),
        ("croker_bay", "peel_sound", False),
    ],
)
def test_active_shelter(anchor: str, fleet: str, active: bool) -> None:
    st = _shelter_at(anchor, fleet)
    # an active shelter forbids building another one
    assert bool(takes(st, "build_shelter")) is not active
    fish = first_take(st, "ice_fishing", crew=(0, 0, 0, 2, 0))
    st.apply(fish)
    assert st.player(0)["food"] == 10 + (4 if active else 2), "Ice Fishing doubled"


def test_shelter_and_ice_fishing_in_the_same_round_and_school_of_fish() -> None:
    st = action_phase(2, {"modes": ["shelters"], "extra_events": True}, inuit=1, food=10)
    st.apply(first_take(st, "build_shelter", crew=(0, 0, 0, 1, 1)))
    st.apply(Action("pass"))
    # event 26 (School of Fish): twice, or three times with an active shelter
    st.round_mods = ("ice_fishing",)
    st._legal = None
    st.apply(first_take(st, "ice_fishing", crew=(1, 0, 0, 0, 0)))
    assert st.player(0)["food"] == 12 + 3


def test_shelter_limit_and_cabin_beside_it() -> None:
    st = _shelter_at("port_leopold", "peel_sound", shelters=4)
    assert takes(st, "build_shelter") == [], "4 shelters per colour"
    st = _shelter_at("peel_sound", "peel_sound", wood=2)
    st.apply(Action("pass"))  # seat 1 builds a cabin beside seat 0's shelter
    st.apply(first_take(st, "build_cabin", food=0))
    assert [st.fleet, 1] in st.cabins_at and [st.fleet, 0] in st.shelters_at


@pytest.mark.parametrize(
    ("shelters", "award"),
    [
        ([3, 1], [4, 0]),
        ([2, 2], [2, 2]),
        ([2, 2, 2], [1, 1, 1]),
        ([1, 1, 1, 0], [1, 1, 1, 0]),
        ([0, 0, 0], [0, 0, 0]),
    ],
)
def test_shelter_majority(shelters: list[int], award: list[int]) -> None:
    n = len(shelters)
    st = kit.game(n, 2, SHELTERS)
    for s, k in enumerate(shelters):
        kit.set_player(st, s, shelters=k)
    got = [0] * n
    for s, delta, reason in final_scores(st):
        if reason == "shelter majority":
            got[s] += delta
    assert got == award
    st = kit.game(n, 2)
    for s, k in enumerate(shelters):
        kit.set_player(st, s, shelters=k)
    assert not any(r == "shelter majority" for _, _, r in final_scores(st))


# =================================================================== Dual Species


@pytest.mark.parametrize("upgrades", ["base", "all"])
def test_dual_species_setup(upgrades: str) -> None:
    st = game.new_game(2, 9, {**DUAL, "upgrades": upgrades})
    c = st.content
    base = sorted(c.hunting) + (sorted(c.whales) if upgrades == "all" else [])
    assert len(st.hu_box) == 3
    assert set(st.hu_box) <= set(base), "3 random hunting cards go to the box"
    assert set(DUALS) <= set(st.hu_deck)
    assert sorted(st.hu_deck + st.hu_box) == sorted(base + list(DUALS))
    assert st.upgrade_in_game(FISHING_BOAT), "the Fishing Boat is in the game"
    assert st.upg_left[FISHING_BOAT] == c.upgrades[FISHING_BOAT].copies
    plain = game.new_game(2, 9)
    assert not plain.upgrade_in_game(FISHING_BOAT)
    assert plain.hu_box == [] and not set(DUALS) & set(plain.hu_deck)


def test_dual_boxed_cards_vary_with_the_seed() -> None:
    boxes = {tuple(sorted(game.new_game(2, s, DUAL).hu_box)) for s in range(10)}
    assert len(boxes) > 5


def _dual_phase(card: str, boat: bool, rifles: int = 4) -> State:
    st = kit.game(2, 1, DUAL)
    for s in range(2):
        kit.set_player(st, s, health=4, morale=6, food=10, rifles=rifles, inuit=2)
    if boat:
        kit.set_player(st, 0, upgrades=[FISHING_BOAT])
    kit.reveal(st, hunting=[card, "hunt_arctic_char_1"], species=[])
    kit.start_action_phase(st, leader=0)
    return st


@pytest.mark.parametrize("card", DUALS)
def test_dual_card_needs_the_fishing_boat(card: str) -> None:
    st = _dual_phase(card, boat=False)
    assert not any(a.card == card for a in st.legal_actions())
    assert any(a.card == "hunt_arctic_char_1" for a in takes(st, "hunt"))
    with pytest.raises(ValueError):
        st.apply(Action("take", space="discover", crew=(0, 0, 1, 1, 0), card=card))


@pytest.mark.parametrize("card", DUALS)
def test_dual_card_hunted(card: str) -> None:
    st = _dual_phase(card, boat=True)
    h = st.tables.hunting_all[card]
    hunts = [a for a in takes(st, "hunt") if a.card == card]
    assert hunts and all(a.crew is not None and sum(a.crew) == h.prey for a in hunts)
    food, health = st.player(0)["food"], st.player(0)["health"]
    ev = st.apply(hunts[0])
    assert CardTaken(0, card, "hunting") in ev
    assert st.player(0)["food"] == food + h.food
    assert st.player(0)["health"] == min(health + h.health, st.content.health.max)
    assert card in st.hu_disc and card not in st.hu_rev
    assert st.species[0] == []


@pytest.mark.parametrize("card", DUALS)
def test_dual_card_discovered(card: str) -> None:
    st = _dual_phase(card, boat=True)
    finds = [a for a in takes(st, "discover") if a.card == card]
    assert finds
    pp = st.player(0)["pp"]
    ev = st.apply(finds[0])
    assert [e.delta for e in ev if isinstance(e, ScoreChanged)] == [8]
    assert st.player(0)["pp"] == pp + 8
    assert card not in st.hu_rev and card not in st.hu_disc and card not in st.hu_deck
    # it is not a species card of the player: no PP for it at the end
    assert st.species[0] == []
    assert not any(s == 0 and "species" in r for s, _, r in final_scores(st))
