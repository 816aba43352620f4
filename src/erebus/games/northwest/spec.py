"""Northwest Passage's :class:`~erebus.core.game.GameSpec`: what consumers may know.

Everything here is a thin declaration over the engine's public names; the hooks that
need numpy (the RL encoding) or Rich (its text picture) import them when called, so
importing the game stays light.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from erebus.core.events import Event
from erebus.core.game import GameSpec, RlEncoding, Statistic
from erebus.games.northwest import evaluator
from erebus.games.northwest import events as ev
from erebus.games.northwest.actions import Action
from erebus.games.northwest.describe import describe
from erebus.games.northwest.heuristics import heuristic
from erebus.games.northwest.sources import SOURCE_LABELS, SOURCES, score_source
from erebus.games.northwest.state import State, new_game
from erebus.games.northwest.wire import action_cost, action_costs, wire_view, wire_view_shared

#: Events that bring tiles out of the bag: undoing past them would let a player peek.
HIDDEN_EVENTS = (ev.DisplayRefreshed, ev.DisplayRefilled, ev.TileDrafted)
FEW_TILES = 2  # the "few tiles left in reserve" statistic's bound


def parse_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Northwest Passage has no options: None or ``{}`` only."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError("options must be a JSON object")
    if options:
        raise ValueError("Northwest Passage has no options")
    return {}


def spec_new_game(
    players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
) -> State:
    """``new_game`` with the contract's signature (the shipped content, no options)."""
    parse_options(players, options)
    return new_game(players, seed)


def spec_replay(
    players: int,
    seed: int,
    actions: Sequence[Action | dict[str, Any]],
    options: Mapping[str, Any] | None = None,
) -> State:
    """The state after ``actions`` from a new game (see :func:`spec_new_game`)."""
    st = spec_new_game(players, seed, options)
    for a in actions:
        st.apply(a)
    return st


def reveals_hidden(event: Event) -> bool:
    """Tiles came out of the bag: the display was refreshed or refilled, a tile
    drafted, or a tile drawn from the display (which is refilled from the bag)."""
    if isinstance(event, HIDDEN_EVENTS):
        return True
    return isinstance(event, ev.TileDrawn) and event.source == "display"


def _reached(state: State, seat: int) -> bool:
    return state.tokens(seat)["northwest"] is not None


def _sled_lost(state: State, seat: int) -> bool:
    return state.position(seat, "sled") == "lost"


def _few_tiles_left(state: State, seat: int) -> bool:
    """At most two tiles left unlaid in the seat's reserve (drawn for nothing)."""
    return len(state.reserves[seat]) <= FEW_TILES


def _seat_of(kind: type[Event]) -> Any:
    def seen(event: Event) -> int | None:
        return event.seat if isinstance(event, kind) else None  # type: ignore[attr-defined]

    return seen


STATISTICS = (
    Statistic(
        "reached_northwest",
        "Expeditions reaching the NW Passage",
        _reached,
        seen=_seat_of(ev.ReachedNorthwest),
        game_label="Games where one reaches it",
    ),
    Statistic("returned", "Expeditions returning to Greenland", State.returned),
    Statistic(
        "sled_lost",
        None,
        _sled_lost,
        seen=_seat_of(ev.SledLost),
        count_label="Sleds lost per game",
    ),
    Statistic("few_tiles_left", "Expeditions ending with ≤ 2 tiles in reserve", _few_tiles_left),
)


def tied(state: State, a: int, b: int) -> bool:
    """Equal scores tie unless the rules' tie-break (returning first) separates them."""
    return not state.returned(a) and not state.returned(b)


@functools.cache
def _encoding() -> ModuleType:
    """The RL encoding module, imported on first use (it needs numpy, which the engine
    does not); the two hooks an RL environment calls every step go through this, not
    through an import statement a call (~0.3 µs each)."""
    from erebus.games.northwest import encoding

    return encoding


def _rl_size() -> int:
    from erebus.games.northwest import encoding

    return encoding.action_space_size()


def _rl_bounds() -> tuple[Any, Any]:
    from erebus.games.northwest import encoding

    return encoding.observation_bounds()


def _rl_observe(state: State, seat: int) -> Any:
    from erebus.games.northwest import encoding

    return encoding.observe(state, seat)


def _rl_mask(state: State) -> Any:
    from erebus.games.northwest import encoding

    return encoding.legal_mask(state)


def _rl_action(state: State, index: int) -> Action:
    action: Action = _encoding().index_to_action(index, state)
    return action


def _rl_index(state: State, action: Action) -> int:
    from erebus.games.northwest import encoding

    return encoding.action_to_index(action, state)


def _rl_legal(state: State) -> list[int]:
    legal: list[int] = _encoding().legal_indices(state)
    return legal


def _rl_observer() -> Any:
    from erebus.games.northwest.encoding import observation_encoder
    from erebus.games.northwest.observer import Observer

    return Observer(observation_encoder())


def _rl_for(players: int, setup: Mapping[str, Any]) -> RlEncoding:
    from erebus.games.northwest import encoding

    return encoding.rl_for(players, setup)


#: Where the RL encoding's legal indices spend the engine's time: it numbers the
#: option queries of ``Position`` directly (``encoding.ActionSpace.legal_indices``).
LEGAL_PARTS = ("legal_actions", "_placements", "_destinations", "_transfers", "_transfer_key")

RL = RlEncoding(
    action_space_size=_rl_size,
    observation_bounds=_rl_bounds,
    observe=_rl_observe,
    legal_mask=_rl_mask,
    action_at=_rl_action,
    action_index=_rl_index,
    legal_indices=_rl_legal,
    observer=_rl_observer,
    legal_parts=LEGAL_PARTS,
)


def _round(state: State) -> int:
    return int(state.round)


SPEC = GameSpec(
    name="northwest",
    title="Expedition: Northwest Passage",
    min_players=2,
    max_players=4,
    parse_options=parse_options,
    new_game=spec_new_game,
    replay=spec_replay,
    action_from_json=Action.from_json,
    state_from_json=State.from_json,
    reveals_hidden=reveals_hidden,
    wire_view=wire_view,
    wire_view_shared=wire_view_shared,
    action_cost=action_cost,
    action_costs=action_costs,
    determinize=State.from_view,
    resample=State.resample_hidden,
    heuristic=heuristic,
    search_heuristic=evaluator.value,
    search_actions=evaluator.search_actions,
    score_sources=SOURCES,
    source_labels=SOURCE_LABELS,
    score_source=score_source,
    statistics=STATISTICS,
    tied=tied,
    rounds=_round,
    rl=RL,
    rl_for=_rl_for,
    terminal_ui="erebus.terminal.northwest",
    web_board="northwest",
    describe_action=describe,
)
