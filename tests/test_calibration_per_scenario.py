"""Several scoped calibrations of one search, one per scenario:
[[calibration.<search>]] entries, each with its own `params`.

Issue 15: "Calibrated win probabilities: the wp that bots, the protocol and
play report is the fitted probability". A root value means another win rate
in another scenario (Stosstruppen's Kaiserschlacht went 76% to the British in
self-play, Villers is balanced), so each scenario needs its own table; before
this a game could keep one scoped table per search and every other scenario
reported the raw (v + 1) / 2 (in Villers a beginner bot reported 92% for the
British at the start of a balanced game)."""
import pytest

import ardsearch
from ardsearch import evaluation
from ardsearch.evaluation import CalibrationTable, EvalFileError, SeatCalibration, Scoped

NAMES = ("classic", "material")
SEATS = ("german", "us")
HEAD = "[weights]\nclassic = 1\nmaterial = 0\n"
TWO = (HEAD
       + "[[calibration.mcts]]\nparams = {scenario = \"a\", turns = 0}\n"
       + "[calibration.mcts.seat.german]\nvalue = [-1, 1]\nwp = [0.8, 0.8]\n"
       + "[calibration.mcts.seat.us]\nvalue = [-1, 1]\nwp = [0.3, 0.3]\n"
       + "[[calibration.mcts]]\nparams = {scenario = \"b\", turns = 0}\nvalue = [-1, 1]\nwp = [0.6, 0.6]\n")


def _write(tmp_path, text):
    p = tmp_path / "eval.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_each_scenario_reports_through_its_own_table(tmp_path):
    """A game uses the entry whose params it has; a game with none of them
    reports (v + 1) / 2; without params it is an error that says what to give."""
    ev = evaluation.load(_write(tmp_path, TWO), NAMES, "mortain", SEATS)
    fits = ev.calibration["mcts"]
    assert isinstance(fits, tuple) and [dict(f.params) for f in fits] == [
        {"scenario": "a", "turns": 0}, {"scenario": "b", "turns": 0}]
    assert isinstance(fits[0].fit, SeatCalibration) and isinstance(fits[1].fit, CalibrationTable)
    wp = lambda player, params: evaluation.calibrated_wp("x", 0.1, "mcts", ev.calibration, player, params)
    assert (wp(0, {"scenario": "a", "turns": 0}), wp(1, {"scenario": "a", "turns": 0})) == (0.8, 0.3)
    assert wp(1, {"scenario": "b", "turns": 0}) == 0.6
    assert wp(1, {"scenario": "b", "turns": 5}) == pytest.approx(0.55)
    assert wp(1, {"scenario": "c", "turns": 0}) == pytest.approx(0.55)
    assert evaluation.calibrated_wp("x", 1.0, "mcts", ev.calibration, 1, {"scenario": "b", "turns": 0}) == 1.0
    with pytest.raises(ValueError, match="give the game's params"):
        wp(0, None)


@pytest.mark.parametrize("text, key, says", [
    (HEAD + "[[calibration.mcts]]\nvalue = [-1, 1]\nwp = [0.2, 0.8]\n", "calibration.mcts[0]", "has no params"),
    (HEAD + "[[calibration.mcts]]\nparams = {scenario = 1}\nvalue = [-1, 1]\nwp = [0.2, 0.8]\n"
     + "[[calibration.mcts]]\nparams = {scenario = 1}\nscale = 1.0\nshift = 0.0\n",
     "calibration.mcts[1].params", "given twice"),
    (HEAD + "[[calibration.mcts]]\nparams = {scenario = 1}\nvalue = [-1, 1]\nwp = [0.8, 0.2]\n",
     "calibration.mcts[0].wp[1]", "monotone"),
    (HEAD + "[calibration]\nmcts = []\n", "calibration.mcts", "empty list"),
])
def test_a_bad_entry_is_refused_in_one_line_naming_file_and_key(tmp_path, text, key, says):
    with pytest.raises(EvalFileError) as e:
        evaluation.load(_write(tmp_path, text), NAMES, "mortain", SEATS)
    msg = str(e.value)
    assert "\n" not in msg and "eval.toml" in msg and key in msg and says in msg


def test_render_writes_entries_that_load_back_the_same(tmp_path):
    """ardsearch.tuning.render writes [[calibration.<search>]] entries, each
    with its params and its table or seat tables, and the file loads back equal."""
    from ardsearch.tuning import render
    game = ardsearch.load_game("mortain")
    ev = evaluation.load(_write(tmp_path, TWO), NAMES, "mortain", SEATS)
    seat = SeatCalibration(game.player_names, ev.calibration["mcts"][0].fit.fits)
    fits = (Scoped((("scenario", "a"), ("turns", 0)), seat), ev.calibration["mcts"][1])
    text = render(game, game.weights, {"game": "mortain"}, {"mcts": fits, "greedy": (1.5, 0.0)})
    assert text.count("[[calibration.mcts]]") == 2 and "[calibration.greedy]" in text
    path = tmp_path / "written.toml"
    path.write_text(text, encoding="utf-8")
    back = evaluation.load(str(path), game.feature_names, "mortain", game.player_names)
    assert back.calibration == {"mcts": fits, "greedy": (1.5, 0.0)}


def test_writing_a_scoped_fit_keeps_the_other_scenarios_and_replaces_its_own(tmp_path):
    """bench.calibration --fit ... --scoped --write: a table for another
    scenario is added beside the file's, one for the same parameters replaces
    it, each command is kept in [source] under a key naming its parameters,
    and an unscoped fit replaces them all."""
    from bench import calibration as cal
    game = ardsearch.load_game("stosstruppen")
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = {float(w)!r}\n" for n, w in zip(game.feature_names, game.weights)))
    flat = lambda p: CalibrationTable((-1.0, 1.0), (p, p))
    kaiser = Scoped((("scenario", "kaiserschlacht"), ("turns", 0)), flat(0.2))
    villers = Scoped((("scenario", "villers"), ("turns", 0)), flat(0.7))
    load = lambda: evaluation.load(str(path), game.feature_names, game.name, game.player_names)
    cal.write_calibration(path, game, "mcts", kaiser, "cmd k")
    assert load().calibration["mcts"] == kaiser
    cal.write_calibration(path, game, "mcts", villers, "cmd v")
    assert load().calibration["mcts"] == (kaiser, villers)
    villers2 = Scoped(villers.params, flat(0.9))
    cal.write_calibration(path, game, "mcts", villers2, "cmd v2")
    ev = load()
    assert ev.calibration["mcts"] == (kaiser, villers2)
    assert ev.source["calibration_mcts_kaiserschlacht_0"] == "cmd k"
    assert ev.source["calibration_mcts_villers_0"] == "cmd v2"
    cal.write_calibration(path, game, "mcts", flat(0.5), "cmd all")
    assert load().calibration["mcts"] == flat(0.5)


def test_writing_to_a_new_path_starts_from_the_shipped_file_and_bad_paths_fail_first(tmp_path):
    """bench.calibration --fit ... --write FILE: a FILE that does not exist yet
    starts as a copy of the game's shipped eval.toml (its weights and other
    scenarios' tables kept), and a path that cannot be written is refused
    before any game is played, not after hours of them."""
    from bench import calibration as cal
    game = ardsearch.load_game("stosstruppen(scenario=kaiserschlacht)")
    new = tmp_path / "sub" / "eval.toml"
    cal.start_file(str(new), game)
    assert new.read_text() == open(evaluation.eval_path("stosstruppen")).read()
    flat = CalibrationTable((-1.0, 1.0), (0.3, 0.3))
    cal.write_calibration(new, game, "mcts", Scoped(tuple(sorted(game.params.items())), flat), "cmd")
    ev = evaluation.load(str(new), game.feature_names, game.name, game.player_names)
    villers = next(t for t in ev.calibration["mcts"] if dict(t.params)["scenario"] == "villers")
    assert villers == next(t for t in evaluation.loaded("stosstruppen").calibration["mcts"]
                           if dict(t.params)["scenario"] == "villers")
    with pytest.raises(SystemExit, match="is a folder"):
        cal.start_file(str(tmp_path), game)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SystemExit, match="cannot create it"):
        cal.start_file(str(blocker / "eval.toml"), game)


def test_a_records_file_of_the_same_run_is_continued_and_another_refused(tmp_path):
    """bench.calibration --records FILE: a run stopped (or killed) goes on from
    the games in FILE instead of replacing them; a FILE of other settings is
    refused with the settings that differ."""
    from bench import calibration as cal
    game = ardsearch.load_game("mortain")
    out = tmp_path / "games.jsonl"
    first = cal.play(game, 2, 5, ["a=random", "b=random"], 1, str(out))
    written = out.read_text()
    again = cal.play(game, 2, 5, ["a=random", "b=random"], 1, str(out))   # nothing left to play
    assert out.read_text() == written
    assert [r["moves"] for r in again] == [r["moves"] for r in first]
    with pytest.raises(ValueError, match="other settings"):
        cal.play(game, 2, 6, ["a=random", "b=random"], 1, str(out))


def test_a_scoped_fit_of_a_game_with_many_parameters_gets_a_key_a_person_can_read():
    """bench.calibration --scoped --write keeps each command in [source]
    under a key naming the fit's parameters. A game with few parameters joins
    every value (calibration_mcts_villers_0, kept as it was); Micro Armour
    has 22, whose joined values no one can read, so its key names the
    scenario and only the parameters that differ from the game's defaults."""
    from bench import calibration as cal
    game = ardsearch.load_game("microarmour")
    flat = CalibrationTable((-1.0, 1.0), (0.5, 0.5))
    default = Scoped(tuple(sorted(game.params.items())), flat)
    assert cal.source_key("mcts", default, game.spec) == "calibration_mcts_introductory"
    short = ardsearch.load_game("microarmour(scenario=meeting,turns=6,heat=true)")
    other = Scoped(tuple(sorted(short.params.items())), flat)
    assert cal.source_key("ismcts", other, game.spec) == "calibration_ismcts_meeting_heat_True_turns_6"
    stoss = ardsearch.load_game("stosstruppen(scenario=villers)")
    villers = Scoped(tuple(sorted(stoss.params.items())), flat)
    assert cal.source_key("mcts", villers, stoss.spec) == "calibration_mcts_villers_0"
    assert cal.source_key("mcts", flat, game.spec) == "calibration_mcts"
