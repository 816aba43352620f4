"""Position kit for rule tests: build a mid-game state in a few lines.

Rule tests need exact positions: a player's tracks, resources, crew and
upgrades, the fleet somewhere on the map, chosen hunting/species cards on the
table and a known next event card.  These helpers set the state's fields
directly (no rules are checked while setting up); the action under test then
goes through the public ``apply`` so the rules are exercised as a player
would.  Example::

    from erebus.games.iceandsnow import kit
    st = kit.game(players=2, seed=1)            # setup choices made, round 1 begins
    kit.set_player(st, 0, food=3, dogs=4, sled=1, upgrades=[3])
    kit.set_fleet(st, "port_leopold")            # places the sections it needs
    kit.reveal(st, hunting=["hunt_caribou_1"], species=["musk_ox_1"])
    kit.next_event(st, "coastal", 24)
    kit.start_action_phase(st, leader=0)         # seat 0 to act, cards as set
    st.apply(...)

Every helper returns the state for chaining.
"""

from __future__ import annotations

from typing import Any

from erebus.games.iceandsnow.layout import (
    CABINS,
    DOGS,
    DYN,
    EXPLORES,
    FOOD,
    FUEL,
    HEALTH,
    INTERPRETER,
    INUIT,
    LEADS,
    MAP_OPEN_SEA,
    MORALE,
    PAWNS,
    PP,
    RESCUED,
    SAILORS,
    SHELTERS,
    SLED,
    TOW,
    WOOD,
    F,
)
from erebus.games.iceandsnow.state import State, new_game

#: ``set_player`` keywords -> per-player field of ``State.pv``.
PLAYER_FIELDS = {
    "pp": PP,
    "food": FOOD,
    "health": HEALTH,
    "morale": MORALE,
    "fuel": FUEL,
    "sled": SLED,
    "inuit_track": INUIT,
    "towing": TOW,
    "dynamite": DYN,
    "wood": WOOD,
    "rifles": DYN + 2,
    "dogs": DOGS,
    "sailors": SAILORS,
    "inuit": PAWNS,
    "cabins": CABINS,
    "shelters": SHELTERS,
    "leads": LEADS,
    "explores": EXPLORES,
    "rescued": RESCUED,
    "map_open_sea": MAP_OPEN_SEA,
    "interpreter": INTERPRETER,
}


def game(players: int = 2, seed: int = 0, options: dict[str, Any] | None = None) -> State:
    """A new game with the setup choices made (each seat keeps its first dealt
    investor and cartography card; Magnetic North Pole: side A, first start)."""
    st = new_game(players, seed, options)
    while st.round == 0 and not st.is_over:
        st.apply(st.legal_actions()[0])
    return st


def _touch(st: State) -> State:
    st._legal = None
    return st


def set_player(st: State, seat: int, **fields: Any) -> State:
    """Set a seat's numbers (see :data:`PLAYER_FIELDS`; ``inuit`` sets both the
    pawns and the track), and ``upgrades``/``species``/``investor``/``carto``."""
    b = F * seat
    for key, value in fields.items():
        if key == "upgrades":
            st.upgrades[seat] = [int(x) for x in value]
        elif key == "species":
            st.species[seat] = list(value)
            for cid in value:
                sp = st.content.species[cid].species
                if sp not in st.gained[seat]:
                    st.gained[seat].append(sp)
        elif key == "investor":
            st.investor[seat] = value
        elif key == "carto":
            st.carto[seat] = value
        elif key in PLAYER_FIELDS:
            st.pv[b + PLAYER_FIELDS[key]] = int(value)
            if key == "inuit":
                st.pv[b + INUIT] = int(value)
        else:
            raise ValueError(f"unknown player field {key!r}")
    return _touch(st)


def set_fleet(st: State, anchor: str, side: str = "A") -> State:
    """Put the fleet on ``anchor``, placing (on ``side``) every section up to it."""
    need = max(st.tables.sections_of[anchor])
    placed = {int(s) for s, _ in st.placed}
    for i in range(need + 1):
        if i not in placed:
            st.placed.append([i, side])
    st.fleet = anchor
    st.final_round = st.tables.anchors[anchor].blue
    return _touch(st)


def reveal(st: State, hunting: list[str] | None = None, species: list[str] | None = None) -> State:
    """Put exactly these hunting / species cards face up (taken out of the decks)."""
    if hunting is not None:
        for cid in hunting:
            if cid in st.hu_deck:
                st.hu_deck.remove(cid)
        st.hu_rev = list(hunting)
    if species is not None:
        for cid in species:
            if cid in st.sp_deck:
                st.sp_deck.remove(cid)
        st.sp_rev = list(species)
    return _touch(st)


def next_event(st: State, voyage: str, number: int) -> State:
    """Make ``number`` the top card of the ``voyage`` deck ("open" or "coastal")."""
    deck = st.ev_open if voyage == "open" else st.ev_coastal
    if number in deck:
        deck.remove(number)
    deck.insert(0, number)
    return _touch(st)


def set_event(st: State, number: int | None) -> State:
    """Make ``number`` this round's revealed event card (no immediate effect applied)."""
    st.event = number
    st.event_taken = False
    return _touch(st)


def start_action_phase(st: State, leader: int | None = None) -> State:
    """Jump to the start of the Action phase with the board as it is now."""
    if leader is not None:
        st.leader = leader
    st.decisions = []
    st.step = "action"
    st.phase = "flow"
    st._run([])
    return _touch(st)


def start_round(st: State, leader: int | None = None) -> State:
    """Jump to the start of a round's Voyage phase (before the leader check)."""
    if leader is not None:
        st.leader = leader
    st.decisions = []
    st.step = "round"
    st.phase = "flow"
    st._run([])
    return _touch(st)


def start_boarding(st: State) -> list[Any]:
    """Run the Boarding phase from now; returns its events."""
    st.decisions = []
    st.step = "board"
    st.phase = "flow"
    ev: list[Any] = []
    st._run(ev)
    _touch(st)
    return ev
