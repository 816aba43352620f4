"""Terminal play: the pictures, the play loop, save files, replays and the ``erebus`` CLI.

The loop is driven the way a pipe or a person drives it, through ``input_fn``,
and everything printed goes to a recording Rich console, so these tests read
exactly what a player would see.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner

from erebus.cli import app
from erebus.games import northwest as nw
from erebus.games.northwest.state import State
from erebus.terminal import northwest_screen as render
from erebus.terminal.app import load_save, run_play, run_replay
from support.terminal import assert_replay_refuses, recording_console, scripted_input


def text_of(renderable: RenderableType, colour: bool = False) -> str:
    """What a 160-column console shows, in plain text (colour or glyph drawing)."""
    console = Console(
        record=True,
        width=160,
        file=io.StringIO(),
        force_terminal=colour,
        color_system="truecolor" if colour else None,
    )
    console.print(renderable)
    return console.export_text()


def mid_game(seed: int = 3, steps: int = 60) -> State:
    """A game after ``steps`` random actions that neither pass nor go home (so it goes on)."""
    state = nw.new_game(3, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        actions = state.legal_actions()
        playing = [a for a in actions if a.kind not in ("pass", "end_turn") and a.to != "greenland"]
        state.apply(rng.choice(playing or actions))
    assert not state.is_over
    return state


def scripted(answers: Iterable[str]) -> tuple[Callable[[str], str], list[str]]:
    """An input function answering from a list, then end of input; records the prompts."""
    prompts: list[str] = []
    return scripted_input(answers, prompts), prompts


def final_scores_line(text: str) -> str:
    m = re.search(r"The game is over\. Final scores: ([^\n]+)\.$", text, re.M)
    assert m, "no GameOver line printed"
    return ", ".join(re.findall(r" (-?\d+)(?:,|$)", m.group(1)))  # "Red 8, Blue -2" → "8, -2"


# --------------------------------------------------------------------- rendering


@pytest.mark.parametrize("state_maker", [lambda: nw.new_game(3, seed=1), mid_game])
def test_game_view_shows_zones_sun_arrows_and_every_panel(state_maker: Callable[[], State]) -> None:
    state = state_maker()
    for colour in (False, True):
        text = text_of(render.game_view(state), colour=colour)
        for label in ("×3", "×2", "×1"):
            assert label in text
        assert "Sun" in text and " III " in text and " VII " in text
        assert "NW Passage" in text and "Greenland" in text
        for name in ("Red", "Blue", "Ochre"):
            assert name in text
        assert text.count("score") >= 3
        assert "reserve" in text and "Display" in text and "Small piles" in text
        # Column numbers 0..13 along the top.
        assert re.search(r"\b0\s+1\s+2\s+3\b.*\b13\b", text)


def test_board_draws_vehicles_tokens_and_terrain() -> None:
    state = mid_game()
    text = text_of(render.board(state))
    # Every ship still in play shows as ▲ with its seat number.
    for seat in range(3):
        if state.position(seat, "ship") not in (None, "lost"):
            assert f"▲{seat + 1}" in text
    # The printed cairn squares carry their tokens unless taken; sea is "~" without colour.
    assert "~" in text and "█" in text
    if state.board.token_at(3, 5) == "cairn":
        assert " C " in text


def test_board_fits_160_columns_in_both_sizes() -> None:
    state = mid_game()
    for cell in (render.COMPACT, render.LARGE):
        width = max(len(line) for line in text_of(render.board(state, cell=cell)).splitlines())
        assert width <= 160


def test_tile_preview_and_sun_track() -> None:
    state = nw.new_game(2, seed=5)
    tid = state.display[0]
    lines = text_of(render.tile_preview(state, tid)).splitlines()
    assert len(lines) == 2 and lines[0].lstrip().startswith("a") and " b" in lines[0]
    sun = text_of(render.sun_track(state))
    assert "▶ III ◀" in sun and "rows 0–1 frozen" in sun


def test_score_categories() -> None:
    cat = render.score_category
    assert cat("island of 3 tiles") == "Islands"
    assert cat("inuit ×2") == "Inuit"
    assert cat("franklin majority") == "Franklin majority"
    assert cat("2 sets") == "Sets"
    assert cat("sled abandoned with 3 crew") == "Abandonment"
    assert cat("greenland") == "Greenland"
    assert cat("northwest") == "Northwest Passage"


# --------------------------------------------------------------------- play and replay


def test_bots_play_a_whole_game_and_save_it(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    console = recording_console()
    assert run_play(3, 0, 11, str(save), console=console) == 0
    out = console.export_text()
    assert "Final scores" in out and "Total" in out and "Rank" in out

    data = json.loads(save.read_text())
    assert data["game"] == "northwest" and data["players"] == 3 and data["seed"] == 11
    assert data["names"] == ["Red", "Blue", "Ochre"]
    state = nw.replay(3, 11, data["actions"])
    assert state.is_over
    assert final_scores_line(out) == ", ".join(map(str, state.scores()))

    # The breakdown of the final table adds up to the scores.
    state = nw.new_game(3, 11)
    events = []
    for a in data["actions"]:
        events += state.apply(a)
    breakdown = render.score_breakdown(events, 3)
    assert [sum(v[s] for v in breakdown.values()) for s in range(3)] == state.scores()
    assert "unexplained" not in text_of(render.final_table(state, events))


def test_replay_reaches_the_same_final_scores(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    played = recording_console()
    assert run_play(3, 0, 12, str(save), names=["Ann", "Bo", "Cy"], console=played) == 0
    replayed = recording_console()
    assert run_replay(str(save), step=False, console=replayed) == 0
    out = replayed.export_text()
    assert final_scores_line(out) == final_scores_line(played.export_text())
    assert "Final scores" in out and "Ann" in out and "Cy" in out


def test_step_replay_stops_on_q(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert run_play(2, 0, 4, str(save), console=recording_console()) == 0
    ask, prompts = scripted(["", "", "q"])
    console = recording_console()
    assert run_replay(str(save), step=True, console=console, input_fn=ask) == 0
    assert len(prompts) == 3
    out = console.export_text()
    assert re.search(r"^#2 ", out, re.M) and not re.search(r"^#3 ", out, re.M)
    assert "Stopped in" in out


def test_human_picks_actions_then_quits(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    ask, prompts = scripted(["1", "1", "1", "q"])
    console = recording_console()
    assert run_play(3, 1, 5, str(save), console=console, input_fn=ask) == 0
    out = console.export_text()
    assert "Game saved to" in out
    assert len(prompts) == 4  # no save question: --save was given
    game = load_save(save)  # the quit game is saved and replays
    assert len(game.actions) >= 3
    assert "NW Passage" in out and out.count("Number to play") >= 4


def test_human_prompt_commands(tmp_path: Path) -> None:
    ask, _ = scripted(
        ["?", "zzz", "p", "a", "d", "v 1", "b", "99", "q", str(tmp_path / "left.json")]
    )
    console = recording_console()
    assert run_play(2, 1, 8, None, console=console, input_fn=ask) == 0
    out = console.export_text()
    assert "How to choose an action" in out
    assert 'Nothing matches "zzz"' in out
    assert "No place action is possible now" in out  # the draft offers no placement
    assert "draft display #0" in out  # "a" and "d" list the draft choices
    assert "Preview of:" in out and "(not played)" in out
    assert "There is no action 99" in out
    assert "Game saved to" in out
    assert load_save(tmp_path / "left.json").players == 2


def test_filter_with_one_match_plays_it(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    # Seat 0 drafts first or later; "draft display #2" matches exactly one action.
    ask, _ = scripted(["draft display #2", "q"])
    assert run_play(2, 1, 3, str(save), console=recording_console(), input_fn=ask) == 0
    game = load_save(save)
    assert any(a.kind == "draft" and a.to_json()["index"] == 2 for a in game.actions)


def test_end_of_input_quits_without_saving() -> None:
    ask, _ = scripted([])
    console = recording_console()
    assert run_play(3, 3, 1, None, console=console, input_fn=ask) == 0
    assert "left without saving" in console.export_text()


def test_bad_arguments_exit_2() -> None:
    console = recording_console()
    assert run_play(5, 0, 1, None, console=console) == 2
    assert run_play(3, 4, 1, None, console=console) == 2
    assert run_play(3, 0, 1, None, names=["a"], console=console) == 2
    assert console.export_text().count("error:") == 3


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"game": "chess", "players": 3, "seed": 1, "actions": []}', "not a Northwest"),
        ('{"game": "northwest", "players": 7, "seed": 1, "actions": []}', "'players'"),
        ('{"game": "northwest", "players": 3, "seed": "x", "actions": []}', "'seed'"),
        ('{"game": "northwest", "players": 3, "seed": 1, "actions": {}}', "'actions'"),
        (
            '{"game": "northwest", "players": 3, "seed": 1, "actions": [], "names": ["a"]}',
            "'names'",
        ),
        (
            '{"game": "northwest", "players": 3, "seed": 1, "actions": [{"type": "fly"}]}',
            "action 1",
        ),
        (
            '{"game": "northwest", "players": 3, "seed": 1, "actions": [{"type": "pass"}]}',
            "not legal",
        ),
    ],
)
def test_malformed_save_is_a_clear_error(tmp_path: Path, content: str, message: str) -> None:
    assert_replay_refuses(tmp_path, content, message)


def test_missing_save_file(tmp_path: Path) -> None:
    console = recording_console()
    assert run_replay(str(tmp_path / "nope.json"), step=False, console=console) == 2
    assert "cannot read" in console.export_text()


# --------------------------------------------------------------------- the CLI


def test_cli_help() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("play", "replay", "bench"):
        assert command in result.output
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    for option in (
        "--players",
        "--humans",
        "--seed",
        "--save",
        "--names",
        "--game",
        "--options",
        "--scenario",
    ):
        assert option in result.output
    result = runner.invoke(app, ["replay", "--help"])
    assert result.exit_code == 0 and "--no-step" in result.output


def test_cli_play_and_replay(tmp_path: Path) -> None:
    runner = CliRunner()
    save = str(tmp_path / "cli.json")
    result = runner.invoke(
        app, ["play", "--players", "2", "--humans", "0", "--seed", "9", "--save", save]
    )
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    result = runner.invoke(app, ["replay", save, "--no-step"])
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output


def test_cli_human_reads_lines_from_a_pipe(tmp_path: Path) -> None:
    runner = CliRunner()
    save = str(tmp_path / "pipe.json")
    result = runner.invoke(
        app,
        ["play", "--humans", "1", "--seed", "2", "--save", save, "--names", "Ann,Bo,Cy"],
        input="1\n1\nq\n",
    )
    assert result.exit_code == 0, result.output
    game = load_save(save)
    assert game.names == ["Ann", "Bo", "Cy"] and len(game.actions) >= 2


def test_cli_errors_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert runner.invoke(app, ["replay", str(bad)]).exit_code == 2
    assert runner.invoke(app, ["play", "--game", "chess"]).exit_code == 2
    assert runner.invoke(app, ["play", "--humans", "0", "--names", "a,b"]).exit_code == 2


def test_run_play_with_each_bot_level(tmp_path: Path) -> None:
    for level in ("easy", "medium"):
        assert run_play(2, 0, 21, None, console=recording_console(), level=level) == 0
    assert run_play(2, 0, 21, None, console=recording_console(), level="godlike") == 2


# --------------------------------------------------------------------- issue 10: terminal


def _saved_actions(tmp_path: Path, script: list[str], name: str) -> tuple[list[dict], str]:
    """Play seed 5 (Red + 2 medium bots) with ``script``, quit; the saved actions and output."""
    save = tmp_path / name
    ask, _ = scripted(script)
    console = recording_console()
    assert run_play(3, 1, 5, str(save), console=console, input_fn=ask) == 0
    return json.loads(save.read_text())["actions"], console.export_text()


def test_a_group_key_lists_even_a_group_of_one(tmp_path: Path) -> None:
    base, _ = _saved_actions(tmp_path, ["1", "q"], "a.json")
    # Red's first turn offers one refresh and one move: their keys only list them.
    after, out = _saved_actions(tmp_path, ["1", "r", "m", "q"], "b.json")
    assert after == base  # nothing was played
    assert re.search(r"^refresh — 2 crew$", out, re.M)
    assert re.search(r"^\s+\d+\) ship: refresh display", out, re.M)
    assert re.search(r"^\s+\d+\) ship: move to 13,3", out, re.M)


def test_undo_takes_back_the_last_action_of_the_turn(tmp_path: Path) -> None:
    base, _ = _saved_actions(tmp_path, ["1", "q"], "a.json")
    moved, _ = _saved_actions(tmp_path, ["1", "move to 13,3", "q"], "b.json")
    assert len(moved) == len(base) + 1
    after, out = _saved_actions(tmp_path, ["1", "move to 13,3", "u", "u", "q"], "c.json")
    assert after == base  # the save holds the effective log
    assert "Red takes back: ship: move to 13,3" in out
    assert "Nothing to take back" in out  # the second u: the turn began there
    assert out.count("first action of the turn") >= 2  # the menu is back where it was
    assert "u undo" in out


def test_undo_stops_at_a_tile_from_the_bag(tmp_path: Path) -> None:
    base, _ = _saved_actions(tmp_path, ["1", "q"], "a.json")
    after, out = _saved_actions(tmp_path, ["1", "draw display #0", "u", "q"], "b.json")
    assert len(after) == len(base) + 1 and after[-1]["type"] == "draw"
    assert "takes back" not in out and "Nothing to take back" in out


def test_undo_rule_mirrors_the_server() -> None:
    from erebus.terminal.undo import is_barrier

    state = mid_game()
    seat = state.current_player
    for action in state.legal_actions():
        after = state.clone()
        events = after.apply(action)
        names = {type(e).__name__ for e in events}
        expected = (
            after.current_player != seat
            or bool(names & {"DisplayRefreshed", "TurnEnded", "Passed", "RoundEnded"})
            or any(getattr(e, "source", None) == "display" for e in events)
        )
        assert is_barrier("northwest", seat, state, after, events) == expected, action


def test_load_resumes_a_saved_game_with_its_seats(tmp_path: Path) -> None:
    base, _ = _saved_actions(tmp_path, ["1", "q"], "a.json")
    save = tmp_path / "a.json"
    data = json.loads(save.read_text())
    assert data["seats"] == ["human", "bot", "bot"] and data["level"] == "medium"
    # Resume as saved: Red (a person) is asked again and moves; the save grows by one.
    ask, _ = scripted(["move to 13,3", "q"])
    console = recording_console()
    assert run_play(None, None, None, str(save), console=console, input_fn=ask, load=str(save)) == 0
    out = " ".join(console.export_text().split())  # the heading wraps with a long tmp path
    assert f"Resumed {save} ({len(base)} actions)" in out and "Red (you)" in out
    resumed = json.loads(save.read_text())["actions"]
    assert resumed[: len(base)] == base and len(resumed) == len(base) + 1
    # --humans 0 on the command line: bots take every seat and finish the game.
    out_file = tmp_path / "done.json"
    console = recording_console()
    assert run_play(None, 0, None, str(out_file), console=console, load=str(save)) == 0
    done = load_save(out_file)
    assert [a.to_json() for a in done.actions[: len(resumed)]] == resumed
    assert nw.replay(3, 5, done.actions).is_over and done.seats == ["bot", "bot", "bot"]
    assert "Final scores" in console.export_text()


def test_load_a_save_without_seats_and_errors(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text('{"game": "northwest", "players": 2, "seed": 3, "actions": []}')
    ask, _ = scripted(["q"])
    console = recording_console()
    assert run_play(None, None, None, None, console=console, input_fn=ask, load=str(old)) == 0
    out = " ".join(console.export_text().split())  # the heading wraps with a long tmp path
    assert "Red (you)" in out  # one person, as a new game
    for args, message in (
        ({"load": str(tmp_path / "missing.json")}, "cannot read"),
        ({"load": str(old), "seed": 4}, "drop --seed 4"),
        ({"load": str(old), "game": "iceandsnow"}, "drop --game iceandsnow"),
    ):
        console = recording_console(400)
        seed = args.pop("seed", None)
        assert run_play(None, None, seed, None, console=console, **args) == 2  # type: ignore[arg-type]
        text = console.export_text()
        assert text.startswith("error:") and message in text and len(text.splitlines()) == 1


def test_cli_load_errors_are_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for path in (bad, tmp_path / "missing.json"):
        result = runner.invoke(app, ["play", "--load", str(path)])
        assert result.exit_code == 2
        assert result.output.startswith("error:") and len(result.output.splitlines()) == 1
        assert "Traceback" not in result.output


def test_a_narrow_terminal_gets_a_width_notice(tmp_path: Path) -> None:
    from erebus.terminal.app import ui_for

    need = ui_for("northwest").min_width()
    assert 100 < need <= 150
    ask, _ = scripted(["b", "v 1", "q"])
    console = recording_console(100)
    assert run_play(2, 1, 8, None, console=console, input_fn=ask) == 0
    out = console.export_text()
    assert f"This screen needs {need} columns; the terminal has 100" in out
    assert out.count("This screen needs") >= 3  # the screen, "b" and the preview
    assert "NW Passage" not in out and "Number to play" in out  # no cut board; the menu
    wide = recording_console()
    ask, _ = scripted(["q"])
    assert run_play(2, 1, 8, None, console=wide, input_fn=ask) == 0
    assert "This screen needs" not in wide.export_text()
