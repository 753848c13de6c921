"""Micro Armour: the evaluation is good enough that the one-ply greedy bot
beats random play clearly (seeded games, seats alternating)."""
from __future__ import annotations

import pytest

import ardsearch
from ardsearch.bots import HeuristicBot, RandomBot
from ardsearch.match import play_game
from ardsearch.games.microarmour import SPEC


@pytest.mark.parametrize("deployment,scenario", [("edges", "introductory"), ("close", "introductory"),
                                                 ("edges", "barrage")])
def test_greedy_beats_random(deployment, scenario):
    game = ardsearch.Game(SPEC, {"deployment": deployment, "scenario": scenario})
    wins = 0
    for seed in range(10):
        seat = seed % 2
        bots = [None, None]
        bots[seat] = HeuristicBot(game, seed=seed)
        bots[1 - seat] = RandomBot(game, seed=seed)
        wins += play_game(game, bots, seed=seed).returns[seat] > 0
    assert wins >= 8, f"greedy won only {wins} of 10"
