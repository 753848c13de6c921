"""Corrupted serialized states, for every game: whatever deserialize_state
accepts must be a state that the engine can be asked anything about, played
on, and searched, without a crash.

DESIGN.md, Python API: "state.serialize() -> bytes; game.deserialize_state(b)
# corrupt bytes -> ValueError, never a crash", and the ABI: validate(state)
holds the "structural invariants; used by deserialize". The conformance suite
already feeds garbage (bad headers, random bytes) and reads back what is
accepted; here the corruption is aimed at the state bytes behind a valid
header, so that many of the samples pass validate(), and every accepted state
is played on with random moves and searched by MCTS and expectimax.

The sample count per game configuration is ARDSEARCH_CORRUPT_SAMPLES (default
120); the sanitizer run (tools/sanitize.py) raises it, where a silent memory
error in an engine becomes a report.
"""
from __future__ import annotations

import os
import random

import pytest

import ardsearch
from ardsearch.random_walk import random_walk
from test_conformance import CONFIGS

SAMPLES = int(os.environ.get("ARDSEARCH_CORRUPT_SAMPLES", "120"))
PLAY_ON = 150          # random events played on from an accepted state (at most)
SEARCH_EVERY = 4       # every 4th accepted state that is a decision is also searched


@pytest.fixture(params=CONFIGS, ids=[name + "".join(f"-{k}={v}" for k, v in p.items())
                                     for name, p in CONFIGS])
def game(request):
    name, params = request.param
    return ardsearch.load_game(name, **params)


def base_states(game):
    """Serialized states from several stages of seeded random games, and the
    views of them (views are states too, and serialize the same way)."""
    out = []
    for seed, plies in ((1, 0), (2, 3), (3, 12), (4, 40), (5, 120), (6, 400)):
        state = random_walk(game.new_initial_state(seed=seed), plies, random.Random(seed))
        out.append(state.serialize())
        if game.hidden_information and not state.is_terminal():
            out.append(state.view(seed % 2).serialize())
    return out


def corrupt(good, body, rng):
    """good with 1-4 bytes of the state (not the header) changed: a random
    byte, a flipped bit, 0, 255, or one more or less than before."""
    b = bytearray(good)
    for _ in range(rng.randint(1, 4)):
        i = len(good) - body + rng.randrange(body)
        kind = rng.randrange(6)
        if kind == 0:
            b[i] = rng.randrange(256)
        elif kind == 1:
            b[i] ^= 1 << rng.randrange(8)
        elif kind == 2:
            b[i] = 0
        elif kind == 3:
            b[i] = 255
        else:
            b[i] = (b[i] + (1 if kind == 4 else -1)) % 256
    return bytes(b)


def exercise(game, state, rng, search):
    """Every read-only question, then random play from the state, then (if
    asked and it is a decision) a short MCTS and expectimax search."""
    str(state)
    state.hash()
    state.history()
    for p in (0, 1):
        state.observation_string(p)
        state.observation_tensor(p)
        state.evaluate(p)
    if state.is_terminal():
        state.returns()
        return
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes, "an accepted chance node without outcomes"
        assert len(outcomes) <= game.max_legal
    else:
        actions = state.legal_actions()
        assert actions, "an accepted decision node without legal actions"
        assert len(actions) <= game.max_legal
        for a in actions:
            state.action_to_string(a)
        # a bot searches the view of the side to move: a view of the other side is refused
        if search and state.viewer() in (-1, state.current_player()):
            ardsearch.MCTSBot(game, simulations=40, seed=rng.randrange(1000)).step(state)
            ardsearch.load_bot("expectimax", game, depth=2, nodes=300, time_limit=None,
                               determinizations=2, seed=1).step(state)
    if game.hidden_information and state.viewer() == -1:
        for p in (0, 1):
            state.view(p)
            state.resample_from_infostate(p, seed=rng.randrange(1000))
    # random play needs a full state: a view is played on through a determinization of it
    viewer = state.viewer()
    walk = state.clone() if viewer == -1 else state.resample_from_infostate(viewer, seed=rng.randrange(1000))
    for _ in range(PLAY_ON):
        if walk.is_terminal():
            break
        if walk.is_chance_node():
            walk.apply_random_chance()
        else:
            actions = walk.legal_actions()
            assert actions, "random play from an accepted state reached a decision without moves"
            walk.apply_action(rng.choice(actions))


def test_corrupted_states_are_refused_or_playable(game):
    rng = random.Random(11)
    bases = base_states(game)
    body = game.state_size
    accepted = 0
    for k in range(SAMPLES):
        data = corrupt(bases[k % len(bases)], body, rng)
        try:
            state = game.deserialize_state(data)
        except ValueError:
            continue
        accepted += 1
        exercise(game, state, rng, search=accepted % SEARCH_EVERY == 1)
    # the corruption is aimed at the state bytes: some samples must get through,
    # or this test exercises nothing beyond the conformance suite's garbage test
    assert accepted > 0, f"{game.name}: none of {SAMPLES} corrupted states was accepted"
