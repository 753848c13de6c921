"""Micro Armour: hidden set-up, dummies and spotting (RULES.md "Hidden set-up and
spotting"), one hand-built position per rule in the ambush scenario
(scenarios/ambush.toml), each checked against the reference model
(tests/reference/microarmour_hidden.py) too.

Ambush squares used: woods (11..13, 12..13) with marker m1 at (12,12); hedgerow
(10..13, 3) with marker m7 at (11,3); the hill (16..20, 4) with (18,4) its centre;
row y=0 and y=8 clear; the village (15..18, 8..10). Stands not named are lost and
revealed, except the two GHQs (parked in far corners) and the dummies (removed).
"""
from __future__ import annotations

import os
import re
import sys
from fractions import Fraction

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC, _engine, _data

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import microarmour as ref  # noqa: E402
from test_microarmour_rules import keep_only, resamples_keeping_the_view  # noqa: E402

AMB = ardsearch.Game(SPEC, {"scenario": "ambush"})
AB = AMB.new_initial_state(seed=0).to_dict()
MARKERS = [st["id"] for st in AB["stands"] if st["hidden"]]
DUMMIES = [st["id"] for st in AB["stands"] if st["dummy"]]


def ambush(stands, keep_dummies=(), **top):
    """A position of the ambush scenario: `stands` ({id: {field: value}}) applied; the
    GHQs parked, dummies not kept removed (spotted), every other stand lost."""
    d = dict(AB)
    d.update(phase="posture", conditions=dict(AB["conditions"], sighting=12, sighting_turn=1))
    d.update(top)
    d["stands"] = keep_only(AB["stands"], stands, keep=keep_dummies)
    return AMB.state_from_dict(d)


def spot(state):
    """The spotting that follows every action, on a hand-built position: the
    engine's stands and the reference model's must agree."""
    got = _engine.to_dict(_engine._spot_update(state.raw()))
    r = ref.from_dict(state.to_dict())
    r.spot_update()
    while r.reveal_due():
        r.apply(next(iter(r.chances())))
    want = r.to_dict()
    assert got["stands"] == want["stands"]
    return {st["id"]: st for st in got["stands"]}


def test_hidden_setup_shows_the_enemy_markers_not_what_is_under_them():
    """Digest: "Stands placed out of sight in blocking or concealing terrain may be
    recorded secretly." The German view shows a marker where each Soviet stand set up
    hidden, its type "?" and nothing of whether it is a dummy; the Soviet view and the
    full state know; the text board draws '?' in the German view."""
    state = AMB.new_initial_state(seed=0)
    full = {st["id"]: st for st in state.to_dict()["stands"]}
    ger = {st["id"]: st for st in state.view(0).to_dict()["stands"]}
    sov = {st["id"]: st for st in state.view(1).to_dict()["stands"]}
    assert set(MARKERS) == {f"m{i}" for i in range(1, 10)} and DUMMIES == ["m2"]   # m5, m8 T-34s (session 10)
    for m in MARKERS:
        assert ger[m]["type"] == "?" and ger[m]["dummy"] is None and ger[m]["hidden"]
        assert ger[m]["at"] == full[m]["at"]
        assert sov[m] == full[m]
    assert sum(full[m]["dummy"] for m in MARKERS) == 1
    board = SPEC.render(state.view(0).raw())
    assert board.count("?") >= len(MARKERS)
    assert "?" not in SPEC.render(state.view(1).raw()).split("\n")[0]


def test_hidden_setup_only_in_blocking_or_concealing_terrain(tmp_path):
    """Digest: "Stands placed out of sight in blocking or concealing terrain may be
    recorded secretly": a scenario hiding a stand in the clear is refused on load with
    one line naming file, key and reason."""
    text = open(os.path.join(os.path.dirname(_data.__file__), "scenarios", "ambush.toml")).read()
    bad = text.replace('at = [12, 12]\nfacing = "w"\nhidden = true', 'at = [14, 12]\nfacing = "w"\nhidden = true')
    assert bad != text
    p = tmp_path / "bad.toml"
    p.write_text(bad)
    with pytest.raises(ValueError) as e:
        _data.load_scenario("bad", path=str(p))
    msg = str(e.value)
    assert "\n" not in msg and "bad.toml" in msg and "stand m1.at" in msg and "concealing" in msg
    dummy_shown = text.replace('type = "dummy"\nside = "soviet"\nat = [19, 17]\nfacing = "w"\nhidden = true',
                               'type = "dummy"\nside = "soviet"\nat = [19, 17]\nfacing = "w"')
    p.write_text(dummy_shown)
    with pytest.raises(ValueError, match=r"bad.toml: stand\[\d+\].hidden: expected true for a dummy"):
        _data.load_scenario("bad", path=str(p))


def test_spotted_in_woods_only_within_the_concealment_distance():
    """Digest: "Attacks on stands in concealing terrain ..." and "Unless the scenario
    says otherwise, maximum sighting distance is 40" in Open, 20" in Mixed and 10" in
    Closed terrain": a hidden stand in woods is spotted within the woods' concealment
    distance (3", design) with a line of sight, and not at 4" even within the sighting
    distance."""
    far = ambush({"m1": {}, "pz4a": {"at": [12, 8]}})
    assert far.to_dict()["conditions"]["sighting"] == 12
    assert spot(far)["m1"]["hidden"]
    near = ambush({"m1": {}, "pz4a": {"at": [12, 9]}})
    assert not spot(near)["m1"]["hidden"]


def test_spotting_needs_a_line_of_sight():
    """Digest: "A line of sight may not be traced through terrain which blocks line of
    sight. However, it may be traced into or out of the terrain type": through two
    woods squares, no spotting even at 2"."""
    assert spot(ambush({"m1": {}, "pz4a": {"at": [10, 12]}}))["m1"]["hidden"]       # woods (11,12) between
    assert not spot(ambush({"m1": {}, "pz4a": {"at": [12, 10]}}))["m1"]["hidden"]   # the clear south side
    assert spot(ambush({"m1": {"at": [13, 13]}, "pz4a": {"at": [10, 13]}}))["m1"]["hidden"]


def test_hedgerow_spotted_only_by_adjacent_stands():
    """Digest: "In hedgerows, a target can only be spotted by adjacent stands unless it
    has fired.\""""
    assert spot(ambush({"m7": {}, "pgra": {"at": [11, 1]}}))["m7"]["hidden"]
    assert not spot(ambush({"m7": {}, "pgra": {"at": [11, 2]}}))["m7"]["hidden"]
    assert not spot(ambush({"m7": {}, "pgra": {"at": [12, 4]}}))["m7"]["hidden"]


def test_sighting_distance_limits_spotting_and_fire():
    """Digest: "Light rain cuts sighting to 3D6"": with this turn's sighting 5", a
    hidden stand in the clear is spotted at 5" and not at 6"; fire reaches no further."""
    top = {"conditions": dict(AB["conditions"], sighting=5, sighting_turn=1)}
    assert not spot(ambush({"m3": {"at": [10, 0]}, "pz4a": {"at": [5, 0]}}, **top))["m3"]["hidden"]
    assert spot(ambush({"m3": {"at": [11, 0]}, "pz4a": {"at": [5, 0]}}, **top))["m3"]["hidden"]
    st = ambush({"m3": {"at": [11, 0], "hidden": False}, "pz4a": {"at": [5, 0]}}, phase="fire", **top)
    assert "fire pz4a>m3" not in [st.action_to_string(a) for a in st.legal_actions()]
    st = ambush({"m3": {"at": [10, 0], "hidden": False}, "pz4a": {"at": [5, 0]}}, phase="fire", **top)
    assert "fire pz4a>m3" in [st.action_to_string(a) for a in st.legal_actions()]


def test_higher_ground_adds_five_inches_a_level():
    """Digest: "Units on higher ground gain 5" of sighting per level": with sighting 5",
    a stand on the hill spots a hidden stand 8" away in the clear; the same stand off the
    hill does not."""
    top = {"conditions": dict(AB["conditions"], sighting=5, sighting_turn=1)}
    assert not spot(ambush({"m3": {"at": [26, 4]}, "pz4a": {"at": [18, 4]}}, **top))["m3"]["hidden"]
    assert spot(ambush({"m3": {"at": [26, 0]}, "pz4a": {"at": [18, 0]}}, **top))["m3"]["hidden"]


def test_dummy_removed_when_spotted():
    """Digest: "Only then is the marker revealed as a dummy (removed) or real": a dummy
    spotted leaves the table (its slot empty), a real stand stays, revealed."""
    st = ambush({"m2": {"at": [12, 12]}, "m1": {"at": [12, 6]}, "pz4a": {"at": [11, 11]}, "pz4b": {"at": [11, 5]}},
                keep_dummies=("m2",))
    assert st.to_dict()["stands"][[s["id"] for s in st.to_dict()["stands"]].index("m2")]["dummy"]
    after = spot(st)
    assert "m2" not in after
    assert after["m1"]["hidden"] is False and after["m1"]["type"] == "t34"


def test_markers_act_only_once_shown_and_are_not_targets():
    """Design (RULES.md): a marker (real or dummy) is not marked, does not fire or move
    until its owner shows it (`show <marker>`, whenever it is asked to act in the
    posture, fire or movement phase); an unspotted marker cannot be attacked (no enemy
    has spotted a target there)."""
    st = ambush({"m2": {"at": [13, 12]}, "m1": {"at": [12, 12], "hidden": False}, "m3": {"at": [14, 12]},
                 "pz4a": {"at": [12, 8]}}, keep_dummies=("m2",), phase="fire", active="soviet", first="soviet")
    moves = [st.action_to_string(a) for a in st.legal_actions()]
    assert "fire m1>pz4a" in moves and not any(m.startswith(("fire m2", "fire m3")) for m in moves)
    assert {"show m2", "show m3"} <= set(moves) and "show m1" not in moves
    check_legal(st)
    st = ambush({"m3": {"at": [10, 0]}, "pz4a": {"at": [5, 0]}}, phase="fire")
    assert not any(">m3" in st.action_to_string(a) for a in st.legal_actions())
    st = ambush({"m2": {"at": [12, 8]}, "m1": {"at": [12, 6]}}, keep_dummies=("m2",), active="soviet",
                first="soviet")
    moves = [st.action_to_string(a) for a in st.legal_actions()]
    assert not any(m.startswith("posture m") for m in moves) and {"show m1", "show m2"} <= set(moves)
    check_legal(st)


def check_legal(st):
    r = ref.from_dict(st.to_dict())
    assert sorted(st.action_to_string(a) for a in st.legal_actions()) == sorted(r.legal())


def test_a_shown_marker_is_a_public_chance_outcome():
    """Design (RULES.md): what a shown or spotted marker is comes as a chance outcome
    everyone sees (`shown:<type>` or `shown:dummy`): certain in the full state, drawn
    from what is left under the markers in the enemy's view, so the view follows the
    game; a dummy shown is removed, and the owner acts again."""
    st = ambush({"m1": {}, "m2": {}, "m3": {}, "pz4a": {"at": [12, 4]}}, keep_dummies=("m2",), phase="fire",
                active="soviet", first="soviet")
    st.apply("show m1")
    assert st.is_chance_node()
    assert [(st.action_to_string(a), p) for a, p in st.chance_outcomes()] == [("shown:t34", 1.0)]
    view = st.view(0)
    got = {view.action_to_string(a): p for a, p in view.chance_outcomes()}
    assert got == pytest.approx({"shown:t34": 1 / 3, "shown:rifle": 1 / 3, "shown:dummy": 1 / 3})
    st.apply("shown:t34")
    view.apply("shown:t34")
    assert view.raw() == st.view(0).raw()
    by = {s["id"]: s for s in st.to_dict()["stands"]}
    assert not by["m1"]["hidden"] and by["m1"]["type"] == "t34" and st.current_player() == 1
    st.apply("show m2")
    st.apply("shown:dummy")
    assert "m2" not in {s["id"] for s in st.to_dict()["stands"]}


def test_unspotted_markers_block_no_line_of_sight():
    """Design (RULES.md): an unspotted marker blocks no line of sight (what it is, a
    vehicle or a dummy, is hidden, and a line of sight must not tell)."""
    st = ambush({"m1": {"at": [12, 0]}, "m3": {"at": [14, 0], "hidden": False}, "pz4a": {"at": [10, 0]}}, phase="fire")
    assert "fire pz4a>m3" in [st.action_to_string(a) for a in st.legal_actions()]


def _sight_outcomes(state):
    return {state.action_to_string(a): p for a, p in state.chance_outcomes()}


def test_light_rain_sighting_rolled_on_3d6_at_the_start_of_each_turn():
    """Digest: "Light rain cuts sighting to 3D6" ... rolled at the start of the turn."
    The ambush is fought in light rain: before each turn's initiative, sight:3..18 with
    the 3D6 probabilities (the board's 20" never binds)."""
    st = AMB.new_initial_state(seed=0)
    got = _sight_outcomes(st)
    ways = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                ways[a + b + c] = ways.get(a + b + c, 0) + 1
    assert got.keys() == {f"sight:{v}" for v in range(3, 19)}
    for v, n in ways.items():
        assert abs(got[f"sight:{v}"] - n / 216) < 1e-12
    st.apply("sight:7")
    assert st.to_dict()["conditions"]["sighting"] == 7 and st.to_dict()["phase"] == "initiative"
    assert st.action_to_string(st.chance_outcomes()[0][0]).startswith("init:")


def test_night_sighting_one_to_five_inches():
    """Digest: "At night ... sighting is typically 1-5", 10" at most": a night turn's
    sighting is 1D5 (design: the typical range), the lower of it and the weather's."""
    st = ardsearch.Game(SPEC, {"night": "night"}).new_initial_state(seed=0)
    got = _sight_outcomes(st)
    assert got.keys() == {f"sight:{v}" for v in range(1, 6)}
    assert all(abs(p - 0.2) < 1e-12 for p in got.values())
    fog = ardsearch.Game(SPEC, {"night": "night", "weather": "fog"}).new_initial_state(seed=0)
    got = _sight_outcomes(fog)
    # min(1D6, 1D5): P(1) = 1 - (5/6)(4/5)
    assert abs(got["sight:1"] - (1 - Fraction(5, 6) * Fraction(4, 5))) < 1e-12
    r = ref.Ref(night="night", weather="fog")
    assert {k: float(v) for k, v in r.chances().items()} == pytest.approx(got, abs=1e-12)


def test_clear_day_rolls_no_sighting():
    """The Introductory scenario is a clear day: no sighting roll, the board's 20"."""
    st = ardsearch.Game(SPEC).new_initial_state(seed=0)
    assert st.to_dict()["conditions"] == {"weather": "clear", "ground": "normal", "night": False, "sighting": 20,
                                       "sighting_turn": 0, "flares": [0, 0], "flare": [False, False],
                                       "flare_decided": [False, False], "night_loss": [0, 0]}
    assert all(st.action_to_string(a).startswith("init:") for a, _ in st.chance_outcomes())


@pytest.mark.parametrize("ground,clear,stream", [("normal", 2, 0), ("snow", 4, 0), ("deep_snow", 8, 0),
                                                  ("frozen", 2, 4)])
def test_ground_changes_terrain(ground, clear, stream):
    """Digest: "Snow makes clear terrain Rough 1, and deep snow also doubles MP costs.
    Extreme cold freezes water to Rough 1." Half-MP for a Pz IV (tracked) to enter a
    clear square and a stream square (impassable to it unfrozen)."""
    game = ardsearch.Game(SPEC, {"ground": ground, "scenario": "ambush"})
    raw = game.new_initial_state(seed=0).raw()
    assert _engine._move_cost(raw, "pz4a", 0, 0) == clear
    sc = _engine.SCENARIOS[_engine.SCENARIO_NAMES.index("introductory")]
    names = [t["name"] for t in _engine.CHARTS["terrain"]]
    r = ref.Ref(ground=ground)
    assert r.cost(r.by_id["pz4a"], 0, 0) == clear
    del sc, names, stream


def test_night_cohesion_loss_and_flares_are_scenario_data(tmp_path):
    """Digest: "At night, force cohesion drops by up to 4 (flares can offset this)":
    a side's night_cohesion (0..4) and its flares (0..4, fired one a night turn by
    the side's decision: tests/test_microarmour_cross.py) are scenario data, checked
    on load; they apply only at night (the scenario's or the `night` parameter's),
    and flares need a loss to offset."""
    text = open(os.path.join(os.path.dirname(_data.__file__), "scenarios", "ambush.toml")).read()
    text = re.sub(r"^(night_cohesion|flares) = .*\n", "", text, flags=re.M)   # the file's own night data
    night = text.replace("night = false", "night = true").replace(
        'name = "German"\n', 'name = "German"\nnight_cohesion = 3\nflares = 1\n')
    p = tmp_path / "night.toml"
    p.write_text(night)
    sc = _data.load_scenario("night", path=str(p))
    assert sc["night"] and sc["night_loss"] == [3, 0] and sc["flares"] == [1, 0]
    p.write_text(text.replace('name = "German"\n', 'name = "German"\nflares = 1\n'))
    with pytest.raises(ValueError, match="flares: expected 0 for a side the night costs no cohesion"):
        _data.load_scenario("night", path=str(p))


def test_close_deployment_refused_with_hidden_setup():
    with pytest.raises(ValueError, match="deployment=close: the ambush scenario"):
        ardsearch.Game(SPEC, {"scenario": "ambush", "deployment": "close"})


# ---------------------------------------------------------------- hidden information
def _two_truths():
    """Two ambush states that differ only under the Soviet markers: m1 (a T-34) and m3
    (a rifle platoon) swap what they hold, and so do m2 (a dummy) and m9 (a T-34)."""
    a = AMB.new_initial_state(seed=0)
    d = a.to_dict()
    by = {st["id"]: st for st in d["stands"]}
    by["m1"]["type"], by["m3"]["type"] = by["m3"]["type"], by["m1"]["type"]
    by["m2"]["type"], by["m9"]["type"] = by["m9"]["type"], by["m2"]["type"]
    by["m2"]["dummy"], by["m9"]["dummy"] = False, True
    b = AMB.state_from_dict(d)
    return a, b


def test_views_show_the_same_markers_whatever_is_under_them():
    """RULES.md "Hidden information": a view shows a marker, not what is under it: the
    German views of two truths are the same bytes; the Soviet views differ."""
    a, b = _two_truths()
    assert a.raw() != b.raw()
    assert a.view(0).raw() == b.view(0).raw()
    assert a.view(0).to_dict() == b.view(0).to_dict()
    assert a.view(1).raw() != b.view(1).raw()
    for p in (0, 1):
        assert (a.observation_tensor(0) == b.observation_tensor(0)).all()


def _german_decision(state):
    for move in ("sight:10", "init:G", "lead"):
        state.apply(move)
    assert state.current_player() == 0
    return state


@pytest.mark.parametrize("bot", ["ismcts", "mcts", "greedy"])
def test_a_bot_never_plays_on_what_it_cannot_see(bot):
    """Issue 12, Bots: "a bot never plays on what it cannot see": the German choice
    is the same in two states that differ only under the Soviet markers (same seed)."""
    a, b = (_german_decision(s) for s in _two_truths())
    moves = []
    for state in (a, b):
        if bot == "greedy":
            player = ardsearch.load_bot("greedy", AMB, seed=7)
        else:
            cls = ardsearch.ISMCTSBot if bot == "ismcts" else ardsearch.MCTSBot
            player = cls(AMB, simulations=300, seed=7, reuse_tree=False)
        moves.append(state.action_to_string(player.step(state)))
    assert moves[0] == moves[1]


def _midgame():
    """The German view after m1 (a T-34) was spotted and the dummy m2 removed; the
    other seven markers unspotted."""
    st = ambush({"m1": {"hidden": False}, "m3": {}, "m4": {}, "m6": {}, "m7": {}, "m9": {},
                 "pz4a": {"at": [5, 6]}}, keep_dummies=("m5", "m8"))
    return st


def test_resamples_never_contradict_what_the_viewer_has_seen():
    """RULES.md "Hidden information": resample_from_infostate keeps everything the
    viewer has seen (every position, the spotted T-34 m1, the removed dummy m2) and
    deals the rest from what the scenario put under the markers: 1,000 resamples.
    (The ambush's one dummy is m2, removed here, so the seven hidden markers hold
    four T-34s, two rifles and a ZiS-3: m5 and m8 are T-34s since session 10.)"""
    st = _midgame()
    hidden = ["m3", "m4", "m5", "m6", "m7", "m8", "m9"]
    pool = ["rifle", "t34", "zis3", "rifle", "t34", "t34", "t34"]
    t34_count = {m: 0 for m in hidden}
    for _, by in resamples_keeping_the_view(st, 0, hidden, pool, removed=("m2",)):
        for m in hidden:
            assert not by[m]["dummy"]                     # no dummy left to deal
            t34_count[m] += by[m]["type"] == "t34"
    # plausibly: each unspotted marker is a T-34 4 times in 7
    for m, n in t34_count.items():
        assert 480 < n < 660, (m, n)


# ---------------------------------------------------------------- corrupt bytes
def _layout():
    """Offsets of the hidden set-up block (RULES.md, The state struct), found from the
    ambush's start bytes (markers in slots 18..26, the one dummy 19: m5 and m8, slots
    22 and 25, were dummies until session 10), so that fields other families add
    before it do not break the test."""
    raw = AMB.new_initial_state(seed=0).raw()
    hid = (0x1FF << 18).to_bytes(4, "little") + (1 << 19).to_bytes(4, "little")
    at = raw.index(hid)
    return at, at + 4, at + 8, at + 12, at + 15, len(raw) - 9 - 256     # the stands, before the 9 bytes
                                                                          # of pre-registered points


HID, DUMMY, DUE, WEATHER, SIGHT, STANDS = _layout()


def _corrupt(state, offset, value, size=1):
    raw = bytearray(state.raw())
    ser = state.serialize()
    at = ser.index(bytes(raw))
    raw[offset:offset + size] = value.to_bytes(size, "little")
    return ser[:at] + bytes(raw) + ser[at + len(raw):]


@pytest.mark.parametrize("what,offset,value,size", [
    ("a marker bit on a stand that set up in the open", HID, 0x0001FFFF | (1 << 13), 4),
    ("a dummy bit on a stand that is no marker", DUMMY, 1 << 3, 4),
    ("a dummy that is spotted but not removed", DUMMY, 1 << 19, 4),   # m2 (slot 19) is a dummy; clear its marker
    ("a spotted bit without a marker", DUE, 1, 4),
    ("weather out of range", WEATHER, 8, 1),
    ("a sighting the weather cannot roll", SIGHT, 19, 1),
])
def test_validate_refuses_corrupt_hidden_and_weather_bytes(what, offset, value, size):
    """Issue 12, Bad input: a corrupt serialized state holding the hidden set-up or
    weather fields is refused with a ValueError, never a crash."""
    st = AMB.new_initial_state(seed=0)
    st.apply("sight:10")
    if what.startswith("a dummy that is spotted"):
        hid = int.from_bytes(st.raw()[HID:HID + 4], "little") & ~(1 << 19)
        bad = _corrupt(st, HID, hid, 4)
    else:
        bad = _corrupt(st, offset, value, size)
    with pytest.raises(ValueError):
        AMB.deserialize_state(bad)


def test_validate_refuses_markers_holding_what_the_scenario_did_not_put_there():
    """A marker turned into a type its side's markers do not hold (a Pz IV), or two
    markers both T-34s where the scenario has three T-34s and six others: refused."""
    st = AMB.new_initial_state(seed=0)
    ids = [s["id"] for s in st.to_dict()["stands"]]
    slot = 16 + [i for i in ids if not i.startswith(("g", "p", "h"))].index("m3")
    pz4 = [w["key"] for w in _engine.WEAPONS].index("pz4h")
    with pytest.raises(ValueError):
        AMB.deserialize_state(_corrupt(st, STANDS + 8 * slot, pz4, 1))
    t34 = [w["key"] for w in _engine.WEAPONS].index("t34")
    with pytest.raises(ValueError):
        AMB.deserialize_state(_corrupt(st, STANDS + 8 * slot, t34, 1))


def test_markers_hold_no_village_and_the_outcome_sentence_agrees():
    """Design (RULES.md): a marker (real or dummy) holds nothing at the end; the
    engine's winner and state.outcome() count the same stands. Random ambush games."""
    import random
    for seed in range(3):
        st = AMB.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        r = st.returns()
        o = st.outcome()
        assert o.winner == (None if r[0] == 0 else (0 if r[0] > 0 else 1)), o.sentence
