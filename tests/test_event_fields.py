"""``Event.to_json`` and ``Event.text`` read an event's fields from the data class's
``__match_args__`` (cheaper than ``dataclasses.fields`` on every call): that holds only
while every field of every event is an init field, in order — checked here for every
event class of every game, so a new event that breaks it fails at once."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil

import erebus.games
from erebus.core import events as core_events
from erebus.core.events import Event


def _event_classes() -> set[type[Event]]:
    found: set[type[Event]] = set()
    modules = [core_events]
    for info in pkgutil.walk_packages(erebus.games.__path__, "erebus.games."):
        modules.append(importlib.import_module(info.name))
    for mod in modules:
        for value in vars(mod).values():
            if isinstance(value, type) and issubclass(value, Event) and value is not Event:
                found.add(value)
    return found


def test_every_event_field_is_in_its_match_args() -> None:
    classes = _event_classes()
    assert len(classes) > 50  # both games' events were found
    for cls in classes:
        names = tuple(f.name for f in dataclasses.fields(cls))
        assert cls.__match_args__ == names, cls


def test_json_and_text_name_every_field() -> None:
    e = core_events.ScoreChanged(seat=1, delta=3, reason="token")
    assert e.to_json() == {"type": "ScoreChanged", "seat": 1, "delta": 3, "reason": "token"}
    assert isinstance(e.text(["Ann", "Bo"]), str)
