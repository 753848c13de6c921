"""Undaunted: Normandy's shipped calibration, one scoped table a scenario.

Issue 15: "Calibrated win probabilities: the wp that bots, the protocol and
play report is the fitted probability". Undaunted's scenarios favour different
sides and the search's root value (the goal evaluation) reads differently in
each, so a scenario's table is its own [[calibration.ismcts]] entry in
ardsearch/games/undaunted/data/eval.toml (bench/README.md, "Undaunted: tables
for scenarios 2 and 3"): scenario 1 a Platt curve, scenario 2 a Platt curve
per side to move and band of rounds (session 21: one curve read too flat at
both ends, because the same root value is a surer thing late in the game than
early; bench/README.md, "Undaunted: scenario 2 by round"), scenario 3 a table
per side to move; a game
whose parameters match no entry (another round limit) reports (v + 1) / 2.
These tests pin what is exact: which table each scenario reads, and that the
bots and the protocol report it."""
import os
import sys

import numpy as np
import pytest

import ardsearch
from ardsearch import evaluation
from ardsearch.evaluation import CalibrationTable, RoundCalibration, SeatCalibration, Scoped

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_calibration_by_seat import _decision  # noqa: E402


def _scenario(n):
    return ardsearch.load_game(f"undaunted(scenario={n})")


def _entries():
    _scenario(1)     # loading the game installs its eval.toml
    fits = evaluation.loaded("undaunted").calibration["ismcts"]
    assert isinstance(fits, tuple) and all(isinstance(f, Scoped) for f in fits)
    return {dict(f.params)["scenario"]: f for f in fits}


def test_the_shipped_file_holds_one_scoped_table_for_each_scenario():
    entries = _entries()
    assert sorted(entries) == [1, 2, 3]
    for n, fit in entries.items():
        assert dict(fit.params) == dict(_scenario(n).params)
        assert fit.applies_to(_scenario(n).params)
    assert entries[1].fit == (2.33625, -0.0354412)   # a Platt curve (scale, shift)
    two = entries[2].fit
    assert isinstance(two, RoundCalibration) and two.starts == (1, 6, 11, 16, 21, 31)
    assert all(isinstance(f, SeatCalibration) and f.seats == ("us", "germans") for f in two.fits)
    assert two.fits[0].fits[0] == (0.624007, 0.0539198)      # rounds 1-5, the US to move
    assert two.fits[4].fits[1] == (2.26508, -0.202901)       # rounds 21-30, the Germans to move
    seat = entries[3].fit
    assert isinstance(seat, SeatCalibration) and seat.seats == _scenario(3).player_names == ("us", "germans")
    assert all(isinstance(t, CalibrationTable) and len(t.values) >= 2 for t in seat.fits)
    # each command is kept in [source] under the key bench.calibration --scoped writes
    source = evaluation.loaded("undaunted").source   # (loaded by _entries)
    one = source["calibration_ismcts_40_1_"]
    assert "--method platt" in one and "cal-u1.jsonl" in one and "cal-u1b.jsonl" in one
    three = source["calibration_ismcts_40_3_"]
    assert "'undaunted(scenario=3)'" in three and "--by seat" in three
    two = source["calibration_ismcts_40_2_"]
    assert "'undaunted(scenario=2)'" in two and "--method platt" in two and "--by seat" in two
    assert "--rounds 1,6,11,16,21,31" in two and "cal-u2-9000.jsonl" in two
    assert "cal-u2.jsonl" in two and "cal-u2c.jsonl" in two


@pytest.mark.parametrize("v", [-0.5, -0.2, 0.0, 0.1, 0.3])
def test_each_scenario_reports_through_its_own_table(v):
    """Scenario 1 its Platt curve, sigmoid(scale * logit((v + 1) / 2) +
    shift), for both sides; scenario 2 the curve of the side to move in the
    band of the round; scenario 3 the table of the side to move; a game no
    entry matches (40 rounds is every entry's) the raw (v + 1) / 2."""
    import math
    entries = _entries()
    wp = lambda n, player, r=None: evaluation.calibrated_wp(  # noqa: E731
        "undaunted", v, "ismcts", None, player, _scenario(n).params, r)
    logit = math.log((v + 1) / (1 - v))
    platt = lambda fit: pytest.approx(1 / (1 + math.exp(-(fit[0] * logit + fit[1]))))  # noqa: E731
    assert wp(1, 0) == wp(1, 1) == platt(entries[1].fit)
    bands = entries[2].fit
    for r, band in ((1, 0), (5, 0), (6, 1), (15, 2), (20, 3), (21, 4), (30, 4), (31, 5), (40, 5)):
        assert wp(2, 0, r) == platt(bands.fits[band].fits[0]) and wp(2, 1, r) == platt(bands.fits[band].fits[1])
    assert (wp(3, 0), wp(3, 1)) == (entries[3].fit.fits[0](v), entries[3].fit.fits[1](v))
    other = {**_scenario(2).params, "max_rounds": 30}
    assert evaluation.calibrated_wp("undaunted", v, "ismcts", None, 0, other) == pytest.approx((v + 1) / 2)


def test_scenario_3s_tables_are_the_fitted_knots():
    """The shipped knots (session 14's refit on 500 games; a value at a knot
    reads exactly that knot's wp): with the same root value 0.1139 the US
    (to move) is at 0.7551, the Germans (to move) between their knots
    0.0855 -> 0.3322 and 0.1314 -> 0.3696: the same value means another
    chance for each side."""
    us, germans = _entries()[3].fit.fits
    assert us(0.1139) == pytest.approx(0.7551)
    assert 0.3322 < germans(0.1139) < 0.3696
    assert evaluation.calibrated_wp("undaunted", 1.0, "ismcts", None, 1, _scenario(3).params) == 1.0


@pytest.mark.parametrize("seat", [0, 1])
def test_the_ismcts_bot_and_the_protocol_report_scenario_3s_table(seat):
    """A bare ISMCTS bot on scenario 3 reports its root value through the table
    of the side to move, and so does the protocol's reported_wp; on scenario 2
    the same bot reports through the curve of the side to move in the band of
    the position's round."""
    from ardsearch.bots import ISMCTSBot
    from ardsearch.protocol.searcher import reported_wp
    game = _scenario(3)
    fit = _entries()[3].fit.fits[seat]
    info = ISMCTSBot(game, simulations=200, seed=1).analyze(_decision(game, seat))
    v = info["value"]
    assert info["wp"] == (0.0 if v <= -1 else 1.0 if v >= 1 else fit(v))
    assert reported_wp(game, {"name": "x"}, 0.1, "ismcts", seat) == fit(0.1)
    two = _scenario(2)
    info = ISMCTSBot(two, simulations=200, seed=1).analyze(_decision(two, seat))
    v = info["value"]
    want = evaluation.calibrated_wp("undaunted", v, "ismcts", {"ismcts": _entries()[2].fit}, seat, None,
                                    evaluation.round_of(_decision(two, seat)))
    assert info["wp"] == pytest.approx(want, abs=1e-12)
