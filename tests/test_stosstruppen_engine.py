"""Stosstruppen through the public API: engine checks that are not rules
(data-file errors, parameters, views, formats). The generic conformance suite
(tests/test_conformance.py) runs on both scenarios."""
from __future__ import annotations

import os
import random
import sys

import pytest

import ardsearch
from ardsearch.games.stosstruppen import SPEC, _engine, data
from ardsearch.random_walk import random_walk



def test_parameters():
    g = ardsearch.Game(SPEC, {"scenario": "villers", "turns": 3})
    assert g.params["turns"] == 3 and g.new_initial_state().to_dict()["turns"] == 3
    assert ardsearch.Game(SPEC).new_initial_state().to_dict()["turns"] == 8
    with pytest.raises(ValueError):
        ardsearch.Game(SPEC, {"scenario": "nowhere"})
    with pytest.raises(ValueError):
        ardsearch.Game(SPEC, {"turns": 31})


def test_game_constants():
    g = ardsearch.Game(SPEC)
    assert g.state_size == 160 and g.has_chance and not g.hidden_information
    assert g.num_actions == 4187


def test_to_dict_round_trips_at_chance_nodes_too():
    g = ardsearch.Game(SPEC)
    rng = random.Random(4)
    s = g.new_initial_state(seed=4)
    for _ in range(300):
        if s.is_terminal():
            break
        d = s.to_dict()
        assert g.state_from_dict(d).raw() == s.raw()
        if s.is_chance_node():
            s.apply_random_chance()
        else:
            s.apply_action(rng.choice(s.legal_actions()))


def test_bad_dicts_name_the_problem():
    g = ardsearch.Game(SPEC)
    d = g.new_initial_state().to_dict()
    bad = dict(d, phase="lunch")
    with pytest.raises(ValueError, match="phase"):
        g.state_from_dict(bad)
    units = [dict(u) for u in d["units"]]
    units[1]["square"] = units[0]["square"]
    with pytest.raises(ValueError, match="two units on one square"):
        g.state_from_dict(dict(d, units=units))
    units = [dict(u) for u in d["units"]]
    units[0]["type"] = "rifle"
    with pytest.raises(ValueError, match="type"):
        g.state_from_dict(dict(d, units=units))


def test_views_are_copies_with_a_viewer():
    g = ardsearch.Game(SPEC)
    s = g.new_initial_state(seed=2)
    s.apply_random_chance()
    v = s.view(1)
    assert v.viewer() == 1 and v.raw()[3:] == s.raw()[3:]
    assert s.resample_from_infostate(1, seed=5).raw() == s.raw()


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_unit_file_errors_name_file_and_key(tmp_path):
    p = _write(tmp_path, "units.toml", "[type.hq]\nfoot = true\nmove = 3\nfire = 5\nmelee = 6\nhq = true\n")
    with pytest.raises(data.DataError, match=r"units.toml: key 'type.hq'.fire: expected a die size"):
        data.load_units(p)
    p = _write(tmp_path, "units2.toml", "[type.hq]\nfoot = 1\n")
    with pytest.raises(data.DataError, match="foot: expected true or false"):
        data.load_units(p)
    p = _write(tmp_path, "units3.toml", "[type.hq]\nspeed = 1\n")
    with pytest.raises(data.DataError, match="unknown key 'speed'"):
        data.load_units(p)


def test_scenario_file_errors_name_file_and_key(tmp_path):
    ids = [u["id"] for u in data.load_units()]
    good = open(os.path.join(data.SCENARIO_DIR, "kaiserschlacht.toml")).read()
    p = _write(tmp_path, "s1.toml", good.replace('"h1"', '"z1"'))   # the German HQ's square
    with pytest.raises(data.DataError, match=r"s1.toml: key 'german.units\[0\]'.at"):
        data.load_scenario(p, ids)
    p = _write(tmp_path, "s2.toml", good.replace('morale = "veteran"', 'morale = "elite"'))
    with pytest.raises(data.DataError, match="german.morale"):
        data.load_scenario(p, ids)
    p = _write(tmp_path, "s3.toml", good.replace('"..WW............"', '"..WW.....?......"'))
    with pytest.raises(data.DataError, match="unknown terrain letter"):
        data.load_scenario(p, ids)
    p = _write(tmp_path, "s4.toml", good.replace('turns = 8', 'turns = "eight"'))
    with pytest.raises(data.DataError, match="key 'turns'"):
        data.load_scenario(p, ids)
    p = _write(tmp_path, "s5.toml", "title = [")
    with pytest.raises(data.DataError, match="not valid TOML"):
        data.load_scenario(p, ids)


def test_random_playouts_through_the_vtable():
    total, seconds = ardsearch._core.random_playouts(ardsearch.Game(SPEC), 20, 1)
    assert total > 0


def test_mutated_states_that_validate_stay_valid():
    """validate() accepts only states the engine can play on: every legal
    action or outcome of an accepted byte-mutant gives a valid state again."""
    g = ardsearch.Game(SPEC)
    rng = random.Random(0)
    accepted = 0
    for seed in range(20):
        s = g.new_initial_state(seed=seed)
        walk = random.Random(seed)
        random_walk(s, rng.randrange(0, 400), walk)
        raw = s.raw()
        for _ in range(150):
            b = bytearray(raw)
            for _ in range(rng.randint(1, 3)):
                i = rng.randrange(len(b))
                b[i] = rng.randrange(256) if rng.random() < 0.5 else b[i] ^ (1 << rng.randrange(8))
            if _engine._validate(bytes(b)) is not None:
                continue
            accepted += 1
            st = g.state_from_raw(bytes(b))
            actions = [a for a, _ in st.chance_outcomes()] if st.is_chance_node() else st.legal_actions()
            for a in actions:
                assert _engine._validate(_engine._apply(bytes(b), a)) is None
    assert accepted > 100


@pytest.mark.parametrize("change, reason", [
    (lambda d: d["pending"].update(kind="fire", unit=1, target=17), "pending attack"),
    (lambda d: d.update(phase="assault"), "phase does not match the card"),
    (lambda d: d.update(turn=9), "turn"),
    (lambda d: d["units"][-1].update(square="h9"), "non-foot unit in buildings, marsh or a bunker|two units"),
    (lambda d: d["units"][0].update(stuck=True), "stuck"),
    (lambda d: d["markers"][0].update(kind="cas"), "barrage and CAS"),
    (lambda d: d["markers"][0].update(armed=True), "stock is placed or armed"),
    (lambda d: d.update(drawn=[]), "has not been drawn"),
])
def test_validate_rejects_inconsistent_states(change, reason):
    g = ardsearch.Game(SPEC)
    s = g.new_initial_state()
    s.apply("card:Gm")
    d = s.to_dict()
    change(d)
    with pytest.raises(ValueError, match=reason):
        g.state_from_dict(d)


def test_board_text_and_observation():
    g = ardsearch.Game(SPEC)
    s = g.new_initial_state()
    text = str(s)
    assert "Kaiserschlacht 1918" in text and "objectives: d8 f8 h8 j8 l8" in text
    obs = s.observation_tensor(0)
    assert obs.shape == tuple(SPEC.observation_shape) == (26, 12, 16)
    assert obs[13].sum() == 12 and obs[19].sum() == 8      # own units, the opponent's
    assert s.observation_tensor(1)[13].sum() == 8


def test_eliminated_units_have_a_slot_name():
    g = ardsearch.Game(SPEC)
    s = g.new_initial_state()
    s.apply("card:Gf")
    a = s.string_to_action("u1xu17")
    assert s.action_to_string(a) == "d2xe8"
