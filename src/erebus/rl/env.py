"""Any erebus game as a PettingZoo AEC environment.

::

    from erebus.rl import game_env

    env = game_env("iceandsnow", players=3)           # or "northwest"
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else \
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

The environment knows nothing of any game's rules.  It asks the game's spec
(``erebus.games.get_game(game)``) for its RL encoding (``spec.rl``, an
:class:`erebus.core.game.RlEncoding`: the number of action indices ``N``, the
observation bounds, ``observe(state, seat)``, the legal-action mask and the
decoding of an index), wrapped by :class:`SpecAdapter`.  Each game documents its
own numbering:

* Northwest Passage: the indices of :mod:`erebus.games.northwest.encoding`
  (17 048 actions — fixed, but a placement's, which is relative to the placing
  vehicle —, 4 455 observation features) — the same numbers as
  :class:`erebus.rl.NorthwestEnv` (:mod:`erebus.rl.northwest`), which is this
  environment with Northwest's optional custom content: an engine object, not a JSON
  option, that reaches the game through its spec's ``rl_for`` hook (``setup=``);
* Through Ice and Snow: :mod:`erebus.games.iceandsnow.encoding` (indices are
  *positions in the engine's ordered ``legal_actions()`` list*, because that
  game's actions carry open-ended choices — crew compositions, food amounts,
  resources collected — whose full product is far too large to number).

Agents are ``"player_0"`` … ``"player_{n-1}"`` (engine seat ``i``);
``agent_selection`` is always the engine's current player.  Observations are
``{"observation": float32 Box, "action_mask": int8 Box(N)}``; the mask is all
zeros for an agent not to act.  Rewards come on the step that ends the game:
``reward="score"`` a seat's final score minus the mean, ``reward="rank"``
``1 − 2·place/(n−1)`` (a one-player game: +1 for a win, −1 otherwise).  An
illegal index raises ``ValueError`` and changes nothing.  ``reset(seed=s)``
starts ``new_game(players, seed=s, …)`` exactly as NorthwestEnv does.

Speed: the environment keeps one mask array across steps and, per step, clears the
previous legal indices and sets the new ones (the encoding's ``legal_indices``), and it
observes through the encoding's ``observer()`` — made anew at every ``reset()`` —, which
may keep the blocks whose inputs did not change.  Both agree exactly with the
from-scratch ``legal_mask`` / ``observe`` (tests check it along random games), and every
observation and mask handed out is a new array.  An index outside the mask is refused
before the engine sees it (the engine's reason comes from a copy of the state).
The action spaces are :class:`MaskedDiscrete`, gymnasium's ``Discrete`` with a
``sample(mask)`` that finds the legal indices in one pass over the mask (gymnasium's
makes six over all 17 048 entries) and draws exactly the same numbers.
``erebus bench --compare`` measures env steps/s (:mod:`erebus.bench.envs`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from erebus.core.errors import IllegalAction
from erebus.core.game import GameSpec, RlEncoding
from erebus.games import get_game

REWARD_MODES = ("score", "rank")
_INTEGERS = (int, np.integer)
_INT8 = np.dtype(np.int8)
_MAX = np.maximum.reduce  # ndarray.max() without its Python wrappers

Mask = npt.NDArray[np.int8]
Observation = npt.NDArray[np.float32]


class Adapter(Protocol):
    """What a game gives the environment (see the module docstring)."""

    size: int
    legal_parts: tuple[str, ...]  # the engine's methods behind legal_indices (RlEncoding)

    def new_game(self, players: int, seed: int) -> Any: ...
    def bounds(self) -> tuple[Observation, Observation]: ...
    def encode(self, state: Any, seat: int) -> Observation: ...
    def mask(self, state: Any) -> Mask: ...
    def action(self, state: Any, index: int) -> Any: ...
    def text(self, state: Any) -> str: ...
    def legal_indices(self, state: Any) -> npt.NDArray[np.intp]: ...
    def observer(self) -> Callable[[Any, int], Observation]: ...


@dataclass
class SpecAdapter:
    """Any game through an :class:`~erebus.core.game.RlEncoding`: the spec's own
    (``spec.rl``), or ``encoding`` when given (one the spec's ``rl_for`` made)."""

    spec: GameSpec
    options: dict[str, Any] | None = None
    encoding: RlEncoding | None = None
    players: int = 0  # the seats of the games (for ``observation_bounds_for``)

    def __post_init__(self) -> None:
        rl = self.encoding if self.encoding is not None else self.spec.rl
        if rl is None:
            raise ValueError(f"{self.spec.name} declares no RL encoding")
        self.rl = rl
        self.size = self.rl.action_space_size()
        self.legal_parts = rl.legal_parts
        if self.options is not None and self.rl.observation_bounds_for is not None:
            self._bounds = self.rl.observation_bounds_for(self.players, self.options)
        else:
            self._bounds = self.rl.observation_bounds()

    def new_game(self, players: int, seed: int) -> Any:
        if self.rl.new_game is not None:
            return self.rl.new_game(players, seed)
        return self.spec.new_game(players, seed, self.options)

    def bounds(self) -> tuple[Observation, Observation]:
        return self._bounds

    def encode(self, state: Any, seat: int) -> Observation:
        obs: Observation = self.rl.observe(state, seat)
        return obs

    def mask(self, state: Any) -> Mask:
        mask: Mask = self.rl.legal_mask(state)
        return mask

    def action(self, state: Any, index: int) -> Any:
        return self.rl.action_at(state, index)

    def legal_indices(self, state: Any) -> npt.NDArray[np.intp]:
        """The legal indices (the encoding's ``legal_indices``, else the mask's 1s)."""
        if self.rl.legal_indices is not None:
            legal = self.rl.legal_indices(state)
            if type(legal) is range:  # np.asarray would convert it number by number
                return np.arange(legal.start, legal.stop, legal.step, dtype=np.intp)
            return np.asarray(legal, dtype=np.intp)
        return np.flatnonzero(self.mask(state).view(np.bool_))

    def observer(self) -> Callable[[Any, int], Observation]:
        """A stateful ``encode`` for one game (the encoding's ``observer()``, else
        ``encode``)."""
        if self.rl.observer is not None:
            return self.rl.observer()
        return self.encode

    def text(self, state: Any) -> str:
        from erebus.terminal.app import plain_text

        return plain_text(self.spec.name, state)


def adapter_for(
    game: str,
    players: int,
    options: dict[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
) -> Adapter:
    """The RL adapter of ``game`` (``ValueError`` for an unknown game or bad options).

    ``setup`` (engine objects that are no JSON options, e.g. Northwest's
    ``{"content": Content}``) goes to the spec's ``rl_for`` hook, which judges the
    player count itself (a content seats its own counts); options and a setup do not
    mix."""
    spec = get_game(game)
    if setup is not None:
        if spec.rl_for is None:
            raise ValueError(f"{game} takes no RL set-up, only options")
        if options is not None:
            raise ValueError("pass options or an RL set-up, not both")
        return SpecAdapter(spec, None, spec.rl_for(players, setup))
    if isinstance(players, bool) or players not in spec.players:
        choices = ", ".join(str(p) for p in spec.players)
        raise ValueError(f"{game}: players must be one of {choices}, not {players!r}")
    parsed = spec.parse_options(players, options)  # ValueError now, not at reset()
    return SpecAdapter(spec, parsed if options is not None else None, players=players)


class MaskedDiscrete(spaces.Discrete):
    """gymnasium's ``Discrete`` whose ``sample(mask)`` is faster on a long mask and
    draws exactly the same numbers: the same checks (an ``int8`` mask of shape
    ``(n,)``, only 0s and 1s — else gymnasium's own ``sample`` raises its
    ``AssertionError``) and the same draw over the same legal indices, found in one
    pass over the mask's bytes where gymnasium makes six (``mask == 1``, ``mask ==
    0``, their ``or``, ``all``, ``any``, ``where``); the draw is
    ``legal[np_random.integers(0, len(legal))]``, which is what
    ``np_random.choice(legal)`` computes (numpy's ``Generator.choice`` without
    weights), without its ~7 µs of argument handling.  Without a mask, or with a
    probability mask, it is gymnasium's ``sample``.  Tests check the draws equal
    gymnasium's along seeded random masks."""

    def sample(self, mask: Mask | None = None, probability: Mask | None = None) -> Any:
        if (
            mask is None
            or probability is not None
            or type(mask) is not np.ndarray
            or mask.dtype != _INT8
            or mask.shape != (self.n,)
            or _MAX(mask.view(np.uint8)) > 1  # a negative int8 is > 1 as a byte
        ):
            return super().sample(mask, probability)
        legal = mask.view(np.bool_).nonzero()[0]  # flatnonzero, without its wrappers
        if legal.size:
            return self.start + self.dtype.type(legal[self.np_random.integers(0, legal.size)])
        return self.start


class GameEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """PettingZoo AEC environment of any erebus game (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "name": "erebus_game_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "northwest",
        players: int = 2,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        reward: str = "score",
        adapter: Adapter | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in REWARD_MODES:
            raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, not {reward!r}")
        self.game = game
        self.spec = get_game(game)
        if adapter is None:
            adapter = adapter_for(game, players, options, setup)
        self.adapter = adapter
        self.metadata = {**self.metadata, "name": f"erebus_{game}_v0"}
        self.players = players
        self.render_mode = render_mode
        self.reward_mode = reward
        n = self.adapter.size
        low, high = self.adapter.bounds()
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: MaskedDiscrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.np_random: np.random.Generator | None = None
        self.state_: Any = None
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]
        # The mask is one array kept across steps: a step clears the previous legal
        # indices and sets the new ones (a few dozen entries, not 17 048), and
        # observe() hands out a copy.  ``_legal`` is None until the state's indices
        # are known, and again after every step.
        self._mask_buf = np.zeros(n, dtype=np.int8)
        self._mask_on = np.zeros(0, dtype=np.intp)
        self._legal: npt.NDArray[np.intp] | None = None
        self._legal_of: Any = None
        self._no_mask = np.zeros(n, dtype=np.int8)
        self._observe: Callable[[Any, int], Observation] = self.adapter.encode
        self._size = n
        self._rewards_zero = False

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(int(seed))
            game_seed = int(seed)
        else:
            if self.np_random is None:
                self.np_random, _ = seeding.np_random()
            game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.state_ = self.adapter.new_game(self.players, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._rewards_zero = False  # rewards are 0.0 here, 0 once _clear_rewards() ran
        self._legal = None
        self._observe = self.adapter.observer()
        self.agent_selection = self._agent_to_act()

    def _state(self) -> Any:
        if self.state_ is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state_

    def _agent_to_act(self) -> str:
        seat = self._state().current_player
        return self.possible_agents[seat if seat is not None else 0]

    def step(self, action: Any) -> None:
        st = self.state_
        if st is None:
            self._state()  # raises
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            self._rewards_zero = False
            return
        kind = type(action)
        if kind is not int and kind is not np.int64:  # the checks a plain index passes
            if action is None:
                raise ValueError(f"{agent} must act: None is only for terminated agents")
            if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
                action = action.reshape(()).item()
            if isinstance(action, bool) or not isinstance(action, _INTEGERS):
                raise ValueError(f"an action is an integer index, not {action!r}")
        index = int(action)
        if not 0 <= index < self._size:
            raise ValueError(f"action index {index} is outside 0..{self._size - 1}")
        if self._legal is None or self._legal_of is not st:
            self._legal_now(st)
        if not self._mask_buf[index]:
            self._refuse(st, index)
        act = self.adapter.action(st, index)
        try:
            st.apply(act)
        except IllegalAction as exc:
            raise IllegalAction(f"action {index} ({act}) is illegal: {exc}") from exc
        self._legal = None
        self._cumulative_rewards[agent] = 0.0
        if st.is_over:
            self._clear_rewards()
            self._finish(st)
            self._accumulate_rewards()
            self._rewards_zero = False
            return
        # PettingZoo's _clear_rewards() (every reward to 0) and _accumulate_rewards()
        # (each cumulative reward += its reward): once the rewards are 0 after a step
        # that ended nothing, both change nothing until the game ends, and are skipped.
        if not self._rewards_zero:
            self._clear_rewards()
            self._accumulate_rewards()
            self._rewards_zero = True
        seat = st.current_player
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]

    def _legal_now(self, st: Any) -> None:
        """Bring the kept mask to the current state's legal indices (once per state)."""
        if self._legal is not None and self._legal_of is st:
            return
        legal = self.adapter.legal_indices(st)
        buf = self._mask_buf
        buf[self._mask_on] = 0
        buf[legal] = 1
        self._mask_on = legal
        self._legal = legal
        self._legal_of = st

    def _refuse(self, st: Any, index: int) -> None:
        """Raise for an index outside the mask, with the engine's reason when it has one
        (asked of a copy: the environment's state is never touched)."""
        try:
            act = self.adapter.action(st, index)
        except ValueError as exc:  # e.g. Ice and Snow: no legal action at that position
            raise IllegalAction(f"action {index} is illegal: {exc}") from exc
        try:
            st.clone().apply(act)  # every engine state clones (engine API)
        except IllegalAction as exc:
            raise IllegalAction(f"action {index} ({act}) is illegal: {exc}") from exc
        raise IllegalAction(f"action {index} ({act}) is not a legal action now")

    def _finish(self, st: Any) -> None:
        scores = st.scores()
        ranking = st.ranking()
        n = self.players
        mean = sum(scores) / n
        winners = self.spec.winners(st) if self.spec.winners is not None else ranking[:1]
        for a in self.agents:
            seat = self._seat[a]
            place = ranking.index(seat)
            if self.reward_mode == "score":
                self.rewards[a] = float(scores[seat] - mean)
            elif n == 1:
                self.rewards[a] = 1.0 if seat in winners else -1.0
            else:
                self.rewards[a] = 1.0 - 2.0 * place / (n - 1)
            self.terminations[a] = True
            self.infos[a] = {"score": scores[seat], "rank": place + 1}

    def observe(self, agent: str) -> dict[str, Any]:
        st = self.state_
        if st is None:
            self._state()  # raises
        seat = self._seat[agent]
        obs = self._observe(st, seat)
        if st.is_over or st.current_player != seat:
            mask = self._no_mask.copy()
        else:
            if self._legal is None or self._legal_of is not st:
                self._legal_now(st)
            mask = self._mask_buf.copy()
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            warnings.warn(
                "render() called without a render_mode; use render_mode='ansi'", stacklevel=2
            )
            return None
        return self.adapter.text(self._state())

    def close(self) -> None:
        pass


def game_env(
    game: str = "northwest",
    players: int = 2,
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    reward: str = "score",
) -> GameEnv:
    """A new, unwrapped :class:`GameEnv` (call ``reset()`` before use)."""
    return GameEnv(game, players, options, render_mode, reward)
