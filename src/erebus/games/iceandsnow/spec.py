"""Through Ice and Snow's :class:`~erebus.core.game.GameSpec`: what consumers may know.

A declaration over the engine's public names; the RL encoding (numpy) and the text
picture (Rich) are imported when first called, so importing the game stays light.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from erebus.core.events import Event
from erebus.core.game import GameSpec, RlEncoding, SearchHints, Statistic
from erebus.games.iceandsnow import events as ev
from erebus.games.iceandsnow import search
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.botmoves import bot_actions
from erebus.games.iceandsnow.describe import describe
from erebus.games.iceandsnow.heuristics import REWARD_SCALE, heuristic, terminal_value
from erebus.games.iceandsnow.options import OPTIONS, normalize
from erebus.games.iceandsnow.sources import SOURCE_LABELS, SOURCES, score_source
from erebus.games.iceandsnow.state import State, new_game, replay
from erebus.games.iceandsnow.wire import wire_view as named_view
from erebus.games.iceandsnow.wire import wire_view_shared

#: Events that show something nobody knew: the secret setup choices, an event card
#: turned (a voyage, the mast), hunting or species cards off their decks, a compass
#: card drawn (Magnetic North Pole), the leader's look at the top two event cards with the
#: Mast (upgrade 9).  Not among them: choosing an investor or a
#: cartography card (the player holds both offers), a map section's side (both sides
#: are printed), a destination, taking a revealed card.
HIDDEN_EVENTS = (
    ev.InvestorRevealed,
    ev.CartographyRevealed,
    ev.EventRevealed,
    ev.CardsRevealed,
    ev.CompassDrawn,
    ev.EventCardsSeen,
    ev.CreatureRevealed,  # Inuit Myths: the top creature card
    ev.ExplorerChosen,  # Legendary Expeditions: a dealt explorer card kept, face up
    ev.TopCardLooked,  # Legendary Expeditions: Kellett looks at a deck's top card
    ev.DiseaseRevealed,  # Mysterious Epidemic: the top disease card
    ev.TreatmentRevealed,  # Mysterious Epidemic: the top treatment card
)


def parse_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The canonical options (modes, scenario, …) for ``players``; ``ValueError``."""
    return normalize(dict(options) if isinstance(options, Mapping) else options, players)


def reveals_hidden(event: Event) -> bool:
    """One of :data:`HIDDEN_EVENTS`."""
    return isinstance(event, HIDDEN_EVENTS)


def wire_view(state: State, seat: int | None) -> dict[str, Any]:
    """The browser's named view (:mod:`.wire`, docs/iceandsnow-wire.md); bots keep
    the engine's ``state.view``."""
    return named_view(state, seat)


def winners(state: State) -> list[int]:
    """Nobody when the whole table lost; else the seats with the best score."""
    if state.lost:
        return []
    scores = state.scores()
    best = max(scores)
    return [s for s, v in enumerate(scores) if v == best]


def _lost(state: State, seat: int) -> bool:
    return bool(state.lost)


def _round(state: State) -> int:
    return int(state.round)


def at_turn(state: State) -> bool:
    """The Action phase: a seat takes a space or passes."""
    return bool(state.phase == "action")


@functools.cache
def _encoding() -> ModuleType:
    """The RL encoding module, imported on first use (it needs numpy, which the engine
    does not); the two hooks an RL environment calls every step go through this, not
    through an import statement a call (~0.3 µs each)."""
    from erebus.games.iceandsnow import encoding

    return encoding


def _rl_size() -> int:
    from erebus.games.iceandsnow import encoding

    return encoding.MAX_ACTIONS


def _rl_bounds() -> tuple[Any, Any]:
    import numpy as np

    from erebus.games.iceandsnow import encoding

    size = encoding.encoder().size
    low = np.full(size, -encoding.CLIP, dtype=np.float32)
    high = np.full(size, encoding.CLIP, dtype=np.float32)
    return low, high


def _rl_bounds_for(players: int, options: Mapping[str, Any]) -> tuple[Any, Any]:
    """The bounds for games with ``options``: the modules and solo scenarios change the
    content (map sections, spaces, event cards), and the observation follows it."""
    import numpy as np

    from erebus.games.iceandsnow import encoding

    size = encoding.encoder(new_game(players, 0, dict(options)).content).size
    low = np.full(size, -encoding.CLIP, dtype=np.float32)
    high = np.full(size, encoding.CLIP, dtype=np.float32)
    return low, high


def _rl_observe(state: State, seat: int) -> Any:
    from erebus.games.iceandsnow import encoding

    return encoding.observe(state, seat)


def _rl_legal(state: State) -> range:
    legal: range = _encoding().legal_indices(state)
    return legal


def _rl_observer() -> Any:
    """A new incremental observer (one per game: the environment asks at every reset);
    its observations equal ``encoding.observe``'s, bit for bit."""
    from erebus.games.iceandsnow import observer

    return observer.Observer()


def _rl_mask(state: State) -> Any:
    from erebus.games.iceandsnow import encoding

    return encoding.legal_mask(state)


def _rl_action(state: State, index: int) -> Action:
    action: Action = _encoding().index_to_action(state, index)
    return action


def _rl_index(state: State, action: Action) -> int:
    from erebus.games.iceandsnow import encoding

    return encoding.action_to_index(state, action)


SPEC = GameSpec(
    name="iceandsnow",
    title="Through Ice and Snow",
    min_players=1,
    max_players=4,
    parse_options=parse_options,
    options=OPTIONS,
    new_game=new_game,
    replay=replay,
    action_from_json=Action.from_json,
    state_from_json=State.from_json,
    reveals_hidden=reveals_hidden,
    wire_view=wire_view,
    wire_view_shared=wire_view_shared,
    determinize=State.from_view,
    resample=State.resample_hidden,
    heuristic=heuristic,
    bot_actions=bot_actions,
    terminal_value=terminal_value,
    search_heuristic=search.value,
    # MCTS plans the mover's own turn (one action here) and values it by the heuristic
    # after the rival's greedy reply; it values every action once (a greedy ply), then
    # searches only the best six (docs/iceandsnow-balance.md, 2026-12-04).
    search=SearchHints(
        own_turn_only=True, root_screen=6, reward_scale=REWARD_SCALE, rival_reply=True
    ),
    score_sources=SOURCES,
    source_labels=SOURCE_LABELS,
    score_source=score_source,
    statistics=(Statistic("lost", None, _lost, game_label="Games the whole table lost"),),
    winners=winners,
    rounds=_round,
    at_turn=at_turn,
    rl=RlEncoding(
        action_space_size=_rl_size,
        observation_bounds=_rl_bounds,
        observe=_rl_observe,
        legal_mask=_rl_mask,
        action_at=_rl_action,
        action_index=_rl_index,
        legal_indices=_rl_legal,
        observer=_rl_observer,
        observation_bounds_for=_rl_bounds_for,
        # the encoding and apply() read the cached list that legal_actions() copies
        legal_parts=("legal_actions", "_legal_list"),
    ),
    terminal_ui="erebus.terminal.iceandsnow",
    web_board="iceandsnow",
    describe_action=describe,
)
