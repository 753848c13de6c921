"""Micro Armour: the evaluation's village race as the end of the game counts it
(RULES.md, *Evaluation features*: `village_path` and `village_markers`, design
choices, not rules). The classic race (village_score) measures a stand's
nearness in a straight line and credits every live stand, markers and dummies
included; these two features correct it. Hand-built positions quote the
rulebook and RULES.md words behind each correction."""
from __future__ import annotations

import math
import os
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC
from ardsearch.games.microarmour import _engine as E

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import keep_only  # noqa: E402
import random_play  # noqa: E402

GERMAN, SOVIET = 0, 1
RACE = 0.076          # the shipped weight of each correction (data/eval.toml)


def scenario_position(scenario, stands, keep=(), **top):
    """A position of `scenario` with `stands` applied, the GHQs parked, markers in
    `keep` left as set up and every other stand lost (test_microarmour_rules.keep_only)."""
    game = ardsearch.Game(SPEC, {"scenario": scenario})
    d = dict(game.new_initial_state(seed=0).to_dict())
    d.update(phase="posture")
    d.update(top)
    if d["conditions"]["weather"] != "clear":
        d["conditions"] = dict(d["conditions"], sighting=12, sighting_turn=d["turn"])   # this turn's roll made
    d["stands"] = keep_only(d["stands"], stands, keep=keep)
    return game.state_from_dict(d)


def feature(s, name, player=GERMAN):
    return float(s.features(player)[s.game.feature_names.index(name)])


def paths(scenario, side=GERMAN):
    return E._village_path_table(E.SCENARIO_NAMES.index(scenario), side)


def straight(table, x, y):
    """Inches in a straight line (king moves) to the nearest village square."""
    return min(max(abs(x - vx), abs(y - vy)) for vy, row in enumerate(table) for vx, v in enumerate(row) if v == 0)


def term(d):
    """One stand's classic race term d inches out, with nothing left to move."""
    return 1.0 - d / 20.0


# ----------------------------------------------------------------- village_path
def test_walking_distance_goes_round_a_stream_by_its_crossings():
    """Digest *Terrain*: "Streams, rivers and water need fords, bridges,
    amphibious movement or fording boats"; RULES.md Movement: "streams
    impassable except amphibious, fords 2, bridges 1/2". In the outpost the
    stream runs at x = 8 with the bridge at (8,10) and fords at (8,16) and
    (8,4): from (7,13) on the west bank the Soviets (whose own minefields do
    not stop them) walk to the bridge first (13 inches to the village, 11 in a
    straight line); beside the bridge, or on the village's side, the two
    agree; a map without water or minefields changes nothing."""
    t = paths("outpost", SOVIET)
    assert t[13][7] == 13 and straight(t, 7, 13) == 11
    assert t[10][7] == 11 and t[10][8] == 10 and t[10][9] == 9
    assert t[10][18] == 0 and t[13][12] == 6
    for p in (GERMAN, SOVIET):
        intro = paths("introductory", p)
        assert all(intro[y][x] == straight(intro, x, y) for y in range(len(intro)) for x in range(len(intro[0])))


def test_walking_distance_goes_round_the_enemys_minefield_markers():
    """RULES.md Minefields (digest: "A stand entering a marker must stop, and it
    needs a +3 cohesion roll to leave ... in which case it attacks"): the
    outpost's bridge leads only onto Soviet markers ((9,9), (9,10), (9,11)),
    so for the Germans the bridge is a dead end: from it they walk back and
    round by a ford, 16 inches; beside the north ford (7,15) it is 11, the
    ford itself 10 and (9,15), the free square past it, 9. A stand on a
    marker still has a distance (its nearest free neighbour's + 1)."""
    t = paths("outpost", GERMAN)
    assert t[10][8] == 16 and t[10][7] == 16
    assert t[15][7] == 11 and t[16][8] == 10 and t[15][9] == 9
    assert t[10][9] == 9


def test_village_path_takes_back_the_credit_of_the_wrong_bank():
    """A German stand on the west bank at (7,13) gets the classic race's term
    at 11 inches; walking round the Soviet markers past the bridge it is 13
    away (by the north ford): `village_path` is the difference (-0.1), German
    minus Soviet; a Soviet stand beside the bridge (7,10) has nothing taken
    (its own markers do not stop it), a German one there 5 inches' worth."""
    far = scenario_position("outpost", {"pz4a": {"at": [7, 13]}})
    assert feature(far, "village_path") == pytest.approx(term(13) - term(11))
    assert feature(far, "village_path", SOVIET) == pytest.approx(-(term(13) - term(11)))
    soviet = scenario_position("outpost", {"m1": {"at": [7, 10], "hidden": False}})
    assert feature(soviet, "village_path", SOVIET) == 0.0
    german = scenario_position("outpost", {"pz4a": {"at": [7, 10]}})
    assert feature(german, "village_path") == pytest.approx(term(16) - term(11))


# ----------------------------------------------------------------- village_markers
def test_a_hidden_stand_in_the_village_holds_it_only_once_shown():
    """RULES.md, Hidden set-up and spotting: "Markers hold no village at the end
    (design: what they are is not known)"; a marker may be shown by its owner
    ("its owner may `show <marker>` whenever it is asked to act"). A real
    stand hidden on a village square counts 1 in the race, not 1 plus the hold
    bonus: `village_markers` takes the bonus (0.5 + 0.5 x turn / turns) off;
    shown, nothing is taken."""
    assert paths("ambush")[10][16] == 0                     # m3's square, a village square
    hidden = scenario_position("ambush", {"m3": {}}, turn=4)
    shown = scenario_position("ambush", {"m3": {"hidden": False}}, turn=4)
    bonus = 0.5 + 0.5 * 4 / 16                              # the ambush lasts 16 turns (RULES.md, Scenarios)
    assert feature(hidden, "village_markers", SOVIET) == pytest.approx(-bonus)
    assert feature(hidden, "village_markers", GERMAN) == pytest.approx(bonus)
    assert feature(shown, "village_markers", SOVIET) == 0.0


def test_a_dummy_counts_nothing_in_the_village_race():
    """RULES.md, Dummies: "A dummy ... never counts for break points, material
    or the village"; the classic race counted it like a stand. A dummy 7
    inches out (m2 at (19,17), village rows up to y = 10) loses its whole
    term; a real marker as far out loses nothing."""
    dummy = scenario_position("ambush", {}, keep=("m2",))
    assert dummy.to_dict()["stands"][[s["id"] for s in dummy.to_dict()["stands"]].index("m2")]["dummy"]
    d = paths("ambush")[17][19]
    assert 0 < d < 20
    assert feature(dummy, "village_markers", SOVIET) == pytest.approx(-term(d))
    real = scenario_position("ambush", {"m4": {"at": [19, 17]}})
    assert feature(real, "village_markers", SOVIET) == 0.0


def test_both_corrections_make_the_race_what_the_end_counts(tmp_path):
    """With village_path and village_markers at the classic race's weight the
    evaluation moves by that weight times each correction: a dummy in the
    village is worth to the evaluation what an empty square is."""
    game = ardsearch.Game(SPEC, {"scenario": "ambush"})
    saved = game.weights
    try:
        names = list(game.feature_names)
        w = list(saved)
        w[names.index("village_markers")] = RACE
        game.weights = w
        dummy = scenario_position("ambush", {}, keep=("m2",))
        f = dummy.features(SOVIET)
        logit = sum(a * b for a, b in zip(w, f))
        assert dummy.evaluate(SOVIET) == pytest.approx(math.tanh(logit / 2))
        assert f[names.index("village_markers")] < 0.0
    finally:
        game.weights = saved


# ----------------------------------------------------------------- mined
def test_mined_counts_stands_held_on_enemy_minefield_markers():
    """RULES.md, Minefields (digest: "A stand entering a marker must stop, and
    it needs a +3 cohesion roll to leave"): a stand on an enemy marker has
    stopped and must roll at +3 and take the field's attack to go on, and no
    friend may step onto its square. `mined` counts such stands (the
    enemy's minus one's own, / 4), whatever the marker holds (its square is
    public): in the outpost the bridge's far bank (9,9), (9,10), (9,11) is all
    markers, (9,15) beside the north ford none; a side's own markers do not
    hold its stands ("A side's own markers do not affect its stands")."""
    on = scenario_position("outpost", {"pz4a": {"at": [9, 10]}, "pz4b": {"at": [9, 11]}})
    off = scenario_position("outpost", {"pz4a": {"at": [9, 15]}})
    assert feature(on, "mined") == pytest.approx(-0.5)
    assert feature(on, "mined", SOVIET) == pytest.approx(0.5)
    assert feature(off, "mined") == 0.0
    own = scenario_position("outpost", {"shq": {"at": [9, 10]}})
    assert feature(own, "mined") == 0.0


@pytest.mark.parametrize("scenario", ["introductory", "airstrike", "barrage", "combined"])
def test_the_corrections_are_nothing_without_water_markers_or_minefields(scenario):
    """These scenarios' maps have no stream, no hidden set-up and no minefield:
    the three features are 0 in every position, so a weight given to them
    changes no evaluation there (their strength figures stand)."""
    game = ardsearch.load_game("microarmour", scenario=scenario)
    names = game.feature_names
    for s in random_play.seeded_positions(game.new_initial_state(seed=3), 3, every=50, plies=600):
        f = s.features(GERMAN)
        assert [f[names.index(n)] for n in ("village_path", "village_markers", "mined")] == [0.0, 0.0, 0.0]
