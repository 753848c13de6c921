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
