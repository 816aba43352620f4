"""Writing golden playthrough files, shared by the per-game generators.

``render_record`` lays a record out as JSON with one item of its long list per
line (so a rule change shows as a small diff); ``write_goldens`` renders every
game, writes the files that changed (or, with ``--check``, only reports them) and
prints one summary line per game; the exit code is 1 when ``--check`` finds a
file that would change.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def render_record(record: dict[str, Any], per_line: str, sorted_keys: Iterable[str] = ()) -> str:
    """``record`` as JSON, one key a line in the record's order, ``per_line``'s items one a line.

    The values of ``sorted_keys`` are written with sorted keys (a whole state, whose
    key order is not part of the format); every other value as ``json.dumps`` gives it.
    """
    sort = set(sorted_keys)
    items = list(record.items())
    lines = ["{"]
    for n, (k, v) in enumerate(items):
        comma = "," if n + 1 < len(items) else ""
        if k == per_line:
            lines.append(f"  {json.dumps(k)}: [")
            lines += [
                f"    {json.dumps(x)}{',' if i + 1 < len(v) else ''}" for i, x in enumerate(v)
            ]
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, sort_keys=k in sort)}{comma}")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == json.loads(json.dumps(record))
    return text


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
