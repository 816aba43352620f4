"""Hints and post-game reviews: the hard bot's opinion of a position, for people.

Game-agnostic, like every bot: a position is rated from the *mover's view only*
(``state.view(seat)``), by the hard bot's search (:meth:`MctsBot.analyse`, the root
statistics of an ISMCTS with a fixed iteration budget) seeded from public
information (:func:`public_seed`: the game's id and the move number).  So a hint
is reproducible, and two states that look the same to the seat (the same view, a
different bag order or deck) get the same hint: no hidden information leaks.

Values: a search reward ``v`` in [-1, 1] reads as an *expected result* ``(v+1)/2``
in [0, 1]; an action's **loss** is how much of it the action gave up against the
best one of the same search.  A position's **winning chances** (one per seat, for
the review's plot) come from the game's heuristic in a world built from the
mover's view: a softmax of the seats' estimates (one seat: a logistic of its own),
whose temperature grows with the size of the estimates (a 5-point lead means more
at 10 points than at 100).  Both are estimates, not the rules' truth.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from erebus.bots.base import BotSpec, candidates, determinize, game_of, heuristic_of
from erebus.core.game import GameSpec

HINT_ITERATIONS = 300  # search iterations of a hint (deterministic for its seed)
REVIEW_ITERATIONS = 80  # per move of a review (a game has a few hundred moves)
MISTAKE_LOSS = 0.05  # a move that gave up at least this much expected result
BLUNDER_LOSS = 0.15  # ... a big mistake
TOP_MISTAKES = 5  # the biggest mistakes per seat a review lists
# The softmax temperature of winning chances, in the heuristic's points: a base plus a
# share of the estimates' size (set by eye on greedy games: a 15-point lead on a
# ~25-point estimate reads as about two chances in three, not a certainty).
CHANCE_BASE = 3.0
CHANCE_SPREAD = 0.35


def public_seed(*parts: Any) -> int:
    """A 63-bit seed from public facts (a game id, a move number, …): the same on
    every machine and in every process, and independent of the game's own seed."""
    text = json.dumps([str(p) for p in parts])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def view_seed(view: Any) -> int:
    """A seed from a seat's view itself (public to that seat): where no game id and
    move number are at hand (the terminal)."""
    return public_seed(json.dumps(view, sort_keys=True, default=str))


def expected(value: float) -> float:
    """A search reward in [-1, 1] as an expected result in [0, 1]."""
    return max(0.0, min(1.0, (value + 1.0) / 2.0))


@dataclass(frozen=True)
class Rating:
    """One candidate action: its search reward, visits, and result in [0, 1]."""

    action: Any
    value: float
    visits: int

    @property
    def result(self) -> float:
        return expected(self.value)


@dataclass
class Position:
    """The hard bot's ratings of the candidates of one position (best first)."""

    seat: int
    ratings: list[Rating]
    chances: list[float] = field(default_factory=list)
    forced: bool = False  # one legal action: nothing to choose

    @property
    def best(self) -> Rating:
        return self.ratings[0]

    def rating_of(self, action: Any) -> Rating | None:
        for r in self.ratings:
            if r.action == action:
                return r
        return None

    def loss(self, action: Any) -> float:
        """The expected result ``action`` gave up against the best choice (>= 0)."""
        if self.forced:
            return 0.0
        r = self.rating_of(action)
        if r is None:
            return 0.0
        return max(0.0, self.best.result - r.result)


def _search(state: Any, seed: int, iterations: int, keep: Sequence[Any] = ()) -> list[Rating]:
    from erebus.bots.mcts import MctsBot

    bot = MctsBot(BotSpec("mcts", seed, None, iterations))
    stats = bot.analyse(state, keep=keep)
    ratings = [Rating(a, float(v), int(n)) for a, v, n in stats]
    # Best first: the most searched (the search spends its budget on the best), then
    # the higher value; ``choose`` would play the first.
    ratings.sort(key=lambda r: (-r.visits, -r.value))
    return ratings


def _one_ply(spec: GameSpec, world: Any, action: Any, seat: int) -> float:
    """The reward of an action the search did not try (a pruned variant): the
    heuristic of its result against the position's, as the search values a leaf."""
    heuristic = heuristic_of(spec)
    base = heuristic(world, seat)
    after = world.clone()
    after.apply(action)
    if after.is_over and spec.terminal_value is not None:
        value = float(spec.terminal_value(after, seat))
    elif after.is_over:
        value = float(after.scores()[seat])
    else:
        value = heuristic(after, seat)
    return math.tanh((value - base) / float(spec.search.reward_scale))


def rate(
    state: Any, seed: int, iterations: int = HINT_ITERATIONS, keep: Sequence[Any] = ()
) -> Position:
    """The hard bot's rating of every candidate of ``state.current_player``, from
    that seat's view only; ``keep``: actions to rate even if the search would
    prune them (a review's move played)."""
    spec = game_of(state)
    seat = state.current_player
    if seat is None:
        raise ValueError("the game is over: nobody is to move")
    view = state.view(seat)
    world = determinize(spec, view, seed)
    chances = win_chances(world, seat)
    legal = state.legal_actions()
    if len(legal) == 1:
        return Position(seat, [Rating(legal[0], 0.0, 0)], chances, forced=True)
    ratings = _search(world, seed, iterations, keep)
    seen = {r.action for r in ratings}
    for a in keep:
        if a not in seen:
            ratings.append(Rating(a, _one_ply(spec, world, a, seat), 0))
    if not ratings:  # no budget: the game's pruned candidates, valued one ply each
        ratings = [Rating(a, _one_ply(spec, world, a, seat), 0) for a in candidates(spec, world)]
        ratings.sort(key=lambda r: -r.value)
    return Position(seat, ratings, chances)


def win_chances(world: Any, seat: int | None = None) -> list[float]:
    """Each seat's estimated chance to win from ``world`` (see the module docstring).
    A finished game: 1 shared among the winners (none when the whole table lost)."""
    spec = game_of(world)
    n = len(world.scores())
    if world.is_over:
        if spec.winners is not None:
            won = list(spec.winners(world))
        else:
            top = world.ranking()[0]
            best = world.scores()[top]
            won = [s for s in range(n) if world.scores()[s] == best]
            if spec.tied is not None:
                won = [s for s in won if s == top or spec.tied(world, top, s)]
        return [1.0 / len(won) if s in won else 0.0 for s in range(n)]
    heuristic = heuristic_of(spec)
    values = [float(heuristic(world, s)) for s in range(n)]
    temp = CHANCE_BASE + CHANCE_SPREAD * sum(abs(v) for v in values) / n
    if n == 1:
        return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, values[0] / temp))))]
    top = max(values)
    weights = [math.exp((v - top) / temp) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


# --------------------------------------------------------------------- words


def describe(spec: GameSpec, state: Any, action: Any) -> str:
    """An action in words: the game's ``describe_action`` hook, else ``str(action)``."""
    if spec.describe_action is not None:
        return str(spec.describe_action(state, action))
    return str(action)


def hint(state: Any, seed: int, iterations: int = HINT_ITERATIONS) -> dict[str, Any]:
    """The hard bot's suggestion for the seat to move, as JSON: the action, its words,
    a short reason, and the next best choices."""
    spec = game_of(state)
    pos = rate(state, seed, iterations)
    best = pos.best
    text = describe(spec, state, best.action)
    others = pos.ratings[1:4]
    if pos.forced:
        reason = f"{text}: the only legal action."
    elif others:
        gain = best.result - others[0].result
        reason = (
            f"{text}: the hard bot's choice here (expected result {best.result:.0%}, "
            f"{gain:+.0%} over the next best, {describe(spec, state, others[0].action)})."
        )
    else:
        reason = f"{text}: the hard bot's choice here (expected result {best.result:.0%})."
    return {
        "seat": pos.seat,
        "action": best.action.to_json(),
        "text": text,
        "reason": reason,
        "result": round(best.result, 4),
        "forced": pos.forced,
        "alternatives": [
            {
                "action": r.action.to_json(),
                "text": describe(spec, state, r.action),
                "result": round(r.result, 4),
            }
            for r in others
        ],
        "chances": [round(c, 4) for c in pos.chances],
    }


# -------------------------------------------------------------------- review


def review_moves(
    game: str,
    players: int,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any] | None = None,
    key: str = "",
    iterations: int = REVIEW_ITERATIONS,
    start: int = 0,
    stop: int | None = None,
) -> list[dict[str, Any]]:
    """Moves ``start``..``stop``-1 of a finished game rated (a picklable piece of
    :func:`review`, so that a server's bot pool can take a review in chunks).  Each
    position is rated from the mover's view only, seeded by ``key`` (a public name of
    the game) and the move number."""
    from erebus.games import get_game

    spec = get_game(game)
    stop = len(actions) if stop is None else min(stop, len(actions))
    state = spec.new_game(players, seed, dict(options) if options else None)
    for data in actions[:start]:
        state.apply(spec.action_from_json(dict(data)))
    out: list[dict[str, Any]] = []
    for k in range(start, stop):
        action = spec.action_from_json(dict(actions[k]))
        pos = rate(state, public_seed(key, spec.name, k), iterations, keep=[action])
        loss = pos.loss(action)
        best = pos.best.action
        out.append(
            {
                "step": k + 1,
                "seat": pos.seat,
                "action": action.to_json(),
                "text": describe(spec, state, action),
                "best": best.to_json(),
                "best_text": describe(spec, state, best),
                "result": round(pos.best.result - loss, 4),
                "loss": round(loss, 4),
                "forced": pos.forced,
                "mistake": loss >= MISTAKE_LOSS,
                "blunder": loss >= BLUNDER_LOSS,
                "chances": [round(c, 4) for c in pos.chances],
            }
        )
        state.apply(action)
    return out


def assemble(
    game: str,
    players: int,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any] | None,
    moves: list[dict[str, Any]],
    iterations: int = REVIEW_ITERATIONS,
) -> dict[str, Any]:
    """The review of a game from its rated ``moves`` (:func:`review_moves`, in order).

    JSON: ``moves`` (step, seat, action, words, the best choice, the loss,
    ``mistake``/``blunder``, the winning chances before the move), ``chances`` (per
    step 0..n, each seat's winning chance; the last is the result) and per seat
    ``seats`` (moves, total and mean loss, mistakes, the steps of the biggest)."""
    from erebus.games import get_game

    spec = get_game(game)
    final = spec.replay(
        players, seed, [dict(a) for a in actions], dict(options) if options else None
    )
    chances = [m["chances"] for m in moves] + [[round(c, 4) for c in win_chances(final)]]
    return {
        "game": spec.name,
        "players": players,
        "iterations": iterations,
        "moves": moves,
        "chances": chances,
        "seats": seat_summary(moves, players),
        "scores": list(final.scores()),
    }


REVIEW_CHUNK = 10  # moves per job of a server's review (progress, fairness)


def review(
    game: str,
    players: int,
    seed: int,
    actions: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any] | None = None,
    key: str = "",
    iterations: int = REVIEW_ITERATIONS,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Every move of a finished game rated against the hard bot's best choice in that
    position (:func:`review_moves`, :func:`assemble`); ``progress(done, total)``
    after each chunk of moves."""
    moves: list[dict[str, Any]] = []
    total = len(actions)
    for start in range(0, total, REVIEW_CHUNK):
        moves += review_moves(
            game, players, seed, actions, options, key, iterations, start, start + REVIEW_CHUNK
        )
        if progress is not None:
            progress(len(moves), total)
    return assemble(game, players, seed, actions, options, moves, iterations)


def seat_summary(moves: Iterable[Mapping[str, Any]], players: int) -> list[dict[str, Any]]:
    """Per seat: moves made (choices, not forced), total and mean loss, the number of
    mistakes, and the steps of the biggest ones (largest first)."""
    out = []
    rows = list(moves)
    for seat in range(players):
        mine = [m for m in rows if m["seat"] == seat and not m["forced"]]
        worst = sorted((m for m in mine if m["mistake"]), key=lambda m: -m["loss"])
        total = sum(m["loss"] for m in mine)
        out.append(
            {
                "seat": seat,
                "moves": len(mine),
                "total_loss": round(total, 4),
                "mean_loss": round(total / len(mine), 4) if mine else 0.0,
                "mistakes": len(worst),
                "blunders": sum(1 for m in worst if m["blunder"]),
                "worst": [m["step"] for m in worst[:TOP_MISTAKES]],
            }
        )
    return out


__all__ = [
    "BLUNDER_LOSS",
    "HINT_ITERATIONS",
    "MISTAKE_LOSS",
    "REVIEW_ITERATIONS",
    "Position",
    "Rating",
    "assemble",
    "describe",
    "expected",
    "hint",
    "public_seed",
    "rate",
    "review",
    "review_moves",
    "seat_summary",
    "view_seed",
    "win_chances",
]
