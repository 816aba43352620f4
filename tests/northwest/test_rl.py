"""The RL adapter: fixed action indices, observation encoding, PettingZoo AEC env."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from erebus.core.errors import IllegalAction
from erebus.games.northwest import State, new_game
from erebus.games.northwest import encoding as enc
from erebus.games.northwest.actions import Action
from erebus.games.northwest.content import default_content
from erebus.rl import NorthwestEnv, northwest_env

# api_test's advice for plain-array observations; a Dict with an action mask is
# PettingZoo's own convention for board games.
BENIGN = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


def _explorer(rng: random.Random, legal: list[Action]) -> Action:
    """A random policy that favours placing and moving, so the board fills up."""
    for kind, p in (("place", 0.8), ("move", 0.6), ("draw", 0.5)):
        choices = [a for a in legal if a.kind == kind]
        if choices and rng.random() < p:
            return rng.choice(choices)
    return rng.choice(legal)


def random_states(players: int, seed: int, explore: bool = True) -> list[State]:
    """Every state along a random game: uniform, or favouring placements and moves."""
    rng = random.Random(seed)
    st = new_game(players, seed)
    out = [st.clone()]
    while not st.is_over:
        legal = st.legal_actions()
        st.apply(_explorer(rng, legal) if explore else rng.choice(legal))
        out.append(st.clone())
    return out


# ------------------------------------------------------------------ actions


def test_default_action_space_size_and_fixed_indices() -> None:
    assert enc.ENCODING_VERSION == 2
    assert enc.action_space_size() == 17_048
    assert enc.index_to_action(0) == Action("pass")
    assert enc.index_to_action(1) == Action("end_turn")
    assert enc.index_to_action(2) == Action.draft(0)
    assert enc.index_to_action(6) == Action.draw_display("ship", 0)
    assert enc.index_to_action(25) == Action.draw_pile("sled", 5)
    assert enc.index_to_action(27) == Action("refresh", "sled")
    assert enc.index_to_action(28) == Action("explore", "ship", token="franklin")
    assert enc.index_to_action(35) == Action("discover", "sled", token="cairn")
    assert enc.index_to_action(36 + 2 * 9 + 1) == Action.transfer("ship", 2, 1)
    assert enc.index_to_action(180 + 2 * 14 + 5) == Action.move("ship", (5, 2))
    assert enc.index_to_action(292) == Action.move("ship", "greenland")
    assert enc.index_to_action(407) == Action.move("sled", "northwest")


def test_place_offsets_and_indices_relative_to_the_vehicle() -> None:
    assert [len(o) for o in enc.PLACE_OFFSETS] == [9, 14, 14]
    assert enc.PLACE_OFFSETS[0][:3] == ((0, -1), (1, -1), (-1, 0))
    space = enc.action_space()
    assert space.place_base == 408
    assert space.place_per == 64 * 8 * 14 + 32 * 4 * 9 == 8_320
    st = new_game(2, 1)
    with pytest.raises(ValueError, match="depends on the state"):
        enc.index_to_action(408)
    with pytest.raises(ValueError):  # a placement without a state has no index
        enc.action_to_index(Action.place("ship", "L01", 0, 0, 0, "a"))
    # The ships start at Greenland: placements are numbered around its square.
    ref = space.refs(st)[0]
    assert ref >= 0
    rx, ry = space._geo.xy(ref)
    # L01 side a rotation 0 (a 2×1 tile) at offset (-1, -1): block start 0, offset 0.
    a = space.action(408, st)
    assert a == Action.place("ship", "L01", rx - 1, ry - 1, 0, "a")
    assert space.index(a, st) == 408
    # S01 (1×1) at offset (0, 2): the last of its first rotation's 9 offsets.
    i = 408 + 64 * 8 * 14 + 8
    assert space.action(i, st) == Action.place("ship", "S01", rx, ry + 2, 0, "a")
    # The sled's block follows the ship's; a sled on the player board places nothing.
    assert space.refs(st)[1] < 0
    with pytest.raises(ValueError, match="can place no tile"):
        space.action(408 + 8_320, st)


def test_every_index_round_trips() -> None:
    """Every index outside the place block means one action in any state; a place
    index, in a state, one action or none (off the board, a vehicle that cannot
    place), and each action has back its index."""
    space = enc.action_space()
    seen = set()
    for i in range(space.place_base):
        a = space.action(i)
        assert space.index(a) == i
        seen.add(a)
    assert len(seen) == space.place_base
    for st in random_states(2, 7)[::40]:
        placed = set()
        for i in range(space.place_base, space.size):
            try:
                a = space.action(i, st)
            except ValueError:
                continue
            assert a.kind == "place"
            assert space.index(a, st) == i
            placed.add(a)
        assert placed, "some placement has an index in every state tried"


@pytest.mark.parametrize(
    "action",
    [
        Action.draft(4),
        Action.draw_display("ship", -1),
        Action.draw_pile("boat", 0),
        Action.place("ship", "L01", 13, 0, 0, "a"),  # a 2×1 tile off the east edge
        Action.place("ship", "L01", 0, 7, 1, "a"),  # a 1×2 tile off the south edge
        Action.place("ship", "S01", 0, 0, 0, "b"),  # small tiles have one side
        Action.place("ship", "board:greenland", 0, 0, 0, "a"),
        Action.place("ship", "L01", 0, 0, 4, "a"),
        Action.move("sled", (14, 0)),
        Action.move("sled", "iceland"),
        Action.transfer("ship", 8, 0),
        Action("explore", "ship", token="inuit"),
        Action("pass", "ship"),
        Action("fly"),
    ],
)
def test_actions_outside_the_space_raise_value_error(action: Action) -> None:
    with pytest.raises(ValueError):
        enc.action_to_index(action)


@pytest.mark.parametrize("i", [-1, 17_048, 1.0, True, "3"])
def test_bad_indices_raise_value_error(i: object) -> None:
    with pytest.raises(ValueError):
        enc.index_to_action(i)  # type: ignore[arg-type]


# ------------------------------------------------------------------ observation


def test_observation_layout_is_contiguous_and_documented() -> None:
    layout = enc.observation_layout()
    assert {n: (b.offset, b.shape) for n, b in layout.items()} == {
        "squares": (0, (28, 8, 14)),
        "vertices": (3136, (3, 9, 15)),
        "seats": (3541, (4, 30)),
        "reserves": (3661, (4, 96)),
        "globals": (4045, (26,)),
        "display": (4071, (4, 96)),
    }
    assert enc.observation_size() == 4455
    end = 0
    for b in layout.values():
        assert b.offset == end
        end = b.end
    assert len(enc.SQUARE_PLANES) == 28
    assert len(enc.SEAT_FEATURES) == 30
    assert len(enc.GLOBAL_FEATURES) == 26


@pytest.mark.parametrize("players", [2, 4])
def test_observation_fixed_shape_bounds_and_no_hidden_information(players: int) -> None:
    low, high = enc.observation_bounds()
    states = random_states(players, 7 + players)
    for k, st in enumerate(states):
        for seat in range(players):
            obs = enc.observe(st, seat)
            assert obs.shape == (enc.observation_size(),)
            assert obs.dtype == np.float32
            assert np.all(obs >= low) and np.all(obs <= high)
            if k % 5:
                continue
            # Hidden information (bag order, generator, seed) resampled: same observation.
            other = st.clone()
            other.resample_hidden(12345 + k)
            other.seed = 999
            assert np.array_equal(enc.observe(other, seat), obs)
            # A state rebuilt from the seat's view alone: same observation.
            det = State.from_view(st.view(seat), seed=4242 + k)
            assert np.array_equal(enc.observe(det, seat), obs)
    # And it does change with public play.
    assert not np.array_equal(enc.observe(states[0], 0), enc.observe(states[-1], 0))


def test_observation_matches_engine_queries() -> None:
    players = 3
    states = random_states(players, 31)
    checked = states[:: max(1, len(states) // 15)]
    # The sample must exercise a filled board and vehicles out on it.
    assert any(
        isinstance(st.position(s, v), tuple)
        for st in checked
        for s in range(players)
        for v in ("ship", "sled")
    )
    assert max(len(st.view(None)["tiles"]) for st in checked) >= 15
    for st in checked:
        for seat in range(players):
            parts = enc.split_observation(enc.observe(st, seat))
            sq, vx = parts["squares"], parts["vertices"]
            seats, glob = parts["seats"], parts["globals"]
            board = st.board
            P = enc.SQUARE_PLANES.index
            for y in range(board.height):
                for x in range(board.width):
                    assert sq[P("occupied"), y, x] == (board.tile_at(x, y) is not None)
                    assert sq[P("frozen"), y, x] == board.frozen(x, y)
                    assert sq[P("zone"), y, x] == board.zone(x, y)
                    token = board.token_at(x, y)
                    for kind in ("inuit", "cairn", "franklin", "strait"):
                        assert sq[P(f"token_{kind}"), y, x] == (token == kind)
                    corners = ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))
                    for name, (cx, cy) in zip(("nw", "ne", "se", "sw"), corners, strict=True):
                        v = board.vertex(cx, cy)
                        assert sq[P(f"{name}_land"), y, x] == (v == "land")
                        assert sq[P(f"{name}_sea"), y, x] == (v == "sea")
            for y in range(board.height + 1):
                for x in range(board.width + 1):
                    v = board.vertex(x, y)
                    assert vx[0, y, x] == (v == "land")
                    assert vx[1, y, x] == (v == "sea")
            F = enc.SEAT_FEATURES.index
            for k in range(4):
                if k >= players:
                    assert not seats[k].any()
                    continue
                s = (seat + k) % players
                crew = st.crew(s)
                assert seats[k, F("present")] == 1
                assert seats[k, F("to_act")] == (st.current_player == s)
                assert seats[k, F("score")] == st.scores()[s]
                assert seats[k, F("ship_available")] == crew["ship"]["available"]
                assert seats[k, F("sled_resting")] == crew["sled"]["resting"]
                assert seats[k, F("crew_lost")] == crew["lost"]
                assert seats[k, F("cartography")] == st.tokens(s)["cartography"]
                reserve = st.reserve(s)
                assert parts["reserves"][k].sum() == len(reserve)
                assert seats[k, F("reserve_large")] + seats[k, F("reserve_small")] == len(reserve)
                for vehicle in ("ship", "sled"):
                    pos = st.position(s, vehicle)
                    plane = sq[P(f"{vehicle}_{k}")]
                    if isinstance(pos, tuple):
                        assert plane[pos[1], pos[0]] == 1
                        tile = board.tile_at(*pos)
                        assert plane.sum() == sum(
                            board.tile_at(x, y) == tile
                            for y in range(board.height)
                            for x in range(board.width)
                        )
                    else:
                        assert plane.sum() == 0
            G = enc.GLOBAL_FEATURES.index
            assert glob[G("round")] == st.round
            assert glob[G("sun")] == st.sun
            assert glob[G("bag_size")] == st.view(seat)["bag_size"]
            assert list(glob[G("pile_0") : G("pile_0") + 6]) == st.piles
            assert parts["display"].sum() == len(st.display)


def test_observe_rejects_bad_seats() -> None:
    st = new_game(2, 1)
    for seat in (-1, 2, None, True):
        with pytest.raises(ValueError):
            enc.observe(st, seat)  # type: ignore[arg-type]


# ------------------------------------------------------------------ environment


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.filterwarnings(BENIGN[0])
@pytest.mark.filterwarnings(BENIGN[1])
def test_pettingzoo_api(players: int) -> None:
    api_test(northwest_env(players=players), num_cycles=150)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed(players: int) -> None:
    seed_test(lambda: northwest_env(players=players), num_cycles=60)


def play_random(env: NorthwestEnv, seed: int) -> dict[str, float]:
    """Play a masked random policy to the end; the total reward per agent."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        assert not truncated
        if terminated:
            env.step(None)
            continue
        st = env.state_
        assert st is not None and st.current_player is not None
        assert agent == env.possible_agents[st.current_player]
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(st.legal_actions())
        env.step(int(rng.choice(legal)))
        steps += 1
        assert steps < 5000
    return totals


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_masked_episode_finishes(players: int) -> None:
    env = northwest_env(players=players)
    totals = play_random(env, seed=players)
    st = env.state_
    assert st is not None and st.is_over
    assert env.agents == []
    mean = sum(st.scores()) / players
    for a, seat in zip(env.possible_agents, range(players), strict=True):
        assert totals[a] == pytest.approx(st.scores()[seat] - mean)
    assert sum(totals.values()) == pytest.approx(0.0)


def test_rank_rewards() -> None:
    env = northwest_env(players=4, reward="rank")
    totals = play_random(env, seed=11)
    assert env.state_ is not None
    ranking = env.state_.ranking()
    expected = [1.0, 1 / 3, -1 / 3, -1.0]
    for place, seat in enumerate(ranking):
        assert totals[f"player_{seat}"] == pytest.approx(expected[place])


def test_illegal_action_raises_and_leaves_env_unchanged() -> None:
    env = northwest_env(players=2)
    env.reset(seed=5)
    assert env.state_ is not None
    before = env.state_.to_json()
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError):
        env.step(illegal)
    with pytest.raises(IllegalAction):
        env.step(illegal)
    for bad in (-1, enc.action_space_size(), None, 1.5):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.state_.to_json() == before
    assert env.agent_selection == agent
    env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are fine


def test_reset_seeding() -> None:
    a, b = northwest_env(players=3), northwest_env(players=3)
    a.reset(seed=77)
    assert a.state_ == new_game(3, 77)
    b.reset(seed=77)
    seeds_a, seeds_b = [], []
    for _ in range(3):
        a.reset()
        b.reset()
        assert a.state_ is not None and b.state_ is not None
        seeds_a.append(a.state_.seed)
        seeds_b.append(b.state_.seed)
    assert seeds_a == seeds_b
    assert len(set(seeds_a)) == 3


def test_metadata_spaces_and_render() -> None:
    env = northwest_env(players=2, render_mode="ansi")
    assert env.metadata["name"] == "erebus_northwest_v0"
    assert env.metadata["render_modes"] == ["ansi"]
    assert env.metadata["is_parallelizable"] is False
    assert env.possible_agents == ["player_0", "player_1"]
    n = enc.action_space_size()
    assert env.action_space("player_0").n == n
    space = env.observation_space("player_1")
    assert space["observation"].shape == (enc.observation_size(),)
    assert space["action_mask"].shape == (n,)
    assert space["action_mask"].dtype == np.int8
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Greenland" in text
    with pytest.raises(ValueError):
        northwest_env(players=5)
    with pytest.raises(ValueError):
        northwest_env(render_mode="human")


def test_a_custom_content_is_numbered_and_played_by_its_own_rules() -> None:
    """``content=`` reaches the game through its spec's ``rl_for`` hook: the indices
    follow that content's tiles, games are of that content, its rules seat players."""
    base = default_content()
    tiles = tuple(t for t in base.tiles if t.id != "L64")
    rules = dataclasses.replace(
        base.rules, arrow_tokens={k: v for k, v in base.rules.arrow_tokens.items() if k != 4}
    )
    content = dataclasses.replace(base, tiles=tiles, rules=rules)
    n = enc.action_space_size(content)
    assert n != enc.action_space_size()
    env = northwest_env(players=3, content=content)
    assert env.action_space("player_0").n == n
    assert env.observation_space("player_0")["observation"].shape == (
        enc.observation_size(content),
    )
    env.reset(seed=5)
    assert env.state_ is not None and env.state_.content is content
    assert env.state_.to_json() == new_game(3, 5, content).to_json()
    totals = play_random(env, seed=5)
    assert sum(totals.values()) == pytest.approx(0.0, abs=1e-6)
    with pytest.raises(ValueError, match="players must be one of 2, 3"):
        northwest_env(players=4, content=content)
    with pytest.raises(ValueError):
        northwest_env(players=2, content="a board")
