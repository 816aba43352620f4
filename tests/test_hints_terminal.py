"""The terminal's ``h`` (a hint) and ``erebus review GAME.json``, for both games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from erebus.cli import app
from erebus.terminal.app import load_save, run_play
from erebus.terminal.review import chance_figure, run_review, sparkline
from support.terminal import recording_console, scripted_input


@pytest.mark.parametrize(
    ("game", "players"), [("northwest", 2), ("iceandsnow", 2), ("iceandsnow", 1)]
)
def test_h_shows_a_legal_hint_and_plays_nothing(tmp_path: Path, game: str, players: int) -> None:
    save = tmp_path / "g.json"
    console = recording_console()
    scenario = "lost-expedition" if players == 1 else None
    ask = scripted_input(["h", "q"])
    code = run_play(
        players, 1, 3, str(save), console=console, input_fn=ask, game=game, scenario=scenario
    )
    assert code == 0
    out = console.export_text()
    hint = re.search(r"^Hint: (.+?)(?: \(action (\d+)\))?$", out, re.M)
    assert hint, out[-2000:]
    assert "hard bot" in out or "only legal action" in out
    before = len(load_save(save).actions)
    # ``h`` played nothing: asking again at the same prompt gives the same hint.
    console2 = recording_console()
    ask2 = scripted_input(["h", "h", "q"])
    assert (
        run_play(
            players,
            1,
            3,
            None,
            console=console2,
            input_fn=ask2,
            game=game,
            scenario=scenario,
            load=str(save),
        )
        == 0
    )
    hints = re.findall(r"^Hint: .+$", console2.export_text(), re.M)
    assert len(hints) == 2 and hints[0] == hints[1]
    assert len(load_save(save).actions) == before


def _bot_save(tmp_path: Path, game: str, players: int) -> Path:
    save = tmp_path / f"{game}.json"
    assert run_play(players, 0, 6, str(save), console=recording_console(), game=game) == 0
    return save


@pytest.mark.parametrize(("game", "players"), [("northwest", 2), ("iceandsnow", 2)])
def test_review_prints_a_table_the_mistakes_and_the_chances(
    tmp_path: Path, game: str, players: int
) -> None:
    save = _bot_save(tmp_path, game, players)
    console = recording_console()
    out_json = tmp_path / "review.json"
    plot = tmp_path / "chances.png"
    code = run_review(
        str(save), iterations=4, plot=str(plot), json_out=str(out_json), console=console
    )
    assert code == 0
    out = console.export_text()
    assert "reviewing" in out and "Moves rated against the hard bot" in out
    assert "Estimated winning chances" in out
    review = json.loads(out_json.read_text())
    saved = load_save(save)
    assert len(review["moves"]) == len(saved.actions)
    assert all(m["loss"] >= 0 for m in review["moves"])
    assert len(review["chances"]) == len(saved.actions) + 1
    for name in saved.names:
        assert name in out
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # The plot's axes are labelled: the move number, the winning chance in per cent.
    import matplotlib.pyplot as plt

    fig = chance_figure(review, saved.names)
    try:
        ax = fig.axes[0]
        assert ax.get_xlabel() == "move number"
        assert "winning chance" in ax.get_ylabel()
        fig.canvas.draw()
        ticks = [t.get_text() for t in ax.get_yticklabels()]
        assert ticks[0] == "0%" and ticks[-1] == "100%"
        assert ax.get_xlim() == (0, len(saved.actions))
    finally:
        plt.close(fig)
    # The tables name the moves in the game's words, not the engine's raw form.
    for m in review["moves"]:
        assert "=" not in m["text"] and m["text"] != str(saved.actions[m["step"] - 1])


def test_review_command_line(tmp_path: Path) -> None:
    save = _bot_save(tmp_path, "northwest", 2)
    result = CliRunner().invoke(app, ["review", str(save), "--iterations", "2", "--top", "3"])
    assert result.exit_code == 0, result.output
    assert "Moves rated against the hard bot" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = CliRunner().invoke(app, ["review", str(bad)])
    assert result.exit_code == 2 and "error" in result.output


def test_sparkline_spans_empty_to_full() -> None:
    assert sparkline([0.0, 1.0]) == " █"
    assert len(sparkline([0.5] * 500, width=40)) == 40
    assert sparkline([]) == ""
