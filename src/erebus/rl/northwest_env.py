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

import io
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from erebus.core.errors import IllegalAction
from erebus.games.northwest import encoding
from erebus.games.northwest.content import Content, default_content
from erebus.games.northwest.state import State, new_game

REWARD_MODES = ("score", "rank")


class NorthwestEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """PettingZoo AEC environment of Northwest Passage (see the module docstring)."""

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
        super().__init__()
        self.content = content or default_content()
        if isinstance(players, bool) or players not in self.content.rules.arrow_tokens:
            choices = ", ".join(str(p) for p in sorted(self.content.rules.arrow_tokens))
            raise ValueError(f"players must be one of {choices}, not {players!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, not {reward!r}")
        self.players = players
        self.render_mode = render_mode
        self.reward_mode = reward
        self._space = encoding.action_space(self.content)
        self._encoder = encoding.observation_encoder(self.content)
        n_actions = self._space.size
        low, high = encoding.observation_bounds(self.content)
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(n_actions) for a in self.possible_agents
        }
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.np_random: np.random.Generator | None = None
        self.state_: State | None = None
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        self._mask: np.ndarray[Any, np.dtype[np.int8]] | None = None
        self._no_mask = np.zeros(n_actions, dtype=np.int8)

    # ------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(int(seed))
            game_seed = int(seed)
        else:
            if self.np_random is None:
                self.np_random, _ = seeding.np_random()
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.state_ = new_game(self.players, game_seed, self.content)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._mask = None
        self.agent_selection = self._agent_to_act()

    def _state(self) -> State:
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def _agent_to_act(self) -> str:
        seat = self._state().current_player
        return self.possible_agents[seat if seat is not None else 0]

    def step(self, action: Any) -> None:
        st = self._state()
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for terminated agents")
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
            action = action.reshape(()).item()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action is an integer index, not {action!r}")
        act = self._space.action(int(action))
        try:
            st.apply(act)
        except IllegalAction as exc:
            raise IllegalAction(f"action {int(action)} ({act}) is illegal: {exc}") from exc
        self._mask = None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if st.is_over:
            self._finish(st)
        else:
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()

    def _finish(self, st: State) -> None:
        scores = st.scores()
        ranking = st.ranking()
        n = st.players
        mean = sum(scores) / n
        for a in self.agents:
            seat = self._seat[a]
            place = ranking.index(seat)
            if self.reward_mode == "score":
                self.rewards[a] = float(scores[seat] - mean)
            else:
                self.rewards[a] = 1.0 - 2.0 * place / (n - 1)
            self.terminations[a] = True
            self.infos[a] = {"score": scores[seat], "rank": place + 1}

    # ------------------------------------------------------------ observation

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        st = self._state()
        seat = self._seat[agent]
        obs = self._encoder.encode(st, seat)
        if st.is_over or st.current_player != seat:
            mask = self._no_mask.copy()
        else:
            if self._mask is None:
                self._mask = self._space.mask(st)
            mask = self._mask.copy()
        return {"observation": obs, "action_mask": mask}

    # ------------------------------------------------------------ display

    def render(self) -> str | None:
        if self.render_mode is None:
            warnings.warn(
                "render() called without a render_mode; use render_mode='ansi'", stacklevel=2
            )
            return None
        return render_text(self._state())

    def close(self) -> None:
        pass


def render_text(state: State, width: int = 160) -> str:
    """The state as plain text: the game's Rich view without colours, or a summary."""
    try:
        from rich.console import Console

        from erebus.games.northwest import render

        buf = io.StringIO()
        console = Console(
            file=buf, width=width, color_system=None, force_terminal=False, highlight=False
        )
        console.print(render.status_line(state))
        console.print(render.sun_track(state))
        console.print(render.board(state))
        console.print(render.players_row(state))
        return buf.getvalue()
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
