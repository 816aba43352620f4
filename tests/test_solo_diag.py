"""tools/solo_diag.py: the endings table and summary merge several chunk files."""

from __future__ import annotations

import json
from pathlib import Path

from support.tools import load_tool


def _game(seed: int, won: bool, rnd: int, reason: str, missing: list[str]) -> dict:
    return {
        "seed": seed,
        "won": won,
        "round": rnd,
        "reason": reason,
        "missing": missing,
        "pp_lost": {},
        "cpu_s": 1.0,
        "cpu_max_s": 0.2,
        "decisions": 10,
    }


def test_table_merges_chunks(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    tool = load_tool("solo_diag")
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    a.write_text(json.dumps([_game(1, False, 6, "your prestige fell to 0", [])]))
    b.write_text(
        json.dumps(
            [
                _game(2, False, 9, "objectives not met: x", ["the lost expedition was not found"]),
                _game(3, True, 10, "won", []),
            ]
        )
    )
    assert tool.main(["lost-expedition", "--table", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "| your prestige fell to 0 |  | 1 |" in out
    assert "| passage done, objectives not met |" in out
    assert "games 3, won 1, passage done 2" in out
    assert "the lost expedition was not found (1 of 2)" in out
    assert "mean 0.100 s, max 0.200 s (30 decisions)" in out
