"""Micro Armour: the engine against the pure-Python reference model
(tests/reference/microarmour.py) over seeded random games.

At every step both must agree on the structured state (to_dict), on the legal
moves in notation, and on the chance outcomes with their exact probabilities.
Most games start with the armies close (deployment=close) and run a few turns,
so random play reaches fire, opportunity and covering fire, losses, the hidden
break-point cards and recovery; a few play the scenario's full 12 turns.
"""
from __future__ import annotations

import os
import random
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import microarmour as ref  # noqa: E402

SIDE_PARAMS = ("german_cohesion", "soviet_cohesion")


def make_ref(params):
    return ref.Ref(turns=params.get("turns"), determination=params.get("determination", 35),
                   cohesion=[params.get(k, d) for k, d in zip(SIDE_PARAMS, (15, 12))],
                   quality=[params.get("german_quality", 1), params.get("soviet_quality", 0)],
                   deployment=params.get("deployment", "edges"), hot_shot=params.get("hot_shot", False),
                   low_ammo=params.get("low_ammo", False), scenario=params.get("scenario", "introductory"))


def play_both(params, seed):
    game = ardsearch.Game(SPEC, params)
    state = game.new_initial_state(seed=seed)
    model = make_ref(params)
    rng = random.Random(seed)
    steps = 0
    while True:
        d = state.to_dict()
        assert d == model.to_dict(), f"seed {seed} step {steps}: states differ"
        if state.is_terminal():
            assert model.current() == "terminal"
            assert state.returns() == model.returns()
            return steps
        if state.is_chance_node():
            got = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
            want = model.chances()
            assert set(got) == set(want), f"seed {seed} step {steps}: outcomes {got} vs {want}"
            for k in got:
                assert abs(got[k] - float(want[k])) < 1e-12, f"seed {seed} step {steps}: P({k})"
            a = state.apply_random_chance()
        else:
            got = sorted(state.action_to_string(a) for a in state.legal_actions())
            assert got == sorted(model.legal()), f"seed {seed} step {steps}: legal moves differ"
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
        model.apply(state.history_strings()[-1])
        steps += 1


CLOSE = [({"deployment": "close", "turns": 3}, seed) for seed in range(260)]
VARIED = [({"deployment": "close", "turns": 4, "german_cohesion": 11 + seed % 8, "soviet_cohesion": 10 + seed % 9,
            "german_quality": seed % 6 - 2, "determination": 20 + seed % 30, "hot_shot": seed % 2 == 0,
            "low_ammo": seed % 3 == 0},
           1000 + seed) for seed in range(24)]
FULL = [({}, 2000 + seed) for seed in range(3)]
# the barrage scenario (artillery and smoke): close armies so that fire lands on
# stands and stands move into impact areas; some at other cohesion levels (the
# rolls), one full game
BARRAGE = [({"scenario": "barrage", "deployment": "close", "turns": 5}, 3000 + seed) for seed in range(40)] + \
    [({"scenario": "barrage", "deployment": "close", "turns": 4, "german_cohesion": 8 + seed % 12,
       "soviet_cohesion": 6 + seed % 14, "hot_shot": seed % 2 == 0}, 3100 + seed) for seed in range(12)] + \
    [({"scenario": "barrage"}, 3200)]


@pytest.mark.parametrize("params,seed", CLOSE + VARIED + FULL + BARRAGE)
def test_engine_matches_reference(params, seed):
    play_both(params, seed)


def scattered_position(seed):
    """Every stand on a random square of a 14 x 8 patch in the middle of the
    map, random S/D markers, from the posture phase of turn 1 of 2: random
    play then reaches close assaults, overruns, passing enemy armour,
    retreats and lost-GHQ replacement."""
    rng = random.Random(seed)
    game = ardsearch.Game(SPEC, {"turns": 2, "hot_shot": seed % 3 == 0, "low_ammo": seed % 4 == 0})
    d = game.new_initial_state(seed=seed).to_dict()
    squares = [(x, y) for x in range(8, 22) for y in range(0, 8)]
    rng.shuffle(squares)
    for st, (x, y) in zip(d["stands"], squares):
        st["at"] = [x, y]
        st["facing"] = rng.choice(ref.DIRS)
        st["suppressed"] = rng.random() < 0.15
        st["disorganized"] = rng.random() < 0.1
    d["phase"] = "posture"
    d["first"] = d["active"] = rng.choice(ref.SIDES)
    return game, game.state_from_dict(d)


@pytest.mark.parametrize("seed", range(150))
def test_engine_matches_reference_from_scattered_positions(seed):
    game, state = scattered_position(seed)
    model = ref.from_dict(state.to_dict())
    rng = random.Random(seed)
    steps = 0
    while True:
        assert state.to_dict() == model.to_dict(), f"seed {seed} step {steps}: states differ"
        if state.is_terminal():
            assert state.returns() == model.returns()
            return
        if state.is_chance_node():
            got = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
            want = model.chances()
            assert set(got) == set(want), f"seed {seed} step {steps}: outcomes {got} vs {want}"
            for k in got:
                assert abs(got[k] - float(want[k])) < 1e-12, f"seed {seed} step {steps}: P({k})"
            state.apply_random_chance()
        else:
            got = sorted(state.action_to_string(a) for a in state.legal_actions())
            assert got == sorted(model.legal()), f"seed {seed} step {steps}: legal moves differ"
            # favour the rare close-combat moves so they are exercised often
            legal = state.legal_actions()
            special = [a for a in legal if state.action_to_string(a).split()[0] in ("assault", "overrun", "retreat")]
            state.apply_action(rng.choice(special) if special and rng.random() < 0.5 else rng.choice(legal))
        model.apply(state.history_strings()[-1])
        steps += 1
