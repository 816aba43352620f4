"""Every action of both games in plain words (``GameSpec.describe_action``), the words
hints and reviews show: never empty, never the engine's raw ``key=value`` form or its
``str(action)``, names from the data rather than ids, for every action kind (random
games with every module, mode and solo scenario, and the kinds random play hardly
reaches built by hand)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from erebus.bench.engine import playout_policy
from erebus.bots import analysis
from erebus.games import get_game
from erebus.games.iceandsnow.actions import KINDS as ICE_KINDS
from erebus.games.iceandsnow.actions import Action as IceAction
from erebus.games.northwest.actions import KINDS as NW_KINDS

ALL_MODULES = ["walking_on_ice", "inuit_myths", "legendary_expeditions"]
SOLO_MODULES = ["inuit_myths", "legendary_expeditions"]
SCENARIOS = ("lost-expedition", "magnetic-north-pole", "mysterious-epidemic", "amundsens-voyage")
ICE_GAMES: list[tuple[int, dict[str, Any]]] = [
    (4, {"modules": ALL_MODULES}),
    (
        3,
        {
            "modules": ALL_MODULES,
            "modes": ["survival", "shelters", "dual_species"],
            "upgrades": "all",
            "extra_events": True,
        },
    ),
    (2, {"modes": ["survival"], "upgrades": "all", "passing": "forced"}),
    *((1, {"scenario": s, "modules": SOLO_MODULES}) for s in SCENARIOS),
    *((1, {"scenario": s}) for s in SCENARIOS),
]
RAW = re.compile(r"\w=\w|\bNone\b|_")  # key=value, a missing name, an id's underscore


def _check(text: str, action: Any) -> None:
    assert isinstance(text, str) and text.strip(), action
    assert text != str(action), f"the raw form: {text!r}"
    assert not RAW.search(text), f"{action}: {text!r}"
    assert "{" not in text and "  " not in text, text


def _ice_positions(seeds: range) -> Iterator[tuple[Any, list[Any]]]:
    spec = get_game("iceandsnow")
    for players, options in ICE_GAMES:
        for seed in seeds:
            rng = random.Random(seed)
            state = spec.new_game(players, seed, options)
            while not state.is_over:
                legal = state.legal_actions()
                yield state, legal
                pick = playout_policy(rng, legal) if rng.random() < 0.7 else rng.choice(legal)
                state.apply(pick)


def test_every_ice_and_snow_action_of_random_games_reads_as_words() -> None:
    spec = get_game("iceandsnow")
    kinds: set[str] = set()
    rng = random.Random(0)
    for state, legal in _ice_positions(range(2)):
        # All of a small menu; a sample of a big one (Build a Cabin has hundreds).
        for a in legal if len(legal) <= 40 else rng.sample(legal, 40):
            _check(spec.describe_action(state, a), a)  # type: ignore[misc]
            kinds.add(a.kind)
    assert {"take", "destination", "choose_investor", "choose_explorer", "treat"} <= kinds


#: The kinds random play reaches rarely (or never in a few games), by hand: described
#: in a position with every module, where the words must still read.
BY_HAND = {
    "mast": IceAction("mast", card="14"),
    "boiler": IceAction("boiler", use=True),
    "compass": IceAction("compass", to="cape_liverpool"),
    "drop_upgrade": IceAction("drop_upgrade", tile=3),
    "release_sailor": IceAction("release_sailor"),
    "abandon": IceAction("abandon", use=False),
    "open_can": IceAction("open_can"),
    "eat": IceAction("eat", card="rock_ptarmigan_1"),
    "discard": IceAction("discard", resource="cans"),
    "despot": IceAction("despot", use=True),
    "benevolent": IceAction("benevolent", use=False),
    "track": IceAction("track", space="hunt"),
    "chart": IceAction("chart", to="devon"),
    "fall_ill": IceAction("fall_ill", crew=(1, 0, 0, 0, 0)),
    "choose_upgrade": IceAction("choose_upgrade", tile=1),
    "section": IceAction("section", side="B"),
    "voyage": IceAction("voyage", voyage="march"),
    "infirmary": IceAction("infirmary", crew=(0, 0, 0, 2, 0)),
}


def test_every_ice_and_snow_action_kind_has_words() -> None:
    spec = get_game("iceandsnow")
    state = spec.new_game(4, 3, {"modules": ALL_MODULES})
    rng = random.Random(3)
    for _ in range(60):
        state.apply(playout_policy(rng, state.legal_actions()))
    seen = {a.kind: a for a in state.legal_actions()}
    for kind in ICE_KINDS:
        action = BY_HAND.get(kind) or seen.get(kind)
        if action is None:
            continue  # met in the random games above
        _check(spec.describe_action(state, action), action)  # type: ignore[misc]
    every = set(BY_HAND) | {"take", "pass", "choose_investor", "choose_cartography"}
    every |= {"destination", "choose_explorer", "treat"}
    assert every == set(ICE_KINDS)


def test_ice_and_snow_words_name_things_from_the_data() -> None:
    spec = get_game("iceandsnow")
    state = spec.new_game(2, 1)
    say = spec.describe_action
    assert say is not None
    investors = [a for a in state.legal_actions() if a.kind == "choose_investor"]
    inv = state.content.investors[investors[0].card]
    assert inv.name in say(state, investors[0])
    hunt = IceAction("take", space="hunt", crew=(1, 0, 0, 2, 0), card="hunt_bearded_seal_3")
    words = say(state, hunt)
    assert words.startswith("Hunt with captain + 2 sailors") and "Bearded Seal" in words
    assert "(captain)" in say(
        state, IceAction("take", space="exchange_captain", crew=(1, 0, 0, 0, 0), resource="wood")
    )
    to = say(state, IceAction("destination", to="cape_liverpool"))
    assert "Cape Liverpool" in to and "cape_liverpool" not in to


def _nw_positions(seed: int, moves: int) -> Iterator[tuple[Any, list[Any]]]:
    spec = get_game("northwest")
    rng = random.Random(seed)
    state = spec.new_game(2 + seed % 3, seed)
    for _ in range(moves):
        if state.is_over:
            return
        legal = state.legal_actions()
        yield state, legal
        travel = [a for a in legal if a.kind in ("place", "move")]
        state.apply(rng.choice(travel if travel and rng.random() < 0.6 else legal))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_every_northwest_action_of_random_games_reads_as_words(seed: int) -> None:
    spec = get_game("northwest")
    for state, legal in _nw_positions(seed, 150):
        for a in legal[:60]:
            words = spec.describe_action(state, a)  # type: ignore[misc]
            _check(words, a)
            if a.kind == "place":
                assert f"column {a.x + 1}, row {a.y + 1}" in words and a.tile in words
            if a.kind in ("draft", "draw") and a.source != "pile":
                assert state.display[a.slot] in words


def test_every_northwest_action_kind_is_met_and_has_words() -> None:
    spec = get_game("northwest")
    kinds: set[str] = set()
    for seed in range(6):
        for state, legal in _nw_positions(seed, 400):
            for a in legal:
                if a.kind not in kinds:
                    _check(spec.describe_action(state, a), a)  # type: ignore[misc]
                    kinds.add(a.kind)
    # The tokens random play seldom reaches, by hand: ship and sled, each token.
    from erebus.games.northwest.actions import DISCOVER_TOKENS, EXPLORE_TOKENS, Action

    state = spec.new_game(2, 1)
    for kind, tokens in (("explore", EXPLORE_TOKENS), ("discover", DISCOVER_TOKENS)):
        for vehicle in ("ship", "sled"):
            for token in tokens:
                action = Action(kind, vehicle, token=token)
                _check(spec.describe_action(state, action), action)  # type: ignore[misc]
                kinds.add(kind)
    assert kinds == set(NW_KINDS)


def test_northwest_places_have_names() -> None:
    spec = get_game("northwest")
    say = spec.describe_action
    assert say is not None
    state = spec.new_game(2, 1)
    from erebus.games.northwest.actions import Action

    assert say(state, Action.move("ship", "northwest")).endswith("Northwest Passage")
    assert "Greenland" in say(state, Action.move("ship", "greenland"))
    gx, gy = state.content.board.arrows["greenland"]
    assert "Greenland square" in say(state, Action.move("ship", (gx, gy)))


@pytest.mark.parametrize(("game", "players"), [("northwest", 2), ("iceandsnow", 2)])
def test_hints_and_reviews_carry_the_words(game: str, players: int) -> None:
    spec = get_game(game)
    state = spec.new_game(players, 5)
    rng = random.Random(5)
    actions = []
    for _ in range(12):
        a = rng.choice(state.legal_actions())
        actions.append(a.to_json())
        state.apply(a)
    h = analysis.hint(state, 7, 20)
    best = spec.action_from_json(h["action"])
    assert h["text"] == spec.describe_action(state, best)  # type: ignore[misc]
    assert h["text"] in h["reason"]
    for alt in h["alternatives"]:
        _check(alt["text"], spec.action_from_json(alt["action"]))
    moves = analysis.review_moves(game, players, 5, actions, None, "k", 4, 0, len(actions))
    replay = spec.new_game(players, 5)
    for m, data in zip(moves, actions, strict=True):
        action = spec.action_from_json(data)
        assert m["text"] == spec.describe_action(replay, action)  # type: ignore[misc]
        _check(m["text"], action)
        _check(m["best_text"], spec.action_from_json(m["best"]))
        replay.apply(action)
