"""tools/tournament_chunks.py: a tournament played by game-index chunks gives the
records of ``erebus tournament`` and resumes where a stopped chunk ended."""

from __future__ import annotations

import json
from pathlib import Path

from erebus.tournament import run_tournament
from support.tools import load_tool


def test_chunks_are_the_tournaments_games_and_resume(tmp_path: Path) -> None:
    tool = load_tool("tournament_chunks")
    out = tmp_path / "t.jsonl"
    common = ["--bots", "random,greedy", "--seed", "5"]
    assert tool.main(["play", *common, "--first", "0", "--last", "1", "--out", str(out)]) == 0
    # Run again over a wider range: the games already in the file are not replayed.
    assert tool.main(["play", *common, "--first", "0", "--last", "2", "--out", str(out)]) == 0
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    assert [ln["record"]["index"] for ln in lines] == [0, 1, 2]
    ref = run_tournament(bots=["random", "greedy"], games=3, jobs=1, seed=5, progress=False)
    assert [ln["record"] for ln in lines] == [r.to_json() for r in ref.records]
    summary = tmp_path / "t.json"
    assert tool.main(["summary", *common, str(out), "--out", str(summary)]) == 0
    data = json.loads(summary.read_text())
    assert data["games"] == [r.to_json() for r in ref.records]
    assert data["summary"]["bots"]["greedy"]["games"] == 3
