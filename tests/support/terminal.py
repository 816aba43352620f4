"""Driving the terminal app in tests: a recording console and scripted input.

The play loop reads answers through ``input_fn`` and prints to a Rich console, so a
test scripts the answers (end of input once they run out, as from a pipe) and reads
exactly what a player would see.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from pathlib import Path

from rich.console import Console

from erebus.terminal.app import run_replay


def recording_console(width: int = 160) -> Console:
    """A console that prints nowhere and keeps everything for ``export_text``."""
    return Console(record=True, width=width, file=io.StringIO())


def scripted_input(
    answers: Iterable[str], prompts: list[str] | None = None
) -> Callable[[str], str]:
    """An input function answering from ``answers``, then end of input (``EOFError``);
    every prompt asked is appended to ``prompts`` when given."""
    it = iter(answers)

    def ask(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


def assert_replay_refuses(tmp_path: Path, content: str, message: str) -> str:
    """Replaying a save file holding ``content`` exits 2 with one ``error:`` naming
    ``message``; returns what was printed."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    console = recording_console()
    assert run_replay(str(path), step=False, console=console) == 2
    out = console.export_text()
    assert out.startswith("error:") and message in out
    return out
