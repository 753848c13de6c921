"""The conformance suite: every game in list_games() must pass it.

These are the ABI's promises, checked through the public API on seeded random
games: termination, legality, exact chance distributions, lossless copies and
formats, notation round trips, zero-sum returns, and views that keep secrets.
"""
import math
import os
import random

import numpy as np
import pytest

import ardsearch
from ardsearch.random_walk import random_walk

# ARDSEARCH_PLAYOUT_SEEDS: fewer playouts for the reduced sanitizer run in CI
# (tools/sanitize.py --quick), where each costs several times more.
PLAYOUT_SEEDS = range(int(os.environ.get("ARDSEARCH_PLAYOUT_SEEDS", "200")))

# Every game on its defaults, plus parameter sets that reach other rules:
# another scenario, or armies that start in contact so random play fights.
EXTRA_CONFIGS = {
    "ardennes": [{"variant": "basic", "road_length": 10}],
    "microarmour": [{"deployment": "close"}, {"scenario": "airstrike", "deployment": "close"},
                    {"deployment": "close", "support": True, "special_ap": True, "heat": True, "big_gun_he": True},
                    {"scenario": "barrage"},
                    {"scenario": "minefield"}, {"scenario": "minefield", "deployment": "close"},
                    {"scenario": "meeting", "deployment": "close"},
                    {"deployment": "close", "tank_riders": True},
                    {"scenario": "ambush"}, {"scenario": "combined", "deployment": "close"},
                    {"scenario": "outpost", "turns": 4}, {"scenario": "airdrop", "turns": 3}],
    "stosstruppen": [{"scenario": "villers"}],
    "undaunted": [{"scenario": 2}, {"scenario": 3}],
}
CONFIGS = [(name, {}) for name in ardsearch.list_games()] + [
    (name, params) for name, sets in EXTRA_CONFIGS.items() if name in ardsearch.list_games()
    for params in sets]


@pytest.fixture(params=CONFIGS, ids=[name + "".join(f"-{k}={v}" for k, v in p.items())
                                     for name, p in CONFIGS])
def game(request):
    name, params = request.param
    return ardsearch.load_game(name, **params)


def random_game(game, seed, check=None):
    """Plays one seeded random game; calls check(state) before every step."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        if check:
            check(state, steps)
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        assert steps <= game.max_game_length, f"seed {seed}: no terminal after {steps} actions"
    return state, steps


def test_random_playouts_terminate(game):
    for seed in PLAYOUT_SEEDS:
        final, steps = random_game(game, seed)
        r = final.returns()
        assert r[0] + r[1] == 0 and r[0] in (-1.0, 0.0, 1.0), f"seed {seed}: returns {r}"


def test_every_step_is_consistent(game):
    def check(state, step):
        cp = state.current_player()
        if cp == ardsearch.CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node without outcomes"
            assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-12)
            assert all(p > 0 for _, p in outcomes)
            actions = [a for a, _ in outcomes]
            assert len(actions) <= game.max_legal
        else:
            assert cp in (0, 1)
            actions = state.legal_actions()
            assert actions, "a decision node without legal actions"
            assert len(actions) <= game.max_legal
        assert actions == sorted(set(actions)), "actions must be distinct and increasing"
        assert state.returns() == [0.0, 0.0], "returns before the end"
        for a in actions:
            text = state.action_to_string(a)
            assert state.string_to_action(text) == a, f"notation {text!r} does not read back"
        if step % 7 == 0:
            # every legal action applies to a copy, and the result is a valid state
            for a in actions:
                child = state.clone()
                child.apply_action(a)
                game.state_from_raw(child.raw())  # validate() holds
            v = state.evaluate(0)
            assert -1.0 <= v <= 1.0

    for seed in range(20):
        random_game(game, seed, check)


def test_copies_and_formats_round_trip(game):
    def check(state, step):
        if step % 5:
            return
        c = state.clone()
        assert c.raw() == state.raw() and c.hash() == state.hash()
        assert c.history() == state.history()
        back = game.deserialize_state(state.serialize())
        assert back.raw() == state.raw() and back.hash() == state.hash()
        if not state.is_chance_node() and not state.is_terminal():
            d = state.to_dict()
            again = game.state_from_dict(d)
            assert again.to_dict() == d
            assert again.legal_actions() == state.legal_actions()

    for seed in range(10):
        random_game(game, seed, check)


def test_garbage_never_crashes(game):
    state = game.new_initial_state(seed=1)
    rng = random.Random(5)
    random_walk(state, 12, rng)
    good = state.serialize()
    samples = [b"", b"ARDS", good[:-1], good + b"\0", b"\xff" * len(good),
               good.replace(game.name.encode(), b"x" * len(game.name))]
    for _ in range(300):
        b = bytearray(good)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        samples.append(bytes(b))
    samples += [bytes(rng.randrange(256) for _ in range(len(good))) for _ in range(100)]
    for data in samples:
        try:
            st = game.deserialize_state(data)
        except ValueError:
            continue
        # accepted bytes must be a state the engine can play from without crashing
        st.legal_actions()
        st.chance_outcomes()
        str(st)
    with pytest.raises(ValueError):
        game.deserialize_state("not bytes")


def test_errors_leave_state_unchanged(game):
    state = game.new_initial_state(seed=3)
    while state.is_chance_node():
        state.apply_random_chance()
    before = state.raw()
    illegal = next(a for a in range(game.num_actions) if a not in state.legal_actions())
    with pytest.raises(ardsearch.IllegalMoveError):
        state.apply_action(illegal)
    with pytest.raises(ardsearch.InvalidMoveError):
        state.apply("no such move")
    with pytest.raises(ardsearch.InvalidMoveError):
        state.apply_action(game.num_actions + 5)
    assert state.raw() == before


def test_unknown_parameters_are_rejected(game):
    with pytest.raises(ValueError, match="unknown parameter"):
        ardsearch.load_game(game.name, no_such_parameter=1)


def test_views_keep_secrets(game):
    """Two states that differ only in what `p` cannot see give `p` the same view,
    and determinize() is consistent with the view it came from."""
    def check(state, step):
        if step % 3:
            return
        for p in (0, 1):
            view = state.view(p)
            assert view.viewer() == p
            game.state_from_raw(view.raw())  # a view is a valid state too
            for k in range(3):
                other = state.resample_from_infostate(p, seed=step * 10 + k)
                assert other.viewer() == -1
                game.state_from_raw(other.raw())
                assert other.view(p).raw() == view.raw(), "determinize left the view"
                assert other.observation_string(p) == state.observation_string(p)
                assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))
                assert other.current_player() == state.current_player()
                if not state.is_chance_node():
                    assert other.legal_actions() == state.legal_actions() or \
                        state.current_player() != p

    for seed in range(10):
        random_game(game, seed, check)


def test_hidden_events_are_masked(game):
    """Replaying what a player saw ('?' for the rest) on their view of the
    start gives, step by step, exactly their view of the real game."""
    if not game.hidden_information:
        pytest.skip("perfect-information game")
    for seed in range(20):
        states = []
        final, _ = random_game(game, seed, lambda state, step: states.append(state.clone()))
        for p in (0, 1):
            masked = final.masked_history(p)
            assert len(masked) == len(final.history_strings())
            assert final.view(p).history_strings() == masked
            replay = game.new_initial_state(seed=seed).view(p)
            for state, note in zip(states, masked):
                assert replay.raw() == state.view(p).raw()
                replay.apply(note)
            # The end itself may turn on hidden information (an objective card
            # completed): the player learns it from the referee, not from the
            # event list. Up to the last event the replay must match exactly.
            if not final.is_terminal() or replay.is_terminal():
                assert replay.raw() == final.view(p).raw()


# One non-default parameter set per game: a state serialized under one set
# must not load into a game with the other.
OTHER_PARAMS = {
    "ardennes": {"road_length": 12},
    "microarmour": {"turns": 5},
    "mortain": {"setup": "historical"},   # the default is setup=free
    "stosstruppen": {"turns": 5},
    "undaunted": {"max_rounds": 20},
}


@pytest.mark.parametrize("name", sorted(OTHER_PARAMS))
def test_serialized_state_refuses_a_game_with_other_parameters(name):
    """DESIGN.md, Python API: "state.serialize() -> bytes; game.deserialize_state(b)
    # corrupt bytes -> ValueError, never a crash", and Conventions: "Bad input
    anywhere (API, protocol, scenario files, serialized states) gets a clear error".
    A state of the same game under other parameters is such bad input: read into
    the wrong game it would say one parameter set and play by another."""
    assert name in ardsearch.list_games()
    default = ardsearch.load_game(name)
    other = ardsearch.load_game(name, **OTHER_PARAMS[name])
    assert other.params != default.params
    for src, dst in ((default, other), (other, default)):
        state = src.new_initial_state(seed=4)
        random_walk(state, 6, random.Random(4))
        data = state.serialize()
        with pytest.raises(ValueError) as exc:
            dst.deserialize_state(data)
        message = str(exc.value)
        for game in (src, dst):   # both parameter sets are named
            for key in OTHER_PARAMS[name]:
                assert f"{key}={game.params[key]}" in message, message
        # the same parameters, given as keywords in another order, still read it back
        same = ardsearch.load_game(name, **dict(reversed(list(src.params.items()))))
        assert same.deserialize_state(data).raw() == state.raw()


def test_state_from_dict_refuses_other_parameters():
    """The class of 'deserialize_state accepts a state with other parameters':
    a structured state that names a game parameter must agree with the game's
    (a 16-tile Ardennes dict into a road_length=12 game would play 16)."""
    import ardsearch
    d = ardsearch.load_game("ardennes").new_initial_state(seed=0)
    while d.is_chance_node():
        d.apply_random_chance()
    d = d.to_dict()
    with pytest.raises(ValueError, match=r"road_length=16.*road_length=12"):
        ardsearch.load_game("ardennes", road_length=12).state_from_dict(d)
    assert ardsearch.load_game("ardennes").state_from_dict(d).to_dict() == d
