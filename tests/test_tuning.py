"""`ardsearch tune` and the logistic fit behind it.

Issue 15: "tuned by logistic regression of game results on positions from
self-play games (the Texel method: minimise the log-loss of sigmoid(eval)
against the result). `ardsearch tune <game> --games N` produces the weights
reproducibly from a seed"; "tests assert only what is exact (weights load, a
tuned file reproduces from its seed, ...)"."""
import os
import shlex

import numpy as np
import pytest

import ardsearch
from ardsearch import evaluation, logistic
from ardsearch.tuning import held_out_mask, main_tune

# Two greedy bots: the fastest self-play there is (random tie-breaks make the games differ).
FAST = ["--bots", "greedy", "g2=greedy", "--per-game", "6", "--quiet"]


def test_the_fit_recovers_known_weights():
    """Targets that are exactly sigmoid(X w*) make w* the unique minimiser of
    the log-loss; with a vanishing L2 the fit finds it."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(4000, 5))
    true = np.array([1.5, -0.7, 0.0, 2.0, -0.25])
    y = logistic.sigmoid(X @ true)
    w, steps = logistic.fit(X, y, l2=1e-12)
    assert np.abs(w - true).max() < 1e-6
    assert steps < 20


def test_the_fit_is_deterministic_and_l2_shrinks():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(500, 3))
    y = (rng.random(500) < logistic.sigmoid(X @ np.array([1.0, -1.0, 0.5]))).astype(float)
    a, _ = logistic.fit(X, y, l2=1e-3)
    b, _ = logistic.fit(X, y, l2=1e-3)
    assert np.array_equal(a, b)
    c, _ = logistic.fit(X, y, l2=1.0)
    assert np.linalg.norm(c) < np.linalg.norm(a)


def test_the_fit_refuses_bad_input():
    with pytest.raises(ValueError, match="no positions"):
        logistic.fit(np.zeros((0, 2)), np.zeros(0))
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        logistic.fit(np.zeros((2, 2)), np.array([0.0, 2.0]))


def test_hold_out_is_by_game_pair():
    """Both games of a duplicate pair (same deals) fall on the same side of the split."""
    pair = np.array([0, 0, 4, 4, 9, 9, 1_000_004, 5])
    assert held_out_mask(pair).tolist() == [False, False, True, True, True, True, True, False]


def test_tune_reproduces_byte_for_byte(tmp_path):
    """The same command writes the same file, whatever --jobs and --out; the
    command written in [source] reproduces it; the file loads."""
    a, b, c = tmp_path / "a.toml", tmp_path / "b.toml", tmp_path / "c.toml"
    assert main_tune(["mortain", "--games", "10", "--seed", "4", "--out", str(a), *FAST]) == 0
    assert main_tune(["mortain", "--games", "10", "--seed", "4", "--out", str(b), "--jobs", "2", *FAST]) == 0
    assert a.read_bytes() == b.read_bytes()
    game = ardsearch.load_game("mortain")
    ev = evaluation.load(str(a), game.feature_names, "mortain")
    assert ev.source["seed"] == 4 and ev.source["games"] == 10
    argv = shlex.split(ev.source["command"])
    assert argv[:2] == ["ardsearch", "tune"]
    assert main_tune(argv[2:] + ["--out", str(c), "--quiet"]) == 0
    assert c.read_bytes() == a.read_bytes()
    # the same games kept with --records and fitted again give the same file
    kept = tmp_path / "games.jsonl"
    assert main_tune(["mortain", "--games", "10", "--seed", "4", "--out", str(c), "--records", str(kept), *FAST]) == 0
    assert main_tune(["mortain", "--games", "10", "--seed", "4", "--out", str(c), "--from-records", str(kept),
                      *FAST]) == 0
    assert c.read_bytes() == a.read_bytes()
    assert main_tune(["mortain", "--games", "12", "--seed", "4", "--out", str(c), "--from-records", str(kept),
                      *FAST]) == 2
    # another seed, other games, another file
    assert main_tune(["mortain", "--games", "10", "--seed", "5", "--out", str(c), *FAST]) == 0
    assert c.read_bytes() != a.read_bytes()


def test_tune_refuses_bad_arguments(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main_tune(["mortain", "--games", "10", "--seed", "1", "--out", str(tmp_path / "no" / "x.toml")])
    assert e.value.code == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main_tune(["mortain", "--games", "0", "--seed", "1"])
    bare = [n for n in ardsearch.list_games() if not ardsearch.load_game(n).feature_names]
    if bare:
        with pytest.raises(SystemExit):
            main_tune([bare[0], "--games", "10", "--seed", "1"])
        assert "no evaluation features" in capsys.readouterr().err


TUNED_FILES = sorted((name, os.path.join(os.path.dirname(evaluation.eval_path(name)), "eval-tuned.toml"))
                     for name in ardsearch.list_games()
                     if os.path.exists(os.path.join(os.path.dirname(evaluation.eval_path(name)), "eval-tuned.toml")))


@pytest.mark.parametrize("name,path", TUNED_FILES, ids=[n for n, _ in TUNED_FILES])
def test_every_kept_fit_loads_and_names_the_tune_that_made_it(name, path):
    """Where a fit is kept beside the game's default (data/eval-tuned.toml:
    Ardennes, Mortain, Micro Armour), it is still "weights kept as data ...
    produced reproducibly from a seed": it loads for its game, its [source]
    command is an `ardsearch tune` of that game with the seed it records, and
    a bot plays on it."""
    game = ardsearch.load_game(name)
    ev = evaluation.load(path, game.feature_names, name)
    argv = shlex.split(ev.source["command"])
    assert argv[:3] == ["ardsearch", "tune", name] or argv[:2] == ["ardsearch", "tune"] and argv[2].startswith(name)
    assert "--seed" in argv and int(argv[argv.index("--seed") + 1]) == ev.source["seed"]
    bot = ardsearch.load_bot("greedy", game, seed=0, weights=path)
    assert np.array_equal(bot.weights, ev.weights)


def test_mortain_plays_the_classic_evaluation_and_keeps_its_fit_beside_it():
    """Mortain's data/eval.toml is `classic = 1` alone (MCTS on the fit lost to
    it at equal CPU time, bench/README.md "Equal CPU time"); the fit is kept."""
    game = ardsearch.load_game("mortain")
    ev = evaluation.loaded("mortain")
    assert ev.weights[game.feature_names.index("classic")] == 1.0
    assert np.count_nonzero(ev.weights) == 1
    assert "mortain" in dict(TUNED_FILES)
