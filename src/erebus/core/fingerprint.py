"""Hashes that tie a recorded game to what produced it.

Golden playthroughs store the fingerprint of the data files they were played
with and hashes of the states they passed through, so that their test can tell
"the data changed" (regenerate) from "the rules changed" (a regression or an
intended change) — and the generator and the test must compute them alike.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from typing import Any


def data_fingerprint(package: str) -> str:
    """SHA-256 over every JSON file in ``package``'s ``data`` folder, in name order:
    each file's name, then its bytes (a new data file changes it too)."""
    h = hashlib.sha256()
    data = resources.files(package).joinpath("data")
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            h.update(entry.name.encode())
            h.update(entry.read_bytes())
    return h.hexdigest()


def state_hash(state: Any) -> str:
    """The first 16 hex digits of the SHA-256 of ``state.to_json()`` as canonical JSON."""
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
