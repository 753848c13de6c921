"""Chance outcomes for duplicate pairs.

The referee owns all randomness. The k-th chance event of a game is decided
by one uniform number u_k drawn from its own stream, seeded by the game seed
and k alone; the outcome is the one whose cumulative probability first
exceeds u_k, in the order chance_outcomes() lists them. Both legs of a
duplicate pair share the game seed, so:

    the k-th chance event gets the same outcome in both legs whenever it
    offers the same outcomes with the same probabilities in both legs.

That is what "the same chance outcomes where the game allows" means. A
shared stream that both legs consume in turn would drift apart for good
after the first chance event that happens in one leg only; keying each draw
to its event index keeps later events aligned. Where the legs' play makes
the distributions differ (a deck thinned differently, a die that is rolled
in one leg only), outcomes can differ from that event on, but only where
they must. In `ardennes` every chance event (who starts, the two objective
draws) happens before any decision, so both legs always see identical
outcomes.
"""
from __future__ import annotations

from ardsearch.match import derive_seed

_STREAM = 0xD0B1E  # separates chance draws from the other seeds derived from a game seed


def uniform(game_seed: int, event: int) -> float:
    """u in [0, 1) for chance event number `event` of the game."""
    return (derive_seed(game_seed, _STREAM, event) >> 10) / float(1 << 53)


class DuplicateChance:
    """The `chance` callable for match.play_game: picks outcome k from u_k."""

    def __init__(self, game_seed: int):
        self.game_seed = game_seed
        self.events = 0

    def __call__(self, state) -> int:
        u = uniform(self.game_seed, self.events)
        self.events += 1
        outcomes = state.chance_outcomes()
        total = 0.0
        for action, prob in outcomes:
            total += prob
            if u < total:
                return action
        return outcomes[-1][0]  # rounding left u above the last cumulative sum
