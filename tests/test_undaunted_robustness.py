"""Undaunted: Normandy: bad input. Scenario files with clear errors (file, key,
what was expected), and corrupted states: whatever validate() accepts plays
on without ever producing a state it would reject."""
from __future__ import annotations

import os
import random
import sys

import pytest

from ardsearch.games import undaunted as U
from ardsearch.games.undaunted import _engine as E

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_undaunted_hidden import random_game  # noqa: E402


def scenario_text():
    with open(U.scenario_path(1)) as f:
        return f.read()


def load_text(tmp_path, text):
    path = tmp_path / "custom.toml"
    path.write_text(text)
    return U.pack_params({"scenario_file": str(path), "max_rounds": 40})


@pytest.mark.parametrize("old,new,message", [
    ('goal_points = 5\nspawn = "17B"', 'goal_points = 50\nspawn = "17B"',
     r"custom.toml: us.goal_points: expected an integer from 1 to the board's 10 objective points, got 50"),
    ('spawn = "17B"', 'spawn = "99B"', r"custom.toml: us.spawn: expected a tile 1A..18B|us.spawn"),
    ('rifA = 4, rifB = 4, scoutA = 2, scoutB = 2, fog = 8 }\n\n[germans]',
     'rifA = 4, tank = 1 }\n\n[germans]', r"custom.toml: us.supply: expected cards .*got 'tank'"),
    ('"11B" = { objective = 0, adjacent = ["5B", "8A"] }', '"11B" = { objective = 0, adjacent = ["5B"] }',
     r"custom.toml: tiles.8A.adjacent: expected to list '11B'|tiles.11B"),
    ('initiative = "us"', 'initiative = "french"', r"custom.toml: initiative: expected 'us' or 'germans', got 'french'"),
    ('tokens = { rifA = "17B", rifB = "17B", scoutA = "17B", scoutB = "17B" }\ncontrolled = ["17B"]',
     'tokens = { scoutA = "17B" }\ncontrolled = ["17B"]', r"us.tokens: expected at least one Rifleman"),
    ('"6A" = { objective = 2', '"6A" = { objective = "two"', r"tiles.6A.objective: expected an integer"),
    ('name = "La Rayé"', 'name = "La Rayé"\nweather = "rain"', r"custom.toml: weather: expected no such key"),
    ('sl_B = 1, rifA = 1,', 'sl_B = 1, rifA = 57,', r"custom.toml: .*more than 60 cards of one type"),
    ('[us]', '[us', r"custom.toml: not valid TOML"),
])
def test_scenario_errors_name_file_key_and_expectation(tmp_path, old, new, message):
    text = scenario_text()
    assert old in text
    with pytest.raises(ValueError, match=message):
        load_text(tmp_path, text.replace(old, new, 1))


def test_missing_scenario_file_is_a_clear_error():
    with pytest.raises(ValueError, match="cannot read the scenario file"):
        U.pack_params({"scenario_file": "/no/such/file.toml"})


def test_custom_scenario_file_plays(tmp_path):
    setup = load_text(tmp_path, scenario_text())
    assert setup == U.pack_params({"scenario": 1})


def test_corrupted_states_are_rejected_or_playable():
    rng = random.Random(1)
    states = [r for sc in (1, 2, 3) for r, _ in random_game(sc, sc, 6)[::9]]
    accepted = 0
    for _ in range(3000):
        b = bytearray(rng.choice(states))
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        raw = bytes(b)
        if E._validate(raw) is not None:
            continue
        accepted += 1
        E.to_dict(raw)
        for _ in range(150):
            cp = E._current(raw)
            if cp == -4:
                break
            if cp == -1:
                outcomes = E._chance(raw)
                assert outcomes and sum(p for _, p in outcomes) == pytest.approx(1.0)
                a = rng.choices([x for x, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = E._legal(raw)
                assert legal
                a = rng.choice(legal)
            raw = E._apply(raw, a)
            assert E._validate(raw) is None
    assert accepted > 20
