"""Micro Armour: the evaluation as features (game ABI 2; RULES.md, *Evaluation
features*: a design choice, not a rule, since the rulebook has no evaluation).
Each feature is mine minus the enemy's, so the two sides' features are
opposite; the weights are data (data/eval.toml) and `classic` alone is the
hand-set evaluation as it was. Hand-built positions quote the rulebook words
behind what the feature reads."""
from __future__ import annotations

import math
import os
import shlex
import sys

import numpy as np
import pytest

import ardsearch
from ardsearch import _toml, evaluation
from ardsearch.games.microarmour import _engine as E

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import position  # noqa: E402
import random_play  # noqa: E402

GERMAN, SOVIET = 0, 1
SCENARIOS = ("introductory", "airstrike", "barrage", "combined", "minefield", "meeting", "ambush")
EVAL_TOML = os.path.join(os.path.dirname(ardsearch.__file__), "games", "microarmour", "data", "eval.toml")


def feature(s, name, player=GERMAN):
    return float(s.features(player)[s.game.feature_names.index(name)])


@pytest.fixture
def game():
    """The Introductory game; restores the engine's weight table (process-wide)
    after a test changes it."""
    g = ardsearch.load_game("microarmour")
    saved = g.weights
    yield g
    g.weights = saved


def seeded_positions(scenario, seed, every=40, plies=1200):
    """Non-terminal positions of one seeded random game, every `every` plies."""
    start = ardsearch.load_game("microarmour", scenario=scenario).new_initial_state(seed=seed)
    return random_play.seeded_positions(start, seed, every, plies)


# ----------------------------------------------------------------- the weights file
def test_eval_toml_names_every_feature_once_and_is_installed():
    g = ardsearch.load_game("microarmour")
    w = _toml.read_toml(EVAL_TOML)["weights"]
    assert sorted(w) == sorted(g.feature_names)
    assert all(math.isfinite(v) for v in w.values())
    assert np.array_equal(g.weights, [w[n] for n in g.feature_names])
    assert evaluation.loaded("microarmour").names == g.feature_names
    assert g.feature_names[0] == "classic"


def test_classic_alone_is_the_old_evaluation(game):
    """Weights {classic: 1} give back the hand-set evaluate() exactly, so the
    move to features changed nothing by default."""
    game.weights = evaluation.classic_weights(game.feature_names)
    for scenario in ("introductory", "meeting", "ambush"):
        for s in seeded_positions(scenario, 3, every=60):
            for p in (GERMAN, SOVIET):
                assert s.evaluate(p) == E.evaluate_classic(s.raw(), p)
                assert feature(s, "classic", p) == pytest.approx(
                    2 * np.arctanh(np.clip(E.evaluate_classic(s.raw(), p), -0.999, 0.999)), abs=1e-12)


# ----------------------------------------------------------------- the convention
def test_features_are_finite_and_opposite_for_the_two_sides_in_every_scenario():
    """Every feature is mine minus the enemy's: features(s, 0) = -features(s, 1)
    (seeded random play in every scenario, views included)."""
    for k, scenario in enumerate(SCENARIOS):
        positions = seeded_positions(scenario, 10 + k)
        assert positions
        for s in positions:
            f0, f1 = s.features(GERMAN), s.features(SOVIET)
            assert np.all(np.isfinite(f0))
            assert np.allclose(f0, -f1, atol=1e-12), scenario
            for p in (GERMAN, SOVIET):
                v = s.view(p)
                assert np.allclose(v.features(p), -v.features(1 - p), atol=1e-12), scenario
                assert np.all(np.isfinite(v.features(p)))


def test_evaluate_is_tanh_of_the_weighted_features_even_with_one_weight(game):
    """evaluate = tanh(w . f / 2); it computes only the features with a weight,
    so each feature alone must still give tanh(w f / 2) of its full value."""
    positions = seeded_positions("introductory", 5, every=30) + seeded_positions("barrage", 6, every=30)
    full = [s.features(GERMAN) for s in positions]
    n = len(game.feature_names)
    rng = np.random.default_rng(1)
    w = rng.normal(size=n)
    game.weights = w
    for s, f in zip(positions, full):
        assert s.evaluate(GERMAN) == pytest.approx(math.tanh(w @ f / 2), abs=1e-12)
        assert s.evaluate(SOVIET) == pytest.approx(-s.evaluate(GERMAN), abs=1e-12)
    for k in range(n):
        w = np.zeros(n)
        w[k] = 0.7
        game.weights = w
        for s, f in zip(positions, full):
            assert s.evaluate(GERMAN) == pytest.approx(math.tanh(0.35 * f[k]), abs=1e-12), game.feature_names[k]


# ----------------------------------------------------------------- what the features see
def test_village_hold_counts_stands_on_the_village():
    """Digest, Scenarios: "Hold the village ... at the end of turn 12": a shown
    stand on a village square counts for village_hold, one next to it only
    for village_near."""
    inside = position({"pz4a": {"at": [13, 10]}}, phase="posture")
    outside = position({"pz4a": {"at": [12, 10]}}, phase="posture")
    assert feature(inside, "village_hold") == pytest.approx(0.5)
    assert feature(outside, "village_hold") == 0.0
    assert feature(outside, "village_near") > feature(inside, "village_near")
    assert feature(inside, "village_hold", SOVIET) == pytest.approx(-0.5)


def test_material_by_class_and_command():
    """Digest, Break points: "count of all stands in the formation (armed
    stands only) ... add 2 for each HQ and 3 for the GHQ": material by
    defence class (armour, soft, infantry) and the command stands apart; a
    suppressed stand counts 0.85, a disorganized one 0.6."""
    s = position({"pz4a": {"at": [5, 10]}, "pgra": {"at": [5, 12]}, "t34a": {"at": [20, 10]},
                  "t34b": {"at": [20, 12], "suppressed": True}}, phase="posture")
    assert feature(s, "armour") == pytest.approx((1.0 - 1.85) / 4)
    assert feature(s, "infantry") == pytest.approx(0.25)
    assert feature(s, "command") == pytest.approx(0.0)      # one GHQ each
    assert feature(s, "disrupted") == pytest.approx(0.25)   # the enemy's suppressed stand


def test_threats_need_range_and_line_of_sight():
    """Digest, Direct fire: a stand may fire at an enemy "within range and in
    line of sight": a pair counts only when both hold."""
    near = position({"pz4a": {"at": [5, 10], "facing": "e"}, "t34a": {"at": [9, 10], "facing": "w"}},
                    phase="posture")
    assert feature(near, "threats") == 0.0                     # each threatens the other
    far = position({"pz4a": {"at": [0, 1]}, "t34a": {"at": [29, 18]}}, phase="posture")
    assert feature(far, "threats") == 0.0
    one_sided = position({"pz4a": {"at": [5, 10]}, "rfla": {"at": [13, 10]}}, phase="posture")
    # the Pz IV reaches the rifles; the rifles' range is shorter
    assert feature(one_sided, "threats") > 0.0


def test_stands_still_to_enter_count_against_their_side():
    """Digest, Scenarios: forces may "enter from their table edge on turn 1":
    a stand still off the table is not yet in the fight."""
    s = ardsearch.load_game("microarmour", scenario="meeting").new_initial_state(seed=1)
    d = s.to_dict()
    side = {st["id"]: st["side"] for st in d["stands"]}
    off = [side[i] for i in d["units"]["offtable"]]
    assert off
    assert feature(s, "to_enter") == pytest.approx((off.count("soviet") - off.count("german")) / 4)


def test_cargo_counts_stands_aboard():
    """Digest, Transport: infantry "may be carried by" transports; a stand
    aboard counts for cargo until it gets off."""
    aboard = position({"htka": {"at": [5, 10]}, "pgra": {"at": [5, 10], "carried_by": "htka"}}, phase="posture")
    off = position({"htka": {"at": [5, 10]}, "pgra": {"at": [5, 11]}}, phase="posture")
    assert feature(aboard, "cargo") == pytest.approx(0.25)
    assert feature(off, "cargo") == 0.0


# ----------------------------------------------------------------- tuning
def test_tune_reproduces_from_its_seed(tmp_path):
    """`ardsearch tune microarmour --games N --seed S` writes the same file for
    the same seed, and its [source] command reproduces it (a 3-turn game, to
    keep the self-play short)."""
    from ardsearch.tuning import main_tune
    fast = ["--bots", "greedy", "g2=greedy", "--per-game", "6", "--quiet"]
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    assert main_tune(["microarmour(turns=3)", "--games", "10", "--seed", "4", "--out", str(a), *fast]) == 0
    g = ardsearch.load_game("microarmour")
    ev = evaluation.load(str(a), g.feature_names, "microarmour")
    assert ev.source["seed"] == 4 and np.all(np.isfinite(ev.weights))
    argv = shlex.split(ev.source["command"])
    assert main_tune(argv[2:] + ["--out", str(b), "--quiet"]) == 0
    assert a.read_bytes() == b.read_bytes()


def test_tune_keeps_the_scenario_in_the_command_it_writes(tmp_path):
    """`ardsearch tune 'microarmour(scenario=...)'` tunes on that scenario's
    games: the [source] command names it (so the file reproduces from its own
    command, not from the Introductory's games; 2-turn games of greedy
    self-play, to stay cheap)."""
    from ardsearch.tuning import main_tune
    fast = ["--bots", "greedy", "g2=greedy", "--per-game", "4", "--quiet"]
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    assert main_tune(["microarmour(scenario=meeting,turns=2)", "--games", "10", "--seed", "4", "--out", str(a),
                      *fast]) == 0
    ev = evaluation.load(str(a), ardsearch.load_game("microarmour").feature_names, "microarmour")
    argv = shlex.split(ev.source["command"])
    assert argv[2] == "microarmour(scenario=meeting,turns=2)"
    assert main_tune(argv[2:] + ["--out", str(b), "--quiet"]) == 0
    assert a.read_bytes() == b.read_bytes()


TUNED = os.path.join(os.path.dirname(evaluation.eval_path("microarmour")), "eval-tuned.toml")


def _from_the_first_table(path) -> str:
    """A weights file from its [weights] table on (the opening comment aside)."""
    text = open(path, encoding="utf-8").read()
    return text[text.index("[weights]"):]


def test_the_tuned_file_names_the_command_that_made_it():
    """data/eval-tuned.toml (bench/README.md, "Micro Armour: tuned weights and a
    calibration") loads, a bot can carry it, and its [source] command is
    one `ardsearch tune` accepts for the default game with the seed, games and
    bots the file records."""
    from ardsearch.bots import HeuristicBot
    from ardsearch.tuning import DEFAULT_BOTS, tune_parser
    g = ardsearch.load_game("microarmour")
    ev = evaluation.load(TUNED, g.feature_names, "microarmour", g.player_names)
    args = tune_parser().parse_args(shlex.split(ev.source["command"])[2:])
    assert ardsearch.load_game(args.game).params == g.params
    assert (args.games, args.seed, tuple(args.bots)) == (ev.source["games"], ev.source["seed"], DEFAULT_BOTS)
    assert tuple(ev.source["bots"]) == DEFAULT_BOTS and ev.calibration == {}
    assert np.array_equal(HeuristicBot(g, weights="data/eval-tuned.toml").weights, ev.weights)
    assert not np.array_equal(ev.weights, g.weights)     # not the game's own evaluation


@pytest.mark.skipif(not os.environ.get("MA_TUNE_FULL"), reason="the full self-play (120 games, about "
                    "35 minutes on one core): set MA_TUNE_FULL=1")
def test_the_tuned_file_reproduces_from_its_command(tmp_path):
    """Issue 15: "`ardsearch tune <game> --games N` produces the weights
    reproducibly from a seed": the shipped eval-tuned.toml's command writes
    its [weights] and [source] again, byte for byte."""
    from ardsearch.tuning import main_tune
    g = ardsearch.load_game("microarmour")
    command = evaluation.load(TUNED, g.feature_names, "microarmour", g.player_names).source["command"]
    out = tmp_path / "eval.toml"
    assert main_tune(shlex.split(command)[2:] + ["--out", str(out), "--quiet"]) == 0
    assert _from_the_first_table(out) == _from_the_first_table(TUNED)


# ----------------------------------------------------------------- the movement credit and its fix
def test_promise_is_the_classic_credit_for_movement_still_to_make():
    """Design choice (RULES.md, Evaluation): half of what a stand may still
    move this turn counts as gained; `promise` is that credit alone."""
    move = position({"pz4a": {"at": [5, 10], "posture": "move"}}, phase="posture")
    firing = position({"pz4a": {"at": [5, 10], "posture": "firing"}}, phase="posture")
    assert feature(move, "promise") > 0.0
    assert feature(firing, "promise") == 0.0
    assert feature(move, "promise", SOVIET) == -feature(move, "promise")


def test_promise_fix_takes_the_credit_of_a_side_that_passed_the_movement_phase():
    """Contract (games/microarmour.md, Turn phases): "alternating attacks ...
    until both pass; a player who passed may not attack again"; the movement
    phase alternates the same way (RULES.md), so a side that passed moves no
    more this turn and its stands' credit is void: promise_fix takes all of
    it. Before the pass it takes the share a failed roll would lose ("Each
    ordered group attempt ... rolls one base 1D20 with each stand's
    modifiers")."""
    top = dict(phase="movement", to_move=0, orders=[2, 2], orders_rolled=2)
    waiting = position({"pz4a": {"at": [5, 10], "posture": "move"}}, passed=[False, False], **top)
    passed = position({"pz4a": {"at": [5, 10], "posture": "move"}}, passed=[True, False], to_move=1,
                      **{k: v for k, v in top.items() if k != "to_move"})
    assert -feature(waiting, "promise") < feature(waiting, "promise_fix") < 0.0
    assert feature(passed, "promise_fix") == pytest.approx(-feature(passed, "promise"))
