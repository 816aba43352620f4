"""How strong each bot is: win rates with Wilson intervals, score statistics and
Bradley–Terry Elo ratings over pairwise seat results."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from erebus.tournament.games import GameRecord

ELO_BASE = 1500.0
ELO_METHOD = (
    "Bradley-Terry maximum likelihood over pairwise seat results "
    "(better place wins, same place draws; one virtual draw per pair of bots), "
    "Elo scale 400*log10, mean 1500"
)
Z95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a win rate: honest near 0 and 1, unlike ±1.96·SE,
    which matters when a bot wins (almost) every game.  ``wins`` may be fractional
    (shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pairwise_results(records: Sequence[GameRecord]) -> list[tuple[str, str, float]]:
    """``(bot a, bot b, score of a)`` for every two seats of different bots in every game:
    1 if a placed better, 0.5 if tied, 0 if worse."""
    out: list[tuple[str, str, float]] = []
    for r in records:
        n = len(r.seats)
        for a in range(n):
            for b in range(a + 1, n):
                if r.seats[a] == r.seats[b]:
                    continue
                pa, pb = r.places[a], r.places[b]
                out.append((r.seats[a], r.seats[b], 1.0 if pa < pb else 0.5 if pa == pb else 0.0))
    return out


def bradley_terry_elo(
    results: Sequence[tuple[str, str, float]],
    names: Sequence[str],
    prior_draws: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 100_000,
) -> dict[str, float]:
    """Elo ratings (mean :data:`ELO_BASE`) of the Bradley–Terry MLE of pairwise results.

    Hunter's (2004) MM iteration ``γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j)``, with
    ``prior_draws`` virtual draws between every two names so that a bot with no
    losses gets a large but finite rating and bots that never met stay comparable.
    """
    names = list(dict.fromkeys(names))
    k = len(names)
    if k == 0:
        return {}
    idx = {name: i for i, name in enumerate(names)}
    won = [[0.0] * k for _ in range(k)]
    for a, b, sa in results:
        i, j = idx[a], idx[b]
        if i == j:
            continue
        won[i][j] += sa
        won[j][i] += 1.0 - sa
    for i in range(k):
        for j in range(k):
            if i != j:
                won[i][j] += prior_draws / 2
    games = [[won[i][j] + won[j][i] for j in range(k)] for i in range(k)]
    total_won = [sum(row) for row in won]
    gamma = [1.0] * k
    for _ in range(max_iter):
        new = []
        for i in range(k):
            denom = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i)
            new.append(total_won[i] / denom if denom > 0 else gamma[i])
        log_mean = sum(math.log(g) for g in new) / k
        new = [g / math.exp(log_mean) for g in new]
        change = max(abs(math.log(x / y)) for x, y in zip(new, gamma, strict=True))
        gamma = new
        if change < tol:
            break
    return {name: ELO_BASE + 400.0 * math.log10(gamma[idx[name]]) for name in names}


@dataclass
class BotStats:
    """One bot's line in the results table."""

    name: str
    games: int
    seats: int
    wins: float
    win_rate: float
    win_ci: tuple[float, float]
    score_mean: float
    score_std: float
    length_mean: float
    elo: float

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["win_ci"] = list(self.win_ci)
        return d


def bot_stats(records: Sequence[GameRecord], names: Sequence[str]) -> dict[str, BotStats]:
    """Per-bot games, wins (1/k per shared win), Wilson interval, score and length, Elo.

    Scores are per seat (a bot holding three seats gives three scores a game);
    the standard deviation is the sample one (n−1).
    """
    names = list(dict.fromkeys(names))
    elo = bradley_terry_elo(pairwise_results(records), names)
    out: dict[str, BotStats] = {}
    for name in names:
        played = [r for r in records if name in r.seats]
        scores = [r.scores[s] for r in played for s, b in enumerate(r.seats) if b == name]
        wins = sum(
            sum(1 for s in r.winners if r.seats[s] == name) / len(r.winners)
            for r in played
            if r.winners  # a game the whole table lost has no winner
        )
        n = len(played)
        out[name] = BotStats(
            name=name,
            games=n,
            seats=len(scores),
            wins=wins,
            win_rate=wins / n if n else 0.0,
            win_ci=wilson_interval(wins, n),
            score_mean=statistics.fmean(scores) if scores else 0.0,
            score_std=statistics.stdev(scores) if len(scores) > 1 else 0.0,
            length_mean=statistics.fmean(r.actions for r in played) if played else 0.0,
            elo=elo[name],
        )
    return out
