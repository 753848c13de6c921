"""The evaluation features of Clash of the Ardennes and Stand at Mortain on
hand-built positions: each feature is the number its RULES.md ("Evaluation")
says, for the side it says, with the sign it says.

Each docstring quotes the rulebook words behind the feature (the features
themselves are design choices: the rulebooks have no evaluation)."""
import os
import sys

import numpy as np
import pytest

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_ardennes_rules import position as ard_position  # noqa: E402
from test_mortain_rules import position as mor_position  # noqa: E402


def ard(roads, **kw):
    game = ardsearch.load_game("ardennes")
    return game, game.state_from_dict(ard_position(roads, **kw))


def feats(game, state, player):
    return dict(zip(game.feature_names, state.features(player)))


# ------------------------------------------------------------------ Ardennes

def test_ardennes_roads_counts_conquered_roads():
    """*Conquering a road*: a road is conquered when one line covers all its
    tiles; "first to conquer any three roads" wins."""
    game, s = ard({1: ("TTTTPP", ""), 2: ("TTTGP", ""), 3: ("", "TTTTPP")})
    f0, f1 = feats(game, s, 0), feats(game, s, 1)
    assert f0["roads"] == 1.0 and f1["roads"] == -1.0      # 2 Allied, 1 German
    assert np.allclose(s.features(0), -s.features(1))


def test_ardennes_near_conquest_needs_a_unit_that_fits():
    """*Close combat*: a unit is placed "only if the free tiles between the two
    lines are at least the unit's length"; one placement of exactly the free
    tiles conquers the road."""
    # road 1: Allied 14 tiles, 2 free, no German unit: a private (2 tiles) in stock fits
    game, s = ard({1: ("TTTTM", "")})
    assert feats(game, s, 0)["near_conquest"] == 1.0
    # the same with a German unit on the road: the road cannot be conquered by one placement
    game, s = ard({1: ("TTTT", "M")})
    assert feats(game, s, 0)["near_conquest"] == 0.0


def test_ardennes_threats_are_the_tiles_a_clash_would_remove_now():
    """*Attacking*: a clash removes enemy units from the front while the
    attacker's leading unit beats them ("tanks beat all infantry")."""
    # road 1, L=16: Allied "TT" (6 tiles), German "TPP" (3+4=7): 3 free tiles, no contact, no threat
    game, s = ard({1: ("TT", "TPP")})
    assert feats(game, s, 0)["threats"] == 0.0
    # Allied "TTT" (9) + German "TPP" (7) = 16: the Allied tank touches a
    # German private and beats both privates (4 tiles); the German's
    # leading private cannot attack a stronger tank.
    game, s = ard({1: ("TTT", "TPP")})
    assert feats(game, s, 0)["threats"] == pytest.approx(4 / 16)
    assert feats(game, s, 1)["threats"] == pytest.approx(-4 / 16)


def test_ardennes_tempo_is_the_action_points_of_the_side_on_turn():
    """*Close combat*, point 4: each turn has 4 action points."""
    game, s = ard({}, to_move="germans", ap=3)
    assert feats(game, s, 1)["tempo"] == 0.75 and feats(game, s, 0)["tempo"] == -0.75


def test_ardennes_stock_and_board_tiles():
    """*Units*: each side has the same stock; placing moves tiles from stock to the board."""
    game, s = ard({1: ("T", ""), 2: ("", "")})
    f = feats(game, s, 0)
    assert f["board_tiles"] == pytest.approx(3 / 16)
    assert f["stock_tiles"] == pytest.approx(-3 / 16)


def test_ardennes_classic_is_the_old_evaluation():
    """Design choice: the first feature keeps the hand-set evaluation."""
    from ardsearch.games.ardennes import _engine as E
    game, s = ard({1: ("TTT", "TPP"), 4: ("MP", "C")}, ap=2)
    old = E._evaluate_classic(s.raw(), 0)
    assert feats(game, s, 0)["classic"] == pytest.approx(2 * np.arctanh(old), abs=1e-12)


# ------------------------------------------------------------------- Mortain

def mor(units, **fields):
    game = ardsearch.load_game("mortain")
    raw = mor_position(units, **fields)
    return game, game.state_from_raw(raw)


def test_mortain_exits_and_front_runners():
    """E Who Wins: "The German player wins at the end of any turn in which
    five German units have exited"; a unit in column 01 may exit."""
    game, s = mor({"panther": "0104", "iv2": {"at": "0305", "reduced": True}, "stug": "0905",
                   "df1": "exited", "df3": "exited", "1-120": "0505"}, exits=2, turn=3, phase="draw")
    f = feats(game, s, 0)
    assert f["exits"] == pytest.approx(2 / 5)
    assert f["front_runners"] == pytest.approx((1.0 + 0.6) / 5)
    assert feats(game, s, 1)["exits"] == pytest.approx(-2 / 5)


def test_mortain_strengths_count_full_and_reduced_units():
    """R Combat: "A hit flips a full unit to its reduced side and eliminates a
    reduced one"; a reduced unit counts 0.6."""
    game, s = mor({"panther": "0104", "iv2": {"at": "0305", "reduced": True}, "1-120": {"at": "0505", "reduced": True}},
                  turn=1, phase="draw")
    f = feats(game, s, 0)
    # German: panther 1 + iv2 0.6 + the 9 others in reserve = 10.6 of 11
    assert f["german_strength"] == pytest.approx(10.6 / 11)
    # US: 1-120 reduced 0.6 + cca in reserve 1 (the rest eliminated)
    assert f["us_strength"] == pytest.approx(-1.6 / 11)


def test_mortain_exit_shortfall_and_schedule():
    """E Who Wins / R Game Length: five exits by the end of turn 6."""
    game, s = mor({"panther": "0104", "df1": "exited"}, exits=1, turn=5, phase="draw")
    f = feats(game, s, 0)
    # in play: panther 1 + 9 in reserve = 10 >= 4 still needed: no shortfall
    assert f["exit_shortfall"] == 0.0
    assert f["exits_needed_per_turn"] == pytest.approx(-(4 / 2) / 5)
    assert f["turns_left"] == pytest.approx(2 / 6)
