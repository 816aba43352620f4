"""The web client's languages: every language file has exactly the English keys, with
the same ``{placeholders}``, and every key the client names literally exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "erebus" / "web"
LANGS = ("en", "hu", "it", "fr", "uk", "ja")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _load(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_language_files_are_the_six() -> None:
    assert sorted(p.stem for p in (WEB / "i18n").glob("*.json")) == sorted(LANGS)


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_exactly_the_english_keys(lang: str) -> None:
    en, other = _load("en"), _load(lang)
    assert sorted(set(en) - set(other)) == [], f"{lang} lacks these keys"
    assert sorted(set(other) - set(en)) == [], f"{lang} has keys English does not"
    for key, text in other.items():
        assert isinstance(text, str) and text.strip(), f"{lang}.{key} is empty"
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(en[key])), (
            f"{lang}.{key} has other placeholders than English"
        )


def test_every_key_the_client_names_exists() -> None:
    # every module of the client: the entry, core/ and each game's board folder
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(WEB.rglob("*.js")))
    used = set(re.findall(r"\bt\(\s*\"([A-Za-z0-9_]+)\"", source))
    assert {"undo", "autopilot_for", "take_back_seat", "chat_spectator"} <= used
    assert sorted(used - set(_load("en"))) == []
