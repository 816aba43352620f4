"""erebus.terminal.seats: the score table both games' screens show."""

from __future__ import annotations

from rich.console import Console

from erebus.terminal.seats import score_table


def _text(table: object) -> str:
    console = Console(record=True, width=100)
    console.print(table)
    return console.export_text()


def test_score_table_breakdown_totals_and_places() -> None:
    text = _text(score_table("Final scores", ["Red", "Blue"], [7, 3], [0, 1], {"tiles": [7, 3]}))
    assert "Final scores" in text and "+7" in text and "1st" in text and "2nd" in text
    assert "unexplained" not in text


def test_score_table_flags_a_breakdown_that_does_not_add_up() -> None:
    text = _text(score_table("S", ["Red", "Blue"], [5, 3], [0, 1], {"tiles": [4, 3]}))
    row = next(line for line in text.splitlines() if "unexplained" in line)
    assert "+1" in row


def test_score_table_solo_and_totals_only() -> None:
    text = _text(score_table("S", ["Red"], [4], [0], None))
    assert "Total" in text and "Rank" not in text and "·" not in text
