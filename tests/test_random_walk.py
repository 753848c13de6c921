"""ardsearch.random_walk: the shared way to reach a position by random play."""
import random

import ardsearch
from ardsearch.random_walk import random_walk


def test_walk_is_reproducible_and_plays_exactly_the_events_asked():
    game = ardsearch.load_game("mortain")
    a = random_walk(game.new_initial_state(seed=4), 30, random.Random(9))
    b = random_walk(game.new_initial_state(seed=4), 30, random.Random(9))
    assert a.history() == b.history() and len(a.history()) == 30


def test_walk_stops_at_the_end_of_the_game():
    game = ardsearch.load_game("ardennes")
    state = random_walk(game.new_initial_state(seed=1), 10 ** 6, random.Random(1))
    assert state.is_terminal() and len(state.history()) < 10 ** 6
