"""The ladder arithmetic of bench/ladder.py on synthetic matches (no games
are played): step Elo from duplicate pairs, the chain anchored at random = 0
with intervals added in quadrature, sweeps as finite lower bounds, and the
[elo] table written into a level's preset text."""
import json
import math

import pytest

from ardsearch.stats import elo_from_score, pentanomial_elo
from bench.ladder import Step, chain, finite_elo, load_pairs, save_pairs, set_elo, step_of
from bench.pairs import Match, PairResult, parse_spec


def match(pair_points):
    """A match of A against B from A's points in (leg 0, leg 1) of each pair."""
    m = Match("a", "b")
    for i, pts in enumerate(pair_points):
        m.pairs.append(PairResult(i, i, pts, (10, 10), 1.0))
    return m


def test_a_step_is_the_pentanomial_elo_of_its_pairs():
    m = match([(1.0, 1.0), (1.0, 0.0), (0.5, 1.0), (0.0, 0.0)])
    assert m.penta() == (1, 0, 1, 1, 1)
    s = step_of(m)
    assert (s.points, s.games) == (4.5, 8)
    assert (s.elo, s.low, s.high) == pentanomial_elo((1, 0, 1, 1, 1))


def test_identical_pairs_fall_back_to_the_per_game_interval():
    """Every pair 1-1 (each seat won its game): the pair variance is 0, but
    the Elo interval must not be a point."""
    s = step_of(match([(1.0, 0.0)] * 5))
    assert s.elo == pytest.approx(0.0)
    assert s.low < -50 and s.high > 50


def test_seat_points_split_the_games_by_seat():
    m = match([(1.0, 0.0), (1.0, 1.0)])   # pair 0: seat 0 won both legs; pair 1: A won both
    assert m.seat_points() == (3.0, 1.0, 4)


def test_chain_adds_elo_and_combines_intervals_in_quadrature():
    steps = [Step("l1", "random", 0, 0, 100.0, 70.0, 140.0),
             Step("l2", "l1", 0, 0, 50.0, 10.0, 80.0)]
    rungs = chain("random", steps)
    assert [r.name for r in rungs] == ["random", "l1", "l2"]
    assert rungs[0].elo == 0.0
    assert rungs[2].elo == 150.0
    assert rungs[2].low == pytest.approx(150.0 - math.hypot(30.0, 40.0))
    assert rungs[2].high == pytest.approx(150.0 + math.hypot(40.0, 30.0))
    assert not rungs[2].bound


def test_a_sweep_adds_a_finite_lower_bound():
    """10-0: +inf Elo; the chain uses the score with half a game to each side, 10.5/11."""
    sweep = Step("l1", "random", 10.0, 10, math.inf, 200.0, math.inf)
    assert finite_elo(sweep) == pytest.approx(elo_from_score(10.5 / 11))
    rungs = chain("random", [sweep, Step("l2", "l1", 5.0, 10, 0.0, -100.0, 100.0)])
    assert rungs[1].bound and rungs[2].bound
    assert rungs[2].high == math.inf
    assert math.isfinite(rungs[2].elo)


def test_saved_pairs_of_one_step_on_two_seeds_add_up(tmp_path):
    """Session 38 ran level-6 over level-5 as two runs of 3 pairs (--seed 38
    and 39) into one file: both runs' pairs count (pair indices 0-2 twice,
    game seeds differ), and a pair played again (its seed repeated) counts
    once, its last line winning."""
    path = str(tmp_path / "pairs.jsonl")
    run1, run2 = Match("l6", "l5"), Match("l6", "l5")
    run1.pairs = [PairResult(i, 100 + i, (1.0, 1.0), (10, 10), 1.0) for i in range(3)]
    run2.pairs = [PairResult(i, 200 + i, (0.0, 0.0), (10, 10), 1.0) for i in range(3)]
    again = Match("l6", "l5")
    again.pairs = [PairResult(0, 100, (0.5, 0.5), (10, 10), 1.0)]
    for m in (run1, run2, again):
        save_pairs(path, "g", m)
    m = load_pairs(path, "g")[("l6", "l5")]
    assert [(pr.index, pr.seed) for pr in m.pairs] == [(0, 100), (0, 200), (1, 101), (1, 201), (2, 102), (2, 202)]
    assert step_of(m).points == 0.5 + 0.5 + 2 + 2 + 0 + 0
    assert step_of(m).games == 12


def test_set_elo_writes_and_replaces_one_games_line():
    text = 'name = "level-2"\n[params]\nsimulations = 5\n\n[elo]\nmortain = 10\n'
    once = set_elo(text, "ardennes", 321)
    assert once.endswith("[elo]\nmortain = 10\nardennes = 321\n")
    twice = set_elo(once, "ardennes", 400)
    assert "ardennes = 400" in twice and "321" not in twice and "mortain = 10" in twice
    bare = set_elo('name = "x"\n[params]\n', "stosstruppen", 7)
    assert bare.endswith("[elo]\nstosstruppen = 7\n")
    later = set_elo('[elo]\na = 1\n\n[games.x]\nk = 2\n', "b", 3)
    assert later == '[elo]\na = 1\nb = 3\n\n[games.x]\nk = 2\n'


def test_bot_specs_read_settings_as_numbers():
    assert parse_spec("mcts:time_limit=0.1,simulations=0") == ("mcts", {"time_limit": 0.1, "simulations": 0})
    assert parse_spec("random") == ("random", {})
    with pytest.raises(ValueError, match="not key=value"):
        parse_spec("mcts:oops")


def test_balance_counts_wins_by_seat_not_by_bot():
    """bench.balance: seat results are reported separately (duplicate pairs swap seats)."""
    from bench.balance import seat_counts
    m = match([(1.0, 0.0), (1.0, 1.0), (0.5, 0.5)])
    # pair 0: seat 0 won both legs; pair 1: seat 0 won leg 0, seat 1 won leg 1; pair 2: two draws
    r = seat_counts(m)
    assert (r["wins"], r["draws"], r["games"]) == ([3, 1], 2, 6)


def test_scaling_curves_chain_from_the_shortest_time(tmp_path):
    """bench.scaling: the newest result of each step, chained from the shortest time."""
    import json
    from bench.scaling import curves
    rows = [
        {"game": "toy", "lower": 0.01, "upper": 0.03, "points": 5, "games": 8, "elo": 50.0, "low": 0.0, "high": 100.0},
        {"game": "toy", "lower": 0.03, "upper": 0.1, "points": 5, "games": 8, "elo": 80.0, "low": 40.0, "high": 120.0},
        {"game": "toy", "lower": 0.01, "upper": 0.03, "points": 6, "games": 8, "elo": 60.0, "low": 20.0, "high": 100.0},
    ]
    path = tmp_path / "scaling.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    pts = curves(path)["toy (wall time)"]
    assert [p[0] for p in pts] == [0.01, 0.03, 0.1]
    assert [p[1] for p in pts] == [0.0, 60.0, 140.0]
    assert pts[2][2] == pytest.approx(140.0 - math.hypot(40.0, 40.0))


def test_scaling_table_has_one_row_per_game_and_budget_kind(tmp_path):
    import json
    from bench.scaling import markdown
    rows = [
        {"game": "toy", "lower": 0.01, "upper": 0.03, "points": 5, "games": 8, "elo": 50.0, "low": 0.0, "high": 100.0},
        {"game": "toy", "rate": 1000.0, "lower": 0.01, "upper": 0.03, "points": 6, "games": 8, "elo": 70.0,
         "low": 20.0, "high": 120.0},
    ]
    path = tmp_path / "scaling.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    lines = markdown(path).splitlines()
    assert lines[0] == "| game (budget) | 0.01 s | 0.03 s |"
    assert "| toy (wall time) | 0 | +50 [+0, +100] |" in lines
    assert "| toy (simulations at 1000/CPU s) | 0 | +70 [+20, +120] |" in lines


def test_ladder_clock_reaches_the_time_limited_rungs_and_is_saved(tmp_path):
    """`bench.ladder --clock cpu`: level-6 (the preset capped at 2.5 s) counts
    its cap in CPU time; greedy and random have no time limit and are left
    alone; a rung that names its own clock keeps it; the saved pairs say
    which clock they were played on, and a bad clock is refused before any
    game."""
    import ardsearch
    from bench.pairs import _bot, play_match
    game = ardsearch.load_game("stosstruppen")
    assert _bot(game, parse_spec("level-6"), 0, "cpu").clock == "cpu"
    assert _bot(game, parse_spec("level-6:clock=wall"), 0, "cpu").clock == "wall"
    assert _bot(game, parse_spec("level-6"), 0).clock == "wall"
    assert not hasattr(_bot(game, parse_spec("greedy"), 0, "cpu"), "clock")
    with pytest.raises(ValueError, match="clock 'sundial' is not valid: wall .* or cpu"):
        play_match("stosstruppen", parse_spec("greedy"), parse_spec("random"), 1, 1, clock="sundial")
    path = str(tmp_path / "pairs.jsonl")
    m = Match("l6", "l5", [PairResult(0, 7, (1.0, 0.0), (10, 10), 1.0)])
    save_pairs(path, "g", m, "cpu")
    save_pairs(path, "g", Match("l5", "l4", [PairResult(0, 8, (1.0, 0.0), (10, 10), 1.0)]))
    lines = [json.loads(x) for x in open(path, encoding="utf-8")]
    assert [x.get("clock") for x in lines] == ["cpu", None]
    assert load_pairs(path, "g")[("l6", "l5")].pairs == m.pairs


def test_ladder_command_passes_its_clock_to_every_step(monkeypatch, tmp_path, capsys):
    """The --clock option reaches each step's match and its saved pairs."""
    import bench.ladder as ladder
    seen = []

    def fake_match(game, upper, lower, pairs, seed, jobs, clock=None, progress=None):
        seen.append(clock)
        m = Match(ladder.label(upper), ladder.label(lower), [PairResult(0, seed, (1.0, 0.5), (5, 5), 0.1)])
        progress(m)
        return m
    monkeypatch.setattr(ladder, "play_match", fake_match)
    path = tmp_path / "p.jsonl"
    assert ladder.main(["g", "--rungs", "random", "greedy", "level-6", "--pairs", "1", "--clock", "cpu",
                        "--json", str(path)]) == 0
    assert seen == ["cpu", "cpu"]
    assert [json.loads(x)["clock"] for x in path.read_text().splitlines()] == ["cpu", "cpu"]
    assert "--clock cpu" in capsys.readouterr().out      # the command printed beside the table


def test_ladder_saves_each_pair_as_it_finishes(monkeypatch, tmp_path):
    """Session 39's level-6 step ran two hours and saved nothing until it
    ended: stopping it would have lost every pair. Each pair is now appended
    to --json when it finishes, so a run stopped midway keeps them."""
    import bench.ladder as ladder

    def stopped_after_two(game, upper, lower, pairs, seed, jobs, clock=None, progress=None):
        m = Match(ladder.label(upper), ladder.label(lower))
        for k in range(2):
            m.pairs.append(PairResult(k, 100 + k, (1.0, 0.0), (5, 5), 0.1))
            progress(m)
        raise KeyboardInterrupt
    monkeypatch.setattr(ladder, "play_match", stopped_after_two)
    path = tmp_path / "p.jsonl"
    with pytest.raises(KeyboardInterrupt):
        ladder.main(["g", "--rungs", "level-5", "level-6", "--pairs", "8", "--json", str(path)])
    assert [json.loads(x)["seed"] for x in path.read_text().splitlines()] == [100, 101]
    assert ladder.load_pairs(str(path), "g")[("level-6", "level-5")].penta() == (0, 0, 2, 0, 0)
