"""bench/ardennes_belief.py: the log-loss of the opponent's true Objective
card under the search's belief, read from records. Checked exactly where the
answer is known: with belief 0 every allowed card is equally likely, and
RULES (ardennes.md, Objective cards) "the two drawn are different cards"
leaves seven for the opponent, so the log-loss is ln 7."""
import json
import math

from bench import ardennes_belief


def test_uniform_belief_scores_ln_7(tmp_path, capsys):
    moves = ["first:A", "obj:1", "obj:2", "T6", "T6", "T6", "T6", "T2"]
    sides = ["chance"] * 3 + ["allies"] * 4 + ["germans"]
    rec = {"game": "ardennes", "moves": [{"side": s, "move": m} for s, m in zip(sides, moves)]}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    ardennes_belief.main([str(path), "--belief", "0", "4"])
    out = capsys.readouterr().out
    assert out.startswith("2 positions")
    row0 = next(line for line in out.splitlines() if line.startswith("| 0 |"))
    assert f"{math.log(7):.3f}" in row0.split("|")[2]
