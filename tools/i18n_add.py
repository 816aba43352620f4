"""Add or change keys of the web client's six language files at once.

    python tools/i18n_add.py keys.json        # {"key": {"en": "…", "hu": "…", …}, …}
    python tools/i18n_add.py - < keys.json

Every key must come with all six languages (the key-parity test of
``tests/server/test_web_i18n.py`` would fail otherwise).  The files are rewritten
under an exclusive lock, so that several people (or scripts) adding keys to one
checkout at the same time never lose each other's keys; new keys go at the end,
changed ones keep their place.
"""

from __future__ import annotations

import fcntl
import json
import sys
from pathlib import Path

WEB_I18N = Path(__file__).resolve().parents[1] / "src" / "erebus" / "web" / "i18n"
LANGS = ("en", "hu", "it", "fr", "uk", "ja")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    raw = sys.stdin.read() if argv[0] == "-" else Path(argv[0]).read_text(encoding="utf-8")
    keys = json.loads(raw)
    if not isinstance(keys, dict):
        print("the input must be an object of keys", file=sys.stderr)
        return 2
    for key, texts in keys.items():
        missing = [lang for lang in LANGS if not isinstance(texts, dict) or not texts.get(lang)]
        if missing:
            print(f"{key}: missing {', '.join(missing)}", file=sys.stderr)
            return 2
    with open(WEB_I18N / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for lang in LANGS:
            path = WEB_I18N / f"{lang}.json"
            data = json.loads(path.read_text(encoding="utf-8"))
            for key, texts in keys.items():
                data[key] = texts[lang]
            path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(keys)} key(s) written to {len(LANGS)} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
