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
SCENARIOS = ("lost-expedition", "magnetic-north-pole")
TOWING_PP = ("per_player", "per_fuel")
HELM_TIE = ("exclude_leader", "include_leader")
PASSING = ("voluntary", "forced")

DEFAULTS: dict[str, Any] = {
    "modes": [],
    "upgrades": "base",
    "extra_events": False,
    "scenario": None,
    "towing_pp": "per_player",
    "helm_tie": "exclude_leader",
    "passing": "voluntary",
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
)


def _choice(d: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    v = d[key]
    if not isinstance(v, str) or v not in choices:
        raise ValueError(f"option {key!r} must be one of {', '.join(choices)}; got {v!r}")
    return v


def normalize(options: Any, players: int) -> dict[str, Any]:
    """The canonical options for a game of ``players`` players.

    Solo play needs a scenario (the base game is for 2–4 players) and a
    scenario needs exactly one player; scenarios force Survival on (§7.0).
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError("options must be a JSON object")
    unknown = set(options) - set(DEFAULTS)
    if unknown:
        raise ValueError(
            f"unknown option(s) {', '.join(sorted(map(str, unknown)))}; "
            f"known: {', '.join(DEFAULTS)}"
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
    mode_set = set(modes)
    if scenario is not None:
        mode_set.add("survival")
    return {
        "modes": [m for m in MODES if m in mode_set],
        "upgrades": _choice(d, "upgrades", UPGRADE_SETS),
        "extra_events": d["extra_events"],
        "scenario": scenario,
        "towing_pp": _choice(d, "towing_pp", TOWING_PP),
        "helm_tie": _choice(d, "helm_tie", HELM_TIE),
        "passing": _choice(d, "passing", PASSING),
    }
