"""Expedition: Northwest Passage as a PettingZoo AEC environment.

::

    from erebus.rl import northwest_env

    env = northwest_env(players=2)
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``"player_0"`` … ``"player_{n-1}"``, agent ``player_i`` is engine
seat ``i``; ``env.agent_selection`` is always the engine's current player
(turn order is the game's: random at setup, then the order of passing).

Spaces (identical for every agent; ``N`` and the observation layout are
documented in :mod:`erebus.games.northwest.encoding`):

* action space ``Discrete(N)``, ``N = action_space_size()`` (132 504 for the
  default content): the fixed action indices of the encoding module;
* observation space ``Dict({"observation": Box(low, high, (4455,), float32),
  "action_mask": Box(0, 1, (N,), int8)})``.  ``observation`` is
  ``encoding.observe(state, seat)`` (public information only, seats relative
  to the observer); ``action_mask`` marks the legal actions of the agent to act
  and is all zeros for any other agent and once the game is over.

``reset(seed=s)`` starts the engine game ``new_game(players, seed=s)`` (so
``env.state_`` equals that state) and reseeds the environment's own generator
``env.np_random`` with ``s``; ``reset()`` without a seed draws the game seed
from ``env.np_random`` (seeded from OS entropy on first use), so a seeded
reset followed by unseeded ones is reproducible.

Rewards come only at the end of the game, on the step that ends it; every
other step gives 0.  ``reward="score"`` (default): a seat's final score minus
the mean final score of all seats (zero-sum).  ``reward="rank"``: ``1 -
2 * place / (players - 1)`` for ``place`` 0 (winner) … ``players - 1`` (last)
in ``state.ranking()`` (tie-breaks applied), i.e. +1/−1 with two players and
+1, +1/3, −1/3, −1 with four.  When the game ends every agent is terminated
(and must then step ``None`` to leave, as PettingZoo requires); ``infos`` then
hold ``{"score": …, "rank": …}`` (rank 1 = winner).  Truncations are never set.

An illegal action (an index whose action is not legal now, or not an integer
in ``0..N-1``) raises ``ValueError`` (``erebus.core.IllegalAction`` when the
engine refuses it) and leaves the environment unchanged; the environment is
returned unwrapped (no PettingZoo wrappers), so ``env.state_`` — the engine
:class:`~erebus.games.northwest.State` — is directly reachable for debugging.

``render()`` with ``render_mode="ansi"`` returns the text board (status line,
sun track, board and player panels without colours) as a string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from erebus.games import get_game
from erebus.games.northwest.content import Content, default_content
from erebus.games.northwest.state import State
from erebus.rl.game_env import REWARD_MODES, GameEnv, SpecAdapter

__all__ = [
    "REWARD_MODES",
    "NorthwestAdapter",
    "NorthwestEnv",
    "northwest_env",
    "render_text",
    "summary_text",
]


@dataclass
class NorthwestAdapter(SpecAdapter):
    """Northwest Passage's spec adapter for a given content (the fixed numbering of
    that content's board and tiles); the default content is the spec's own."""

    content: Content | None = None

    def __post_init__(self) -> None:
        from erebus.games.northwest import encoding

        super().__post_init__()
        self._content = self.content or default_content()
        if self.content is not None:
            self.size = encoding.action_space_size(self._content)
            self._bounds = encoding.observation_bounds(self._content)

    def new_game(self, players: int, seed: int) -> Any:
        from erebus.games.northwest import new_game

        return new_game(players, seed, self._content)

    def text(self, state: Any) -> str:
        return render_text(state)


class NorthwestEnv(GameEnv):
    """PettingZoo AEC environment of Northwest Passage (see the module docstring):
    :class:`~erebus.rl.game_env.GameEnv` with this game's fixed action numbering."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "name": "erebus_northwest_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        render_mode: str | None = None,
        reward: str = "score",
        content: Content | None = None,
    ) -> None:
        self.content = content or default_content()
        if isinstance(players, bool) or players not in self.content.rules.arrow_tokens:
            choices = ", ".join(str(p) for p in sorted(self.content.rules.arrow_tokens))
            raise ValueError(f"players must be one of {choices}, not {players!r}")
        adapter = NorthwestAdapter(get_game("northwest"), None, self.content)
        super().__init__("northwest", players, None, render_mode, reward, adapter)


def render_text(state: State, width: int = 160) -> str:
    """The state as plain text: the game's Rich view without colours, or a summary."""
    try:
        from erebus.terminal.northwest import UI

        return UI.plain_text(state, width)
    except (ImportError, AttributeError):
        return summary_text(state)


def summary_text(state: State) -> str:
    """A few lines of text: round, sun, scores, crews and vehicle positions."""
    lines = [
        f"Northwest Passage, {state.players} players, round {state.round}, sun {state.sun}"
        + (" — game over" if state.is_over else f", to act: seat {state.current_player}")
    ]
    for seat in range(state.players):
        crew = state.crew(seat)
        lines.append(
            f"seat {seat}: score {state.scores()[seat]}, ship {state.position(seat, 'ship')}, "
            f"sled {state.position(seat, 'sled')}, crew ship {crew['ship']} sled {crew['sled']}"
        )
    return "\n".join(lines) + "\n"


def northwest_env(
    players: int = 2,
    render_mode: str | None = None,
    reward: str = "score",
    content: Content | None = None,
) -> NorthwestEnv:
    """A new, unwrapped :class:`NorthwestEnv` (call ``reset()`` before use)."""
    return NorthwestEnv(players=players, render_mode=render_mode, reward=reward, content=content)


env = northwest_env
raw_env = NorthwestEnv
