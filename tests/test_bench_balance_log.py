"""bench.balance_log's seat table (issue 15, "Scenario balance": "each
scenario's seat win rate ... reported"): seats are counted per game, never
pooled, a pair's first leg has its first bot in seat 0, draws apart, and
seeds pooled per scenario. Synthetic logs; no game is played."""
from __future__ import annotations

import json

from bench.balance_log import summary


def write_log(path, lines):
    path.write_text("".join(json.dumps(d) + "\n" for d in lines))
    return str(path)


def test_summary_counts_each_leg_under_the_seat_that_won(tmp_path):
    """a_points are the first bot's points in leg 0 (it sits in seat 0) and
    leg 1 (it sits in seat 1): [1, 0] is seat 0 winning both games, [1, 1]
    each seat winning once, [0.5, 0] a draw then a seat-0 win."""
    g = "microarmour(scenario=meeting)"
    log = write_log(tmp_path / "a.jsonl", [
        {"game": g, "bot": "level-3", "seed": 2, "index": 0, "a_points": [1.0, 0.0]},
        {"game": g, "bot": "level-3", "seed": 2, "index": 1, "a_points": [1.0, 1.0]},
        {"game": g, "bot": "level-3", "seed": 3, "index": 0, "a_points": [0.5, 0.0]},
    ])
    rows = summary([log]).splitlines()
    assert len(rows) == 3
    assert rows[2] == (f"| {g} | level-3 | 6 (2: 4, 3: 2) | 4/6 = 67% [30, 90] "
                       "| 1/6 = 17% [3, 56] | 1 |")


def test_summary_pools_logs_and_keeps_scenarios_apart(tmp_path):
    """Two logs of the same scenario add up; another scenario gets its own row."""
    a = write_log(tmp_path / "a.jsonl", [
        {"game": "x(scenario=a)", "bot": "b", "seed": 2, "index": 0, "a_points": [0.0, 1.0]}])
    b = write_log(tmp_path / "b.jsonl", [
        {"game": "x(scenario=a)", "bot": "b", "seed": 3, "index": 0, "a_points": [0.0, 1.0]},
        {"game": "x(scenario=b)", "bot": "b", "seed": 2, "index": 0, "a_points": [1.0, 0.0]}])
    rows = summary([a, b]).splitlines()[2:]
    assert rows[0].startswith("| x(scenario=a) | b | 4 (2: 2, 3: 2) | 0/4 = 0% ")
    assert "| 4/4 = 100% " in rows[0]
    assert rows[1].startswith("| x(scenario=b) | b | 2 (2: 2) | 2/2 = 100% ")


def test_a_logged_pair_is_bench_pairs_pair_with_how_each_game_ended():
    """The log plays the games of bench.balance (bench.pairs.play_pair, one
    pair player for both) and keeps how each leg ended, state.outcome()'s
    reason and sentence."""
    from bench.balance_log import play_logged_pair
    from bench.pairs import parse_spec, play_pair

    spec = parse_spec("random")
    logged = play_logged_pair("undaunted(scenario=1)", spec, 2, 0)
    pair = play_pair(("undaunted(scenario=1)", spec, spec, 2, 0))
    assert logged["a_points"] == list(pair.a_points)
    assert logged["lengths"] == list(pair.lengths)
    assert len(logged["outcomes"]) == 2
    for o in logged["outcomes"]:
        reason, sentence = o.split(": ", 1)
        assert reason and sentence


def test_summary_reads_gzipped_logs(tmp_path):
    """bench/results keeps its logs gzipped (`gzip -n`): --summary reads them as they are."""
    import gzip
    lines = [{"game": "x(scenario=a)", "bot": "b", "seed": 2, "index": 0, "a_points": [1.0, 0.0]}]
    plain = write_log(tmp_path / "a.jsonl", lines)
    packed = tmp_path / "b.jsonl.gz"
    packed.write_bytes(gzip.compress(open(plain, "rb").read()))
    assert summary([str(packed)]) == summary([plain])
