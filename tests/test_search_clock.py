"""The searches' `clock` (issue 15, equal-time matches on a loaded machine):
time_limit counts wall time by default, or with clock="cpu" the searching
thread's own CPU time (each MCTS thread its own). Plumbed through the bots
(`clock=`), `ardsearch tournament` / `match` (`--clock`, the `clock=` limit)
and the protocol (`setoption name Clock value cpu|wall`). Exact checks only:
which clock a search reports, that a CPU-clock search stops only once its own
CPU time reached the limit (the stop rule itself, not a speed), and that
bad values are refused with a message saying what to give."""
import pytest

from test_protocol_helpers import InProcess, require_search

import ardsearch
from ardsearch import _search
from ardsearch.bots import ExpectimaxBot, MCTSBot, load_bot
from ardsearch.tournament import parse_bot
from ardsearch.tournament.entrants import Limits, TimeControl, apply_settings
from ardsearch.tournament.players import BotPlayer

GAME = "ardennes(road_length=8,max_rounds=10)"
SETUP = "position startpos seed 5 moves first:A obj:1 obj:2"


def decision_state(name="mortain"):
    # Mortain's historical start: its default begins with the US setup, which
    # the bots play from the book without a search (and so without a clock)
    game = ardsearch.load_game(name, **({"setup": "historical"} if name == "mortain" else {}))
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    return game, s


# ---- the C++ searches ---------------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
def test_mcts_cpu_clock_stops_on_its_own_cpu_time_and_says_so(threads):
    """clock="cpu": the search ends on time_limit counted in the searching
    threads' CPU time, so the busiest thread has used at least the limit
    when it returns (the only stop here: no simulation budget, no proof at
    the start of Mortain), and the result names the clock it used."""
    game, s = decision_state()
    m = _search.MCTS(game.capsule, seed=1, threads=threads, rollout_depth=3)
    r = m.search(s.raw(), time_limit=0.02, clock="cpu")
    assert r["clock"] == "cpu" and r["proven"] is None
    assert r["cpu_time"] >= 0.02
    assert r["simulations"] >= threads


def test_mcts_clock_defaults_to_wall():
    game, s = decision_state()
    m = _search.MCTS(game.capsule, seed=1, rollout_depth=3)
    assert m.search(s.raw(), simulations=50)["clock"] == "wall"
    assert m.search(s.raw(), time_limit=0.01, clock="wall")["clock"] == "wall"


def test_expectimax_cpu_clock_stops_on_its_own_cpu_time_and_says_so():
    game, s = decision_state()
    e = _search.Expectimax(game.capsule)
    r = e.search(s.raw(), time_limit=0.02, clock="cpu")
    assert r["clock"] == "cpu" and r["cpu_time"] > 0.0 and r["depth"] >= 1
    assert e.search(s.raw(), depth=1)["clock"] == "wall"


@pytest.mark.parametrize("bad", ["CPU ", "gpu", "", "process"])
def test_searches_refuse_an_unknown_clock(bad):
    game, s = decision_state()
    with pytest.raises(ValueError, match=r"clock must be 'wall' \(time_limit counts wall time\) or 'cpu'"):
        _search.MCTS(game.capsule).search(s.raw(), simulations=10, clock=bad)
    with pytest.raises(ValueError, match=r"clock must be 'wall' .* or 'cpu'"):
        _search.Expectimax(game.capsule).search(s.raw(), depth=1, clock=bad)


# ---- bots -----------------------------------------------------------------------

def test_bots_search_on_the_clock_they_are_given():
    game, s = decision_state()
    bot = MCTSBot(game, simulations=None, time_limit=0.02, clock="cpu")
    info = bot.analyze(s)
    assert info["clock"] == "cpu" and info["cpu_time"] >= 0.02
    assert MCTSBot(game, simulations=30).analyze(s)["clock"] == "wall"
    ex = ExpectimaxBot(game, time_limit=0.02, clock="cpu")
    assert ex.analyze(s)["clock"] == "cpu"
    assert load_bot("mcts", game, clock="CPU").clock == "cpu"   # a setting's text, any case


@pytest.mark.parametrize("make", [
    lambda g: MCTSBot(g, clock="sundial"),
    lambda g: ExpectimaxBot(g, clock="sundial"),
    lambda g: load_bot("ismcts", g, clock="sundial"),
])
def test_bots_refuse_an_unknown_clock(make):
    game = ardsearch.load_game("mortain")
    with pytest.raises(ValueError, match=r"setting clock='sundial' is not valid: expected wall .* or cpu"):
        make(game)


# ---- tournament and match ------------------------------------------------------------

def test_tournament_clock_limit_reaches_the_bots():
    """`clock` is a limit (what movetime counts): per entrant or the
    --clock default, kept through JSON (resume), and set on each game's bot."""
    e = parse_bot("mcts:clock=cpu,movetime=0.1")
    assert e.limits == Limits(movetime=0.1, clock="cpu") and e.options == {}
    assert Limits.from_json(e.limits.to_json()) == e.limits
    both = apply_settings([parse_bot("mcts"), parse_bot("greedy")], [], Limits(movetime=0.1, clock="cpu"))
    assert [x.limits.clock for x in both] == ["cpu", "cpu"]
    player = BotPlayer(both[0])
    player.new_game(ardsearch.load_game(GAME), 0, 5)
    assert player.bot.clock == "cpu" and player.bot.time_limit == 0.1
    greedy = BotPlayer(both[1])
    greedy.new_game(ardsearch.load_game(GAME), 1, 5)   # a bot without a time limit ignores it
    assert not hasattr(greedy.bot, "clock")


def test_tournament_refuses_a_bad_clock_and_cpu_with_a_game_clock():
    with pytest.raises(ValueError, match=r"limit clock='sundial' is not valid: expected wall .* or cpu"):
        parse_bot("mcts:clock=sundial")
    with pytest.raises(ValueError, match="clock=cpu applies to movetime, but its tc=10"):
        apply_settings([parse_bot("mcts:tc=10+0.1"), parse_bot("greedy")], [], Limits(clock="cpu"))
    # a game clock on wall time is the default, and allowed
    ok = apply_settings([parse_bot("mcts:tc=10+0.1,clock=wall"), parse_bot("greedy")], [], Limits())
    assert ok[0].limits == Limits(tc=TimeControl(10.0, 0.1), clock="wall")


def test_tournament_cli_clock_option():
    from ardsearch.tournament.cli import config_from_args, tournament_parser
    p = tournament_parser()
    args = p.parse_args([GAME, "--bots", "mcts", "mcts-v1", "--movetime", "0.1", "--clock", "cpu"])
    config = config_from_args(args, p)
    assert [e.limits for e in config.entrants] == [Limits(movetime=0.1, clock="cpu")] * 2
    with pytest.raises(SystemExit):
        p.parse_args([GAME, "--bots", "mcts", "greedy", "--clock", "sundial"])


def test_match_clock_goes_to_the_bots_that_search():
    from ardsearch.match import run_match
    over = ({"simulations": 10, "time_limit": 0}, {})
    result = run_match(GAME, "mcts", "greedy", games=1, seed=2, overrides=over, progress=False, clock="cpu")
    players = {p["name"]: p.get("settings", {}) for p in result.records[0].record.players}
    assert players["mcts"]["clock"] == "cpu" and "clock" not in players["greedy"]
    assert over == ({"simulations": 10, "time_limit": 0}, {})   # the caller's dicts are left alone
    with pytest.raises(ValueError, match=r"setting clock='x' is not valid"):
        run_match(GAME, "mcts", "greedy", games=1, progress=False, clock="x")


# ---- protocol --------------------------------------------------------------------

def test_protocol_clock_option(monkeypatch):
    """setoption name Clock value cpu|wall: declared in the handshake as a
    combo, a bad value is one error line (the engine goes on), and a `go
    movetime` then searches on the CPU clock; a go with a game clock
    (wtime/btime) stays on wall time, the time that clock loses."""
    require_search()
    from ardsearch.protocol import searcher
    e = InProcess()
    options = {s.split()[2]: s for s in e.run("ard") if s.startswith("option ")}
    assert options["Clock"] == "option name Clock type combo default wall var wall var cpu"
    out = e.run("setoption name Clock value sundial")
    assert len(out) == 1 and out[0].startswith("error bad-argument option Clock must be one of wall, cpu")
    assert e.run("isready") == ["readyok"]

    used = []
    real = searcher.run_search

    def spy(*args, **kw):
        used.append(args[5] if len(args) > 5 else kw.get("clock", "wall"))
        return real(*args, **kw)

    monkeypatch.setattr(searcher, "run_search", spy)
    e.run("newgame ardennes", SETUP)
    assert e.run("go nodes 50")[-1].startswith("bestmove ")
    assert e.run("setoption name Clock value cpu") == []
    assert e.run("go movetime 20")[-1].startswith("bestmove ")
    assert e.run("go wtime 5000 btime 5000")[-1].startswith("bestmove ")
    assert used == ["wall", "cpu", "wall"]


def test_match_clock_reaches_a_level():
    """level-6 is the bare preset capped by time: `ardsearch match --clock
    cpu` must count that cap in CPU time for a level as for its base
    (before session 39 a level had no `clock`, so the match left it on wall
    time and its record said nothing)."""
    from ardsearch.match import run_match
    result = run_match(GAME, "level-1", "greedy", games=1, seed=2, progress=False, clock="cpu")
    players = {p["name"]: p.get("settings", {}) for p in result.records[0].record.players}
    assert players["level-1"]["clock"] == "cpu" and "clock" not in players["greedy"]
