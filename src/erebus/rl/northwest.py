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

* action space ``Discrete(N)``, ``N = action_space_size()`` (17 048 for the
  default content): the action indices of the encoding module (version 2: fixed,
  but a placement's, whose square is relative to the placing vehicle's);
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

``content`` (an :class:`erebus.games.northwest.content.Content`; None: the shipped
one) plays another board and tile set, numbered by that content.  It is an engine
object, not a JSON option, so it reaches the game through its spec's ``rl_for`` hook
(``GameEnv(..., setup={"content": content})``): this module knows Northwest only
through ``erebus.games.get_game("northwest")``, like every consumer.
"""

from __future__ import annotations

from typing import Any

from erebus.rl.env import REWARD_MODES, GameEnv

__all__ = ["REWARD_MODES", "NorthwestEnv", "northwest_env"]


class NorthwestEnv(GameEnv):
    """PettingZoo AEC environment of Northwest Passage (see the module docstring):
    :class:`~erebus.rl.env.GameEnv` with this game's fixed action numbering."""

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
        content: Any = None,
    ) -> None:
        #: The custom content played, or None for the shipped one.
        self.content = content
        setup = None if content is None else {"content": content}
        super().__init__("northwest", players, None, render_mode, reward, setup=setup)


def northwest_env(
    players: int = 2,
    render_mode: str | None = None,
    reward: str = "score",
    content: Any = None,
) -> NorthwestEnv:
    """A new, unwrapped :class:`NorthwestEnv` (call ``reset()`` before use)."""
    return NorthwestEnv(players=players, render_mode=render_mode, reward=reward, content=content)


env = northwest_env
raw_env = NorthwestEnv
