"""Reaching a position by random play: the walk that tests, benchmarks and
tools use to sample positions, written once."""
from __future__ import annotations


def random_walk(state, plies, rng):
    """Plays up to `plies` events on `state` in place: a uniformly random
    legal action from `rng` (a random.Random) at a decision, the state's own
    seeded chance draw at a chance node; stops early at the end of the game.
    Returns the state."""
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state
