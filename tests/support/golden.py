"""Reading golden playthrough files: what both games' golden tests share.

A game's golden test replays each file of its directory and compares every number
with what the engine does now; a failure names the file and the step and says
what to do (the ``regenerate`` hint), and notes when the content data changed
since the file was made, because then a differing game is expected.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from erebus.core.fingerprint import data_fingerprint


class GoldenFiles:
    """The golden files of one game: ``directory/*.json``, made by ``tool``."""

    def __init__(self, directory: Path, tool: str) -> None:
        self.directory = directory
        self.files = sorted(directory.glob("*.json"))
        self.regenerate = (
            "If this change of rules (or of the data files) is intended, regenerate the golden "
            f"files with `.venv/bin/python {tool}` and review their diff; "
            "otherwise this is a regression."
        )

    @property
    def ids(self) -> list[str]:
        """Test ids: each file's name without ``.json``."""
        return [p.stem for p in self.files]

    @staticmethod
    def load(path: Path) -> dict[str, Any]:
        record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return record


def data_note(record: dict[str, Any], package: str, *, unrecorded_ok: bool = False) -> str:
    """A sentence for a failure when the record's content fingerprint is not today's data's.

    ``unrecorded_ok``: a record without a fingerprint (older files) gets no note."""
    made_with = record.get("content_sha256")
    if (unrecorded_ok and made_with is None) or made_with == data_fingerprint(package):
        return ""
    return " The content data files changed since this file was made."
