"""Game options of Through Ice and Snow: validation and defaults.

``new_game(options=…)`` takes a dict; :func:`normalize` checks every key and
value (clear ``ValueError`` on anything unknown) and returns the canonical
dict that the state stores and serialises.  The reading options are the ones
``docs/iceandsnow-decisions.md`` names.
"""

from __future__ import annotations

from typing import Any

from erebus.core.game import GameOption

MODES = ("survival", "shelters", "dual_species")
UPGRADE_SETS = ("base", "all")
SCENARIOS = ("lost-expedition", "magnetic-north-pole", "mysterious-epidemic", "amundsens-voyage")
TOWING_PP = ("per_player", "per_fuel")
HELM_TIE = ("exclude_leader", "include_leader")
PASSING = ("voluntary", "forced")
# The Myths & Legends modules (§9), in the canonical order the options store them.
MODULES = ("walking_on_ice", "inuit_myths", "legendary_expeditions")
# The modules whose rules the engine plays.  A module's helper adds it here when
# its rules land; until then asking for it is refused as "not implemented yet".
IMPLEMENTED_MODULES: frozenset[str] = frozenset(
    {"inuit_myths", "walking_on_ice", "legendary_expeditions"}
)
# Modules that cannot be combined with a solo scenario (seed l. 939: Walking on
# Ice "with other modules that are not solo scenarios"; l. 1166/1215: the other
# two "including the solo scenarios").
NOT_SOLO = frozenset({"walking_on_ice"})
# Options of one module's readings (docs/iceandsnow-decisions.md M1–M9), stored in
# the canonical options only when their module is in play; the first value is the
# default.
MODULE_OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "inuit_myths": {
        # when a curse cylinder's Scurvy/Death is checked (M4)
        "curse_check": ("with_health", "attrition"),
        # which board actions "need 1 captain/carpenter/scientist" (M2)
        "creature_officer": ("listed", "only"),
    },
    "walking_on_ice": {
        # a forced abandonment: every player's fuel below 4, or any player's (W1)
        "walking_forced": ("all", "any"),
        # the walking event before the crossing type's effects, or after (W2)
        "walking_order": ("event_first", "crossing_first"),
        # the leader's PP at the new final anchor: none, or the lower final value (W3)
        "walking_final_pp": ("none", "lowest"),
    },
    "legendary_expeditions": {
        # Collinson's special mapping: its printed 1 PP, or his 3 PP of charting (L14)
        "collinson_special_pp": ("special", "mapping"),
    },
}
_OWNER = {key: m for m, opts in MODULE_OPTIONS.items() for key in opts}
#: Options of a solo scenario's readings (docs/iceandsnow-decisions.md EP2, AV1, AV4), stored
#: only when that scenario is played (not offered by the lobby); the first is the default.
SCENARIO_OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "mysterious-epidemic": {
        # Inuit on East's settlements at set-up, or only on the sections placed later (EP2)
        "epidemic_east": ("settled", "empty"),
    },
    "amundsens-voyage": {
        # the final voyage: open sea as always (it is not chosen), or coastal (AV1)
        "amundsen_final": ("open", "coastal"),
        # one Explore of 10+ PP removes both morale cylinders, or only the left (AV4)
        "amundsen_explore": ("both", "one"),
    },
}
_SCEN_OWNER = {key: s for s, opts in SCENARIO_OPTIONS.items() for key in opts}
# The Legendary Expeditions sets A–J (explorer, ship, explorer event; §9.3).
EXPLORER_SETS = tuple("ABCDEFGHIJ")
#: Solo scenarios that play one set of Legendary Expeditions (the module comes with
#: them, even while it is not offered on its own): Amundsen's Voyage, set J (§9.5).
SCENARIO_SETS = {"amundsens-voyage": "J"}

DEFAULTS: dict[str, Any] = {
    "modes": [],
    "upgrades": "base",
    "extra_events": False,
    "scenario": None,
    "towing_pp": "per_player",
    "helm_tie": "exclude_leader",
    "passing": "voluntary",
    "modules": [],
    "explorers": "random",
}


#: The options as a lobby offers them (``SPEC.options``): the same tuples and defaults
#: :func:`normalize` checks against, so the list cannot drift from the rules.
OPTIONS = (
    GameOption("scenario", "choice", SCENARIOS, None, players=(1,)),
    GameOption("modes", "set", MODES, ()),
    GameOption("upgrades", "choice", UPGRADE_SETS, DEFAULTS["upgrades"]),
    GameOption("extra_events", "flag", (), DEFAULTS["extra_events"]),
    GameOption("towing_pp", "choice", TOWING_PP, DEFAULTS["towing_pp"], players=(2, 3, 4)),
    GameOption("helm_tie", "choice", HELM_TIE, DEFAULTS["helm_tie"], players=(2, 3, 4)),
    GameOption("passing", "choice", PASSING, DEFAULTS["passing"]),
    GameOption(
        "modules",
        "set",
        tuple(m for m in MODULES if m in IMPLEMENTED_MODULES),
        (),
        choice_players=tuple((m, (2, 3, 4)) for m in MODULES if m in NOT_SOLO),
    ),
    *(
        GameOption(
            key,
            "choice",
            values,
            values[0],
            players=(2, 3, 4) if module in NOT_SOLO else (),
            requires=("modules", module),
        )
        for module, opts in MODULE_OPTIONS.items()
        if module in IMPLEMENTED_MODULES
        for key, values in opts.items()
    ),
    # Legendary Expeditions: deal 2 explorers, keep 1.  The API also takes one set
    # letter per seat (``["A", "G"]``), which a lobby of choices cannot offer.
    *(
        GameOption("explorers", "choice", ("random",), "random", requires=("modules", m))
        for m in ("legendary_expeditions",)
        if m in IMPLEMENTED_MODULES
    ),
)


def _choice(d: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    v = d[key]
    if not isinstance(v, str) or v not in choices:
        raise ValueError(f"option {key!r} must be one of {', '.join(choices)}; got {v!r}")
    return v


def _modules(value: Any, scenario: str | None) -> list[str]:
    """The canonical module list: known, implemented, compatible with the scenario."""
    if not isinstance(value, list | tuple) or not all(isinstance(m, str) for m in value):
        raise ValueError(f"option 'modules' must be a list of {', '.join(MODULES)}")
    bad = [m for m in value if m not in MODULES]
    if bad:
        raise ValueError(f"unknown module(s) {', '.join(bad)}; choose from {', '.join(MODULES)}")
    if len(set(value)) != len(value):
        raise ValueError("option 'modules' names a module twice")
    if scenario is not None:
        solo = [m for m in MODULES if m in value and m in NOT_SOLO]
        if solo:
            raise ValueError(
                f"module {solo[0]} cannot be played with a solo scenario ({scenario}); "
                "it combines with the base game and the other modules only"
            )
    pending = [m for m in MODULES if m in value and m not in IMPLEMENTED_MODULES]
    if pending:
        raise ValueError(f"module(s) {', '.join(pending)}: not implemented yet")
    return [m for m in MODULES if m in value]


def _explorers(value: Any, modules: list[str], players: int) -> str | list[str]:
    """``"random"`` (deal 2 explorers, keep 1) or one set letter per seat."""
    if value == "random":
        return "random"
    if "legendary_expeditions" not in modules:
        raise ValueError("option 'explorers' needs the legendary_expeditions module")
    if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
        raise ValueError(
            "option 'explorers' must be \"random\" or a list of set letters "
            f"({', '.join(EXPLORER_SETS)}), one per player"
        )
    letters = [x.upper() for x in value]
    bad = [x for x in letters if x not in EXPLORER_SETS]
    if bad:
        raise ValueError(
            f"unknown explorer set(s) {', '.join(bad)}; choose from {', '.join(EXPLORER_SETS)}"
        )
    if len(letters) != players:
        raise ValueError(
            f"option 'explorers' needs one set letter per player ({players}), got {len(letters)}"
        )
    if len(set(letters)) != len(letters):
        raise ValueError("option 'explorers' names a set twice (each set has one explorer)")
    return letters


def normalize(options: Any, players: int) -> dict[str, Any]:
    """The canonical options for a game of ``players`` players.

    Solo play needs a scenario (the base game is for 2–4 players) and a
    scenario needs exactly one player; scenarios force Survival on (§7.0).
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError("options must be a JSON object")
    unknown = set(options) - set(DEFAULTS) - set(_OWNER) - set(_SCEN_OWNER)
    if unknown:
        raise ValueError(
            f"unknown option(s) {', '.join(sorted(map(str, unknown)))}; "
            f"known: {', '.join([*DEFAULTS, *_OWNER, *_SCEN_OWNER])}"
        )
    d = {**DEFAULTS, **options}
    modes = d["modes"]
    if not isinstance(modes, list | tuple) or not all(isinstance(m, str) for m in modes):
        raise ValueError(f"option 'modes' must be a list of {', '.join(MODES)}")
    bad = [m for m in modes if m not in MODES]
    if bad:
        raise ValueError(f"unknown mode(s) {', '.join(bad)}; choose from {', '.join(MODES)}")
    if not isinstance(d["extra_events"], bool):
        raise ValueError("option 'extra_events' must be true or false")
    scenario = d["scenario"]
    if scenario is not None and scenario not in SCENARIOS:
        raise ValueError(f"option 'scenario' must be null or one of {', '.join(SCENARIOS)}")
    if scenario is None and players == 1:
        raise ValueError(
            "solo play needs a scenario: options={'scenario': 'lost-expedition'} "
            "or 'magnetic-north-pole'"
        )
    if scenario is not None and players != 1:
        raise ValueError(f"the {scenario} scenario is for 1 player, not {players}")
    fixed = SCENARIO_SETS.get(scenario or "")
    if fixed is None:
        modules = _modules(d["modules"], scenario)
        explorers = _explorers(d["explorers"], modules, players)
    else:  # the scenario plays its Legendary Expeditions set (§9.5: set J)
        given = d["modules"]
        if isinstance(given, list | tuple):
            given = [m for m in given if m != "legendary_expeditions"]
        picked = [*_modules(given, scenario), "legendary_expeditions"]
        modules = [m for m in MODULES if m in picked]
        if d["explorers"] not in ("random", [fixed], (fixed,)):
            raise ValueError(f"the {scenario} scenario plays explorer set {fixed} only")
        explorers = [fixed]
    mode_set = set(modes)
    if scenario is not None:
        mode_set.add("survival")
    out = {
        "modes": [m for m in MODES if m in mode_set],
        "upgrades": _choice(d, "upgrades", UPGRADE_SETS),
        "extra_events": d["extra_events"],
        "scenario": scenario,
        "towing_pp": _choice(d, "towing_pp", TOWING_PP),
        "helm_tie": _choice(d, "helm_tie", HELM_TIE),
        "passing": _choice(d, "passing", PASSING),
        "modules": modules,
        "explorers": explorers,
    }
    for key, module in _OWNER.items():
        if module in modules:
            out[key] = _choice(
                {key: d.get(key, MODULE_OPTIONS[module][key][0])}, key, MODULE_OPTIONS[module][key]
            )
        elif key in d:
            raise ValueError(f"option {key!r} needs the {module} module")
    for key, scen in _SCEN_OWNER.items():
        if scen == scenario:
            values = SCENARIO_OPTIONS[scen][key]
            out[key] = _choice({key: d.get(key, values[0])}, key, values)
        elif key in d:
            raise ValueError(f"option {key!r} needs the {scen} scenario")
    return out
