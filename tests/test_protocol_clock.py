"""Clock play: how much of the clock one decision may spend.

docs/protocol.md, go: "With a clock, the engine spends on one decision a
share of the time left: (time left - reserve) / h + 3/4 of the increment, at
most a quarter of the time left after `MoveOverhead` (also with `movestogo
1`). h is `movestogo` if given, else the decisions with a choice (more than
one legal action) the player is expected still to make: only its own
decisions count, not the opponent's and not chance events" and "When the
time left of the side to move is not given (`go btime 1000` with player 0
to move, `go winc 100` alone), the engine searches as without a clock".

The budgets are checked as planned (plan_budget), never by timing a search.
"""
from __future__ import annotations

import random

import pytest

from test_protocol_helpers import InProcess, require_search

from ardsearch.protocol.searcher import DEFAULT_SIMULATIONS, plan_budget
from ardsearch.protocol.words import to_word

SETUP = "position startpos seed 5 moves first:A obj:1 obj:2"  # ardennes, player 0 to move
SETTINGS = {"MoveOverhead": 30}


def planned(e: InProcess, go: str):
    """The budget the engine would search `go` with, from its current position."""
    state = e.server.position.state
    limits = e.server.parse_go(go.split()[1:], state)
    return plan_budget(limits, dict(e.server.values), None, "ismcts")


@pytest.fixture
def eng():
    require_search()
    e = InProcess()
    e.run("newgame ardennes", SETUP)
    return e


def test_movestogo_one_spends_at_most_a_quarter_of_the_clock(eng):
    """"at most a quarter of the time left after MoveOverhead": with
    movestogo 1 the whole clock is this decision's, but the cap holds."""
    budget = planned(eng, "go wtime 1000 btime 1000 movestogo 1")
    assert budget.seconds is not None and budget.seconds <= (1000 - 30) / 4 / 1000
    budget = planned(eng, "go wtime 1000 btime 1000 winc 2000 binc 2000 movestogo 1")
    assert budget.seconds <= (1000 - 30) / 4 / 1000


@pytest.mark.parametrize("start,inc", [(1000, 0), (60000, 0), (5000, 500), (100, 0)])
@pytest.mark.parametrize("movestogo", [1, 2, 5, None])
def test_the_quarter_cap_holds_for_every_horizon(start, inc, movestogo):
    from ardsearch.protocol.timeman import decision_budget_ms

    for decisions in (1, 2, 30, 200):
        ms = decision_budget_ms(start, inc, movestogo, 30, decisions)
        assert ms <= max(1, (start - 30) // 4), (start, inc, movestogo, decisions, ms)


@pytest.mark.parametrize("go,mover", [
    ("go btime 1000", 0),
    ("go winc 100", 0),
    ("go winc 100 binc 100 movestogo 3", 0),
    ("go wtime 1000 winc 100", 1),
])
def test_one_sided_clocks_search_as_without_a_clock(go, mover):
    """"with no time left given for it ... the engine searches as without a
    clock": the other side's clock and bare increments are ignored, and the
    default budget applies (no time limit at all)."""
    require_search()
    e = InProcess()
    e.run("newgame ardennes", SETUP if mover == 0 else "position startpos seed 5 moves first:G obj:1 obj:2")
    assert e.server.position.state.current_player() == mover
    budget = planned(e, go)
    assert budget.seconds is None and budget.simulations == DEFAULT_SIMULATIONS
    budget = planned(e, go + " nodes 77")
    assert budget.seconds is None and budget.simulations == 77
    out = e.run(go + " nodes 50")
    assert out[-1].startswith("bestmove "), out


def test_the_movers_own_clock_counts(eng):
    """The mover's clock limits the search even when the other side has none."""
    budget = planned(eng, "go wtime 4000")
    assert budget.seconds is not None and budget.seconds <= 1.0


def _random_game(game, seed):
    """A seeded random game: (events, the actor of each event or None for chance)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    events, actors = [], []
    while not state.is_terminal():
        if state.is_chance_node():
            a, actor = state.sample_chance(), None
        else:
            a, actor = rng.choice(state.legal_actions()), state.current_player()
        events.append(state.action_to_string(a))
        actors.append(actor)
        state.apply_action(a)
    return state, events, actors


def clock_share_used(name: str, seed: int, clock_ms: int = 60000, player: int = 0) -> float:
    """Plays a seeded random game and lets `player` plan every decision on a
    clock of clock_ms (no increment) as the engine does from its position
    line (its own view); each decision costs its planned budget (a forced one
    nothing). Returns the share of the clock spent by the end of the game."""
    import ardsearch

    game = ardsearch.load_game(name)
    final, events, actors = _random_game(game, seed)
    e = InProcess()
    e.run(f"newgame {name}")
    left = clock_ms
    history = final.masked_history(player) if game.hidden_information else events
    for i, actor in enumerate(actors):
        if actor != player:
            continue
        out = e.run(f"position startpos seed {seed} moves " + " ".join(map(to_word, history[:i])))
        assert out == [], out
        state = e.server.position.state
        if len(state.legal_actions()) == 1:
            continue  # answered at once
        budget = planned(e, f"go wtime {left} btime {clock_ms}" if player == 0
                         else f"go wtime {clock_ms} btime {left}")
        left -= int(budget.seconds * 1000)
        assert left > 0
    return 1 - left / clock_ms


# A move with spaces ("barrage e7") goes on a position line as one word,
# "barrage~e7" (docs/protocol.md). Mortain and Micro Armour are not run here.
@pytest.mark.parametrize("name", ["undaunted", "stosstruppen"])
def test_a_whole_game_uses_most_of_the_clock(name):
    """The horizon counts the player's own decisions: in games with many
    chance events (undaunted: about 790 events for about 120 decisions a
    player; stosstruppen: 440 for 125 and 91) an engine that counted events
    as moves spent well under half of its clock. Over a seeded random game of about typical length the planned
    budgets spend most of the clock and never all of it."""
    require_search()
    used = clock_share_used(name, seed=3)
    assert 0.5 <= used < 1.0, used


def test_the_time_before_the_search_is_charged_to_the_decision(monkeypatch):
    """The clock runs from `go`: parsing the limits (the first clock `go` of
    a game measures the game's typical length, tens of ms) and making the
    view count against the decision's budget, so the job's clock starts
    no later than the parsing."""
    require_search()
    from ardsearch.protocol import engine as engine_module

    e = InProcess()
    e.run("newgame ardennes", SETUP)
    marks = {}
    real_parse = e.server.parse_go
    real_job = engine_module.SearchJob

    def parse(args, state):
        marks["parse"] = engine_module.time.monotonic()
        return real_parse(args, state)

    class Job(real_job):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            marks["job"] = self

    monkeypatch.setattr(e.server, "parse_go", parse)
    monkeypatch.setattr(engine_module, "SearchJob", Job)
    out = e.run("go wtime 2000 btime 2000 nodes 50")
    assert out[-1].startswith("bestmove ")
    assert marks["job"].t0 <= marks["parse"]
