"""A calibration of the reported win probability by band of rounds.

Issue 15: "Calibrated win probabilities: the `wp` that bots, the protocol
and `play` report is the fitted probability ... each decile within 5
points". In Undaunted's scenario 2 the same root value is a surer thing late
in a game than early, so a map of the value alone reads too flat in the
tails (bench/README.md, "Undaunted: scenario 2 by round"): an eval.toml may
give one calibration per band of rounds, [calibration.<search>.rounds.<first
round>], each a table, a Platt fit or one per seat (docs/tuning.md)."""
import numpy as np
import pytest

import ardsearch
from ardsearch import evaluation, logistic, tuning
from ardsearch.evaluation import EvalFileError, RoundCalibration, SeatCalibration
from bench import calibration as cal

BANDED = RoundCalibration((1, 6, 11), ((1.0, -1.0), (1.0, 0.0), (2.0, 1.0)))


def _weights(game) -> str:
    return "[weights]\n" + "".join(f"{n} = {float(w)!r}\n" for n, w in zip(game.feature_names, game.weights))


def test_a_band_holds_from_its_first_round_to_the_next_band():
    """Band i holds from round starts[i] up to the round before starts[i + 1];
    the last to the end of the game; a round before the first start takes the
    first band (no round is left without a calibration)."""
    assert [BANDED.fit_for(r) for r in (0, 1, 5, 6, 10, 11, 40)] == [
        (1.0, -1.0), (1.0, -1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 0.0), (2.0, 1.0), (2.0, 1.0)]
    for bad in (None, 2.5, True, "3"):
        with pytest.raises(ValueError, match="by round"):
            BANDED.fit_for(bad)


def test_calibrated_wp_reads_the_band_of_the_decisions_round():
    """The value is mapped through the band of its round (here Platt curves:
    sigmoid(scale * logit((v + 1) / 2) + shift)); a proven result stays
    certain; a calibration by round without a round is an error, not a guess."""
    wp = lambda v, r: evaluation.calibrated_wp("x", v, "mcts", {"mcts": BANDED}, 0, None, r)  # noqa: E731
    assert wp(0.0, 3) == pytest.approx(float(logistic.sigmoid(np.array([-1.0]))[0]))
    assert wp(0.0, 7) == pytest.approx(0.5)
    assert wp(0.2, 12) == pytest.approx(float(logistic.sigmoid(np.array([2.0 * np.log(0.6 / 0.4) + 1.0]))[0]))
    assert wp(1.0, 3) == 1.0 and wp(-1.0, 12) == 0.0
    with pytest.raises(ValueError, match="give the decision's round"):
        evaluation.calibrated_wp("x", 0.0, "mcts", {"mcts": BANDED}, 0)


def test_bands_with_a_calibration_per_seat_inside_a_scoped_entry_load_and_write_back(tmp_path):
    """[[calibration.<search>]] with params, then [calibration.<search>.rounds.<n>.seat.<name>]:
    loaded as Scoped(RoundCalibration(SeatCalibration ...)), and the writer
    renders it so that it loads back the same."""
    game = ardsearch.load_game("undaunted")
    path = tmp_path / "eval.toml"
    path.write_text(_weights(game) + """
[[calibration.ismcts]]
params = {scenario = 2}

[calibration.ismcts.rounds.6.seat.us]
scale = 1.5
shift = 0.1

[calibration.ismcts.rounds.6.seat.germans]
scale = 1.6
shift = -0.1

[calibration.ismcts.rounds.1]
value = [-0.5, 0.5]
wp = [0.3, 0.7]

[[calibration.ismcts]]
params = {scenario = 3}
scale = 1.2
shift = 0.0
""")
    ev = evaluation.load(str(path), game.feature_names, "undaunted", game.player_names)
    first, second = ev.calibration["ismcts"]
    assert first.params == (("scenario", 2),)
    assert first.fit == RoundCalibration((1, 6), (evaluation.CalibrationTable((-0.5, 0.5), (0.3, 0.7)),
                                                  SeatCalibration(("us", "germans"), ((1.5, 0.1), (1.6, -0.1)))))
    assert second.fit == (1.2, 0.0)
    wp = evaluation.calibrated_wp("undaunted", 0.0, "ismcts", ev.calibration, 1, {"scenario": 2}, 2)
    assert wp == pytest.approx(0.5)
    assert evaluation.calibrated_wp("undaunted", 0.0, "ismcts", ev.calibration, 1, {"scenario": 2}, 9) == \
        pytest.approx(float(logistic.sigmoid(np.array([-0.1]))[0]))
    again = tmp_path / "again.toml"
    again.write_text(tuning.render(game, ev.weights, {"game": "undaunted"}, ev.calibration))
    assert "[calibration.ismcts.rounds.1]" in again.read_text()
    assert evaluation.load(str(again), game.feature_names, "undaunted", game.player_names).calibration == \
        ev.calibration


@pytest.mark.parametrize("tables, message", [
    ("[calibration.mcts.rounds.first]\nscale = 1.0\nshift = 0.0\n", "is not a round"),
    ('[calibration.mcts.rounds."\u00b2"]\nscale = 1.0\nshift = 0.0\n', "is not a round"),   # a digit, not 0-9
    ("[calibration.mcts]\nscale = 1.0\nshift = 0.0\n[calibration.mcts.rounds.1]\nscale = 1.0\nshift = 0.0\n",
     "not allowed beside"),
    ("[calibration.mcts.rounds.1]\nscale = 1.0\nshift = 0.0\n[calibration.mcts.rounds.01]\nscale = 1.0\n"
     "shift = 0.0\n", "two bands start at the same round"),
    ("[calibration.mcts]\nrounds = {}\n", "one calibration per band"),
    ("[calibration.mcts.rounds.1]\nscale = -1.0\nshift = 0.0\n", r"rounds\.1\.scale"),
    ("[calibration.mcts.rounds.1.seat.us]\nscale = 1.0\nshift = 0.0\n", r"rounds\.1\.seat\.germans is missing"),
])
def test_a_bad_calibration_by_round_is_refused_naming_the_key(tmp_path, tables, message):
    """Every error names the file and the key, and says what to write instead."""
    game = ardsearch.load_game("undaunted")
    path = tmp_path / "eval.toml"
    path.write_text(_weights(game) + tables)
    with pytest.raises(EvalFileError, match=message):
        evaluation.load(str(path), game.feature_names, "undaunted", game.player_names)


@pytest.mark.parametrize("name", ["ardennes", "microarmour", "mortain", "stosstruppen", "undaunted"])
def test_every_game_names_its_round(name):
    """A calibration by round reads the round (Ardennes, Undaunted) or turn
    (the others) of the game's structured state: every game has one."""
    state = ardsearch.load_game(name).new_initial_state(seed=1)
    assert evaluation.round_of(state) == state.to_dict().get("round", state.to_dict().get("turn")) == 1


def test_bots_and_protocol_report_the_band_of_the_positions_round(tmp_path):
    """A bot playing with a weights file whose calibration is by round
    reports its root value through the band of the position's round; the
    protocol's reported_wp does the same for the round it is given."""
    from ardsearch.bots import MCTSBot
    from ardsearch.protocol.searcher import reported_wp
    game = ardsearch.load_game("mortain")
    path = tmp_path / "eval.toml"
    path.write_text(_weights(game) + "[calibration.mcts.rounds.1]\nscale = 0.5\nshift = 0.25\n"
                    "[calibration.mcts.rounds.2]\nscale = 2.0\nshift = -0.25\n")
    s = game.new_initial_state(seed=3)
    while s.is_chance_node():
        s.apply_random_chance()
    assert evaluation.round_of(s) == 1
    info = MCTSBot(game, simulations=200, seed=1, weights=str(path)).analyze(s)
    assert info["wp"] == evaluation.calibrated_wp("mortain", info["value"], "mcts", {"mcts": (0.5, 0.25)})
    preset = {"name": "x", "weights": str(path)}
    assert reported_wp(game, preset, 0.2, "mcts", 0, 1) == evaluation.calibrated_wp(
        "mortain", 0.2, "mcts", {"mcts": (0.5, 0.25)})
    assert reported_wp(game, preset, 0.2, "mcts", 0, 3) == evaluation.calibrated_wp(
        "mortain", 0.2, "mcts", {"mcts": (2.0, -0.25)})


def test_the_tool_fits_one_curve_per_band_and_recovers_each():
    """Synthetic decisions whose win rate follows a different Platt curve in
    each band of rounds: `fit(..., rounds, starts)` gives each band's curve back."""
    rng = np.random.default_rng(5)
    n = 6000
    v = rng.uniform(-0.9, 0.9, n)
    rounds = rng.integers(1, 16, n)
    seat = rng.integers(0, 2, n)
    truth = {0: (0.8, 0.0), 1: (2.5, 0.3)}
    band = cal.band_of(rounds, (1, 8))
    scale = np.where(band == 0, truth[0][0], truth[1][0])
    shift = np.where(band == 0, truth[0][1], truth[1][1])
    y = logistic.sigmoid(scale * cal.logit_of_value(v) + shift)   # expected outcomes: an exact fit
    fitted = cal.fit("platt", v, y, seat, 20, None, ("a", "b"), rounds, (1, 8))
    assert isinstance(fitted, RoundCalibration) and fitted.starts == (1, 8)
    for got, want in zip(fitted.fits, (truth[0], truth[1])):
        assert got == pytest.approx(want, abs=1e-4)
    with pytest.raises(SystemExit, match="no decision in the band of rounds from 30"):
        cal.fit("platt", v, y, seat, 20, None, ("a", "b"), rounds, (1, 30))


def test_band_of_and_the_rounds_option():
    assert cal.band_of([0, 1, 5, 6, 20], (1, 6)).tolist() == [0, 0, 0, 1, 1]
    assert cal.parse_rounds("1,6,11") == (1, 6, 11)
    import argparse
    for bad in ("1,1", "6,1", "a,b", "-1,3"):
        with pytest.raises(argparse.ArgumentTypeError, match="first round"):
            cal.parse_rounds(bad)


def test_rounds_are_read_by_replaying_the_records(tmp_path):
    """Records carry moves, not states: each searched decision's round comes
    from replaying the game; the rounds line up with `decisions`."""
    from ardsearch.tournament import TournamentConfig, parse_bot, run_tournament
    config = TournamentConfig("undaunted", {"scenario": 2, "max_rounds": 3},
                              (parse_bot("a=mcts:nodes=30"), parse_bot("b=greedy")), "round-robin", 2, 11)
    records = run_tournament(config, tmp_path / "g.jsonl", concurrency=1).records
    v, *_ = cal.decisions(records)
    game = ardsearch.load_game("undaunted", scenario=2, max_rounds=3)
    rounds = cal.rounds_of(records, game)
    assert len(rounds) == len(v) and rounds.min() == 1 and rounds.max() <= 3 and len(set(rounds)) > 1
    assert (np.diff(cal.rounds_of(records[:1], game)) >= 0).all()   # one game's rounds never go back
    only_a = cal.rounds_of(records, game, "a")
    assert len(only_a) == len(cal.decisions(records, "a")[0])


def test_the_tool_reads_the_shipped_bands_on_kept_games(tmp_path, capsys):
    """`--installed ismcts` on scenario 2, whose shipped calibration is by
    round: the tool sees that (needs_rounds), replays the kept record for
    each decision's round, and maps every value through its band; the
    predictions equal calibrated_wp at each decision's own round."""
    import gzip
    import json
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    kept = os.path.join(here, "..", "bench", "results", "s21-cal", "cal-u2-9000.jsonl.gz")
    with gzip.open(kept, "rt", encoding="utf-8") as f:
        first = f.readline()
    path = tmp_path / "one.jsonl"
    path.write_text(first)
    two = ardsearch.load_game("undaunted(scenario=2)")
    assert cal.needs_rounds(two, "ismcts") and not cal.needs_rounds(ardsearch.load_game("undaunted(scenario=3)"),
                                                                    "ismcts")
    assert cal.main(["undaunted(scenario=2)", "--from", str(path), "--installed", "ismcts"]) == 0
    assert "shipped [calibration.ismcts]" in capsys.readouterr().out
    rec = json.loads(first)
    v, _, _, _, seat = cal.decisions([rec])
    rounds = cal.rounds_of([rec], two)
    assert rounds[0] == 1 and rounds[-1] > 5
    want = [evaluation.calibrated_wp("undaunted", x, "ismcts", None, int(s), two.params, int(r))
            for x, s, r in zip(v, seat, rounds)]
    assert cal.mapped_wp(two, "ismcts", None, v, seat, rounds).tolist() == want
    with pytest.raises(ValueError, match="by round"):
        cal.mapped_wp(two, "ismcts", None, v, seat)      # no rounds: refused, not guessed
