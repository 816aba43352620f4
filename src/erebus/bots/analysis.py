"""Hints and post-game reviews: the hard bot's opinion of a position, for people.

Game-agnostic, like every bot: a position is rated from the *mover's view only*
(``state.view(seat)``), by the hard bot's search (:meth:`MctsBot.analyse`, the root
statistics of an ISMCTS with a fixed iteration budget) seeded from public
information (:func:`public_seed`: the game's id and the move number).  So a hint
is reproducible, and two states that look the same to the seat (the same view, a
different bag order or deck) get the same hint: no hidden information leaks.

Winning chances: a position's (one per seat, for the review's plot) come from the
game's heuristic in a world built from the mover's view: a softmax of the seats'
estimates (one seat: a logistic of its own) whose temperature ``T`` grows with the
size of the estimates (a 5-point lead means more at 10 points than at 100).  The
search values a leaf by ``tanh(gain / T)`` of the mover's estimate, so a candidate's
mean reward ``v`` reads back as a gain of ``T·atanh(v)`` points and so as the
mover's winning chance after it (``result``); an action's **loss** is how much
winning chance it gave up against the best candidate of the same search.  All of
it is an estimate, not the rules' truth.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from erebus.bots.base import BotSpec, candidates, determinize, game_of, heuristic_of
from erebus.bots.mcts import MctsBot
from erebus.core.game import GameSpec

HINT_ITERATIONS = 300  # search iterations of a hint (deterministic for its seed)
REVIEW_ITERATIONS = 80  # per move of a review (a game has a few hundred moves)
MISTAKE_LOSS = 0.05  # a move that gave up at least this much winning chance
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


@dataclass(frozen=True)
class Rating:
    """One candidate action: its search reward in [-1, 1], its visits, and
    ``result``: the mover's estimated winning chance after it."""

    action: Any
    value: float
    visits: int
    result: float


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
        """The winning chance ``action`` gave up against the best choice (>= 0)."""
        if self.forced:
            return 0.0
        r = self.rating_of(action)
        if r is None:
            return 0.0
        return max(0.0, self.best.result - r.result)


class Analyst(MctsBot):
    """The hard bot whose leaf rewards are ``tanh`` of the mover's gain over the
    *winning-chance temperature* (not the game's ``reward_scale``, which saturates a
    search's rewards to win/lose): so a child's mean reward reads back as a gain in
    points, ``temperature * atanh(v)``, and so as a winning chance."""

    def __init__(self, seed: int, iterations: int, temperature: float) -> None:
        super().__init__(BotSpec("mcts", seed, None, iterations))
        self.temperature = temperature

    def _evaluate(self, world: Any, module: GameSpec) -> list[float]:
        self._reply(world, module)  # the hard bot's leaf: after the rivals' replies
        n = self._seats
        out = [0.0] * n
        if self.own_turn_only:
            out[self._me] = math.tanh(
                (_value(module, world, self._me) - self._base) / self.temperature
            )
            return out
        values = [_value(module, world, s) for s in range(n)]
        mean = sum(values) / n
        return [math.tanh((v - mean) / self.temperature) for v in values]


def _value(spec: GameSpec, world: Any, seat: int) -> float:
    """A position's value for ``seat`` as the search sees a leaf (finished: the
    game's ``terminal_value`` or the score)."""
    if world.is_over:
        if spec.terminal_value is not None:
            return float(spec.terminal_value(world, seat))
        return float(world.scores()[seat])
    return float((spec.search_heuristic or heuristic_of(spec))(world, seat))


def _temperature(values: Sequence[float]) -> float:
    return CHANCE_BASE + CHANCE_SPREAD * sum(abs(v) for v in values) / max(1, len(values))


def _softmax(values: Sequence[float], temp: float) -> list[float]:
    if len(values) == 1:
        return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, values[0] / temp))))]
    top = max(values)
    weights = [math.exp((v - top) / temp) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def _chance_after(values: Sequence[float], seat: int, temp: float, reward: float) -> float:
    """The seat's winning chance once its estimate gains what a search reward says."""
    gain = temp * math.atanh(max(-0.995, min(0.995, reward)))
    moved = list(values)
    moved[seat] += gain
    return _softmax(moved, temp)[seat]


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
    values = [_value(spec, world, s) for s in range(len(world.scores()))]
    temp = _temperature(values)
    chances = _softmax(values, temp)
    legal = state.legal_actions()
    if len(legal) == 1:
        return Position(seat, [Rating(legal[0], 0.0, 0, chances[seat])], chances, forced=True)
    bot = Analyst(seed, iterations, temp)
    stats = [(a, float(v), int(n)) for a, v, n in bot.analyse(world, keep=keep)]
    seen = {a for a, _, _ in stats}
    base = values[seat]
    for a in [*keep, *([] if stats else candidates(spec, world))]:
        if a not in seen:  # pruned by the game or no budget: valued one ply
            after = world.clone()
            after.apply(a)
            stats.append((a, math.tanh((_value(spec, after, seat) - base) / temp), 0))
            seen.add(a)
    # Best first: the most searched (the search spends its budget on the best), then
    # the higher value; ``choose`` would play the first.
    stats.sort(key=lambda r: (-r[2], -r[1]))
    ratings = [Rating(a, v, n, _chance_after(values, seat, temp, v)) for a, v, n in stats]
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
    values = [_value(spec, world, s) for s in range(n)]
    return _softmax(values, _temperature(values))


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
            f"{text}: the hard bot's choice here (winning chance {best.result:.0%}, "
            f"{gain:+.0%} over the next best, {describe(spec, state, others[0].action)})."
        )
    else:
        reason = f"{text}: the hard bot's choice here (winning chance {best.result:.0%})."
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
        # Rounded once, so the flags agree with the loss the review shows (a loss of
        # 0.049996 shown as 0.05 is a mistake; unrounded it was not).
        loss = round(pos.loss(action), 4)
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
                "loss": loss,
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
    "hint",
    "public_seed",
    "rate",
    "review",
    "review_moves",
    "seat_summary",
    "view_seed",
    "win_chances",
]
