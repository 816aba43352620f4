"""Field layout of the flat per-player table ``State.pv`` (stride :data:`F`).

Every per-player number lives in one flat list of ints so that cloning a state
is one list copy; these named offsets keep the code readable.
"""

from __future__ import annotations

PP = 0
FOOD = 1
HEALTH = 2
MORALE = 3
FUEL = 4
SLED = 5
INUIT = 6  # the Inuit track (hired Inuit count at once)
TOW = 7
DYN = 8  # resources in content.RESOURCES order: dynamite, wood, rifles, dogs
WOOD = 9
RIFLES = 10
DOGS = 11
CANS = 12
SAILORS = 13
PAWNS = 14  # Inuit pawns on the ship (hired ones join at Boarding)
CABINS = 15
SHELTERS = 16
LEADS = 17  # times expedition leader (Parliament)
EXPLORES = 18  # Explore actions taken (Admiralty)
BADZONE = 19  # health entered Death / morale entered Mutiny (Felix Booth)
USED = (
    20  # 5 fields: crew placed this round, by kind (captain, carpenter, scientist, sailors, inuit)
)
INF = 25  # 5 fields: crew in the infirmary, by kind
HIRED = 30  # Inuit hired this round, joining at Boarding
PROXY = 31  # bit mask of officer roles already played by a proxy this round
PASSED = 32
RESCUED = 33  # Lost Expedition survivors in the infirmary (fed, never usable)
# Powers of kept event cards (``effects.POWERS``, in that order), one field each:
POWER_HELD = 34  # 2 fields: holds a kept event card granting that power
POWER_DUE = 36  # 2 fields: took such a card this round; card and Inuk come at Boarding
MAP_OPEN_SEA = POWER_HELD + 0  # may map a region after an open-sea voyage as leader
INTERPRETER = POWER_HELD + 1  # may Visit the Inuit with 1 Inuk + 1 crew member
BOILER = 38  # uses the Boiler (upgrade 8) in this Voyage step
TURNS = 39  # actions taken in this Action phase
F = 40

#: ``cans`` (Walking on Ice's food cans, §9.1) stay 0 unless the ships are abandoned.
RES = {"dynamite": DYN, "wood": WOOD, "rifles": RIFLES, "dogs": DOGS, "cans": CANS}
TRACKS = {"food": FOOD, "health": HEALTH, "morale": MORALE, "fuel": FUEL, "sled": SLED}

# Upgrade tiles whose effects the engine implements, by tile number (§8.3).
# cards.json names the tiles but carries no effect field, so the numbers live here.
WORKSHOP = 1  # any crew member as the carpenter, once per round
GALLEY = 2  # +food at the start of Boarding
TREATMENT_ROOM = 3  # cancels Scurvy
LABORATORY = 4  # any crew member as the scientist, once per round
BRIDGE = 5  # any crew member as the captain, once per round
SALOON = 6  # cancels Mutiny
FISHING_BOAT = 7  # whales and dual species cards; required by Dual Species
BOILER_TILE = 8  # 1 wood instead of 1 fuel in the Voyage step
MAST = 9  # look at the top two event cards
STOREROOM = 12  # Walking on Ice: no discard when the Voyage step lowers fuel to 0-3
