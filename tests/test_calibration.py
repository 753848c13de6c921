"""The calibration tool (bench/calibration.py) on synthetic cases.

Issue 15: "Calibrated win probabilities ... Show a reliability table and plot
in bench/ (predicted vs observed win rate by decile on held-out games)";
"tests assert only what is exact (... calibration code on a synthetic case)"."""
import numpy as np
import pytest

from ardsearch import evaluation, logistic
from bench import calibration as cal


def test_platt_fit_recovers_a_known_map():
    """Values whose win rates are exactly sigmoid(a * logit((v+1)/2) + b):
    the fit gives a and b back, and evaluation.calibrated_wp applies them."""
    v = np.linspace(-0.95, 0.95, 400)
    a, b = 1.7, -0.3
    y = logistic.sigmoid(a * cal.logit_of_value(v) + b)
    scale, shift = cal.platt(v, y, l2=1e-12)
    assert scale == pytest.approx(a, abs=1e-6) and shift == pytest.approx(b, abs=1e-6)
    assert evaluation.calibrated_wp("x", 0.4, "mcts", {"mcts": (scale, shift)}) == pytest.approx(
        float(logistic.sigmoid(np.array([a * np.log(0.7 / 0.3) + b]))[0]), abs=1e-6)


def test_reliability_bins_by_decile():
    pred = np.array([0.05, 0.05, 0.15, 0.95, 0.999, 1.0])
    y = np.array([0.0, 1.0, 0.0, 1.0, 1.0, 0.5])
    rows = cal.reliability(pred, y)
    assert [r[2] for r in rows] == [2, 1, 0, 0, 0, 0, 0, 0, 0, 3]
    assert rows[0][3] == pytest.approx(0.05) and rows[0][4] == 0.5
    assert rows[9][4] == pytest.approx(2.5 / 3)
    text = cal.markdown(rows)
    assert "| 0%-10% | 2 | 0.050 | 0.500" in text and "**no**" in text


def test_decisions_read_the_records_comments():
    """Each searched decision: its value, its wp and the mover's result."""
    rec = {"returns": [1.0, -1.0], "pairing": 0, "pair": 3, "moves": [
        {"player": -1, "move": "Ar"},
        {"player": 1, "move": "pass", "eval": -0.2, "wp": 0.4},
        {"player": 0, "move": "x", "eval": 0.5, "wp": 0.75},
        {"player": 0, "move": "y"},                      # a forced move: no search, no comments
    ]}
    v, wp, y, pair, seat = cal.decisions([rec])
    assert v.tolist() == [-0.2, 0.5] and wp.tolist() == [0.4, 0.75]
    assert y.tolist() == [0.0, 1.0] and pair.tolist() == [3, 3] and seat.tolist() == [1, 0]


def test_bots_and_protocol_report_the_calibrated_probability(tmp_path):
    """"the wp that bots, the protocol and play report is the fitted
    probability": a search's root value goes through the Platt table of the
    weights file it plays with."""
    import ardsearch
    from ardsearch.bots import MCTSBot
    from ardsearch.protocol.searcher import reported_wp
    game = ardsearch.load_game("mortain")
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = {float(w)!r}\n" for n, w in zip(game.feature_names, game.weights))
                    + "[calibration.mcts]\nscale = 0.5\nshift = 0.25\n")
    s = game.new_initial_state(seed=3)
    while s.is_chance_node():
        s.apply_random_chance()
    info = MCTSBot(game, simulations=300, seed=1, weights=str(path)).analyze(s)
    want = evaluation.calibrated_wp("mortain", info["value"], "mcts", {"mcts": (0.5, 0.25)})
    assert info["wp"] == want and want != pytest.approx((info["value"] + 1) / 2)
    assert reported_wp(game, {"name": "x", "weights": str(path)}, info["value"], "mcts") == want
    # "classic" has no calibration of its own: (v + 1) / 2
    assert reported_wp(game, {"name": "x", "weights": "classic"}, 0.2, "mcts") == pytest.approx(0.6)


def _synthetic(n, seed, bias):
    """Decisions whose win rate depends on the side to move: the mover's
    true win probability is sigmoid(2 logit((v+1)/2) + bias) for seat 0 and
    - bias for seat 1, so the raw value is miscalibrated by a side bias."""
    rng = np.random.default_rng(seed)
    v = rng.uniform(-0.9, 0.9, n)
    seat = rng.integers(0, 2, n)
    z = 2.0 * cal.logit_of_value(v) + np.where(seat == 0, bias, -bias)
    y = (rng.uniform(size=n) < logistic.sigmoid(z)).astype(float)
    pair = np.arange(n) // 4
    return v, y, seat, pair


def test_compare_finds_the_fit_that_removes_a_side_bias():
    """--compare: "every candidate fit ... beside the raw value and the
    shipped calibration, each scored by held-out log-loss and deciles
    within 5 points ... both ways round". A game without a shipped
    calibration reports the raw value as shipped; on decisions with a side
    bias the curve per side beats it in both columns, and one curve for both
    sides does not remove the bias as well."""
    from types import SimpleNamespace
    game = SimpleNamespace(name="synthetic-no-calibration", params={}, player_names=("a", "b"))
    v, y, seat, pair = _synthetic(40000, 1, 1.0)
    even = pair % 2 == 0
    columns = [("even", even, ~even), ("odd", ~even, even)]
    rows, winners = cal.compare(game, "mcts", v, y, seat, columns)
    names = [r[0] for r in rows]
    assert names == ["raw (v + 1) / 2", "shipped"] + [c[0] for c in cal.CANDIDATES]
    raw, shipped = rows[0][1], rows[1][1]
    assert raw == shipped                                # no shipped table: (v + 1) / 2
    assert raw[0][0] == pytest.approx(cal.log_loss(np.clip((v[~even] + 1) / 2, 0, 1), y[~even]))
    per_side = dict(rows)["a Platt curve per side"]
    one = dict(rows)["one Platt curve"]
    assert all(p[0] < o[0] for p, o in zip(per_side, one))
    assert "a Platt curve per side" in winners
    order = cal.ranked(rows, "raw (v + 1) / 2")          # part C's rule: best mean log-loss first
    means = [m for _, m in order]
    assert means == sorted(means) and order[0][0] == "a Platt curve per side"
    assert order[0][1] == pytest.approx(np.mean([s[0] for s in per_side]))
    text = cal.compare_markdown(game, columns, rows)
    assert text.splitlines()[0] == "| fit | even | odd |" and "(per side to move: a, b)" in text


def test_beats_needs_both_scores():
    """The rule for replacing a shipped calibration: a lower log-loss and a
    larger share of deciles within 5 points (6 of 9 is more than 6 of 10)."""
    shipped = (0.60, 6, 10, [])
    assert cal.beats((0.59, 6, 9, []), shipped)
    assert not cal.beats((0.59, 6, 10, []), shipped)      # deciles level
    assert not cal.beats((0.61, 9, 10, []), shipped)      # log-loss worse
    assert not cal.beats((0.60, 9, 10, []), shipped)      # log-loss level


def test_compare_command_line(tmp_path, capsys):
    """The command: both ways round from records, or fit on them and score a
    holdout file; --holdout without --compare, or --compare with --fit, is
    refused with what to do."""
    import json
    v, y, seat, pair = _synthetic(2000, 2, 0.5)
    def write(path, lo, hi):
        with open(path, "w") as f:
            for g in range(lo, hi):
                sel = pair == g
                moves = [{"player": int(s), "eval": float(x), "wp": float((x + 1) / 2)}
                         for x, s in zip(v[sel], seat[sel])]
                ret0 = 1.0 if y[sel][0] == (seat[sel][0] == 0) else -1.0
                f.write(json.dumps({"returns": [ret0, -ret0], "pairing": 0, "pair": g // 2,
                                    "moves": moves}) + "\n")
    write(tmp_path / "a.jsonl", 0, 300)
    write(tmp_path / "b.jsonl", 300, 500)
    assert cal.main(["ardennes", "--from", str(tmp_path / "a.jsonl"), "--compare", "mcts"]) == 0
    out = capsys.readouterr().out
    assert "| fit | fit even, test odd | fit odd, test even |" in out and "| shipped |" in out
    assert "beats the shipped calibration on both scores in every column:" in out
    assert "beats the raw value on both scores in every column, by mean held-out log-loss:" in out
    assert cal.main(["ardennes", "--from", str(tmp_path / "a.jsonl"), "--compare", "mcts",
                     "--holdout", str(tmp_path / "b.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "| fit | fit on 300 games, test on the 1 holdout file(s) |" in out
    # --fit with --holdout: fitted on every game read, the holdout's table shown
    assert cal.main(["ardennes", "--from", str(tmp_path / "a.jsonl"), "--fit", "mcts", "--method", "platt",
                     "--by", "seat", "--holdout", str(tmp_path / "b.jsonl")]) == 0
    out = capsys.readouterr().out
    n_fit = len(cal.decisions(cal.read([tmp_path / "a.jsonl"]))[0])
    assert f"fitted on every game read ({n_fit} decisions), the holdout games shown" in out
    for bad in (["--holdout", str(tmp_path / "b.jsonl")], ["--compare", "mcts", "--fit", "mcts"]):
        with pytest.raises(SystemExit):
            cal.main(["ardennes", "--from", str(tmp_path / "a.jsonl")] + bad)
        assert "--compare" in capsys.readouterr().err
    # --method steps through the command line, from a gzipped copy of the records
    import gzip
    with open(tmp_path / "a.jsonl", "rb") as f, gzip.open(tmp_path / "a.jsonl.gz", "wb") as g:
        g.write(f.read())
    assert cal.read([tmp_path / "a.jsonl.gz"]) == cal.read([tmp_path / "a.jsonl"])
    assert cal.main(["ardennes", "--from", str(tmp_path / "a.jsonl.gz"), "--fit", "mcts", "--method", "steps",
                     "--holdout", str(tmp_path / "b.jsonl")]) == 0
    assert f"monotone step table fitted on every game read ({n_fit} decisions)" in capsys.readouterr().out
    # --all-games: the fit chosen by --compare, made on every game read and shown in sample (said so)
    assert cal.main(["ardennes", "--from", str(tmp_path / "a.jsonl"), "--fit", "mcts", "--method", "steps",
                     "--all-games"]) == 0
    out = capsys.readouterr().out
    assert (f"monotone step table fitted on every game read ({n_fit} decisions), "
            "the same games shown (in sample, not a test)") in out
    v_all, _, y_all, _, _ = cal.decisions(cal.read([tmp_path / "a.jsonl"]))
    assert f"over {len(v_all)} decisions" in out
    for bad, says in ((["--all-games"], "--all-games needs --fit"),
                      (["--fit", "mcts", "--all-games", "--holdout", str(tmp_path / "b.jsonl")], "not both")):
        with pytest.raises(SystemExit):
            cal.main(["ardennes", "--from", str(tmp_path / "a.jsonl")] + bad)
        assert says in capsys.readouterr().err


@pytest.mark.parametrize("content", [b"{not json\n", b"\x1f\x8b\x08 truncated gzip"])
def test_records_that_cannot_be_read_are_named(tmp_path, content):
    """Robustness: a file that is not records (bad JSON, or a broken gzip)
    stops the tool with its name and what to give, never a traceback."""
    path = tmp_path / ("bad.jsonl.gz" if content.startswith(b"\x1f") else "bad.jsonl")
    path.write_bytes(content)
    with pytest.raises(SystemExit) as e:
        cal.read([path])
    assert str(path) in str(e.value) and "give a file of game records" in str(e.value)


def test_the_interval_is_clustered_by_game():
    """The decisions of one game share its result: 100 decisions from 2
    games (one won, one lost) are about as sure as 2 results, not 100. With
    `games` the half-width is the clustered one, sqrt(G/(G-1) * sum over
    games of (sum of residuals)^2) / n, here 1.96 * sqrt(2 * (2 * 25^2)) / 100."""
    pred = np.full(100, 0.55)
    y = np.array([1.0] * 50 + [0.0] * 50)
    games = np.array([0] * 50 + [1] * 50)
    binomial = cal.reliability(pred, y)[5][5]
    clustered = cal.reliability(pred, y, games)[5][5]
    assert binomial == pytest.approx(1.96 * np.sqrt(0.25 / 100))
    assert clustered == pytest.approx(1.96 * np.sqrt(2 * 2 * 25.0 ** 2) / 100)
    assert clustered > 5 * binomial
    # one decision per game: the clustered interval is the binomial one, up to G / (G - 1)
    one_each = cal.reliability(pred, y, np.arange(100))[5][5]
    assert one_each == pytest.approx(binomial * np.sqrt(100 / 99))


def test_games_of_lines_up_with_decisions():
    recs = [{"returns": [1.0, -1.0], "players": [{"name": "a"}, {"name": "b"}], "moves": [
                {"player": 0, "move": "x", "eval": 0.1, "wp": 0.5}, {"player": 1, "move": "y"},
                {"player": 1, "move": "z", "eval": -0.1, "wp": 0.4}]},
            {"returns": [-1.0, 1.0], "players": [{"name": "b"}, {"name": "a"}], "moves": [
                {"player": 1, "move": "x", "eval": 0.3, "wp": 0.6}]}]
    assert cal.games_of(recs).tolist() == [0, 0, 1]
    assert cal.games_of(recs, "a").tolist() == [0, 1] and len(cal.decisions(recs, "a")[0]) == 2


def test_a_closed_pipe_ends_quietly(tmp_path):
    """`python -m bench.calibration ... | head`: when the reader goes away the
    command ends with status 141, as one killed by SIGPIPE would, and no
    traceback (the nit session 24 left)."""
    import json
    import os
    import subprocess
    import sys
    v, y, seat, pair = _synthetic(400, 3, 0.5)
    with open(tmp_path / "a.jsonl", "w") as f:
        for g in range(int(pair.max()) + 1):
            sel = pair == g
            moves = [{"player": int(s), "eval": float(x), "wp": float((x + 1) / 2)}
                     for x, s in zip(v[sel], seat[sel])]
            f.write(json.dumps({"returns": [1.0, -1.0], "pairing": 0, "pair": g // 2, "moves": moves}) + "\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "bench.calibration", "ardennes", "--from",
                            str(tmp_path / "a.jsonl"), "--compare", "mcts"], stdin=subprocess.DEVNULL,
                           stdout=w, stderr=subprocess.PIPE, text=True, timeout=180, cwd=root)
    finally:
        os.close(w)
    assert p.returncode == 141 and "Traceback" not in p.stderr, (p.returncode, p.stderr)
