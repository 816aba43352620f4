"""Writing golden playthrough files, shared by the per-game generators.

``write_goldens`` renders every game, writes the files that changed (or, with
``--check``, only reports them) and prints one summary line per game; the exit
code is 1 when ``--check`` finds a file that would change.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path


def write_goldens(
    description: str,
    directory: Path,
    records: Callable[[], Iterable[tuple[str, str, str]]],
    argv: list[str] | None = None,
) -> int:
    """``records()`` yields ``(name, text, summary)`` per game; see the module docstring."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only report files that would change")
    args = parser.parse_args(argv)
    directory.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, text, summary in records():
        path = directory / f"{name}.json"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            changed.append(path.name)
            if not args.check:
                path.write_text(text, encoding="utf-8")
        print(f"{path.name}: {summary}" + ("" if old == text else " (changed)"))
    if args.check and changed:
        print(f"would change: {', '.join(changed)}", file=sys.stderr)
        return 1
    return 0
