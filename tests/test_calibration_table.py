"""The monotone calibration table ([calibration.<search>] value / wp) and its fit.

Issue 15: "Calibrated win probabilities: the wp that bots, the protocol and
play report is the fitted probability"; "tests assert only what is exact
(weights load, a tuned file reproduces from its seed, calibration code on a
synthetic case)". The brief for this work: "the table loads, refuses a
non-monotone or out-of-range table, calibrated_wp interpolates as documented
on a synthetic case, a fit reproduces from its seed on a tiny synthetic
sample"."""
import numpy as np
import pytest

import ardsearch
from ardsearch import evaluation, isotonic
from ardsearch.evaluation import CalibrationTable, EvalFileError

NAMES = ("classic", "material", "tempo")
HEAD = "[weights]\nclassic = 1\nmaterial = 0\ntempo = 0\n[calibration.mcts]\n"


def _write(tmp_path, text):
    p = tmp_path / "eval.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_a_table_loads(tmp_path):
    """value (strictly increasing, in [-1, 1]) and wp (non-decreasing, in [0, 1])."""
    ev = evaluation.load(_write(tmp_path, HEAD + "value = [-0.5, 0, 0.5]\nwp = [0.1, 0.1, 0.9]\n"), NAMES)
    assert ev.calibration == {"mcts": CalibrationTable((-0.5, 0.0, 0.5), (0.1, 0.1, 0.9))}


@pytest.mark.parametrize("body, key", [
    ("value = [-0.5, 0.5]\nwp = [0.6, 0.4]\n", "calibration.mcts.wp[1]"),          # decreasing wp
    ("value = [0.5, -0.5]\nwp = [0.4, 0.6]\n", "calibration.mcts.value[1]"),       # decreasing value
    ("value = [-0.5, -0.5]\nwp = [0.4, 0.6]\n", "calibration.mcts.value[1]"),      # repeated value
    ("value = [-1.5, 0.5]\nwp = [0.4, 0.6]\n", "calibration.mcts.value[0]"),       # value out of range
    ("value = [-0.5, 0.5]\nwp = [0.4, 1.2]\n", "calibration.mcts.wp[1]"),          # wp out of range
    ("value = [-0.5, 0.5]\nwp = [-0.1, 0.6]\n", "calibration.mcts.wp[0]"),
    ("value = [-0.5, 0.5]\nwp = [0.4, nan]\n", "calibration.mcts.wp[1]"),          # not finite
    ("value = [-0.5, 0, 0.5]\nwp = [0.4, 0.6]\n", "calibration.mcts"),             # lengths differ
    ("value = [0.5]\nwp = [0.6]\n", "calibration.mcts.value"),                      # one knot
    ("value = 0.5\nwp = [0.6]\n", "calibration.mcts.value"),                        # not a list
    ("value = [-0.5, 0.5]\n", "calibration.mcts.wp"),                               # missing
    ("value = [-0.5, 0.5]\nwp = [0.4, 0.6]\nscale = 1\n", "calibration.mcts.scale"),  # both kinds
])
def test_a_bad_table_is_refused_in_one_line_naming_file_and_key(tmp_path, body, key):
    """A non-monotone or out-of-range table stops the load: one line, the file and the key."""
    with pytest.raises(EvalFileError) as e:
        evaluation.load(_write(tmp_path, HEAD + body), NAMES)
    msg = str(e.value)
    assert "\n" not in msg and "eval.toml" in msg and key in msg


def test_calibrated_wp_interpolates_linearly_and_is_flat_outside_the_knots():
    """Documented in evaluation.calibrated_wp: "linear between knots, flat
    outside them"; "A proven result (v = -1 or 1 exactly) stays certain"."""
    cal = {"mcts": CalibrationTable((-0.5, 0.0, 0.5), (0.2, 0.4, 0.9))}
    wp = lambda v: evaluation.calibrated_wp("x", v, "mcts", cal)  # noqa: E731
    assert wp(-0.5) == 0.2 and wp(0.0) == 0.4 and wp(0.5) == 0.9          # at the knots
    assert wp(-0.25) == pytest.approx(0.3, abs=1e-15)                      # halfway
    assert wp(0.1) == pytest.approx(0.5, abs=1e-15)                        # a fifth of the way
    assert wp(-0.9) == 0.2 and wp(0.99) == 0.9                             # flat outside
    assert wp(-1.0) == 0.0 and wp(1.0) == 1.0                              # proven results
    assert evaluation.calibrated_wp("x", 0.0, "ismcts", cal) == 0.5        # no table for this search


def test_pav_pools_adjacent_violators():
    """Hand-worked: means 0.1, 0.5, 0.3 (weights 1, 1, 1) -> 0.1, then 0.4 pooled over the last two."""
    assert isotonic.pav([0.1, 0.5, 0.3], [1, 1, 1]) == [(0, 0, 0.1, 1.0), (1, 2, 0.4, 2.0)]
    (first, last, mean, weight), = isotonic.pav([0.6, 0.2, 0.2], [2, 1, 1])   # one block
    assert (first, last, weight) == (0, 2, 4.0) and mean == pytest.approx(0.4, abs=1e-15)


def test_fit_table_on_a_hand_worked_sample():
    """Six decisions in three groups of two: win rates by Laplace's rule
    (wins + 1) / (n + 2) 0.25, 0.75, 0.5 -> the last two pool (0.625) at the
    mean of their four values."""
    v = [0.9, -0.8, 0.1, -0.6, 0.3, 0.5]
    y = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    # sorted: -0.8 (0), -0.6 (0) | 0.1 (1), 0.3 (1) | 0.5 (0), 0.9 (1)
    assert isotonic.fit_table(v, y, bins=3) == ((-0.7, 0.45), (0.25, 0.625))


def test_a_fit_reproduces_from_its_seed():
    """A tiny synthetic sample drawn from a seed gives the same table twice,
    monotone, and one that the loader accepts."""
    def sample(seed):
        rng = np.random.default_rng(seed)
        v = rng.uniform(-1, 1, 200)
        return v, (rng.uniform(0, 1, 200) < (v + 1) / 2).astype(float)
    a = isotonic.fit_table(*sample(7), bins=8)
    b = isotonic.fit_table(*sample(7), bins=8)
    assert a == b
    values, wps = a
    assert all(x < x2 for x, x2 in zip(values, values[1:])) and all(y <= y2 for y, y2 in zip(wps, wps[1:]))
    assert isotonic.fit_table(*sample(8), bins=8) != a


def test_a_written_table_loads_back(tmp_path):
    """bench.calibration.write_calibration renders the knots into the eval.toml and loads it back."""
    from bench import calibration as cal
    game = ardsearch.load_game("mortain")
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = {float(w)!r}\n" for n, w in zip(game.feature_names, game.weights)))
    table = CalibrationTable((-0.75, 0.125, 0.5), (0.05, 0.5, 0.875))
    cal.write_calibration(path, game, "mcts", table, "python -m bench.calibration mortain --fit mcts")
    ev = evaluation.load(str(path), game.feature_names, "mortain")
    assert ev.calibration == {"mcts": table}
    assert ev.source["calibration_mcts"] == "python -m bench.calibration mortain --fit mcts"


def test_the_shipped_ardennes_table_loads_and_the_bot_reports_it():
    """Ardennes ships [calibration.mcts] and the same table as
    [calibration.ismcts] (bench/README.md, "Calibration"): in Ardennes an MCTS
    bot searches information sets and reports under "ismcts". It loads as a
    monotone table and a bare MCTS bot reports its root value through it."""
    from ardsearch.bots import MCTSBot
    game = ardsearch.load_game("ardennes")
    tables = evaluation.loaded("ardennes").calibration
    table = tables["ismcts"]
    assert tables["mcts"] == table and isinstance(table, CalibrationTable) and len(table.values) >= 2
    s = game.new_initial_state(seed=3)
    while s.is_chance_node():
        s.apply_random_chance()
    info = MCTSBot(game, simulations=200, seed=1).analyze(s)
    v = info["value"]
    want = 0.0 if v <= -1 else 1.0 if v >= 1 else table(v)
    assert info["wp"] == want
