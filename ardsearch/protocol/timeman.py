"""How long to think on one decision, from the go limits and the clock.

A turn in these games is often several decisions (ardennes: up to 4 AP of
actions, then pass), and the clock runs for the whole turn; games last
hundreds of decisions. So the budget of one decision is a small share of the
time left, over a horizon of the decisions still to come, and before sharing
the engine holds back MoveOverhead for each of those decisions: the pipe,
the process wake-up and the referee's own latency are paid on every one of
them, whatever the engine thinks. With a horizon h and a reserve of
overhead x h, the time left after each decision stays above the reserve as
long as the real latency is below MoveOverhead, so the engine does not
lose on time by thinking.

The horizon is `movestogo` when the referee gives it; otherwise the
decisions with a choice (more than one legal action) the mover is expected
still to make: its typical number in a game (measured once per game and seat
with seeded random playouts, which last about as long as real games in these
race-to-objectives games) minus the ones it has made, never fewer than
MIN_HORIZON. Only the mover's own decisions count: chance events and the
opponent's moves cost the mover no time, and in games with many chance
events (undaunted: about 790 events for about 120 decisions a player)
counting events as moves left most of the clock unused. A forced decision
(one legal action) is answered at once, so it takes no share of the time,
but its latency is reserved like any other decision's.

One decision never spends more than a quarter of the time left after
MoveOverhead, whatever the horizon (even `movestogo 1`).
"""
from __future__ import annotations

import random

MIN_HORIZON = 30
# Never spend more than this share of the remaining time on one decision.
MAX_SHARE = 0.25
MIN_BUDGET_MS = 1
PLAYOUTS = 32
PLAYOUT_SEED = 12345


_TYPICAL: dict = {}


def typical_decisions(game) -> tuple[tuple[float, float], tuple[float, float]]:
    """((decisions of player 0, of player 1), (those with a choice, same order)):
    means over PLAYOUTS seeded uniformly random games of `game`."""
    key = (game.name, tuple(sorted(game.params.items())))
    if key not in _TYPICAL:
        rng = random.Random(PLAYOUT_SEED)
        decisions, choices = [0, 0], [0, 0]
        for k in range(PLAYOUTS):
            state = game.new_initial_state(seed=PLAYOUT_SEED + k)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_random_chance()
                    continue
                player, legal = state.current_player(), state.legal_actions()
                decisions[player] += 1
                choices[player] += len(legal) > 1
                state.apply_action(legal[rng.randrange(len(legal))])
        _TYPICAL[key] = (tuple(d / PLAYOUTS for d in decisions), tuple(c / PLAYOUTS for c in choices))
    return _TYPICAL[key]


def expected_decisions_left(game, player: int, decisions_made: int = 0, choices_made: int = 0) -> tuple[int, int]:
    """(decisions with a choice, all decisions) that `player` is expected
    still to make, having made decisions_made of which choices_made had a
    choice; the first is at least MIN_HORIZON and the second at least the first."""
    decisions, choices = typical_decisions(game)
    with_choice = max(MIN_HORIZON, round(choices[player] - choices_made))
    return with_choice, max(with_choice, round(decisions[player] - decisions_made))


def decision_budget_ms(remaining_ms: int, increment_ms: int = 0, movestogo: int | None = None,
                       overhead_ms: int = 30, decisions_left: int = MIN_HORIZON,
                       latency_decisions: int | None = None) -> int:
    """Milliseconds to think on this decision with `remaining_ms` on the clock.
    decisions_left: the decisions with a choice still to come (the horizon
    when movestogo is not given); latency_decisions: all decisions still to
    come, each paying MoveOverhead (default: the horizon)."""
    horizon = max(1, movestogo) if movestogo else max(MIN_HORIZON, decisions_left)
    # With an increment that covers the overhead, each decision pays its own latency.
    paying = horizon if movestogo or latency_decisions is None else max(horizon, latency_decisions)
    reserve = overhead_ms if increment_ms >= overhead_ms else overhead_ms * paying
    usable = max(0, remaining_ms - reserve)
    budget = usable / horizon + 0.75 * increment_ms
    budget = min(budget, max(0, remaining_ms - overhead_ms) * MAX_SHARE)
    return max(MIN_BUDGET_MS, int(budget))
