"""Stosstruppen: the evaluation as features (RULES.md, *Evaluation*; a design
choice, not a rule) on hand-built positions: what each feature sees, quoted
against the rulebook passage it reads."""
from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest

import ardsearch
from ardsearch import _toml
from ardsearch.games.stosstruppen import SPEC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_stosstruppen_rules import build, fill  # noqa: E402
import random_play  # noqa: E402

GERMAN, BRITISH = 0, 1
EVAL_TOML = os.path.join(os.path.dirname(ardsearch.__file__), "games", "stosstruppen", "data", "eval.toml")


def feature(s, name, player=GERMAN):
    return float(s.features(player)[s.game.feature_names.index(name)])


@pytest.fixture
def weights():
    """Restores the engine's weight table (process-wide) after a test changes it."""
    g = ardsearch.Game(SPEC)
    saved = g.weights
    yield g
    g.weights = saved


def after(s, move):
    c = s.clone()
    c.apply(move)
    return c


# ----------------------------------------------------------------- the weights file and the convention
def test_eval_toml_names_every_feature_once_and_matches_the_engine():
    g = ardsearch.Game(SPEC)
    w = _toml.read_toml(EVAL_TOML)["weights"]
    assert sorted(w) == sorted(g.feature_names)
    assert all(math.isfinite(v) for v in w.values())
    assert np.allclose(g.weights, [w[n] for n in g.feature_names])


def test_classic_is_the_first_feature_and_alone_gives_the_old_evaluation(weights):
    """The issue's starting evaluation stays available as feature `classic`
    (2 atanh of the old value), so weights {classic: 1} play as before."""
    g = weights
    assert g.feature_names[0] == "classic"
    w = np.zeros(len(g.feature_names))
    w[0] = 1.0
    g.weights = w
    # the old evaluate() of the initial positions, from the engine before issue 15
    old = {"kaiserschlacht": -0.2217182292175695, "villers": -0.23264328611870735}
    for scenario, v in old.items():
        s = ardsearch.Game(SPEC, {"scenario": scenario}).new_initial_state()
        if scenario == "kaiserschlacht":
            # the Germans started a row further forward until session 44 (RULES.md, Scenarios)
            d = s.to_dict()
            for u in d["units"]:
                if u["side"] == "german":
                    u["square"] = u["square"][0] + str(int(u["square"][1:]) + 1)
            s = s.game.state_from_dict(d)
        assert s.evaluate(GERMAN) == pytest.approx(v, abs=1e-12)
        assert s.evaluate(BRITISH) == pytest.approx(-v, abs=1e-12)


def test_evaluate_is_tanh_of_the_weighted_features_and_antisymmetric():
    """evaluate = tanh(w . f / 2); features are mine minus yours, so the two
    sides' evaluations are opposite (positions from seeded random play)."""
    for scenario in ("kaiserschlacht", "villers"):
        g = ardsearch.Game(SPEC, {"scenario": scenario})
        for s in seeded_positions(scenario, 5, every=20):
            f0, f1 = s.features(GERMAN), s.features(BRITISH)
            assert np.allclose(f0, -f1)
            assert s.evaluate(GERMAN) == pytest.approx(math.tanh(g.weights @ f0 / 2), abs=1e-12)
            assert s.evaluate(GERMAN) == pytest.approx(-s.evaluate(BRITISH), abs=1e-12)

def seeded_positions(scenario, seed, every=25, plies=400):
    """Non-terminal positions of one seeded random game, every `every` plies."""
    start = ardsearch.Game(SPEC, {"scenario": scenario}).new_initial_state(seed=seed)
    return random_play.seeded_positions(start, seed, every, plies)


def test_evaluate_skips_only_zero_weight_features(weights):
    """Design (issue 15: evaluate() was ten times slower once it had features):
    evaluate() computes only the features with a non-zero weight, features()
    all of them. With one feature's weight alone, evaluate() must still be
    tanh(w f / 2) of that feature's full value, for every feature: nothing a
    weight reads is skipped, and features() is unchanged by the weights."""
    g = weights
    names = g.feature_names
    positions = seeded_positions("kaiserschlacht", 3) + seeded_positions("villers", 4)
    full = [(s.features(GERMAN), s.features(BRITISH)) for s in positions]
    assert any(np.count_nonzero(f0) > 10 for f0, _ in full)   # the positions exercise the features
    for k, name in enumerate(names):
        w = np.zeros(len(names))
        w[k] = 0.7
        g.weights = w
        for s, (f0, f1) in zip(positions, full):
            assert s.evaluate(GERMAN) == pytest.approx(math.tanh(0.35 * f0[k]), abs=1e-12), name
            assert s.evaluate(BRITISH) == pytest.approx(math.tanh(0.35 * f1[k]), abs=1e-12), name
            assert np.array_equal(s.features(GERMAN), f0), name


# ----------------------------------------------------------------- markers on the board
GAS_STOCK = [{"slot": 0, "kind": "barrage-stock"}, {"slot": 1, "kind": "barrage-stock"}]


def test_gas_on_own_hq_scores_worse_than_done():
    """Optional C: "When the Gas Barrage strikes, all units within 20 cm of the
    Marker (regardless if enemy or friends) are attacked, using 1d10." Gas
    dropped on one's own HQ (h2) with the battalion around it must score
    below ending the phase (the issue: it scored the same, so greedy did it)."""
    s = build(fill({0: "h2", 5: "g3", 7: "h3", 10: "g2", 11: "i2", 16: "h11", 18: "h8"}, german=range(1, 5)),
              phase="fire", card="Gf", markers=GAS_STOCK)
    assert "gas h2" in {s.action_to_string(a) for a in s.legal_actions()}
    own_hq = after(s, "gas h2").evaluate(GERMAN)
    done = after(s, "done").evaluate(GERMAN)
    assert own_hq < done


def test_a_barrage_on_the_enemy_scores_better_than_one_on_own_units():
    """Barrages B: "all units within 10 cm of the Marker (regardless if enemy
    or friends) are attacked, using 1d20": on the British trench line it
    helps the Germans, on their own start line it hurts them."""
    s = build(fill({0: "h2", 7: "h3", 10: "g2", 16: "h11", 17: "e8", 18: "h8", 20: "g8"}, german=range(1, 5)),
              phase="fire", card="Gf", markers=GAS_STOCK)
    on_enemy = after(s, "barrage g8")
    on_own = after(s, "barrage h3")
    assert feature(on_enemy, "marker_hits") > 0 > feature(on_own, "marker_hits")
    assert on_enemy.evaluate(GERMAN) > after(s, "done").evaluate(GERMAN) > on_own.evaluate(GERMAN)


def test_marker_hits_reach_the_barrage_radius_and_gas_twice_as_far():
    """Barrages B: a barrage attacks units "within 10 cm" (2 squares);
    Optional C: gas "within 20 cm" (4 squares). A unit 3 squares away is hit
    by gas only."""
    base = dict(squares=fill({0: "a1", 16: "a12", 18: "h8"}, german=range(1, 5), british=(17, 19, 20)),
                phase="fire", card="Gf")
    for kind, far in (("barrage", 0.0), ("gas", None)):
        near = build(markers=[{"slot": 0, "kind": kind, "square": "h6"}], **base)
        away = build(markers=[{"slot": 0, "kind": kind, "square": "h5"}], **base)
        assert feature(near, "marker_hits") > 0
        if far == 0.0:
            assert feature(away, "marker_hits") == 0.0
        else:
            assert feature(away, "marker_hits") > 0


def test_markers_hit_whoever_stands_near_whoever_placed_them():
    """Barrages B, "regardless if enemy or friends": a British marker on the
    British HQ counts for the Germans just as a German one would."""
    sq = fill({0: "a1", 16: "h11"}, german=range(1, 5), british=(17, 18, 19))
    german_marker = build(sq, phase="fire", card="Gf", markers=[{"slot": 0, "kind": "barrage", "square": "h11"}])
    british_marker = build(sq, phase="fire", card="Gf", markers=[{"slot": 4, "kind": "barrage", "square": "h11"}])
    assert feature(german_marker, "marker_hits") == feature(british_marker, "marker_hits") > 0
    # Fire D: 1d20 against the protection of h11's buildings (6): 14 in 20
    assert feature(german_marker, "marker_hq") == pytest.approx(0.7)


def test_markers_in_stock_are_counted():
    s = build(fill({0: "h2", 16: "h11"}, british=(17, 18)), phase="fire", card="Gf", markers=GAS_STOCK)
    assert feature(s, "stock") == 2 - 1   # two German barrage markers against one British
    assert feature(after(s, "barrage h8"), "stock") == 0


# ----------------------------------------------------------------- threats
def test_fire_threat_needs_line_of_sight():
    """Fire A: a unit fires at an enemy in line of sight. A British rifle on
    f12 sees a German rifle on f10; on g12 it does not see one on g10 through
    the buildings of g11 (woods and buildings block in between). The German
    is suppressed (Morale A: it may not fire back), so only its exposure
    counts, and so are the other British units, so only the rifle's fire does."""
    quiet = {u: {"status": "suppressed"} for u in (1, 16, 18, 19)}
    seen = build(fill({0: "p2", 1: "f10", 16: "a12", 17: "f12"}, german=(), british=(18, 19)), card="Gm",
                 units=quiet)
    hidden = build(fill({0: "p2", 1: "g10", 16: "a12", 17: "g12"}, german=(), british=(18, 19)), card="Gm",
                   units=quiet)
    assert feature(seen, "fire_threat") < feature(hidden, "fire_threat")


def test_fire_threat_needs_a_spotted_target_in_woods():
    """Fire B: a unit in woods may be targeted only once spotted. A German
    rifle in the woods of d10, a British rifle on g10 (e10 and f10 open
    between), three squares off: an enemy within two would spot it."""
    sq = fill({0: "p2", 1: "d10", 16: "m12", 17: "g10"}, german=(), british=(18, 19))
    hidden = build(sq, card="Gm")
    spotted = build(sq, card="Gm", units={1: {"spotted": True}})
    assert feature(spotted, "fire_threat") < feature(hidden, "fire_threat")


def test_fire_threat_counts_less_once_the_enemy_fire_card_is_played():
    """Sequence: each card is played once a turn, so once the British Fire
    card is out the Germans are not shot at again before next turn."""
    sq = fill({0: "p2", 1: "f3", 16: "a12", 17: "f5"}, german=(), british=(18, 19))
    quiet = {1: {"status": "suppressed"}}
    before = build(sq, card="Gm", units=quiet)
    played = build(sq, card="Gm", drawn=("Bf",), units=quiet)
    assert feature(before, "fire_threat") < feature(played, "fire_threat") < 0


def test_assault_threat_from_any_neighbouring_square():
    """Contract: "foot units in contact (adjacent square) with an enemy may
    assault", "Distance is Chebyshev (diagonal = 1)": a British rifle next to
    a German one, orthogonally or diagonally, threatens it; two squares away
    it does not."""
    edge = build(fill({0: "p2", 1: "d5", 16: "a12", 17: "d6"}, german=(), british=(18, 19)), card="Gm")
    corner = build(fill({0: "p2", 1: "d5", 16: "a12", 17: "e6"}, german=(), british=(18, 19)), card="Gm")
    apart = build(fill({0: "p2", 1: "d5", 16: "a12", 17: "f7"}, german=(), british=(18, 19)), card="Gm")
    assert feature(apart, "assault_threat") == 0.0
    assert feature(edge, "assault_threat") != 0.0   # each may assault the other
    assert feature(corner, "assault_threat") == pytest.approx(feature(edge, "assault_threat"))
    pinned = build(fill({0: "p2", 1: "d5", 16: "a12", 17: "e6"}, german=(), british=(18, 19)), card="Gm",
                   units={1: {"status": "pinned"}})
    assert feature(pinned, "assault_threat") < 0   # a pinned unit may not assault (Morale A)


# ----------------------------------------------------------------- material, morale, objectives
def test_material_and_status_are_mine_minus_yours():
    """Fire E: a hit pins; Morale C: an army that lost half its units is
    demoralised."""
    full = build(fill({0: "h2", 16: "h11"}, german=range(1, 12), british=range(17, 24)), card="Gm")
    assert feature(full, "rifles") == 0.0 and feature(full, "hq") == 0.0
    assert feature(full, "demoralised") == 0.0
    pinned = build(fill({0: "h2", 16: "h11"}, german=range(1, 12), british=range(17, 24)), card="Gm",
                   units={17: {"status": "pinned"}})
    assert feature(pinned, "pinned") == pytest.approx(1 / 8)
    few = build(fill({0: "h2", 16: "h11"}, german=range(1, 12), british=(17,)), card="Gm")
    assert feature(few, "demoralised") == 1.0
    assert feature(few, "rifles") > 0


def test_objectives_count_for_the_attacker():
    """Scenario 1: the Germans need 3 of the 5 trench objectives."""
    s = build(fill({0: "h2", 1: "d8", 2: "f8", 16: "h11"}, german=range(3, 8), british=(17, 18, 19, 20)), card="Gm")
    assert feature(s, "objectives", GERMAN) == pytest.approx(2 / 3)
    assert feature(s, "objectives", BRITISH) == pytest.approx(-2 / 3)


def test_margin_is_the_losses_left_before_demoralisation():
    """Morale C: "an army that has lost at least half of its original units
    (fractions rounded up) is Demoralised": the British (8 units) can lose 3
    and stay steady; with 2 lost they have 2 to go (of at most 4 counted)."""
    german = range(1, 12)
    whole = build(fill({0: "h2", 16: "h11"}, german=german, british=range(17, 24)), card="Gm")
    assert feature(whole, "margin") == 0.0            # both armies 4 or more losses away
    two_lost = build(fill({0: "h2", 16: "h11"}, german=german, british=range(17, 22)), card="Gm")
    assert feature(two_lost, "margin") == pytest.approx(1.0 - 2 / 4)
    assert feature(two_lost, "margin", BRITISH) == pytest.approx(-(1.0 - 2 / 4))


def test_morale_race_needs_an_objective_and_a_shaken_defender():
    """Scenario victory: "the attacker wins if the defender is demoralised and
    the attacker holds at least 1 objective": with 3 British units lost (1 to
    go) and a German on d8, the race is three quarters run."""
    german = range(2, 12)
    held = build(fill({0: "h2", 1: "d8", 16: "h11"}, german=german, british=range(17, 21)), card="Gm")
    assert feature(held, "morale_race") == pytest.approx(0.75)
    assert feature(held, "morale_race", BRITISH) == pytest.approx(-0.75)
    steady = build(fill({0: "h2", 1: "d8", 16: "h11"}, german=german, british=range(17, 24)), card="Gm")
    assert feature(steady, "morale_race") == 0.0


def test_guard_counts_the_objectives_a_defender_stands_on():
    """Movement: "One unit (stand) per square"; scenario victory: the
    attacker wins by "occupying at least 3 of the 5 trench squares marked as
    objectives": a British unit on d8 and one on h8 keep the Germans off 2 of
    the 5; a British unit beside an objective (g9) guards nothing, and a
    German on an objective counts for `objectives`, not `guard`."""
    s = build(fill({0: "h2", 1: "f8", 16: "h11", 17: "d8", 18: "h8", 19: "g9"},
                   german=range(2, 8), british=(20, 21, 22)), card="Gm")
    assert feature(s, "guard", BRITISH) == pytest.approx(2 / 5)
    assert feature(s, "guard", GERMAN) == pytest.approx(-2 / 5)
    none = build(fill({0: "h2", 16: "h11", 19: "g9"}, german=range(1, 8), british=(17, 18, 20)), card="Gm")
    assert feature(none, "guard", BRITISH) == 0.0


# ----------------------------------------------------------------- chance nodes
def test_features_at_a_chance_node_are_the_expectation_over_its_outcomes():
    """Fire D: a shot hits when the die and modifiers beat the protection; the
    evaluation at the pending roll averages the positions after `hit` and
    `miss`, weighted by their chances, so greedy sees the odds of its shots."""
    s = build(fill({0: "h2", 1: "f3", 16: "a12", 17: "f5"}, german=range(2, 6), british=(18, 19)),
              phase="fire", card="Gf")
    s.apply("f3xf5")
    assert s.is_chance_node()
    expected = np.zeros(len(s.game.feature_names))
    classic = 0.0
    for a, p in s.chance_outcomes():
        child = s.clone()
        child.apply_action(a)
        f = child.features(GERMAN)
        classic += p * math.tanh(f[0] / 2)      # the classic value itself is averaged
        expected += p * f
    got = s.features(GERMAN)
    assert np.allclose(got[1:], expected[1:])
    assert math.tanh(got[0] / 2) == pytest.approx(classic, abs=1e-12)


def test_result_is_the_chance_that_the_roll_ends_the_game():
    """Fire E: "If a pinned or suppressed unit is hit by non-Artillery fire it
    simply stays pinned or suppressed, unless it is in the open, in which case
    it is eliminated"; an attacker with no units left loses at once (RULES.md).
    A British shot at the last German unit, pinned in the open, wins the game
    for the British with the chance of a hit."""
    s = build(fill({0: "f5", 16: "a12", 17: "f3"}, german=(), british=range(18, 22)), phase="fire",
              card="Bf", units={0: {"status": "pinned"}})
    s.apply("f3xf5")
    p_hit = dict((s.action_to_string(a), p) for a, p in s.chance_outcomes())["hit"]
    assert 0 < p_hit < 1
    assert feature(s, "result") == pytest.approx(-p_hit)
    assert feature(s, "result", BRITISH) == pytest.approx(p_hit)


def test_cas_hits_with_the_mean_of_its_two_aircraft():
    """CAS B: "1-3 = A Single-seat Fighter, attack with 1d8; 4-6 = A
    Two-Seater Light Bomber, attack with 1d12", against the protection of the
    road (4, Fire D) under the German HQ on h2 in Villers."""
    s = build(fill({0: "h2", 16: "h11"}, german=range(1, 4), british=(17, 18)), phase="fire", card="Gf",
              scenario="villers", markers=[{"slot": 4, "kind": "cas", "square": "h2"}])
    chance = 0.5 * 4 / 8 + 0.5 * 8 / 12
    assert feature(s, "marker_hq") == pytest.approx(-chance)


def test_barrages_attack_tanks_against_their_armour():
    """Tanks A: "Tanks may also be hit by Barrages"; the die must beat the
    Armour Value (units.toml: Mark IV 6, Whippet 5): a German barrage on a
    lone British tank penetrates a Mark IV on 14 of 20 and a Whippet on 15
    of 20, and the two tanks are worth the same."""
    def under_barrage(slot):
        s = build(fill({0: "h2", 16: "a12", slot: "e11"}, german=range(1, 4), british=(17, 18)), phase="fire",
                  card="Gf", scenario="villers", markers=[{"slot": 0, "kind": "barrage", "square": "e11"}])
        assert next(u for u in s.to_dict()["units"] if u["slot"] == slot)["square"] == "e11"
        return feature(s, "marker_hits")
    markiv, whippet = under_barrage(20), under_barrage(21)
    assert markiv > 0
    assert markiv / whippet == pytest.approx(14 / 15)


def test_hq_cover_counts_units_that_move_without_a_test():
    """Movement A: "Units that start their movement within 15cm of the players
    HQ unit, may always move. Other units must pass a Morale Test to move."
    (15 cm = 3 squares.) Two German rifles, one 3 squares from the HQ, one 4."""
    s = build({0: "h2", 1: "h5", 2: "h6", 16: "a12", 17: "a7"}, card="Gm")
    b = build({0: "h2", 1: "h5", 2: "h6", 16: "a12", 17: "a9"}, card="Gm")
    assert feature(s, "hq_cover") == pytest.approx(0.5 - 0.0)       # a7 is 5 squares from the British HQ
    assert feature(b, "hq_cover") == pytest.approx(0.5 - 1.0)       # a9 is 3 squares from a12


def test_morale_feature_reads_the_morale_level_and_demoralisation():
    """Morale A: a test passes on 2+ for Veteran (the Germans of scenario 1)
    and 3+ for Regular (the British), one worse when Demoralised (Morale C)."""
    s = build(fill({0: "h2", 16: "h11"}, german=range(1, 12), british=range(17, 24)), card="Gm")
    assert feature(s, "morale") == pytest.approx(5 / 6 - 4 / 6)
    shaken = build(fill({0: "h2", 16: "h11"}, german=range(1, 12), british=(17, 18)), card="Gm")
    assert feature(shaken, "morale") == pytest.approx(5 / 6 - 3 / 6)
