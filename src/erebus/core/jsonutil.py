"""Strict readers for JSON input: malformed data raises ``ValueError`` with a clear message,
never ``KeyError`` or ``TypeError``."""

from __future__ import annotations

from typing import Any


def get_int(d: dict[str, Any], key: str, what: str) -> int:
    if key not in d:
        raise ValueError(f"{what}: missing field {key!r}")
    v = d[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{what}: field {key!r} must be an integer, not {v!r}")
    return v


def get_str(d: dict[str, Any], key: str, what: str, choices: tuple[str, ...] | None = None) -> str:
    if key not in d:
        raise ValueError(f"{what}: missing field {key!r}")
    v = d[key]
    if not isinstance(v, str):
        raise ValueError(f"{what}: field {key!r} must be a string, not {v!r}")
    if choices is not None and v not in choices:
        raise ValueError(f"{what}: field {key!r} must be one of {', '.join(choices)}; got {v!r}")
    return v


def require_dict(d: Any, what: str) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise ValueError(f"{what} must be a JSON object, not {type(d).__name__}")
    return d


#: Beyond this a browser's ``JSON.parse`` rounds an integer.
JS_SAFE_INT = 2**53


def js_safe(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with its top-level integers beyond ±2^53 as decimal strings.

    Northwest Passage's views carry the board's terrain as bitboards (``land``,
    ``sea``: integers of ~150 bits), which JavaScript cannot read exactly as JSON
    numbers; every game's ``from_view`` takes them back with ``int()``."""
    if not any(type(v) is int and not -JS_SAFE_INT < v < JS_SAFE_INT for v in view.values()):
        return view
    return {
        k: str(v) if type(v) is int and not -JS_SAFE_INT < v < JS_SAFE_INT else v
        for k, v in view.items()
    }
