"""Legendary Expeditions (§9.3, seed l. 1211–1340): the data of the 10 sets A–J.

``data/legends.json`` pins the seed's explorers, ships and explorer events 45–54
(and our designs where the text is silent) in a vocabulary this module validates:

* ``sets``: ``{"set": "A".."J", "explorer", "ability": <ABILITIES key>,
  "params": {...}, "ship", "ship_rewards": {gain: n}, "event": 45..54}``;
* ``events``: event cards in the shape of ``cards.json``'s events (``number``,
  ``name``, ``deck``, ``kind``, ``crew``, ``effect``), whose ops are the base
  game's (:data:`.effects.OPS`) or the new ones of :data:`NEW_OPS`.

The rules that read it: :mod:`.legends` (set-up, the passive abilities, the ship
cards, the events' ops, hidden information), :mod:`.legends_explorers` (C, D, G,
H) and :mod:`.legends_j` (J); the readings are L1–L26 of
docs/iceandsnow-decisions.md.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from erebus.games.iceandsnow.effects import GAINS, OPS

SETS = tuple("ABCDEFGHIJ")
EVENTS = tuple(range(45, 55))
#: Each explorer's ability and the parameters its data must give.
ABILITIES: dict[str, tuple[str, ...]] = {
    "long_voyage": ("bands", "walking_maintenance"),  # A Franklin: own fuel bands
    "cabin_supplier": ("food_spaces_1pp",),  # B Parry: 1 PP per food space, first 8
    "inuit_apprentice": ("per_round",),  # C Ross: any crew member as an Inuk
    "excellent_tracker": ("decks",),  # D Kellett: look at the top card, take it
    "sled_innovation": ("explore_dogs",),  # E McClintock: +1 dog for Explore
    "benevolent_leader": ("food", "morale"),  # F McClure: food for morale at Boarding
    "great_discovery": ("mapping_pp", "special_fuel", "special_pp"),  # G Collinson
    "despotic_tendencies": ("uses",),  # H Belcher: force another route
    "arctic_artist": (),  # I Back: any empty upgrade space
    "excellent_explorer": ("sled_wood", "dogs_as"),  # J Amundsen
}
#: Ops the explorer events need beyond the base vocabulary, with their parameters.
NEW_OPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "taker_gains_per_crew": ("take", ("gains",)),  # 45
    "taker_scores": ("take", ("pp",)),  # 46, 50
    "taker_scores_per_crew": ("take", ("pp",)),  # 52 (captain included)
    "rescue_sailor": ("take", ()),  # 51: the set-aside sailor, to the infirmary
    "map_current_region": ("reveal", ()),  # 48
    "reveal_top_event": ("reveal", ("deck",)),  # 48: the coastal deck's top card
    "each_pays_or_infirmary": ("reveal", ("resource", "amount", "count")),  # 54
}
#: Powers of the kept explorer events (47: Hunt with 1 rifle less with an Inuk;
#: 53: Improve the Sled with an Inuk and no other crew).
NEW_POWERS = ("skilled_hunter", "sled_master")


def _op_problems(where: str, phase: str, op: Any) -> list[str]:
    if not isinstance(op, dict) or not isinstance(op.get("op"), str):
        return [f"{where}: each op must be an object with an 'op' name"]
    name = op["op"]
    if name in NEW_OPS:
        want_phase, params = NEW_OPS[name]
    elif name in OPS:
        phases, spec = OPS[name]
        want_phase, params = (phase if phase in phases else phases[0]), tuple(spec)
    else:
        return [f"{where}: unknown op {name!r}"]
    out = []
    if phase != want_phase:
        out.append(f"{where}: op {name!r} cannot stand in {phase!r}")
    if set(op) - {"op"} != set(params):
        out.append(f"{where}: op {name!r} takes exactly {list(params)}")
    if name == "keep_card" and op.get("power") not in NEW_POWERS:
        out.append(f"{where}: keep_card power must be one of {list(NEW_POWERS)}")
    for key in ("gains",):
        if key in op and not (isinstance(op[key], dict) and set(op[key]) <= GAINS):
            out.append(f"{where}: {key} must name gains of {sorted(GAINS)}")
    return out


def legends_problems(raw: Any) -> list[str]:
    """Every problem of ``legends.json`` (empty: valid)."""
    if not isinstance(raw, dict) or set(raw) - {"_design"} != {"sets", "events"}:
        return ["legends: needs exactly 'sets' and 'events' (and '_design')"]
    out: list[str] = []
    sets = raw["sets"]
    if sorted(s.get("set") for s in sets) != list(SETS):
        out.append(f"legends: the sets must be {', '.join(SETS)}, once each")
    if sorted(s.get("event") for s in sets) != list(EVENTS):
        out.append("legends: each set names one explorer event of 45-54, once each")
    for s in sets:
        where = f"legends: set {s.get('set')}"
        ability = s.get("ability")
        if ability not in ABILITIES:
            out.append(f"{where}: unknown ability {ability!r}")
        elif set(s.get("params", {})) != set(ABILITIES[ability]):
            out.append(f"{where}: ability {ability} takes exactly {list(ABILITIES[ability])}")
        for key in ("explorer", "ship"):
            if not isinstance(s.get(key), str) or not s[key]:
                out.append(f"{where}: needs a {key} name")
        rewards = s.get("ship_rewards")
        if not isinstance(rewards, dict) or not rewards or not set(rewards) <= GAINS:
            out.append(f"{where}: ship_rewards must be gains of {sorted(GAINS)}")
        elif not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in rewards.values()
        ):
            out.append(f"{where}: ship_rewards must be positive whole numbers")
    events = raw["events"]
    if sorted(e.get("number") for e in events) != list(EVENTS):
        out.append("legends: the explorer events must be 45-54, once each")
    decks = [e.get("deck") for e in events]
    if decks.count("open") != decks.count("coastal") or len(decks) != len(EVENTS):
        out.append("legends: as many explorer events per deck (each deck keeps 12 cards)")
    for e in events:
        where = f"legends: event {e.get('number')}"
        kind = e.get("kind")
        if kind not in ("immediate", "action"):
            out.append(f"{where}: kind must be immediate or action")
        crew = e.get("crew", [])
        if kind == "action" and not (isinstance(crew, list) and crew):
            out.append(f"{where}: an action event needs its crew counts")
        effect = e.get("effect", {})
        for phase in ("reveal", "take"):
            for op in effect.get(phase, []):
                out += _op_problems(where, phase, op)
        if kind == "action" and not effect.get("take"):
            out.append(f"{where}: an action event needs a 'take' list")
    return out


@cache
def load() -> dict[str, Any]:
    """The shipped ``legends.json``, validated (``ValueError`` listing the problems)."""
    pkg = resources.files("erebus.games.iceandsnow") / "data" / "legends.json"
    raw: dict[str, Any] = json.loads(pkg.read_text("utf-8"))
    found = legends_problems(raw)
    if found:
        raise ValueError("Legendary Expeditions data: " + "; ".join(found))
    return raw
