"""ardsearch.evaluation: the weights files (data/eval.toml) and their checks.

Issue 15: "Evaluations as features with weights kept as data (one file per
game)"; the shared convention: "validated (every feature named exactly once,
finite numbers: one-line error naming the file and key otherwise)"."""
import math

import numpy as np
import pytest

from ardsearch import evaluation
from ardsearch.evaluation import EvalFileError

NAMES = ("classic", "material", "tempo")


def _write(tmp_path, text, name="eval.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_load_reads_weights_in_engine_order(tmp_path):
    """Weights are given by name "in any order" and come back in the engine's feature order."""
    path = _write(tmp_path, "[weights]\ntempo = -0.5\nclassic = 1\nmaterial = 0.25\n")
    ev = evaluation.load(path, NAMES, "ardennes")
    assert ev.weights.tolist() == [1.0, 0.25, -0.5]
    assert ev.as_dict() == {"classic": 1.0, "material": 0.25, "tempo": -0.5}
    assert ev.calibration == {}


@pytest.mark.parametrize("text, key", [
    ("[weights]\nclassic = 1\nmaterial = 0\n", "weights.tempo"),                       # missing
    ("[weights]\nclassic = 1\nmaterial = 0\ntempo = 0\nmorale = 1\n", "weights.morale"),  # unknown
    ("[weights]\nclassic = 1\nmaterial = 'a'\ntempo = 0\n", "weights.material"),       # not a number
    ("[weights]\nclassic = nan\nmaterial = 0\ntempo = 0\n", "weights.classic"),        # not finite
    ("[weights]\nclassic = inf\nmaterial = 0\ntempo = 0\n", "weights.classic"),
    ("[weights]\nclassic = true\nmaterial = 0\ntempo = 0\n", "weights.classic"),       # a bool is not a weight
    ("[weights]\nclassic = 1\nmaterial = 0\ntempo = 0\n[calibration.mcts]\nscale = 1\n",
     "calibration.mcts.shift"),
    ("[weights]\nclassic = 1\nmaterial = 0\ntempo = 0\n[calibration.mcts]\nscale = -1\nshift = 0\n",
     "calibration.mcts.scale"),
    ("[weights]\nclassic = 1\nmaterial = 0\ntempo = 0\n[calibration.alphabeta]\nscale = 1\nshift = 0\n",
     "calibration.alphabeta"),
    ("[weights]\nclassic = 1\nmaterial = 0\ntempo = 0\n[source]\ngame = 'mortain'\n", "source.game"),
    ("[wieghts]\nclassic = 1\n", "wieghts"),
    ("[source]\ngame = 'ardennes'\n", "[weights]"),
    ("[weights\nclassic = 1\n", "not valid TOML"),
])
def test_bad_files_are_refused_in_one_line_naming_file_and_key(tmp_path, text, key):
    """"one-line error naming the file and key otherwise"."""
    path = _write(tmp_path, text)
    with pytest.raises(EvalFileError) as e:
        evaluation.load(path, NAMES, "ardennes")
    msg = str(e.value)
    assert "\n" not in msg
    assert "eval.toml" in msg and key in msg


def test_a_missing_file_names_the_path(tmp_path):
    with pytest.raises(EvalFileError, match="cannot read"):
        evaluation.load(str(tmp_path / "nope.toml"), NAMES)


def test_calibration_is_read_and_applied(tmp_path):
    """[calibration.<search>]: wp = sigmoid(scale * logit((v + 1) / 2) + shift)."""
    path = _write(tmp_path, "[weights]\nclassic = 1\nmaterial = 0\ntempo = 0\n"
                            "[calibration.mcts]\nscale = 2.0\nshift = -0.5\n")
    ev = evaluation.load(path, NAMES)
    assert ev.calibration == {"mcts": (2.0, -0.5)}
    v = 0.2
    p = (v + 1) / 2
    want = 1 / (1 + math.exp(-(2.0 * math.log(p / (1 - p)) - 0.5)))
    assert evaluation.calibrated_wp("x", v, "mcts", ev.calibration) == pytest.approx(want, abs=1e-15)
    # a search without its own fit, and proven results, stay (v + 1) / 2
    assert evaluation.calibrated_wp("x", v, "expectimax", ev.calibration) == p
    assert evaluation.calibrated_wp("x", 1.0, "mcts", ev.calibration) == 1.0
    assert evaluation.calibrated_wp("x", -1.0, "mcts", ev.calibration) == 0.0


def test_classic_weights_are_one_hot():
    assert evaluation.classic_weights(NAMES).tolist() == [1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="classic"):
        evaluation.classic_weights(("material", "classic"))


def test_every_games_shipped_file_loads():
    """Every game with features that ships a data/eval.toml has it installed
    at import, equal to the engine's table."""
    import ardsearch
    for name in ardsearch.list_games():
        game = ardsearch.load_game(name)
        ev = evaluation.loaded(name)
        if not game.feature_names:
            assert ev is None
            continue
        if ev is not None:
            assert ev.names == game.feature_names
            assert np.array_equal(ev.weights, game.weights)
