"""Figures about the game rather than the bots (``docs/balance.md``): the spec's
statistics, rounds, seat advantage and points by source."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table

from erebus.games import get_game
from erebus.tournament.games import GameRecord, sources_of

if TYPE_CHECKING:
    from erebus.tournament.run import TournamentResult


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
