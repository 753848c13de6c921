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
decisions the mover is expected still to make: half the game's typical
length (measured once per game with random playouts in C, which last about
as long as real games in these race-to-objectives games) minus the events
already played, never fewer than MIN_HORIZON.
"""
from __future__ import annotations

MIN_HORIZON = 30
# Never spend more than this share of the remaining time on one decision.
MAX_SHARE = 0.25
MIN_BUDGET_MS = 1


_TYPICAL: dict = {}


def typical_game_events(game) -> float:
    """Mean events (chance included) of 32 seeded random games of `game`."""
    key = (game.name, tuple(sorted(game.params.items())))
    if key not in _TYPICAL:
        from ardsearch import _core

        events, _ = _core.random_playouts(game, 32, 12345)
        _TYPICAL[key] = events / 32.0
    return _TYPICAL[key]


def expected_decisions_left(game, events_played: int) -> int:
    return max(MIN_HORIZON, int((typical_game_events(game) - events_played) / 2))


def decision_budget_ms(remaining_ms: int, increment_ms: int = 0, movestogo: int | None = None,
                       overhead_ms: int = 30, decisions_left: int = MIN_HORIZON) -> int:
    """Milliseconds to think on this decision with `remaining_ms` on the clock."""
    horizon = max(1, movestogo) if movestogo else max(MIN_HORIZON, decisions_left)
    # With an increment that covers the overhead, each decision pays its own latency.
    reserve = overhead_ms if increment_ms >= overhead_ms else overhead_ms * horizon
    usable = max(0, remaining_ms - reserve)
    budget = usable / horizon + 0.75 * increment_ms
    budget = min(budget, max(0, remaining_ms - overhead_ms) * (MAX_SHARE if horizon > 1 else 0.8))
    return max(MIN_BUDGET_MS, int(budget))
