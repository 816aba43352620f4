"""Race: a two-player race of a few moves, the smallest game the contract allows.

It exists to show that adding a game is one package exporting ``SPEC`` plus one
``register_game`` line: the terminal app, tournaments, the RL environment and the
web server play it without any change.  On their turn a player either *steps* one
square or *rolls* the die (1–3 squares, drawn from the state's seeded generator:
hidden until rolled, so a roll is an undo barrier).  Whoever reaches the goal first
ends the game; a player's score is the square they stand on.  Option: ``goal``
(3–20 squares, default 6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from erebus.core import events as core
from erebus.core.errors import IllegalAction
from erebus.core.events import Event
from erebus.core.game import GameSpec, RlEncoding, SearchHints, Statistic
from erebus.core.rng import Rng

NAME = "race"
KINDS = ("roll", "step")
GOAL = 6


@dataclass(frozen=True, slots=True)
class Action:
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}

    @staticmethod
    def from_json(d: Any) -> Action:
        if isinstance(d, Action):
            return d
        if not isinstance(d, dict) or d.get("type") not in KINDS:
            raise ValueError(f"a race action is {{'type': 'roll' | 'step'}}, not {d!r}")
        return Action(d["type"])

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class DieRolled(Event):
    seat: int
    value: int
    template: ClassVar[str] = "{player} rolls {value}."


@dataclass(frozen=True, slots=True)
class ScoreChanged(core.ScoreChanged):
    template: ClassVar[str] = "{player} moves {delta} ({reason})."


@dataclass(frozen=True, slots=True)
class TurnEnded(core.TurnEnded):
    template: ClassVar[str] = "{player} ends the turn."


@dataclass(frozen=True, slots=True)
class GameOver(core.GameOver):
    scores: tuple[int, ...] = ()
    template: ClassVar[str] = "The race is over: {scores}."


@dataclass
class State:
    players: int
    goal: int
    pos: list[int]
    current: int
    rng: int
    over: bool = False
    game: str = NAME

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.current

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        return [] if self.over else [Action(k) for k in KINDS]

    def apply(self, action: Any) -> list[Event]:
        a = Action.from_json(action.to_json() if isinstance(action, Action) else action)
        if self.over:
            raise IllegalAction("the race is over")
        seat = self.current
        events: list[Event] = []
        if a.kind == "roll":
            r = Rng.from_state(self.rng)
            step = 1 + r.below(3)
            self.rng = r.state
            events.append(DieRolled(seat, step))
        else:
            step = 1
        step = min(step, self.goal - self.pos[seat])
        self.pos[seat] += step
        events.append(ScoreChanged(seat, step, a.kind))
        events.append(TurnEnded(seat))
        if self.pos[seat] >= self.goal:
            self.over = True
            events.append(GameOver(tuple(self.pos)))
        else:
            self.current = (seat + 1) % self.players
        return events

    def scores(self) -> list[int]:
        return list(self.pos)

    def ranking(self) -> list[int]:
        return sorted(range(self.players), key=lambda s: (-self.pos[s], s))

    def clone(self) -> State:
        return dataclasses.replace(self, pos=list(self.pos))

    def to_json(self) -> dict[str, Any]:
        return {**self.view(None), "rng": self.rng}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": NAME,
            "players": self.players,
            "goal": self.goal,
            "pos": list(self.pos),
            "current": self.current,
            "over": self.over,
        }


def parse_options(players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    unknown = set(options) - {"goal"}
    if unknown:
        raise ValueError(f"the race has one option, goal (not {', '.join(sorted(unknown))})")
    goal = options.get("goal", GOAL)
    if isinstance(goal, bool) or not isinstance(goal, int) or not 3 <= goal <= 20:
        raise ValueError("goal must be an integer in 3..20")
    return {"goal": goal}


def new_game(players: int, seed: int | None = None, options: Any = None) -> State:
    goal = parse_options(players, options)["goal"]
    return State(players, goal, [0] * players, 0, Rng(seed or 0).state)


def replay(players: int, seed: int, actions: Sequence[Any], options: Any = None) -> State:
    st = new_game(players, seed, options)
    for a in actions:
        st.apply(a)
    return st


def state_from_json(d: Mapping[str, Any]) -> State:
    try:
        return State(d["players"], d["goal"], list(d["pos"]), d["current"], d["rng"], d["over"])
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a saved race: {exc}") from exc


def determinize(view: Mapping[str, Any], seed: int) -> State:
    return state_from_json({**view, "rng": Rng(seed).state})


def heuristic(state: State, seat: int) -> float:
    lead = state.pos[seat] - max(p for s, p in enumerate(state.pos) if s != seat)
    return lead / state.goal


def _bounds() -> tuple[Any, Any]:
    import numpy as np

    return np.zeros(3, dtype=np.float32), np.ones(3, dtype=np.float32)


def _observe(state: State, seat: int) -> Any:
    import numpy as np

    other = state.pos[(seat + 1) % state.players]
    mine = state.current_player == seat
    return np.array([state.pos[seat] / state.goal, other / state.goal, mine], dtype=np.float32)


def _mask(state: State) -> Any:
    import numpy as np

    return np.array([0 if state.over else 1] * len(KINDS), dtype=np.int8)


def _action_at(state: State, index: int) -> Action:
    if state.over or not 0 <= index < len(KINDS):
        raise ValueError(f"action index {index} is not legal here")
    return Action(KINDS[index])


SPEC = GameSpec(
    name=NAME,
    title="Race",
    min_players=2,
    max_players=2,
    parse_options=parse_options,
    new_game=new_game,
    replay=replay,
    action_from_json=Action.from_json,
    state_from_json=state_from_json,
    reveals_hidden=lambda e: isinstance(e, DieRolled),
    wire_view=lambda st, seat: st.view(seat),
    determinize=determinize,
    heuristic=heuristic,
    search=SearchHints(own_turn_only=False, root_screen=0, reward_scale=0.5),
    score_sources=("roll", "step"),
    source_labels={"roll": "Rolls", "step": "Steps"},
    score_source=lambda reason: reason,
    statistics=(Statistic("finished", "Runners at the goal", lambda st, s: st.pos[s] >= st.goal),),
    rl=RlEncoding(
        action_space_size=lambda: len(KINDS),
        observation_bounds=_bounds,
        observe=_observe,
        legal_mask=_mask,
        action_at=_action_at,
        action_index=lambda st, a: KINDS.index(a.kind),
    ),
)
