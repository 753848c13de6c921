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


# --- the monotone step table (isotonic.fit_steps, --method steps) ----------

def test_fit_steps_keeps_a_small_cluster_at_the_end_apart():
    """The case it is for (bench/results/s22-cal/PLAN.md): 1,000 undecided
    decisions valued 0-0.4 that win half the time and 100 decided ones
    valued 0.95 that all win. Equal-count groups would mix them; the step
    table keeps the cluster as its own block, a step halfway between
    (0.4 + 0.95) / 2 = 0.675. Two equal-count groups of 550: the second is
    cut where its span passes 0.5, leaving 450 undecided decisions and the
    cluster; both undecided pieces read (half + 1) / (n + 2) = 0.5 by
    Laplace's rule, equal, so they pool into one block; the cluster reads
    (100 + 1) / (100 + 2)."""
    v = np.r_[np.linspace(0.0, 0.4, 1000), np.full(100, 0.95)]
    y = np.r_[np.tile([0.0, 1.0], 500), np.ones(100)]
    values, wps = isotonic.fit_steps(v, y, bins=2, span=0.5, min_group=50)
    assert values == (0.6749, 0.6751)
    assert wps == (0.5, round(101 / 102, 4))
    table = CalibrationTable(values, wps)
    assert table(0.3) == wps[0] and table(0.9) == wps[1]          # constant over each block


def test_fit_steps_cuts_a_group_whose_values_span_too_far_and_merges_a_small_one():
    """Hand-worked, one group (bins=1): values -0.8, -0.7 (lost) and 0.1,
    0.2, 0.3, 0.4 (won). A span of 0.5 cuts it at 0.1 (0.1 - (-0.8) > 0.5):
    blocks of 2 and 4 decisions, rates 1/4 and 5/6, a step at
    (-0.7 + 0.1) / 2 = -0.3. With min_group 3 the block of 2 is merged into
    its only neighbour: one block, 5/8 over all values."""
    v = [0.3, -0.8, 0.1, -0.7, 0.4, 0.2]
    y = [1.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    assert isotonic.fit_steps(v, y, bins=1, span=0.5, min_group=1) == ((-0.3001, -0.2999), (0.25, 0.8333))
    assert isotonic.fit_steps(v, y, bins=1, span=0.5, min_group=3) == ((-1.0, 1.0), (0.625, 0.625))


def test_fit_steps_never_splits_equal_values_and_pools_decreasing_rates():
    """Equal values stay in one group (a step must fall between distinct
    values), and groups whose rates decrease are pooled (PAV): values 0 x 6
    (3 won) and 0.5 x 2 (both lost) with bins=4 give the group boundaries
    after the run of zeros; the second group's rate 1/4 is below the first's
    4/8, so both pool into one flat block, (3 + 1) / (8 + 2) = 0.4 as two
    groups pooled by weight: (0.5 * 6 + 0.25 * 2) / 8."""
    v = [0.0] * 6 + [0.5] * 2
    y = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    values, wps = isotonic.fit_steps(v, y, bins=4, span=1.0, min_group=1)
    assert values == (-1.0, 1.0) and wps == (0.4375, 0.4375)


def test_fit_steps_is_monotone_loadable_and_reproducible():
    """On a synthetic sample from a seed: the same knots twice, values
    strictly increasing and rates non-decreasing (a valid CalibrationTable),
    each pair of knots a step 0.0002 wide, and the fit written to an
    eval.toml loads back."""
    def sample(seed):
        rng = np.random.default_rng(seed)
        v = np.round(rng.uniform(-1, 1, 3000), 3)          # many ties, as search values have
        return v, (rng.uniform(0, 1, 3000) < (v + 1) / 2).astype(float)
    a = isotonic.fit_steps(*sample(3))
    assert a == isotonic.fit_steps(*sample(3))
    values, wps = a
    assert all(x < x2 for x, x2 in zip(values, values[1:])) and all(p <= p2 for p, p2 in zip(wps, wps[1:]))
    assert len(values) % 2 == 0 and all(round(values[i + 1] - values[i], 4) == 0.0002
                                        for i in range(0, len(values), 2))
    assert all(wps[i] < wps[i + 1] for i in range(0, len(wps), 2))   # every step is a step up
    CalibrationTable(*a)


@pytest.mark.parametrize("kwargs", [dict(bins=0), dict(span=0.0), dict(min_group=0)])
def test_fit_steps_refuses_bad_settings(kwargs):
    with pytest.raises(ValueError):
        isotonic.fit_steps([0.1, 0.2], [0.0, 1.0], **kwargs)


def test_the_step_table_is_a_calibration_method_and_a_compare_candidate():
    """`--method steps` fits through bench.calibration.fit; --compare scores it."""
    from bench import calibration as cal
    v = np.r_[np.linspace(-0.5, 0.5, 400), np.full(150, 0.9)]
    y = np.r_[np.tile([0.0, 1.0], 200), np.ones(150)]
    seat = np.zeros(len(v), dtype=np.int64)
    fitted = cal.fit("steps", v, y, seat, 4)
    assert fitted == CalibrationTable(*isotonic.fit_steps(v, y, 4))
    assert fitted(0.9) == round(151 / 152, 4)                     # the cluster is its own block
    assert ("one monotone step table", "steps", None) in cal.CANDIDATES


def test_ardennes_shipped_step_table_reproduces_from_its_kept_games():
    """The [source] command of Ardennes' shipped calibration names kept
    records (bench/results/s14-cal/cal-ard.jsonl.gz); the step table fitted
    on them is the shipped one, knot for knot, under both searches it
    reports for, and a decided win (value 0.95) reads above 98%
    (bench/results/s22-cal/PLAN.md: the old table read every one 77%)."""
    from pathlib import Path
    from bench import calibration as cal
    root = Path(__file__).resolve().parents[1]
    ardsearch.load_game("ardennes")
    shipped = evaluation.loaded("ardennes")
    assert "cal-ard.jsonl.gz --fit mcts --method steps" in shipped.source["calibration_mcts"]
    v, _, y, _, _ = cal.decisions(cal.read([root / "bench/results/s14-cal/cal-ard.jsonl.gz"]))
    fitted = CalibrationTable(*isotonic.fit_steps(v, y))
    assert shipped.calibration["mcts"] == fitted and shipped.calibration["ismcts"] == fitted
    assert evaluation.calibrated_wp("ardennes", 0.95, "ismcts") > 0.98


def _stosstruppen_kept_decisions(scenario, files_named, flags):
    """A shipped Stosstruppen calibration's evidence: the scenario's game,
    the shipped evaluation, and the decisions (v, wp, y, pair, seat) of the
    record files its [source] command names, after checking that the
    command names `files_named` of them and was run with `flags`."""
    from pathlib import Path
    from bench import calibration as cal
    root = Path(__file__).resolve().parents[1]
    game = ardsearch.load_game(f"stosstruppen(scenario={scenario})")
    shipped = evaluation.loaded("stosstruppen")
    command = shipped.source[f"calibration_mcts_{scenario}_0"]
    files = [w for w in command.split() if w.endswith(".jsonl.gz")]
    assert len(files) == files_named and flags in command
    return game, shipped, cal.decisions(cal.read([root / f for f in files]))


def test_kaiserschlacht_shipped_table_reproduces_from_its_kept_games():
    """bench/results/s25-cal/PLAN.md, part E (part C's rule on all 465 kept
    games): "A candidate ships only if it beats the raw value (v + 1) / 2 on
    both scores in both columns; of several, the lowest mean held-out
    log-loss. It is fitted on all 465 games (`--all-games --scoped`, with
    the flags the candidate names)": one monotone table (session 25). Its
    [source] command names the six kept record files; the monotone table
    fitted on all of them is the shipped one, knot for knot, and it holds
    for Kaiserschlacht only."""
    game, shipped, (v, _, y, _, _) = _stosstruppen_kept_decisions(
        "kaiserschlacht", 6, "--method isotonic --all-games --scoped")
    assert len(v) == 72500
    fitted = CalibrationTable(*isotonic.fit_table(v, y, 20))
    assert evaluation.calibration_for(shipped.calibration, "mcts", game.params) == fitted
    villers = ardsearch.load_game("stosstruppen(scenario=villers)")
    assert evaluation.calibration_for(shipped.calibration, "mcts", villers.params) != fitted


def test_villers_shipped_table_per_seat_reproduces_from_its_kept_games():
    """bench/results/s27-cal/PLAN.md: "If not met, the rule of
    ../s26-cal/PLAN.md applies again: all Villers games become one fit set
    under part C's rule" (ship only a candidate beating the raw value on both
    scores in both columns; of several, the lowest mean held-out log-loss):
    a monotone table per side to move (session 28 on 600 games, session 29
    on 800: s28-cal/PLAN.md; session 30 on 1,000: s29-cal/PLAN.md,
    addendum 2). Its [source] command names the ten kept record files; the tables fitted on
    all of them, one per seat, are the shipped ones, knot for knot, and they
    hold for Villers only."""
    game, shipped, (v, _, y, _, seat) = _stosstruppen_kept_decisions(
        "villers", 10, "--method isotonic --by seat --all-games --scoped")
    assert len(v) == 108826
    fitted = evaluation.SeatCalibration(game.player_names, tuple(
        CalibrationTable(*isotonic.fit_table(v[seat == p], y[seat == p], 20)) for p in range(2)))
    assert evaluation.calibration_for(shipped.calibration, "mcts", game.params) == fitted
    kaiser = ardsearch.load_game("stosstruppen(scenario=kaiserschlacht)")
    assert evaluation.calibration_for(shipped.calibration, "mcts", kaiser.params) != fitted
