"""Bots (ardsearch.bots) on Clash of the Ardennes: the common interface,
tactics, the solver through analyze(), determinism, hidden-information
discipline, the roster, and a seeded match mcts-fast vs random."""
import pytest

import ardsearch
from ardsearch.bots import (ExpectimaxBot, HeuristicBot, ISMCTSBot, MCTSBot, RandomBot, list_bots,
                            load_bot)
from test_search_mcts import MUST_BLOCK, WIN_IN_ONE, WIN_IN_TWO, position

FAST = dict(simulations=400, time_limit=None)


@pytest.fixture(scope="module")
def game():
    return ardsearch.load_game("ardennes")


def first_decision(game, seed):
    s = game.new_initial_state(seed=seed)
    while s.is_chance_node():
        s.apply_random_chance()
    return s


def play(game, players, seed):
    """One seeded game; chance outcomes from the state's own seeded RNG."""
    s = game.new_initial_state(seed=seed)
    for b in players:
        b.reset()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_random_chance()
        else:
            s.apply_action(players[s.current_player()].step(s))
    return s.returns()


def every_bot(game, seed=0):
    return [RandomBot(game, seed=seed), HeuristicBot(game, seed=seed), MCTSBot(game, seed=seed, **FAST),
            ISMCTSBot(game, seed=seed, **FAST), ExpectimaxBot(game, depth=1, time_limit=None, seed=seed)]


def test_bots_are_exported_from_the_package():
    assert ardsearch.MCTSBot is MCTSBot and ardsearch.load_bot is load_bot


@pytest.mark.parametrize("index", range(5))
def test_interface_and_refusals(game, index):
    bot = every_bot(game)[index]
    assert isinstance(bot.name, str) and bot.name
    s = first_decision(game, 1)
    a = bot.step(s)
    assert a in s.legal_actions()
    info = bot.analyze(s)
    for key in ("best", "move", "visits", "values", "pv", "nodes", "nps", "time", "wp"):
        assert key in info, key
    assert info["best"] in s.legal_actions() and 0.0 <= info["wp"] <= 1.0
    assert info["move"] == s.action_to_string(info["best"])
    bot.reset()
    with pytest.raises(ValueError, match="chance node"):
        bot.step(game.new_initial_state(seed=0))
    over = position(game, *WIN_IN_ONE)
    over.apply("M3")
    assert over.is_terminal()
    with pytest.raises(ValueError, match="game is over"):
        bot.step(over)


@pytest.mark.parametrize("make", [lambda g: MCTSBot(g, seed=3, **FAST),
                                  lambda g: ISMCTSBot(g, seed=3, **FAST),
                                  lambda g: HeuristicBot(g, seed=3)])
def test_takes_the_win(game, make):
    s = position(game, *WIN_IN_ONE)
    assert s.action_to_string(make(game).step(s)) == "M3"


@pytest.mark.parametrize("make", [lambda g: MCTSBot(g, seed=5, simulations=3000),
                                  lambda g: ISMCTSBot(g, seed=5, simulations=3000)])
def test_avoids_the_losing_blunder(game, make):
    s = position(game, *MUST_BLOCK, ap=1)
    assert s.action_to_string(make(game).step(s)) in ("M5", "Y5")


def test_analyze_shows_a_proven_win(game):
    # The solver needs plain MCTS; on a hidden-information game that means
    # forcing ismcts=False (the bot still only searches its own view).
    bot = MCTSBot(game, seed=0, simulations=50000, ismcts=False)
    s = position(game, *WIN_IN_TWO)
    info = bot.analyze(s)
    assert info["proven"] == 1 and info["wp"] == 1.0
    while not s.is_terminal():
        s.apply_action(bot.step(s))
    assert s.returns()[0] == 1.0


@pytest.mark.parametrize("threads", [1, 2])
def test_same_seed_same_moves(game, threads):
    s = first_decision(game, 4)
    runs = []
    for _ in range(2):
        bot = MCTSBot(game, seed=7, threads=threads, **FAST)
        line, t = [], s.clone()
        for _ in range(4):  # a few moves in a row, through tree reuse
            if t.is_terminal() or t.is_chance_node():
                break
            a = bot.step(t)
            line.append(a)
            t.apply_action(a)
        runs.append(line)
    assert runs[0] == runs[1]


def test_tree_is_reused_between_moves(game):
    bot = MCTSBot(game, seed=1, simulations=800)
    s = first_decision(game, 6)
    first = bot.analyze(s)
    kept = first["visits"][first["move"]]
    s.apply_action(first["best"])
    second = bot.analyze(s)
    assert second["reused"]
    assert sum(second["visits"].values()) >= kept - 1 + 800 - 1
    bot.reset()
    assert not bot.analyze(s)["reused"]


@pytest.mark.parametrize("make", [lambda g: MCTSBot(g, seed=2, **FAST),
                                  lambda g: ISMCTSBot(g, seed=2, **FAST),
                                  lambda g: HeuristicBot(g, seed=2),
                                  lambda g: ExpectimaxBot(g, depth=2, time_limit=None, seed=2)])
def test_hidden_cards_do_not_change_the_move(game, make):
    """Same view, different hidden German objective: same move, same analysis."""
    a = position(game, *MUST_BLOCK, objectives=(4, 8))
    b = position(game, *MUST_BLOCK, objectives=(4, 3))
    assert a.raw() != b.raw() and a.view(0).raw() == b.view(0).raw()
    ra, rb = make(game).analyze(a), make(game).analyze(b)
    assert ra["best"] == rb["best"]
    assert ra["values"] == rb["values"] and ra["visits"] == rb["visits"]


def test_roster(game):
    names = list_bots()
    for preset in ("random", "greedy", "mcts-fast", "mcts", "mcts-strong", "expectimax", "ismcts"):
        assert preset in names
    assert isinstance(load_bot("random", game), RandomBot)
    assert isinstance(load_bot("greedy", game), HeuristicBot)
    strong = load_bot("mcts-strong", game)
    assert isinstance(strong, MCTSBot) and strong.name == "mcts-strong"
    assert isinstance(load_bot("ismcts", game), ISMCTSBot)
    assert isinstance(load_bot("expectimax", game), ExpectimaxBot)
    fast = load_bot("mcts-fast", game, simulations=50, time_limit=None, seed=3)
    assert fast.simulations == 50 and fast.time_limit is None and fast.seed == 3


def test_ismcts_search_options_reach_the_core():
    """eval_children and final_lcb are bot parameters (and preset keys): they
    reach the C++ search and change its result, and the moves stay legal."""
    und = ardsearch.load_game("undaunted")
    s = und.new_initial_state(seed=4)
    while s.is_chance_node():
        s.apply_random_chance()
    plain = ISMCTSBot(und, seed=1, simulations=600, rollout_depth=0, exploration=0.5).analyze(s)
    for extra in (dict(eval_children=True), dict(final_lcb=0.5)):
        bot = load_bot("ismcts", und, seed=1, simulations=600, time_limit=None, **extra)
        r = bot.analyze(s)
        assert r["best"] in s.view(s.current_player()).legal_actions()
        if "eval_children" in extra:
            assert r["visits"] != plain["visits"]
    lcb = ISMCTSBot(und, seed=1, simulations=600, rollout_depth=0, exploration=0.5, final_lcb=5.0).analyze(s)
    # a large k makes the secure child the most visited one
    assert lcb["visits"][lcb["move"]] == max(lcb["visits"].values())


def test_roster_errors(game):
    with pytest.raises(ValueError, match="unknown bot preset 'nope'.*mcts-fast"):
        load_bot("nope", game)
    with pytest.raises(ValueError, match="unknown override 'depth'.*simulations"):
        load_bot("mcts", game, depth=3)
    with pytest.raises(ValueError, match="simulations and/or time_limit"):
        MCTSBot(game, simulations=None, time_limit=None)


def test_mcts_fast_beats_random(game):
    """40 seeded games, seats alternating; a simulation budget replaces the
    preset's 0.1 s so the test is fast and exactly reproducible."""
    wins = 0
    for i in range(40):
        mcts = load_bot("mcts-fast", game, simulations=400, time_limit=None, seed=i)
        rnd = load_bot("random", game, seed=1000 + i)
        seat = i % 2
        returns = play(game, [mcts, rnd] if seat == 0 else [rnd, mcts], seed=i)
        wins += returns[seat] > 0
    assert wins >= 36


def test_per_game_preset_tables(monkeypatch):
    """[games.<name>] in a preset overrides [params] for that game only, and its
    keys are checked like any other parameter."""
    from ardsearch import bots
    text = ('name = "x"\nalgorithm = "mcts"\n[params]\nsimulations = 10\n'
            '[games.ardennes]\nsimulations = 20\n[games.mortain]\nno_such_key = 1\n')
    monkeypatch.setattr(bots, "_roster_files", lambda: {"x": text})
    assert load_bot("x", ardsearch.load_game("ardennes")).simulations == 20
    assert load_bot("x", ardsearch.load_game("undaunted")).simulations == 10
    with pytest.raises(ValueError, match="no_such_key"):
        load_bot("x", ardsearch.load_game("mortain"))


def test_mcts_analysis_counts_nodes_as_the_protocol_does():
    """`nodes` means simulations in bot.analyze() as in the protocol's `go nodes N`
    and `info nodes` (the tree's size is `tree_nodes`), and bot.play() returns
    the move with the analysis of the one search that chose it."""
    game = ardsearch.load_game("ardennes")
    state = game.new_initial_state(seed=1)
    while state.is_chance_node():
        state.apply_random_chance()
    bot = ardsearch.MCTSBot(game, simulations=500, seed=0)
    action, info = bot.play(state)
    assert info["nodes"] == 500 and info["tree_nodes"] > 0
    assert action == info["best"]
    assert ardsearch.MCTSBot(game, simulations=500, seed=0).step(state) == action


@pytest.mark.parametrize("name", ardsearch.list_games())
def test_bare_bots_search_as_their_presets(name):
    """Defaults are the best play: a bare MCTSBot searches with the `mcts`
    preset's settings for the game (its [games.<name>] table included), a bare
    ISMCTSBot with the `ismcts` preset's; only the budget is the caller's."""
    from ardsearch.bots import search_shape
    game = ardsearch.load_game(name)
    assert MCTSBot(game).shape == search_shape("mcts", game)
    assert ardsearch.load_bot("mcts", game).shape == MCTSBot(game).shape
    assert ISMCTSBot(game).shape == search_shape("ismcts", game) == ardsearch.load_bot("ismcts", game).shape
    if name == "microarmour":
        assert MCTSBot(game).shape["normalize"] is True and MCTSBot(game).shape["rollout_depth"] == 0
        # both presets score new children at expansion (bench/README.md, "Micro
        # Armour: eval_children in every scenario")
        assert MCTSBot(game).shape["eval_children"] is True and ISMCTSBot(game).shape["eval_children"] is True
    if name == "stosstruppen":
        # progressive widening, a one-ply guard at the root and rollouts to the
        # end of the mover's turn (bench/README.md, "Stosstruppen: progressive
        # widening"); plain MCTS only, so the ismcts preset keeps them off
        shape = MCTSBot(game).shape
        assert (shape["widening"], shape["root_margin"], shape["rollout_turn_end"], shape["rollout_sample"]) \
            == (2.0, 0.01, True, 8)
        assert ISMCTSBot(game).shape["widening"] == 0.0 and ISMCTSBot(game).shape["root_margin"] == 0.0
        # forced information-set MCTS drops the preset's plain-only settings
        forced = MCTSBot(game, ismcts=True, simulations=20).shape
        assert (forced["widening"], forced["root_margin"], forced["rollout_turn_end"], forced["rollout_extra_runs"]) \
            == (0.0, 0.0, False, 0)
    assert MCTSBot(game, exploration=2.0).shape["exploration"] == 2.0


def test_load_bot_takes_a_game_name():
    """bots.py: "load_bot(preset, game, **overrides) builds a bot from the roster";
    DESIGN.md, Conventions: "Bad input anywhere (API, ...) gets a clear error".
    The game may be a Game or its name as load_game reads it ("name" or
    "name(key=value,...)"); anything else is refused with a message saying what
    is expected, not an AttributeError from deep inside."""
    bot = load_bot("mcts-fast", "ardennes", simulations=50, time_limit=None)
    assert bot.game.name == "ardennes" and bot.game.params == ardsearch.load_game("ardennes").params
    s = first_decision(bot.game, 1)
    assert bot.step(s) in s.legal_actions()
    short = load_bot("random", "ardennes(road_length=12)")
    assert short.game.params["road_length"] == 12
    assert MCTSBot("mortain", simulations=10).game.name == "mortain"
    assert ExpectimaxBot("ardennes", depth=1).game.name == "ardennes"
    for bad in (42, None, b"ardennes", ["ardennes"]):
        with pytest.raises(ValueError, match="a bot needs a game.*load_game.*'ardennes'"):
            load_bot("mcts", bad)
        with pytest.raises(ValueError, match="a bot needs a game"):
            RandomBot(bad)
    with pytest.raises(ValueError, match="nosuchgame"):
        load_bot("mcts", "nosuchgame")


@pytest.mark.parametrize("preset, key, value, expected", [
    ("mcts", "simulations", "abc", "an integer >= 0"),
    ("mcts", "simulations", -5, "an integer >= 0"),
    ("mcts", "simulations", 2.5, "an integer >= 0"),
    ("mcts", "time_limit", -1.0, "seconds > 0"),
    ("mcts", "threads", 0, "an integer from 1 to 256"),
    ("mcts", "exploration", "high", "a number >= 0"),
    ("mcts", "rollout_depth", -3, "or -1"),
    ("mcts", "solver", "maybe", "true or false"),
    ("mcts", "minimax_weight", 1.5, "a number from 0 to 1"),
    ("mcts", "seed", "x", "an integer"),
    ("mcts", "ismcts", "sometimes", "true or false"),
    ("expectimax", "depth", 1.5, "an integer from 1 to 64"),
    ("expectimax", "tt_mb", 0, "an integer from 1 to 65536"),
    ("expectimax", "determinizations", "many", "an integer from 1 to 4096"),
    ("random", "seed", 1.5, "an integer"),
])
def test_bad_settings_name_the_setting_value_and_type(game, preset, key, value, expected):
    """DESIGN.md, Conventions: "Bad input anywhere (API, ...) gets a clear error";
    bots.py: bad parameters "raise ValueError". The error names the setting, the
    value and what it takes (not Python's "invalid literal for int()"), and it
    comes when the bot is built, before any search."""
    with pytest.raises(ValueError) as exc:
        load_bot(preset, game, **{key: value})
    message = str(exc.value)
    assert f"{key}={value!r}" in message and expected in message, message
    assert "invalid literal" not in message


def test_settings_given_as_text_or_whole_floats_are_read():
    """What a command line hands over (text, or 1e3 read as a float) is read as
    the setting's type."""
    bot = load_bot("mcts-fast", "ardennes", simulations="200", time_limit=0, solver="false",
                   exploration="0.5", seed=3.0)
    assert bot.simulations == 200 and bot.time_limit is None and bot.seed == 3
    assert load_bot("expectimax", "ardennes", depth=2.0).depth == 2
    np = pytest.importorskip("numpy")        # seeds and budgets from array code
    bot = MCTSBot("ardennes", simulations=np.int64(50), seed=np.uint32(7), exploration=np.float32(0.5))
    assert bot.simulations == 50 and bot.seed == 7
