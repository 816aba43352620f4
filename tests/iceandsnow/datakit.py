"""Breaking the shipped Through Ice and Snow data one thing at a time.

The validator's tests (``test_content.py``, ``test_effects.py``) start from a fresh
copy of the shipped JSON, change exactly one thing and read the message, so that
a message can only come from that change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from erebus.games.iceandsnow.content import parse_content, read_data

Raw = dict[str, Any]


def broken(mutate: Callable[[Raw], None]) -> str:
    """Load the shipped data after ``mutate``; return the validator's message."""
    raw = read_data()
    mutate(raw)
    with pytest.raises(ValueError) as exc:
        parse_content(raw)
    return str(exc.value)
