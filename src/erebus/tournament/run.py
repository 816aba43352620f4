"""Bot-versus-bot tournaments behind ``erebus tournament``: who is stronger, and is the game fair.

A tournament plays ``games`` games between named bots and reports, per bot,
wins with a confidence interval, score statistics and Elo ratings, plus a
balance summary of the game itself (how often ships reach the Northwest
Passage, how often expeditions come home, where the points come from) that
``docs/balance.md`` is written from.

Design choices, and why:

* **Seating.**  Seat order matters in most board games (first player, last
  pick of the draft), so a bot that always sat first would look stronger than
  it is.  The *base lineup* is the bot list itself when it names at least as
  many bots as there are seats; with fewer names, the first bot takes one seat
  and the last bot fills the others (``mcts,greedy`` at 4 players is one mcts
  against three greedy — the usual "one challenger against the field" test).
  Game ``i`` seats ``base[(i + s) % len(base)]`` at seat ``s``: a rotation, so
  over every ``len(base)`` consecutive games each name sits in each seat
  equally often.  With more names than seats the window slides over the list,
  which keeps the same property.  ``games`` should be a multiple of
  ``len(base)`` for perfect balance; :attr:`TournamentResult.balanced` says
  whether it is.
* **Seeds.**  Game ``i`` gets a seed hashed from the tournament seed and
  ``i``, and each seat's bot a seed hashed from that game seed and the seat.
  Nothing depends on which worker runs a game or in which order games finish,
  so ``--seed`` reproduces every record whatever ``--jobs`` is — provided the
  bots are deterministic for a seed (random, greedy, and mcts given
  ``iterations``; mcts on a time budget is not).
* **Winners.**  A game's winners are the seats the rules cannot separate from
  the top of ``state.ranking()``.  ``ranking()`` applies the rules'
  tie-breaks (in Northwest: score, then who returned to Greenland first) but
  finally orders by seat number so that it is total; seat number is not a
  rule, so seats with equal scores none of whom returned share the place.
  A game won by ``k`` tied seats gives each ``1/k`` of a win.
* **Elo.**  Every game gives one pairwise result for each two seats held by
  *different* bots (better place wins, same place draws).  The ratings are
  the maximum-likelihood Bradley–Terry strengths of all those results
  (Hunter's MM algorithm), on the Elo scale (400·log10), mean 1500.  Unlike
  fixed-K Elo updated game by game, the fit does not depend on the order of
  the games, which is arbitrary here.  One virtual draw between every two
  bots keeps the ratings finite when one bot wins every game.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from erebus.core import events as common
from erebus.core.game import GameSpec
from erebus.games import get_game

ELO_BASE = 1500.0
ELO_METHOD = (
    "Bradley-Terry maximum likelihood over pairwise seat results "
    "(better place wins, same place draws; one virtual draw per pair of bots), "
    "Elo scale 400*log10, mean 1500"
)
MAX_ACTIONS = 100_000  # a game longer than this means a bot or engine bug, not a long game
Z95 = 1.959963984540054


# ------------------------------------------------------------------ seating, seeds


def base_lineup(bots: Sequence[str], players: int) -> list[str]:
    """The lineup that rotates around the table (see the module docstring)."""
    if not bots:
        raise ValueError("name at least one bot")
    if len(bots) >= players:
        return list(bots)
    return [bots[0]] + [bots[-1]] * (players - 1)


def lineup(bots: Sequence[str], players: int, index: int) -> list[str]:
    """Bot name per seat in game ``index``: the base lineup rotated by ``index``."""
    base = base_lineup(bots, players)
    return [base[(index + s) % len(base)] for s in range(players)]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from a tuple of values, the same in every process and Python run.

    A hash rather than ``seed + index`` so that neighbouring tournaments
    (seed 1 and seed 2) do not share almost all of their games.
    """
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a tournament with seed ``seed``."""
    return derive_seed("erebus-tournament", seed, index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game with seed ``seed_of_game``."""
    return derive_seed("bot", seed_of_game, seat)


# ------------------------------------------------------------------ one game


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
    return GameRecord(
        index=task.index,
        seed=task.seed,
        seats=list(task.seats),
        scores=list(state.scores()),
        ranking=list(state.ranking()),
        places=places,
        winners=sorted(s for s in range(n) if places[s] == 1),
        actions=actions,
        rounds=spec.rounds(state) if spec.rounds is not None else None,
        statistics={
            st.key: [bool(st.value(state, s)) or seen[st.key][s] for s in range(n)]
            for st in spec.statistics
        },
        points=[{k: v for k, v in p.items() if v or k != "other"} for p in points],
        everyone_lost=None if spec.winners is None else not spec.winners(state),
    )


def _other(reason: str) -> str:
    return "other"


def sources_of(spec: GameSpec) -> tuple[tuple[str, ...], Callable[[str], str | None]]:
    """A game's score sources and its reason→source function (all "other" without one)."""
    return tuple(spec.score_sources), spec.score_source or _other


# ------------------------------------------------------------------ statistics


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


# ------------------------------------------------------------------ the tournament


@dataclass
class TournamentResult:
    """Every game record, the per-bot statistics and how the tournament was run."""

    game: str
    players: int
    bots: list[str]
    games: int
    jobs: int
    seed: int
    time_s: float | None
    iterations: int | None
    records: list[GameRecord]
    stats: dict[str, BotStats]
    elapsed_s: float = 0.0
    balanced: bool = True
    notes: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)  # the game's options

    @property
    def names(self) -> list[str]:
        """The distinct bot names, in the order given."""
        return list(dict.fromkeys(self.bots))

    def to_json(self) -> dict[str, Any]:
        """The ``--out`` file: settings, summary (with the balance summary) and every game."""
        return {
            "tournament": {
                "game": self.game,
                "players": self.players,
                "bots": self.bots,
                "games": self.games,
                "jobs": self.jobs,
                "seed": self.seed,
                "time_s": self.time_s,
                "iterations": self.iterations,
                "options": self.options,
                "base_lineup": base_lineup(self.bots, self.players),
                "balanced": self.balanced,
                "elo_method": ELO_METHOD,
                "elapsed_s": round(self.elapsed_s, 3),
            },
            "summary": {
                "bots": {name: s.to_json() for name, s in self.stats.items()},
                "balance": balance_summary(self),
            },
            "games": [r.to_json() for r in self.records],
        }

    def table(self) -> Table:
        """The results table, one row per bot, strongest (Elo) first."""
        title = f"{self.game}: {self.games} games, {self.players} players, seed {self.seed}" + (
            "" if self.balanced else " (seats not fully rotated)"
        )
        caption = "Elo: Bradley–Terry fit, mean 1500"
        fair = {s.name: s.seats / (s.games * self.players) for s in self.stats.values() if s.games}
        if len(set(fair.values())) > 1:  # one challenger against the field: 50 % is not par
            caption += "; par win %: " + ", ".join(
                f"{name} {100 * share:.0f}" for name, share in fair.items()
            )
        table = Table(title=title, caption=caption)
        table.add_column("Bot", style="bold")
        for col in ("Games", "Wins", "Win %", "95 % CI", "Score", "± sd", "Length", "Elo"):
            table.add_column(col, justify="right", no_wrap=True)
        for s in sorted(self.stats.values(), key=lambda s: -s.elo):
            wins = f"{s.wins:g}" if s.wins == int(s.wins) else f"{s.wins:.1f}"
            table.add_row(
                s.name,
                str(s.games),
                wins,
                f"{100 * s.win_rate:.1f}",
                f"{100 * s.win_ci[0]:.1f}–{100 * s.win_ci[1]:.1f}",
                f"{s.score_mean:.1f}",
                f"{s.score_std:.1f}",
                f"{s.length_mean:.0f}",
                f"{s.elo:.0f}",
            )
        return table


def _check(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    jobs: int,
    time_s: float | None,
    iterations: int | None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Fail in the caller's process, with a plain message, before any worker starts;
    the game's complete options (``spec.parse_options``)."""
    from erebus.bots import make_bot

    spec = get_game(game)
    if players not in spec.players:
        allowed = ", ".join(map(str, spec.players))
        raise ValueError(f"{game} is for {allowed} players, not {players}")
    parsed = spec.parse_options(players, options)
    if games < 1:
        raise ValueError("play at least one game")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if time_s is not None and iterations is not None:
        raise ValueError("give a time or a number of iterations, not both")
    if time_s is not None and time_s <= 0:
        raise ValueError("time must be positive")
    if iterations is not None and iterations < 1:
        raise ValueError("iterations must be at least 1")
    for name in dict.fromkeys(bots):
        make_bot(name, seed=0)  # ValueError naming the choices if unknown
    return parsed


def run_tournament(
    game: str = "northwest",
    players: int = 2,
    bots: Sequence[str] = ("mcts", "greedy"),
    games: int = 200,
    jobs: int = 2,
    seed: int = 1,
    time_s: float | None = None,
    iterations: int | None = None,
    progress: bool = True,
    console: Console | None = None,
    options: dict[str, Any] | None = None,
) -> TournamentResult:
    """Play ``games`` games between ``bots`` with rotated seats; see the module docstring.

    ``options``: the game's options (checked by its ``parse_options``; every game
    of the tournament is played with them).

    ``jobs`` worker processes play games in parallel (``jobs=1``: in this
    process, easier to debug and profile).  Workers are *spawned*, not forked,
    because the progress bar's refresh thread is running when they start; so
    a script calling this with ``jobs > 1`` needs the usual
    ``if __name__ == "__main__":`` guard.
    Records come back in game order whatever order the games finished in.
    """
    bots = [b.strip() for b in bots if b.strip()]
    game_options = _check(game, players, bots, games, jobs, time_s, iterations, options)
    tasks = [
        GameTask(
            game=game,
            players=players,
            index=i,
            seed=game_seed(seed, i),
            seats=tuple(lineup(bots, players, i)),
            time_s=time_s,
            iterations=iterations,
            options=game_options or None,
        )
        for i in range(games)
    ]
    console = console or Console(stderr=True)
    records: list[GameRecord | None] = [None] * games
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=not progress,
        transient=False,
    ) as bar:
        task_id = bar.add_task(f"{' vs '.join(dict.fromkeys(bots))}", total=games)
        if jobs == 1:
            for t in tasks:
                records[t.index] = play_game(t)
                bar.advance(task_id)
        else:
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
                futures = [pool.submit(play_game, t) for t in tasks]
                try:
                    for fut in as_completed(futures):
                        rec = fut.result()
                        records[rec.index] = rec
                        bar.advance(task_id)
                except BaseException:
                    for f in futures:
                        f.cancel()
                    raise
    done = [r for r in records if r is not None]
    base = base_lineup(bots, players)
    balanced = games % len(base) == 0
    notes = []
    if not balanced:
        notes.append(
            f"{games} games is not a multiple of the lineup's {len(base)} rotations: "
            "some bots sat in some seats once more than in others"
        )
    if any(b in ("mcts", "hard") for b in bots) and iterations is None:
        notes.append("mcts on a time budget is not reproducible from the seed; use --iterations")
    return TournamentResult(
        game=game,
        players=players,
        bots=bots,
        games=games,
        jobs=jobs,
        seed=seed,
        time_s=time_s,
        iterations=iterations,
        records=done,
        stats=bot_stats(done, bots),
        elapsed_s=time.perf_counter() - start,
        balanced=balanced,
        notes=notes,
        options=game_options,
    )


# ------------------------------------------------------------------ balance


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _rate(flags: Sequence[bool | None]) -> float | None:
    known = [bool(f) for f in flags if f is not None]
    return sum(known) / len(known) if known else None


def balance_summary(result: TournamentResult) -> dict[str, Any]:
    """Figures about the game rather than the bots, for ``docs/balance.md``.

    ``statistics``: per statistic of the game's spec (Northwest: reaching the
    Northwest Passage, returning to Greenland, sleds lost), its labels, the rate
    over expeditions (seats, ``players × games``), the share of games where it
    happened at least once and the mean count per game.  ``points_by_source`` is
    the mean points per seat by source, per bot and over all seats;
    ``seat_win_rate`` (shared wins split) shows a first- or last-player advantage.
    """
    recs = result.records
    n_games = len(recs)
    seats = [(r, s) for r in recs for s in range(len(r.seats))]
    spec = get_game(result.game)
    sources = sources_of(spec)[0]

    def points_mean(pairs: Sequence[tuple[GameRecord, int]]) -> dict[str, float]:
        out = {}
        for src in sources:
            vals = [r.points[s].get(src, 0) for r, s in pairs]
            if src != "other" or any(vals):
                out[src] = round(statistics.fmean(vals), 3) if vals else 0.0
        return out

    figures: dict[str, Any] = {}
    for st in spec.statistics:
        flags = [r.statistics[st.key] for r in recs]
        figures[st.key] = {
            "label": st.label,
            "game_label": st.game_label,
            "count_label": st.count_label,
            "per_expedition": _rate([r.statistics[st.key][s] for r, s in seats]),
            "per_game": sum(1 for f in flags if any(f)) / n_games if n_games else None,
            "count_per_game": _mean([sum(bool(v) for v in f) for f in flags]),
        }
    per_bot: dict[str, Any] = {}
    for name in result.names:
        mine = [(r, s) for r, s in seats if r.seats[s] == name]
        per_bot[name] = {
            "seats": len(mine),
            **{st.key: _rate([r.statistics[st.key][s] for r, s in mine]) for st in spec.statistics},
            "points_by_source": points_mean(mine),
        }
    players = result.players
    seat_wins = [0.0] * players
    for r in recs:
        for s in r.winners:
            seat_wins[s] += 1 / len(r.winners)
    return {
        "games": n_games,
        "expeditions": len(seats),
        "statistics": figures,
        "mean_rounds": _mean([r.rounds for r in recs if r.rounds is not None]),
        "mean_actions": _mean([r.actions for r in recs]),
        "seat_win_rate": [w / n_games if n_games else 0.0 for w in seat_wins],
        "points_by_source": points_mean(seats),
        "per_bot": per_bot,
        "everyone_lost_per_game": _rate([r.everyone_lost for r in recs]),
        "sources": list(sources),
        "source_labels": dict(spec.source_labels),
    }


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f} %"


def balance_tables(summary: dict[str, Any]) -> list[Table]:
    """The balance summary as two Rich tables: game-wide figures, points by source."""
    facts = Table(title="Balance", show_header=False)
    facts.add_column("")
    facts.add_column("", justify="right")
    for fig in summary["statistics"].values():
        if fig["label"] is not None:
            facts.add_row(fig["label"], _pct(fig["per_expedition"]))
        if fig["game_label"] is not None:
            facts.add_row(fig["game_label"], _pct(fig["per_game"]))
        if fig["count_label"] is not None:
            count = fig["count_per_game"]
            facts.add_row(fig["count_label"], "—" if count is None else f"{count:.2f}")
    rounds = summary["mean_rounds"]
    facts.add_row("Rounds per game", "—" if rounds is None else f"{rounds:.1f}")
    facts.add_row(
        "Win % by seat (1st, 2nd, …)",
        " / ".join(f"{100 * w:.1f}" for w in summary["seat_win_rate"]),
    )
    points = Table(title="Mean points per expedition by source")
    points.add_column("Bot", style="bold")
    rows = {**summary["per_bot"], "all": {"points_by_source": summary["points_by_source"]}}
    labels = summary["source_labels"]
    order = summary["sources"]
    sources = [s for s in order if any(s in v["points_by_source"] for v in rows.values())]
    for src in sources:
        points.add_column(labels.get(src, src), justify="right", no_wrap=True)
    for name, v in rows.items():
        pts = v["points_by_source"]
        points.add_row(name, *(f"{pts.get(src, 0.0):+.2f}" for src in sources))
    return [facts, points]


# ------------------------------------------------------------------ output files


def write_json(result: TournamentResult, path: str | Path) -> Path:
    """Write :meth:`TournamentResult.to_json` to ``path``."""
    import json

    out = Path(path)
    out.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    return out


def write_plot(result: TournamentResult, path: str | Path) -> Path:
    """Score distribution per bot: box plots with every seat's score, and histograms.

    matplotlib is an optional extra (``erebus[plot]``) and is imported here
    only, with the Agg backend so it works without a display; ``ImportError``
    tells the caller it is missing.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = sorted(result.names, key=lambda n: -result.stats[n].elo)
    scores = {
        n: [r.scores[s] for r in result.records for s, b in enumerate(r.seats) if b == n]
        for n in names
    }
    fig, (box_ax, hist_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
    try:
        box_ax.boxplot(
            [scores[n] for n in names], tick_labels=names, showmeans=True, showfliers=False
        )
        for i, n in enumerate(names, start=1):
            jitter = [i + 0.25 * (((k * 0.6180339887) % 1.0) - 0.5) for k in range(len(scores[n]))]
            box_ax.scatter(jitter, scores[n], s=6, alpha=0.35)
        box_ax.set_ylabel("final score")
        box_ax.set_title("Scores per bot")
        every = [v for vals in scores.values() for v in vals]
        lo, hi = (min(every), max(every)) if every else (0, 1)
        bins = max(1, min(30, hi - lo + 1))
        for n in names:
            hist_ax.hist(scores[n], bins=bins, histtype="step", linewidth=1.5, label=n)
        hist_ax.set_xlabel("final score")
        hist_ax.set_ylabel("seats")
        hist_ax.set_title("Score distribution")
        hist_ax.legend()
        fig.suptitle(
            f"{result.game}: {len(result.records)} games, {result.players} players, seed {result.seed}"
        )
        fig.tight_layout()
        out = Path(path)
        fig.savefig(out, dpi=110)
    finally:
        plt.close(fig)
    return out


# ------------------------------------------------------------------ command line


def main(
    game: str = "northwest",
    players: int = 2,
    bots: str = "mcts,greedy",
    games: int = 200,
    jobs: int = 2,
    seed: int = 1,
    time_s: float | None = None,
    iterations: int | None = None,
    out: str | None = None,
    plot: str | None = None,
    console: Console | None = None,
    progress: bool = True,
    options: str | None = None,
) -> int:
    """``erebus tournament``: run, print the tables, write the files; the exit code.

    ``options``: the game's options as a JSON object (``--options``).

    The plot goes next to ``out`` (same name, ``.png``) unless ``plot`` names
    a file; without either there is no plot.
    """
    console = console or Console()
    names = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        game_options = _json_object(options)
        result = run_tournament(
            game=game,
            players=players,
            bots=names,
            games=games,
            jobs=jobs,
            seed=seed,
            time_s=time_s,
            iterations=iterations,
            progress=progress,
            console=console,
            options=game_options,
        )
    except ValueError as exc:
        console.print(f"[red]error:[/] {exc}")
        return 2
    console.print(result.table())
    for table in balance_tables(balance_summary(result)):
        console.print(table)
    for note in result.notes:
        console.print(f"[yellow]note:[/] {note}")
    console.print(f"{len(result.records)} games in {result.elapsed_s:.1f} s with {jobs} job(s)")
    if out:
        console.print(f"results written to {write_json(result, out)}")
    plot_path = plot or (str(Path(out).with_suffix(".png")) if out else None)
    if plot_path:
        try:
            console.print(f"score plot written to {write_plot(result, plot_path)}")
        except ImportError:
            console.print("[red]error:[/] the plot needs matplotlib: pip install 'erebus[plot]'")
            return 1
    return 0


def _json_object(text: str | None) -> dict[str, Any] | None:
    """``--options``: None, or a JSON object (``ValueError`` otherwise)."""
    if text is None:
        return None
    import json

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--options is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ValueError("--options must be a JSON object")
    return value
