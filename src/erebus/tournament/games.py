"""One game of a tournament: the task a worker process plays, the record it returns,
and the places the rules give (through the game's spec only)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from erebus.core import events as common
from erebus.core.game import GameSpec
from erebus.games import get_game
from erebus.tournament.seating import bot_seed

MAX_ACTIONS = 100_000  # a game longer than this means a bot or engine bug, not a long game


@dataclass(frozen=True)
class GameTask:
    """Everything a worker process needs to play one game (picklable)."""

    game: str
    players: int
    index: int
    seed: int
    seats: tuple[str, ...]
    time_s: float | None = None
    iterations: int | None = None
    options: dict[str, Any] | None = None  # the game's options (``spec.parse_options``)


@dataclass
class GameRecord:
    """What one game produced.  Only deterministic fields, so records compare equal
    across runs with the same seed (wall-clock time is kept on the result instead)."""

    index: int
    seed: int
    seats: list[str]
    scores: list[int]
    ranking: list[int]
    places: list[int]
    winners: list[int]
    actions: int
    rounds: int | None
    #: Per statistic of the game's spec (``GameSpec.statistics``), its value per seat
    #: (Northwest: ``reached_northwest``, ``returned``, ``sled_lost``).
    statistics: dict[str, list[bool]]
    points: list[dict[str, int]]
    everyone_lost: bool | None = None  # games where the whole table can lose (Ice and Snow)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def places_of(
    state: Any,
    tied: Callable[[Any, int, int], bool] | None = None,
    winners: Callable[[Any], Sequence[int]] | None = None,
) -> list[int]:
    """Competition places per seat (1 = best; tied seats share the better place).

    Two neighbours in ``state.ranking()`` are tied when their scores are equal
    and the rules' tie-break (the spec's ``tied``; Northwest: returning to
    Greenland first) does not separate them; ``ranking()``'s last resort, seat
    number, is not a rule and does not count.  When the spec's ``winners`` names
    nobody, the whole table lost together: every seat is last.
    """
    scores = state.scores()
    ranking = state.ranking()
    if winners is not None and not winners(state):  # everyone lost together
        return [len(scores)] * len(scores)
    places = [0] * len(scores)
    for i, seat in enumerate(ranking):
        prev = ranking[i - 1] if i else None
        same = (
            prev is not None
            and scores[prev] == scores[seat]
            and (tied is None or tied(state, prev, seat))
        )
        places[seat] = places[prev] if same and prev is not None else i + 1
    return places


def play_game(task: GameTask) -> GameRecord:
    """Play one game to the end and record it.  Runs in a worker process.

    Bots are built here, by name, from seeds derived from the game seed, so a
    game's record depends on the task alone.
    """
    from erebus.bots import make_bot

    spec = get_game(task.game)
    state = spec.new_game(task.players, task.seed, task.options)
    bots = [
        make_bot(
            name, seed=bot_seed(task.seed, seat), time_s=task.time_s, iterations=task.iterations
        )
        for seat, name in enumerate(task.seats)
    ]
    n = task.players
    sources, source_of = sources_of(spec)
    points = [dict.fromkeys(sources, 0) for _ in range(n)]
    seen = {st.key: [False] * n for st in spec.statistics}
    watch = [(st.key, st.seen) for st in spec.statistics if st.seen is not None]
    actions = 0
    while not state.is_over:
        if actions >= MAX_ACTIONS:
            raise RuntimeError(
                f"game {task.index} (seed {task.seed}) did not end after {MAX_ACTIONS} actions"
            )
        seat = state.current_player
        try:
            events = state.apply(bots[seat].choose(state))
        except Exception as exc:  # name the game, so it can be replayed and debugged
            raise RuntimeError(
                f"game {task.index} (seed {task.seed}, seats {list(task.seats)}): "
                f"{task.seats[seat]} at seat {seat} failed: {exc!r}"
            ) from exc
        actions += 1
        for ev in events:
            if isinstance(ev, common.ScoreChanged):
                src = source_of(ev.reason)
                if src is not None:
                    points[ev.seat][src] = points[ev.seat].get(src, 0) + ev.delta
            for key, shows in watch:
                who = shows(ev)
                if who is not None:
                    seen[key][who] = True
    places = places_of(state, spec.tied, spec.winners)
    # A lost solo scenario (or a game the whole table lost) has no winner, even
    # though its lone seat is "last" and so also place 1.
    everyone_lost = None if spec.winners is None else not spec.winners(state)
    return GameRecord(
        index=task.index,
        seed=task.seed,
        seats=list(task.seats),
        scores=list(state.scores()),
        ranking=list(state.ranking()),
        places=places,
        winners=[] if everyone_lost else sorted(s for s in range(n) if places[s] == 1),
        actions=actions,
        rounds=spec.rounds(state) if spec.rounds is not None else None,
        statistics={
            st.key: [bool(st.value(state, s)) or seen[st.key][s] for s in range(n)]
            for st in spec.statistics
        },
        points=[{k: v for k, v in p.items() if v or k != "other"} for p in points],
        everyone_lost=everyone_lost,
    )


def _other(reason: str) -> str:
    return "other"


def sources_of(spec: GameSpec) -> tuple[tuple[str, ...], Callable[[str], str | None]]:
    """A game's score sources and its reason→source function (all "other" without one)."""
    return tuple(spec.score_sources), spec.score_source or _other
