"""evaluate() against the features and weights, in every game with features.

The game ABI (csrc/ardsearch/game.h, ABI 2): "evaluate() is then
ard_linear_value(weights, features)", that is tanh(w . f / 2). Engines may
skip the features whose weight is 0 (they would be multiplied by 0), which
makes a shipped evaluation that uses few features several times cheaper; a
skip must never drop a feature that has a weight. Each test checks the
number, one weight at a time and with the weights each game ships, on
positions of seeded random and greedy play (Stosstruppen's own test,
test_stosstruppen_evaluation.py, does the same on both its scenarios)."""
import math
import os
import sys

import numpy as np
import pytest

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random_play  # noqa: E402

GAMES = [name for name in ardsearch.list_games() if ardsearch.load_game(name).feature_names]

# Parameter sets whose random play reaches more of the features (armies in
# contact, other scenarios); the game's defaults are played greedily too.
CONFIGS = {
    "microarmour": [{"deployment": "close"}, {"scenario": "minefield", "deployment": "close"},
                    {"scenario": "ambush"}, {"scenario": "airstrike", "deployment": "close"},
                    {"scenario": "combined", "deployment": "close"}],
    "stosstruppen": [{}, {"scenario": "villers"}],
    "undaunted": [{}, {"scenario": 3}],
}


@pytest.fixture(params=GAMES)
def game(request):
    """The game, its weight table (process-wide) restored after the test."""
    g = ardsearch.load_game(request.param)
    saved = g.weights
    yield g
    g.weights = saved


def positions(game):
    """Seeded random play under each parameter set, and greedy play. (A
    feature that is 0 in all of them cannot show a skip: Micro Armour's
    `broken` and `to_enter`, Mortain's `exit_shortfall` and Stosstruppen's
    `result`, 0 by design, are.)"""
    out = []
    for params in CONFIGS.get(game.name, [{}]):
        variant = ardsearch.load_game(game.name, **params)
        for seed in (3, 4):
            out += random_play.seeded_positions(variant.new_initial_state(seed=seed), seed, every=25, plies=3000)
    for seed in (3, 4):
        out += random_play.greedy_positions(game, seed)
    assert len(out) >= 30
    return out


def test_one_weight_alone_reaches_evaluate(game):
    """With one feature's weight alone, evaluate() is tanh(w f / 2) of that
    feature's full value, for every feature and both sides: nothing a weight
    reads is skipped, and features() does not depend on the weights."""
    states = positions(game)
    full = [(s.features(0), s.features(1)) for s in states]
    n = len(game.feature_names)
    for k, name in enumerate(game.feature_names):
        w = np.zeros(n)
        w[k] = 0.7
        game.weights = w
        for s, (f0, f1) in zip(states, full):
            assert s.evaluate(0) == pytest.approx(math.tanh(0.35 * f0[k]), abs=1e-12), name
            assert s.evaluate(1) == pytest.approx(math.tanh(0.35 * f1[k]), abs=1e-12), name
            assert np.array_equal(s.features(0), f0), name


def test_the_shipped_weights_are_what_evaluate_computes(game):
    """evaluate() with the weights the game ships is tanh(w . f / 2) of the
    full feature vector, and with every weight non-zero as well."""
    states = positions(game)
    for w in (game.weights, np.linspace(0.2, 0.9, len(game.feature_names))):
        game.weights = w
        for s in states:
            for p in (0, 1):
                assert s.evaluate(p) == pytest.approx(math.tanh(float(w @ s.features(p)) / 2), abs=1e-12)
