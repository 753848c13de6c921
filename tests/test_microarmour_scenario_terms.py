"""A Micro Armour scenario file's own terms: its `turns` and each side's
`cohesion` and `quality` are the game's defaults (RULES.md, Scenarios: "A
scenario file's `turns` and each side's `cohesion` and `quality` are the
defaults of the game parameters ...: a parameter given by name wins, one left
out is the scenario's").

The shipped files all hold the Introductory's 12 turns, 15 / 12 and +1 / 0, so
the checks that tell the scenario's values from the Introductory's run on a
scenario written to an ARDSEARCH_MICROARMOUR_SCENARIOS folder (read when the
engine is imported: a fresh interpreter)."""
import os
import subprocess
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import _engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TERMS = ("turns", "german_cohesion", "soviet_cohesion", "german_quality", "soviet_quality")


def _file_terms(sc):
    return (sc["turns"], sc["sides"][0]["cohesion"], sc["sides"][1]["cohesion"],
            sc["sides"][0]["quality"], sc["sides"][1]["quality"])


@pytest.mark.parametrize("name", _engine.SCENARIO_NAMES)
def test_each_shipped_scenario_plays_its_own_files_terms(name):
    """'one left out is the scenario's': every shipped scenario's game has its
    file's turn limit, cohesion levels and GHQ qualities, in the parameters and
    in the state."""
    game = ardsearch.load_game("microarmour", scenario=name)
    sc = _engine.SCENARIOS[_engine.SCENARIO_NAMES.index(name)]
    assert tuple(game.params[k] for k in TERMS) == _file_terms(sc)
    d = game.new_initial_state(seed=1).to_dict()
    assert (d["turns"], *d["cohesion"], *d["quality"]) == _file_terms(sc)


LONG_CHECK = r'''
import sys
sys.path.insert(0, {tests!r})
import ardsearch
from ardsearch.terminal import game_text
from reference.microarmour import new_model

game = ardsearch.load_game("microarmour", scenario="intro_long")
assert [game.params[k] for k in {terms!r}] == [16, 14, 13, 2, -1], game.params
state = game.new_initial_state(seed=1)
d = state.to_dict()
assert (d["turns"], d["cohesion"], d["quality"]) == (16, [14, 13], [2, -1]), d
model = new_model(game)
assert (model.turns, model.coh, model.qual) == (16, [14, 13], [2, -1])
assert game_text(game) == "microarmour(scenario=intro_long)", game_text(game)
assert game.deserialize_state(state.serialize()).to_dict() == d
# a state at turn 14, past the Introductory's 12 (deployment close: every stand on the table)
close = ardsearch.load_game("microarmour", scenario="intro_long", deployment="close")
late = dict(close.new_initial_state(seed=1).to_dict(), turn=14)
assert close.state_from_dict(late).to_dict()["turn"] == 14

short = ardsearch.load_game("microarmour(scenario=intro_long,turns=12,german_quality=0,deployment=close)")
assert [short.params[k] for k in {terms!r}] == [12, 14, 13, 0, -1], short.params
assert short.new_initial_state(seed=1).to_dict()["turns"] == 12
assert game_text(short) == "microarmour(scenario=intro_long,turns=12,german_quality=0,deployment=close)", game_text(short)
try:
    short.state_from_dict(dict(short.new_initial_state(seed=1).to_dict(), turn=14))
except ValueError as e:
    assert "turn=14: expected an integer from 1 to 12" in str(e), e
else:
    raise AssertionError("turn 14 of a 12-turn game was accepted")
try:                                           # OpenSpiel hands every default to the game
    import pyspiel
except ImportError:
    pyspiel = None
if pyspiel is not None:
    from ardsearch.integrations import openspiel
    os_game = openspiel.load_game("microarmour", scenario="intro_long")
    assert os_game.ard_game.params["turns"] == 16 and os_game.get_parameters()["turns"] == 16
    assert pyspiel.load_game(str(os_game)).ard_game.params["turns"] == 16
    assert openspiel.load_game("microarmour", scenario="intro_long", turns=12).ard_game.params["turns"] == 12
print("ok")
'''


def test_a_scenario_files_terms_are_played_and_a_named_parameter_wins(tmp_path):
    """'a parameter given by name wins, one left out is the scenario's': a copy
    of the Introductory saying 16 turns, cohesion 14 / 13 and quality +2 / -1
    plays those (the engine's state, the reference model, a state at turn 14
    accepted, the game's text without them); `turns=12` and `german_quality=0`
    given by name are played instead, and turn 14 is then refused. Through
    OpenSpiel (which fills in every default) the same."""
    src = os.path.join(os.path.dirname(_engine.__file__), "scenarios", "introductory.toml")
    lines = open(src, encoding="utf-8").read().splitlines()
    swaps = {"turns = 12": "turns = 16", "cohesion = 15": "cohesion = 14", "quality = 1": "quality = 2",
             "cohesion = 12": "cohesion = 13", "quality = 0": "quality = -1"}
    seen = set()
    for i, line in enumerate(lines):
        if line in swaps and line not in seen:
            seen.add(line)
            lines[i] = swaps[line]
    assert seen == set(swaps), f"introductory.toml no longer holds {set(swaps) - seen}"
    (tmp_path / "intro_long.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = LONG_CHECK.format(tests=os.path.join(ROOT, "tests"), terms=TERMS)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=ROOT, ARDSEARCH_MICROARMOUR_SCENARIOS=str(tmp_path)))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


def test_a_parameter_default_may_depend_on_other_parameters():
    """The generic hook behind it (ardsearch._spec.Param.default_for): without
    a hook the default is `default`; with one, the hook's value given the others."""
    from ardsearch._spec import Param
    plain = Param("turns", int, 12, "game length")
    derived = Param("turns", int, 12, "game length", default_for=lambda v: {"a": 8, "b": 20}[v["scenario"]])
    assert plain.default_in({"scenario": "b"}) == 12
    assert derived.default_in({"scenario": "a"}) == 8 and derived.default_in({"scenario": "b"}) == 20
