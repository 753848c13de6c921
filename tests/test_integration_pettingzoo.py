"""ardsearch games as PettingZoo AEC environments: PettingZoo's own API test.

Skipped when PettingZoo is not installed (pip install 'ardsearch[pettingzoo]')."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import ardsearch  # noqa: E402
from ardsearch.integrations.pettingzoo import env, raw_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

GAMES = ardsearch.list_games()


# Dict observations (observation + action_mask, as PettingZoo's classic games
# use) draw api_test's generic "should be a Box" advice: expected here.
@pytest.mark.filterwarnings("ignore:Observation space for each agent")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test(name):
    api_test(env(name), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test(name):
    seed_test(lambda: env(name), num_cycles=50)


def play_out(e, seed):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves, total = [], {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        moves.append(action)
        e.step(action)
    return moves, total


@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_episode_is_a_real_game_of_the_engine(name):
    e = env(name, max_rounds=3) if "max_rounds" in ardsearch.load_game(name).params else env(name)
    moves, total = play_out(e, seed=11)
    again, _ = play_out(e, seed=11)
    assert moves == again
    assert sum(total.values()) == 0.0 and set(total.values()) <= {-1.0, 0.0, 1.0}
    assert e.unwrapped.state.is_terminal()
    # The player moves of the episode are the player moves of the state's history.
    state = e.unwrapped.state
    history = state.history()
    replay = state.game.new_initial_state(seed=11)
    player_moves = []
    for a in history:
        if not replay.is_chance_node():
            player_moves.append(a)
        replay.apply_action(a)
    assert player_moves == moves


@pytest.mark.parametrize("name", GAMES)
def test_observation_is_the_agents_own_view_and_mask_is_legal(name):
    e = raw_env(name)
    e.reset(seed=3)
    state = e.state
    mover = state.current_player()
    for p, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        np.testing.assert_array_equal(obs["observation"], state.observation_tensor(p))
        assert obs["observation"].dtype == np.float32
        legal = sorted(np.flatnonzero(obs["action_mask"]).tolist())
        assert legal == (state.legal_actions() if p == mover else [])
    assert e.agent_selection == e.possible_agents[mover]


def test_illegal_action_and_bad_render_mode_are_clear_errors():
    name = GAMES[0]
    e = raw_env(name)
    e.reset(seed=0)
    illegal = next(a for a in range(e.game.num_actions) if a not in e.state.legal_actions())
    before = e.state.history()
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    assert e.state.history() == before
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(name, render_mode="rgb_array")
    text = raw_env(name, render_mode="ansi")
    text.reset(seed=0)
    assert isinstance(text.render(), str)
