"""Points where docs/protocol.md had to be settled: `go infinite` with other
limits or a single legal action, and the order of the Ardennes objective
draws in the examples."""
from __future__ import annotations

import os
import random
import re
import time

import pytest

from test_protocol_helpers import ROOT, InProcess, require_search

from ardsearch.protocol.searcher import plan_budget

SETUP = "position startpos seed 5 moves first:A obj:1 obj:2"
SPEC = os.path.join(ROOT, "docs", "protocol.md")


def wait_for(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def still_searching_then_stop(e: InProcess) -> list[str]:
    """The go has not answered after two info periods; stop; its output."""
    time.sleep(1.1)
    before = e.out.take()
    assert e.server.busy() and not any(s.startswith("bestmove") for s in before), before
    e.send("stop")
    out = before + e.run()
    assert sum(s.startswith("bestmove") for s in out) == 1, out
    return out


@pytest.mark.parametrize("extra", ["nodes 5", "iterations 5", "movetime 1", "depth 1",
                                   "wtime 100 btime 100", "wtime 100 btime 100 movestogo 1"])
def test_infinite_ignores_every_other_limit_in_the_plan(extra):
    """docs/protocol.md, go: "`go infinite` searches until `stop`, as in UCI:
    it ignores every other limit given with it"."""
    require_search()
    e = InProcess()
    e.run("newgame ardennes", SETUP)
    for words in (f"infinite {extra}", f"{extra} infinite"):
        limits = e.server.parse_go(words.split(), e.server.position.state)
        budget = plan_budget(limits, dict(e.server.values), None, "mcts")
        assert budget.infinite and budget.simulations is None and budget.seconds is None \
            and budget.depth is None, (words, budget)


@pytest.mark.parametrize("algorithm,limit", [("mcts", "nodes 1"), ("expectimax", "depth 1")])
def test_infinite_with_a_limit_searches_on_until_stop(algorithm, limit):
    """`go infinite nodes 1000` and `go infinite depth 2` search until `stop`
    like `go infinite`: the search goes past the limit (here: expectimax
    completes depths beyond 1) and answers only after stop."""
    require_search()
    e = InProcess()
    e.run("newgame ardennes", f"setoption name Algorithm value {algorithm}", SETUP)
    e.send(f"go infinite {limit}")
    seen: list[str] = []

    def past_the_limit():
        seen.extend(e.out.take())
        finals = [s.split() for s in seen if s.startswith("info depth")]
        if algorithm == "expectimax":
            return any(int(w[2]) >= 2 for w in finals)
        return any(int(w[w.index("nodes") + 1]) > 1 for w in finals)

    assert wait_for(past_the_limit), seen
    assert e.server.busy() and not any(s.startswith("bestmove") for s in seen), seen
    e.send("stop")
    out = seen + e.run()
    assert sum(s.startswith("bestmove") for s in out) == 1, out


def test_infinite_with_a_preset_that_does_not_search_waits_for_stop():
    """"its `bestmove` comes only after `stop` ... even when the search has
    nothing left to do (... a preset that does not search)"."""
    require_search()
    e = InProcess()
    e.run("newgame ardennes", "setoption name Preset value random", SETUP)
    e.send("go infinite")
    out = still_searching_then_stop(e)
    assert out[-1].startswith("bestmove ")


def forced_position():
    """An undaunted position line (full history) where the mover has exactly one legal action."""
    import ardsearch

    game = ardsearch.load_game("undaunted")
    rng = random.Random(2)
    for seed in range(50):
        state = game.new_initial_state(seed=seed)
        for _ in range(400):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_random_chance()
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                return seed, state.history_strings()
            state.apply_action(rng.choice(legal))
    raise AssertionError("no forced position found")


def test_infinite_searches_also_with_a_single_legal_action():
    """"it searches also when only one action is legal": without infinite
    the single action is answered at once, with it only after stop."""
    require_search()
    seed, moves = forced_position()
    e = InProcess()
    e.run("newgame undaunted", f"position startpos seed {seed} moves {' '.join(moves)}")
    out = e.run("go nodes 1000")
    assert out[-1].startswith("bestmove ") and " nodes 0 " in out[0], out
    e.send("go infinite")
    out = still_searching_then_stop(e)
    assert out[-1].startswith("bestmove ")


def test_the_spec_says_the_infinite_rule_once():
    """The rule is stated in one place; the rest of the spec refers to it."""
    with open(SPEC, encoding="ascii") as f:
        text = f.read()
    assert text.count("searches until `stop`, as in UCI") == 1
    assert "With a single legal action the engine\nanswers at once (but see `go infinite`)" in text


# ---- Ardennes: the starting player draws its objective first -------------

def test_the_starting_player_draws_first():
    """ardennes RULES.md, Setup: "The starting player draws an Objective card
    ..., then the other player". So after `first:G` the first `obj` is the
    Germans' (player 1) card, hidden from the Allies (player 0)."""
    require_search()
    e = InProcess()
    e.run("newgame ardennes")
    e.run("position startpos seed 7 moves first:G ? obj:5")
    assert e.server.position.viewer == 0
    e.run("position startpos seed 7 moves first:G obj:5 ?")
    assert e.server.position.viewer == 1
    e.run("position startpos seed 7 moves first:A obj:5 ?")
    assert e.server.position.viewer == 0


def spec_sessions():
    """The position lines of the spec's examples, as (engine label, line)."""
    with open(SPEC, encoding="ascii") as f:
        text = f.read()
    return re.findall(r"^ {4}(E[01]|) ?> (position startpos .*)$", text, flags=re.M)


def test_the_spec_examples_follow_the_draw_order():
    """Every position line in the spec's Ardennes examples is accepted, except
    the ones shown with an error, and the E0/E1 lines of the whole-game
    transcript are the Allies' and the Germans' views: each engine is sent
    its own card and `?` for the other's, in the order the cards were drawn
    (the starting player first)."""
    require_search()
    sessions = spec_sessions()
    assert len(sessions) >= 20
    with open(SPEC, encoding="ascii") as f:
        shown_errors = set(re.findall(r"^ {4}> (position .*)\n {4}< error", f.read(), flags=re.M))
    e = InProcess()
    e.run("newgame ardennes")
    for label, line in sessions:
        out = e.run(line)
        if line in shown_errors:
            assert out and out[0].startswith("error "), (line, out)
            continue
        assert out == [], (line, out)
        if label:
            assert e.server.position.viewer == int(label[1]), (label, line)
        words = line.split()
        if "?" in words:
            first = words[words.index("moves") + 1]
            starter = 0 if first == "first:A" else 1
            # the starter's card is the first obj, the other's the second
            hidden_at = words.index("?") - words.index("moves") - 2
            assert e.server.position.viewer == (1 - starter if hidden_at == 0 else starter), line


def test_a_bare_engine_searches_as_the_presets_do():
    """Defaults are the best play: with no Preset option, MCTS searches with
    the `mcts` preset's shape for the game (Micro Armour: leaf evaluation and
    normalized UCB), ISMCTS with the `ismcts` preset's, so the same search as
    a bare MCTSBot / ISMCTSBot with the same seed; an explicit Exploration
    still wins (docs/protocol.md, Options)."""
    import ardsearch
    from ardsearch.protocol.searcher import make_search

    for name in ("mortain", "microarmour", "undaunted"):
        game = ardsearch.load_game(name)
        state = game.new_initial_state(seed=2)
        while state.is_chance_node():
            state.apply_random_chance()
        view = state.view(state.current_player()) if game.hidden_information else state
        algorithm = "ismcts" if game.hidden_information else "mcts"
        bot_class = ardsearch.ISMCTSBot if game.hidden_information else ardsearch.MCTSBot
        bot = bot_class(game, simulations=400, seed=0)
        engine = make_search(game, algorithm, {"Seed": 0, "Hash": 512, "Exploration": "auto"}, None)
        mine = engine.search(view.raw(), simulations=400)
        theirs = bot._mcts.search(view.raw(), simulations=400)
        assert (mine["best"], list(mine["visits"])) == (theirs["best"], list(theirs["visits"])), name
        if name == "mortain":
            tuned = make_search(game, algorithm, {"Seed": 0, "Hash": 512, "Exploration": 3.0}, None)
            auto = make_search(game, algorithm, {"Seed": 0, "Hash": 512, "Exploration": "auto"}, None)
            assert list(tuned.search(view.raw(), simulations=5000)["visits"]) != \
                list(auto.search(view.raw(), simulations=5000)["visits"]), name
