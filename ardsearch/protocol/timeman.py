"""How long to think on one decision, from the go limits and the clock.

A turn in these games is often several decisions (ardennes: up to 4 AP of
actions, then pass), and the clock runs for the whole turn. The budget for a
decision is therefore a fraction of the remaining time spread over a horizon
of many decisions, so the budgets shrink geometrically as the clock runs down
and never sum to more than the time left. MoveOverhead covers the pipe, the
process wake-up and the referee's own latency.
"""
from __future__ import annotations

# Decisions we expect still to make when the referee gives no movestogo.
DEFAULT_HORIZON = 40
# Never spend more than this share of the remaining time on one decision.
MAX_SHARE = 0.25
MIN_BUDGET_MS = 1


def decision_budget_ms(remaining_ms: int, increment_ms: int = 0, movestogo: int | None = None,
                       overhead_ms: int = 30) -> int:
    """Milliseconds to think on this decision with `remaining_ms` on the clock."""
    usable = max(0, remaining_ms - overhead_ms)
    horizon = max(1, movestogo) if movestogo else DEFAULT_HORIZON
    budget = usable / horizon + 0.75 * increment_ms
    budget = min(budget, usable * MAX_SHARE if horizon > 1 else usable * 0.8)
    return max(MIN_BUDGET_MS, int(budget))
