"""The scenario writer the Micro Armour set-up tools share
(ardsearch/games/microarmour/scenario_toml.py): what it writes reads back as
the same document, for every shipped scenario and for the values a scenario
may hold; what TOML cannot hold is refused with one line."""
import math

import pytest

from ardsearch._toml import read_toml
from ardsearch.games.microarmour import _data
from ardsearch.games.microarmour.scenario_toml import dumps


@pytest.mark.parametrize("name", _data.scenario_names())
def test_every_shipped_scenario_round_trips(name, tmp_path):
    doc = read_toml(_data._scenario_files()[name])
    path = tmp_path / "s.toml"
    path.write_text(dumps(doc, "a header\nof two lines"), encoding="utf-8")
    assert read_toml(str(path)) == doc
    assert path.read_text(encoding="utf-8").startswith("# a header\n# of two lines\n")


def test_awkward_values_round_trip(tmp_path):
    doc = {"title": 'quote " backslash \\ tab \t é', "n": -3, "x": 0.25, "ok": False, "empty": [],
           "map": ["ab", "cd"], "t": {"k-1": 1, "sub": {"a": [1, 2]}}, "arr": [{"a": 1}, {"a": 2, "b": "x"}],
           "generated": {"pieces": [{"by": "german", "area": 3}]}}
    path = tmp_path / "s.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    assert read_toml(str(path)) == doc


@pytest.mark.parametrize("value", [math.inf, None, {1, 2}])
def test_values_toml_cannot_hold_are_refused(value):
    with pytest.raises(ValueError) as e:
        dumps({"v": value})
    assert "\n" not in str(e.value) and "scenario TOML" in str(e.value)
