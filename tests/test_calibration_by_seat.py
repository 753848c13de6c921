"""A calibration of the reported win probability by seat:
[calibration.<search>.seat.<player name>], chosen by the side to move.

Issue 15: "Calibrated win probabilities: the wp that bots, the protocol and
play report is the fitted probability"; "tests assert only what is exact
(... calibration code on a synthetic case)". The brief for this work: "one
isotonic table per seat, chosen by the side to move; backwards compatible
with Ardennes' table; loaded, validated (clear one-line errors for a bad
table: non-monotone knots, unknown seat) and applied everywhere wp is
reported (bots, the protocol's info ... wp, play, the web front end)"."""
import math

import numpy as np
import pytest

import ardsearch
from ardsearch import evaluation
from ardsearch.evaluation import CalibrationTable, EvalFileError, SeatCalibration

NAMES = ("classic", "material")
SEATS = ("german", "us")
HEAD = "[weights]\nclassic = 1\nmaterial = 0\n"
GERMAN = "[calibration.mcts.seat.german]\nvalue = [-0.5, 0.5]\nwp = [0.4, 0.9]\n"
US = "[calibration.mcts.seat.us]\nscale = 1.0\nshift = -1.0\n"


def _write(tmp_path, text):
    p = tmp_path / "eval.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_a_table_per_seat_loads_in_player_order(tmp_path):
    """Each seat by its player name, any order in the file; each a table or a Platt fit."""
    ev = evaluation.load(_write(tmp_path, HEAD + US + GERMAN), NAMES, "mortain", SEATS)
    assert ev.calibration == {"mcts": SeatCalibration(SEATS, (
        CalibrationTable((-0.5, 0.5), (0.4, 0.9)), (1.0, -1.0)))}


def test_the_one_table_form_still_loads_beside_a_seat_form(tmp_path):
    """Backwards compatible: [calibration.<search>] with value / wp is one map for both seats."""
    text = HEAD + GERMAN + US + "[calibration.ismcts]\nvalue = [-0.5, 0.5]\nwp = [0.2, 0.7]\n"
    ev = evaluation.load(_write(tmp_path, text), NAMES, "mortain", SEATS)
    assert ev.calibration["ismcts"] == CalibrationTable((-0.5, 0.5), (0.2, 0.7))
    assert isinstance(ev.calibration["mcts"], SeatCalibration)


@pytest.mark.parametrize("text, key", [
    # non-monotone knots in one seat's table
    (HEAD + "[calibration.mcts.seat.german]\nvalue = [-0.5, 0.5]\nwp = [0.9, 0.4]\n" + US,
     "calibration.mcts.seat.german.wp[1]"),
    (HEAD + "[calibration.mcts.seat.german]\nvalue = [0.5, -0.5]\nwp = [0.4, 0.9]\n" + US,
     "calibration.mcts.seat.german.value[1]"),
    # a seat the game does not have
    (HEAD + GERMAN + US + "[calibration.mcts.seat.soviet]\nscale = 1.0\nshift = 0.0\n",
     "calibration.mcts.seat.soviet"),
    # a seat left out
    (HEAD + GERMAN, "calibration.mcts.seat.us"),
    # one table and seat tables at once
    (HEAD + "[calibration.mcts]\nvalue = [-0.5, 0.5]\nwp = [0.4, 0.9]\n"
     "[calibration.mcts.seat.german]\nscale = 1.0\nshift = 0.0\n", "calibration.mcts.value"),
    # seat is not a table of tables
    (HEAD + "[calibration.mcts]\nseat = 3\n", "calibration.mcts.seat"),
    (HEAD + "[calibration.mcts.seat]\ngerman = 3\nus = 4\n", "calibration.mcts.seat.german"),
    # a Platt fit that decreases
    (HEAD + GERMAN + "[calibration.mcts.seat.us]\nscale = -1.0\nshift = 0.0\n", "calibration.mcts.seat.us.scale"),
])
def test_a_bad_seat_table_is_refused_in_one_line_naming_file_and_key(tmp_path, text, key):
    """Non-monotone knots, an unknown seat, a missing seat: one line, the file and the key."""
    with pytest.raises(EvalFileError) as e:
        evaluation.load(_write(tmp_path, text), NAMES, "mortain", SEATS)
    msg = str(e.value)
    assert "\n" not in msg and "eval.toml" in msg and key in msg


def test_an_unknown_seat_names_the_seats_that_exist(tmp_path):
    with pytest.raises(EvalFileError, match=r"soviet is not a seat of mortain: .*\(german, us\)"):
        evaluation.load(_write(tmp_path, HEAD + GERMAN + "[calibration.mcts.seat.soviet]\nscale = 1.0\n"
                               "shift = 0.0\n"), NAMES, "mortain", SEATS)


def test_calibrated_wp_applies_the_side_to_moves_table():
    """Seat 0 (german) the knots, linear between them; seat 1 (us) the Platt
    curve sigmoid(1 * logit((v + 1) / 2) - 1); a proven result stays certain."""
    cal = {"mcts": SeatCalibration(SEATS, (CalibrationTable((-0.5, 0.5), (0.4, 0.9)), (1.0, -1.0)))}
    wp = lambda v, p: evaluation.calibrated_wp("x", v, "mcts", cal, p)  # noqa: E731
    assert wp(0.0, 0) == pytest.approx(0.65, abs=1e-15)
    assert wp(-0.9, 0) == 0.4 and wp(0.9, 0) == 0.9                     # flat outside the knots
    assert wp(0.0, 1) == pytest.approx(1 / (1 + np.e), abs=1e-15)      # logit(0.5) = 0, shift -1
    assert wp(1.0, 1) == 1.0 and wp(-1.0, 0) == 0.0                    # proven results
    assert evaluation.calibrated_wp("x", 0.0, "ismcts", cal, 1) == 0.5  # no table for this search


@pytest.mark.parametrize("player", [None, 2, -1, True])
def test_a_seat_table_without_a_seat_is_an_error_that_says_what_to_give(player):
    cal = {"mcts": SeatCalibration(SEATS, ((1.0, 0.0), (1.0, 0.0)))}
    with pytest.raises(ValueError, match="by seat \\(german, us\\): give the side to move as a player number 0-1"):
        evaluation.calibrated_wp("x", 0.2, "mcts", cal, player)


def test_a_seat_table_needs_the_games_seats_to_load(tmp_path):
    """Without the player names the seat keys cannot be checked: refused, one line."""
    with pytest.raises(EvalFileError, match="calibration.mcts.seat"):
        evaluation.load(_write(tmp_path, HEAD + GERMAN + US), NAMES, "mortain")


def test_a_fit_by_seat_is_written_and_loads_back(tmp_path):
    """bench.calibration fits one table per seat on that seat's decisions and
    write_calibration renders them as [calibration.mcts.seat.<name>]."""
    from bench import calibration as cal
    game = ardsearch.load_game("mortain")
    # synthetic: seat 0 always wins, seat 1 always loses, whatever the value
    v = np.array([-0.6, -0.2, 0.2, 0.6] * 2)
    y = np.array([1.0] * 4 + [0.0] * 4)
    seat = np.array([0] * 4 + [1] * 4)
    fitted = cal.fit("isotonic", v, y, seat, 2, "seat", game.player_names)
    # two groups of two per seat, Laplace (wins + 1) / (n + 2): 0.75 and 0.25, flat
    assert fitted == SeatCalibration(game.player_names, (
        CalibrationTable((-0.4, 0.4), (0.75, 0.75)), CalibrationTable((-0.4, 0.4), (0.25, 0.25))))
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = {float(w)!r}\n" for n, w in zip(game.feature_names, game.weights)))
    cal.write_calibration(path, game, "mcts", fitted, "python -m bench.calibration mortain --fit mcts --by seat")
    text = path.read_text()
    assert "[calibration.mcts.seat.german]" in text and "[calibration.mcts.seat.us]" in text
    assert evaluation.load(str(path), game.feature_names, "mortain", game.player_names).calibration == {
        "mcts": fitted}


def test_decisions_carry_the_seat_of_the_mover():
    from bench import calibration as cal
    rec = {"returns": [1.0, -1.0], "pairing": 0, "pair": 3, "moves": [
        {"player": 1, "move": "pass", "eval": -0.2, "wp": 0.4},
        {"player": 0, "move": "x", "eval": 0.5, "wp": 0.75}]}
    *_, seat = cal.decisions([rec])
    assert seat.tolist() == [1, 0]


def _mortain_with_seat_tables(tmp_path):
    """Mortain's own weights with a per-seat table that no raw value could
    give: german always 0.8, us always 0.3 (flat knots)."""
    game = ardsearch.load_game("mortain")
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = {float(w)!r}\n" for n, w in zip(game.feature_names, game.weights))
                    + "[calibration.mcts.seat.german]\nvalue = [-1, 1]\nwp = [0.8, 0.8]\n"
                    + "[calibration.mcts.seat.us]\nvalue = [-1, 1]\nwp = [0.3, 0.3]\n")
    return game, str(path)


def _decision(game, seat, seed=3):
    """The first decision state of a seeded game where `seat` is to move."""
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        if s.is_chance_node():
            s.apply_random_chance()
        elif s.current_player() == seat:
            return s
        else:
            moves = s.legal_actions()
            s.apply_action(moves[int(rng.integers(len(moves)))])


@pytest.mark.parametrize("seat, want", [(0, 0.8), (1, 0.3)])
def test_bots_and_protocol_report_the_side_to_moves_calibration(tmp_path, seat, want):
    """"applied everywhere wp is reported": MCTS, greedy and expectimax bots
    (play and the web front end show the bot's wp) and the protocol's
    reported_wp pick the table of the side to move."""
    from ardsearch.bots import ExpectimaxBot, HeuristicBot, MCTSBot
    from ardsearch.protocol.searcher import reported_wp
    game, path = _mortain_with_seat_tables(tmp_path)
    text = open(path).read()
    block = text[text.index("[calibration"):]
    for search in ("greedy", "expectimax"):   # the same tables under these searches' names
        open(path, "a").write(block.replace(".mcts.", f".{search}."))
    s = _decision(game, seat)
    assert MCTSBot(game, simulations=100, seed=1, weights=path).analyze(s)["wp"] == want
    assert HeuristicBot(game, seed=1, weights=path).analyze(s)["wp"] == want
    assert ExpectimaxBot(game, depth=1, seed=1, weights=path).analyze(s)["wp"] == want
    assert reported_wp(game, {"name": "x", "weights": path}, 0.1, "mcts", seat) == want


def _flat_seat_tables(game):
    """german always 0.8, us always 0.3: what no raw value could give."""
    return SeatCalibration(game.player_names, (CalibrationTable((-1.0, 1.0), (0.8, 0.8)),
                                               CalibrationTable((-1.0, 1.0), (0.3, 0.3))))


@pytest.mark.parametrize("seat, want", [(0, "wp 0.8000"), (1, "wp 0.3000")])
def test_the_protocol_info_wp_uses_the_side_to_moves_table(monkeypatch, seat, want):
    """The protocol's `info ... wp` (in process, `go nodes 200`) goes through the
    game's installed calibration with the side to move of the position."""
    import dataclasses
    from test_protocol_helpers import InProcess, require_search
    require_search()
    game = ardsearch.load_game("mortain", setup="historical")   # the game's default starts with the US setup
    ev = evaluation.loaded("mortain")
    monkeypatch.setitem(evaluation._LOADED, "mortain",
                        dataclasses.replace(ev, calibration={"mcts": _flat_seat_tables(game)}))
    s = _decision(game, seat)
    e = InProcess()
    e.run("newgame mortain(setup=historical)")
    assert e.run("position startpos seed 3 moves " + " ".join(s.history_strings())) == []
    out = e.run("go nodes 200")
    infos = [line for line in out if line.startswith("info depth")]
    assert infos and f" {want} " in infos[-1] + " "


def test_the_shipped_mortain_table_is_by_seat_and_the_bot_reports_it():
    """Stand at Mortain ships [calibration.mcts.seat.german] and
    [calibration.mcts.seat.us] (bench/README.md, "Calibration"), fitted on
    games of `setup=historical` and scoped to strike_terrain=errata only, so
    that the default game (the US setup phase, data/eval.toml says so) finds
    it too: a bare MCTS bot reports its root value through the table of the
    side to move."""
    from ardsearch.bots import MCTSBot
    game = ardsearch.load_game("mortain")
    scoped = evaluation.loaded("mortain").calibration["mcts"]
    assert isinstance(scoped, evaluation.Scoped) and dict(scoped.params) == {"strike_terrain": "errata"}
    assert scoped.applies_to(game.params) and game.params["setup"] == "free"
    assert scoped.applies_to(ardsearch.load_game("mortain", setup="historical").params)
    assert not scoped.applies_to(ardsearch.load_game("mortain", strike_terrain="variant").params)
    fit = scoped.fit
    assert isinstance(fit, SeatCalibration) and fit.seats == ("german", "us")
    assert all(isinstance(t, CalibrationTable) and len(t.values) >= 2 for t in fit.fits)
    for seat in (0, 1):
        info = MCTSBot(game, simulations=200, seed=1).analyze(_decision(game, seat))
        v = info["value"]
        assert info["wp"] == (0.0 if v <= -1 else 1.0 if v >= 1 else fit.fits[seat](v))


def test_a_game_without_features_can_keep_a_calibration_only_file(tmp_path):
    """A game without evaluation features (every game has them now, so the
    loader is given an empty feature list for Micro Armour's seats): its
    eval.toml may hold only [calibration] and [source] (no [weights]), and
    write_calibration creates one when there is none."""
    import types

    from bench import calibration as cal
    real = ardsearch.load_game("microarmour")
    game = types.SimpleNamespace(name=real.name, title=real.title, spec=real.spec,
                                 player_names=real.player_names, feature_names=())
    path = tmp_path / "data" / "eval.toml"
    fitted = _flat_seat_tables(game).__class__(game.player_names, (
        CalibrationTable((-0.5, 0.5), (0.2, 0.7)), CalibrationTable((-0.5, 0.5), (0.3, 0.6))))
    cal.write_calibration(path, game, "ismcts", fitted, "python -m bench.calibration microarmour --fit ismcts --by seat")
    text = path.read_text()
    assert "[weights]" not in text and "[calibration.ismcts.seat.german]" in text
    ev = evaluation.load(str(path), (), "microarmour", game.player_names)
    assert ev.calibration == {"ismcts": fitted} and ev.weights.shape == (0,)
    with pytest.raises(EvalFileError, match="weights.material is not a feature for microarmour "
                                            r"\(the game has no evaluation features\)"):
        evaluation.load(_write(tmp_path, "[weights]\nmaterial = 1\n"), (), "microarmour", game.player_names)


def test_a_scoped_calibration_holds_only_for_its_game_parameters(tmp_path):
    """`params = {...}`: fitted on one scenario, the calibration applies to
    games with those parameters; any other game reports (v + 1) / 2."""
    text = (HEAD + "[calibration.mcts]\nparams = {scenario = 2, variant = \"long\"}\n" + GERMAN + US
            + "[calibration.greedy]\nparams = {scenario = 2}\nvalue = [-1, 1]\nwp = [0.9, 0.9]\n")
    ev = evaluation.load(_write(tmp_path, text), NAMES, "mortain", SEATS)
    fit = ev.calibration["mcts"]
    assert isinstance(fit, evaluation.Scoped) and fit.params == (("scenario", 2), ("variant", "long"))
    assert isinstance(fit.fit, SeatCalibration)
    here = {"scenario": 2, "variant": "long", "turns": 0}
    assert evaluation.calibrated_wp("x", 0.0, "mcts", ev.calibration, 0, here) == pytest.approx(0.65, abs=1e-15)
    elsewhere = {"scenario": 3, "variant": "long", "turns": 0}
    assert evaluation.calibrated_wp("x", 0.0, "mcts", ev.calibration, 0, elsewhere) == 0.5
    assert evaluation.calibrated_wp("x", 0.2, "greedy", ev.calibration, 1, here) == 0.9
    assert evaluation.calibrated_wp("x", 0.2, "greedy", ev.calibration, 1, {"scenario": 1}) == pytest.approx(0.6)
    with pytest.raises(ValueError, match="give the game's params"):
        evaluation.calibrated_wp("x", 0.2, "greedy", ev.calibration, 1)


@pytest.mark.parametrize("line", ["params = 3", "params = {}", "params = {scenario = [1, 2]}"])
def test_a_bad_scope_is_refused_in_one_line(tmp_path, line):
    with pytest.raises(EvalFileError) as e:
        evaluation.load(_write(tmp_path, HEAD + f"[calibration.mcts]\n{line}\nvalue = [-1, 1]\nwp = [0.2, 0.8]\n"),
                        NAMES, "mortain", SEATS)
    assert "\n" not in str(e.value) and "calibration.mcts.params" in str(e.value)


def test_a_scoped_fit_is_written_and_loads_back_and_the_bot_checks_its_params(tmp_path):
    """write_calibration renders `params = {...}` and the seat tables; a bot of
    a game with those parameters reports through them, one with others does not."""
    from ardsearch.bots import HeuristicBot
    from bench import calibration as cal
    game = ardsearch.load_game("mortain")
    fitted = evaluation.Scoped(tuple(sorted(game.params.items())), _flat_seat_tables(game))
    path = tmp_path / "eval.toml"
    path.write_text("[weights]\n" + "".join(f"{n} = {float(w)!r}\n" for n, w in zip(game.feature_names, game.weights)))
    cal.write_calibration(path, game, "greedy", fitted, "python -m bench.calibration mortain --fit greedy --by seat")
    assert evaluation.load(str(path), game.feature_names, "mortain", game.player_names).calibration == {
        "greedy": fitted}
    s = _decision(game, 1)
    assert HeuristicBot(game, seed=1, weights=str(path)).analyze(s)["wp"] == 0.3
    other = ardsearch.load_game("mortain(strike_terrain=variant)")
    assert dict(other.params) != dict(game.params)
    info = HeuristicBot(other, seed=1, weights=str(path)).analyze(_decision(other, 1))
    assert info["wp"] == pytest.approx((info["value"] + 1) / 2)


def test_the_shipped_stosstruppen_and_undaunted_tables_hold_for_their_scenario_only():
    """bench/README.md, "Calibration": Stosstruppen ships a table per seat for
    Villers (session 11; refitted on 200 kept games in session 25, on 400 in session 27, on 600 in session 28, on 800 in session 29, on 1,000 in session 30);
    Kaiserschlacht's was withdrawn when its map changed
    (session 12: the old map's table scored log-loss 0.603 against the raw
    value's on 100 games of the new map; the refit beat raw on the deciles
    only); since session 23 it has one table for both sides (a step
    table, a monotone table since session 25);
    Undaunted one curve (under "ismcts"; a table until session 14, a Platt
    curve since) for scenario 1 (and, since session 11, a table per seat
    for scenario 3; since session 15 one for 2); each is scoped
    to the parameters it was fitted on, and another scenario reports the
    raw (v + 1) / 2."""
    stoss = ardsearch.load_game("stosstruppen")
    villers, kaiser = evaluation.loaded("stosstruppen").calibration["mcts"]
    assert isinstance(villers, evaluation.Scoped)
    assert dict(villers.params) == {**stoss.params, "scenario": "villers"}
    assert isinstance(villers.fit, SeatCalibration) and villers.fit.seats == ("german", "british")
    assert dict(kaiser.params) == dict(stoss.params) and stoss.params["scenario"] == "kaiserschlacht"
    v = 0.1
    # Kaiserschlacht (the default scenario): since session 25 one monotone table for both sides
    # (a step table in sessions 23-24), read between its knots -0.0777 -> 0.4541 and 0.1637 -> 0.5012
    expected = 0.4541 + (v + 0.0777) / (0.1637 + 0.0777) * (0.5012 - 0.4541)
    for seat in (0, 1):
        assert evaluation.calibrated_wp("stosstruppen", v, "mcts", None, seat, stoss.params) == pytest.approx(expected)
    # Villers, Germans to move at v = 0.1 (the table of session 30, fitted on 1,000 games): between
    # the knots -0.0223 -> 0.5016 and 0.1203 -> 0.5058
    villers_game = ardsearch.load_game("stosstruppen(scenario=villers)")
    expected = 0.5016 + (v + 0.0223) / (0.1203 + 0.0223) * (0.5058 - 0.5016)
    assert evaluation.calibrated_wp("stosstruppen", v, "mcts", None, 0,
                                    villers_game.params) == pytest.approx(expected) == villers.fit.fits[0](v)
    assert evaluation.calibrated_wp("stosstruppen", v, "mcts", None, 1,
                                    {**stoss.params, "scenario": "other"}) == pytest.approx(0.55)
    und = ardsearch.load_game("undaunted")
    # one entry a scenario since session 11 (tests/test_undaunted_calibration.py); the default's is scenario 1's
    fits = evaluation.loaded("undaunted").calibration["ismcts"]
    fit = next(f for f in fits if f.applies_to(und.params))
    assert dict(fit.params) == dict(und.params) and und.params["scenario"] == 1
    scale, shift = fit.fit                          # a Platt curve since session 14
    expected = 1 / (1 + math.exp(-(scale * math.log((v + 1) / (1 - v)) + shift)))
    assert evaluation.calibrated_wp("undaunted", v, "ismcts", None, 0, und.params) == pytest.approx(expected)
    assert evaluation.calibrated_wp("undaunted", v, "ismcts", None, 0,
                                    {**und.params, "max_rounds": 30}) == pytest.approx(0.55)
