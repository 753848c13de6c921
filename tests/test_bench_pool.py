"""bench.pool: the duplicate pairs of several results files pooled into one
figure, as bench/README's "seeds pooled" rows are read. Synthetic records
with known outcomes; the figures are exact counts."""
import gzip
import json

import pytest

from ardsearch import stats
from bench import pool


def _record(pair, leg, a_seat, a_return, *, a="new", b="old", nodes=(100, 200)):
    """One game: entrant a in seat a_seat, scoring a_return (1, 0 or -1)."""
    seats = [a, b] if a_seat == 0 else [b, a]
    returns = [a_return, -a_return] if a_seat == 0 else [-a_return, a_return]
    sides = ["german", "us"]
    moves = [{"side": sides[0], "player": 0, "move": "m", "nodes": nodes[0] if a_seat == 0 else nodes[1]},
             {"side": "chance", "player": -1, "move": "c"},
             {"side": sides[1], "player": 1, "move": "m", "nodes": nodes[1] if a_seat == 0 else nodes[0]}]
    return {"format": "ardsearch-record", "index": 2 * pair + leg, "pair": pair, "leg": leg,
            "players": [{"side": sides[0], "name": seats[0]}, {"side": sides[1], "name": seats[1]}],
            "seats": seats, "returns": returns, "fault": None, "moves": moves}


def _write(path, records, gz=False):
    text = "".join(json.dumps(r) + "\n" for r in records)
    if gz:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    return path


def test_pairs_pool_across_files_plain_and_gzipped(tmp_path):
    # file 1: pair 0 won twice (2 points), pair 1 split (1 point)
    one = _write(tmp_path / "s1.jsonl", [_record(0, 0, 0, 1), _record(0, 1, 1, 1),
                                         _record(1, 0, 0, 1), _record(1, 1, 1, -1)])
    # file 2 numbers its pairs from 0 again: pair 0 a draw and a loss (0.5 point)
    two = _write(tmp_path / "s2.jsonl.gz", [_record(0, 0, 0, 0), _record(0, 1, 1, -1)], gz=True)
    s = pool.pool([one, two], "new")
    assert s["pairs"] == 3
    assert s["penta"] == [0, 1, 1, 0, 1]
    assert (s["wins"], s["draws"], s["losses"]) == (3, 1, 2)
    assert s["sides"] == {"german": {"points": 2.5, "games": 3}, "us": {"points": 1.0, "games": 3}}
    assert s["median_nodes"] == {"new": 100, "old": 200}
    assert s["legs_without_pair"] == 0
    elo, low, high = stats.pentanomial_elo([0, 1, 1, 0, 1])
    assert s["elo"] == pytest.approx(elo) and s["elo_low"] == pytest.approx(low)


def test_a_pair_missing_a_leg_is_left_out_and_counted(tmp_path):
    f = _write(tmp_path / "r.jsonl", [_record(0, 0, 0, 1), _record(0, 1, 1, 1), _record(1, 0, 0, -1)])
    s = pool.pool([f], "new")
    assert s["pairs"] == 1 and s["penta"] == [0, 0, 0, 0, 1]
    assert s["legs_without_pair"] == 1
    assert "left out: 1 game(s)" in pool.text(s)


def test_the_other_entrant_reads_the_mirror_figure(tmp_path):
    f = _write(tmp_path / "r.jsonl", [_record(0, 0, 0, 1), _record(0, 1, 1, 0)])
    assert pool.pool([f], "old")["penta"] == [0, 1, 0, 0, 0]


def test_bad_input_says_what_was_wrong(tmp_path):
    f = _write(tmp_path / "r.jsonl", [_record(0, 0, 0, 1), _record(0, 1, 1, 1)])
    g = _write(tmp_path / "q.jsonl", [_record(0, 0, 0, 1, b="other"), _record(0, 1, 1, 1, b="other")])
    with pytest.raises(ValueError, match="no games of entrant 'nobody'"):
        pool.pool([f], "nobody")
    with pytest.raises(ValueError, match="opponent 'other'"):
        pool.pool([f, g], "new")
    with pytest.raises(ValueError, match="no results files"):
        pool.pool([], "new")
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match="cannot read results file"):
        pool.pool([bad], "new")
    assert pool.main(["--entrant", "new", str(bad)]) == 2
    whole = gzip.compress(b"".join(json.dumps(_record(k, 0, 0, 1)).encode() + b"\n" for k in range(200)))
    (tmp_path / "cut.jsonl.gz").write_bytes(whole[:len(whole) // 2])
    (tmp_path / "corrupt.jsonl.gz").write_bytes(whole[:20] + bytes(50) + whole[70:])
    for name in ("cut.jsonl.gz", "corrupt.jsonl.gz"):
        with pytest.raises(ValueError, match="cannot read results file"):
            pool.pool([tmp_path / name], "new")


def test_cli_prints_the_figure(tmp_path, capsys):
    f = _write(tmp_path / "r.jsonl", [_record(0, 0, 0, 1), _record(0, 1, 1, 1)])
    assert pool.main(["--entrant", "new", str(f)]) == 0
    out = capsys.readouterr().out
    assert "new against old: 1 pairs from 1 file(s)" in out
    assert "pentanomial (0, 1/2, 1, 1 1/2, 2): 0, 0, 0, 0, 1" in out


def test_pairs_without_spread_point_to_the_trinomial(tmp_path):
    """Every pair split 1-1: the pentanomial variance is 0, so its interval
    is a point; the text says to read the trinomial interval instead."""
    f = _write(tmp_path / "r.jsonl", [_record(0, 0, 0, 1), _record(0, 1, 1, -1),
                                      _record(1, 0, 0, 1), _record(1, 1, 1, -1)])
    s = pool.pool([f], "new")
    assert s["penta"] == [0, 0, 2, 0, 0]
    text = pool.text(s)
    assert "read the trinomial one" in text and "trinomial (the games as if independent) Elo +0" in text


def test_a_state_file_given_by_mistake_is_named_as_such(tmp_path):
    """A glob like `*.jsonl*` also picks up the tournament's resume state
    file; the error says what it is and what to pass instead."""
    f = _write(tmp_path / "r.jsonl", [_record(0, 0, 0, 1), _record(0, 1, 1, 1)])
    state = tmp_path / "r.jsonl.state"
    state.write_text(json.dumps({"version": 1, "done": [0, 1]}) + "\n")
    with pytest.raises(ValueError, match="resume state file; pass the results file beside it"):
        pool.pool([f, state], "new")
