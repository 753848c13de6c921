"""Undaunted: the evaluation as features (RULES.md, *Evaluation*).

evaluate() = tanh(W . f / 2) over the features of `_eval.pxi`, W from
data/eval.toml; the first feature, "classic", is the first release's
evaluation, so that weights {classic = 1} play as that release did. Each
feature gets a hand-built position whose docstring quotes the rulebook words
(shared/seeds/undaunted-normandy.txt) it reads.
"""
from __future__ import annotations

import copy
import math
import os
import pathlib
import random

import numpy as np
import pytest

import ardsearch
from ardsearch._toml import read_toml
from ardsearch.games import undaunted as U
from ardsearch.random_walk import random_walk

GAME = ardsearch.load_game("undaunted")
NAMES = GAME.feature_names
EVAL_TOML = os.path.join(os.path.dirname(U.__file__), "data", "eval.toml")
DATA = pathlib.Path(__file__).resolve().parent / "data"


def idx(name):
    return NAMES.index(name)


@pytest.fixture
def classic_only():
    """The game's weight table is process-wide: set {classic = 1} for one test."""
    saved = GAME.weights
    w = np.zeros(len(NAMES))
    w[idx("classic")] = 1.0
    GAME.weights = w
    yield
    GAME.weights = saved


def position(us=None, de=None, to_move=0, initiative=0, phase="turn", turn_index=None, scenario=1, **top):
    """A scenario in the middle of a turn, with army fields replaced by us/de
    (empty card zones unless given)."""
    d = copy.deepcopy(U.load_scenario(U.scenario_path(scenario)))
    d.update(phase=phase, round=1, to_move=to_move, initiative=initiative,
             turn_index=(0 if to_move == initiative else 1) if turn_index is None else turn_index)
    d.update(top)
    for a, mods in ((0, us), (1, de)):
        army = d["armies"][a]
        army.update(deck={}, hand={}, discard={}, play={})
        army.update(mods or {})
    game = GAME if scenario == 1 else ardsearch.load_game("undaunted", scenario=scenario)
    return game.state_from_dict(d)


def walked(scenario, seed, scenario_file=""):
    """The position a seeded random walk reaches (as the pinned values were made)."""
    game = ardsearch.load_game("undaunted", scenario=scenario, scenario_file=scenario_file)
    st = game.new_initial_state(seed)
    rng = random.Random(seed)
    return random_walk(st, rng.randrange(1, 400), rng)


def random_positions(n=60):
    out = []
    for k in range(n):
        st = walked(1 + k % 3, 1000 + k)
        if not st.is_terminal():
            out.append(st)
    return out


def st_child(st, action):
    child = st.clone()
    child.apply_action(action)
    return child


def tok(tile, suppressed=False):
    return {"tile": tile, "suppressed": suppressed}


# ---------------------------------------------------------------- the weights file and the model
def test_weights_file_names_every_feature_once_and_matches_the_engine():
    """data/eval.toml: `[weights]` name = value for every feature, finite; the
    engine's own table (used until the shared loader fills it) is the same."""
    data = read_toml(EVAL_TOML)
    w = data["weights"]
    assert sorted(w) == sorted(NAMES)
    assert all(isinstance(v, (int, float)) and math.isfinite(v) for v in w.values())
    assert GAME.weights.tolist() == [pytest.approx(float(w[n]), abs=1e-12) for n in NAMES]
    assert NAMES[0] == "classic"


@pytest.mark.parametrize("weights", ["file", "spread"])
def test_evaluate_is_the_logistic_model_of_the_features(weights):
    """(evaluate + 1) / 2 is sigmoid(W . f): evaluate = tanh(W . f / 2) on every
    state not over, with the committed weights (classic alone: a shortcut
    computes classic only) and with weight on every feature."""
    saved = GAME.weights
    if weights == "spread":
        GAME.weights = np.linspace(0.5, -0.3, len(NAMES))
    try:
        w = GAME.weights
        for st in random_positions():
            for p in (0, 1):
                assert st.evaluate(p) == pytest.approx(math.tanh(0.5 * float(w @ st.features(p))), abs=1e-12)
    finally:
        GAME.weights = saved


# Values of the first release's evaluate() (before the features), from the
# same random walks: (scenario, seed, evaluate(0), evaluate(1)).
FIRST_RELEASE = [
    (1, 0, -0.32885906040268453, 0.32885906040268453),
    (1, 17, -0.1902834008097166, 0.1902834008097166),
    (1, 34, -0.2771084337349397, 0.2771084337349397),
    (2, 11, 0.17808219178082194, -0.17808219178082194),
    (2, 28, 0.03381642512077301, -0.03381642512077301),
    (3, 5, -0.7787610619469028, 0.3346007604562738),
    (3, 22, -0.7282608695652174, 0.2768595041322314),
    (3, 39, -0.75669099756691, 0.3076162215628091),
]


@pytest.mark.parametrize("scenario,seed,v0,v1", FIRST_RELEASE)
def test_classic_weight_alone_reproduces_the_first_release(classic_only, scenario, seed, v0, v1):
    """The convention (issue 15): weights {classic = 1, others 0} reproduce the
    old evaluation exactly, so the frozen preset plays as it did."""
    # scenarios 2 and 3's US decks have had one more Fog of War since (issue
    # 15 balance): their walks are replayed on the data the values were made on
    old = str(DATA / f"undaunted_scenario{scenario}_first_release.toml") if scenario in (2, 3) else ""
    st = walked(scenario, seed, old)
    assert st.evaluate(0) == pytest.approx(v0, abs=1e-12)
    assert st.evaluate(1) == pytest.approx(v1, abs=1e-12)


def test_features_are_mine_minus_yours():
    """Every feature but classic and classic_roll (the first release's
    evaluation scales by the player's own goal) is player p's quantity less
    the opponent's (the initiative marker: +1 / -1), so it changes sign with
    the side."""
    both = [i for i, n in enumerate(NAMES) if n not in ("classic", "classic_roll")]
    for st in random_positions():
        f0, f1 = st.features(0), st.features(1)
        np.testing.assert_allclose(f0[both], -f1[both], atol=1e-12)


# ---------------------------------------------------------------- only what the viewer may know
def _two_worlds():
    """Two full states at a US decision that differ only in the German hand
    (the hand and deck swap cards)."""
    base = dict(hand={"rifA": 1, "scoutA": 1, "psgt": 1}, deck={"fog": 2, "rifB": 1})
    a = position(us=base, de=dict(hand={"rifA": 1, "scoutA": 1, "fog": 1},
                                  deck={"psgt": 1, "sl_A": 1, "fog": 1}))
    b = position(us=base, de=dict(hand={"psgt": 1, "fog": 2},
                                  deck={"rifA": 1, "scoutA": 1, "sl_A": 1}))
    return a, b


def test_view_features_never_change_when_only_hidden_cards_change():
    """Hands are private (rulebook, Determine Initiative: "Each player secretly
    chooses a card from their hand"; draws are hidden): on the US view the two
    worlds are one position, and so is every feature; on the German view they
    differ (the Germans see their own hand: two cards to play in one, one in
    the other)."""
    a, b = _two_worlds()
    assert a.raw() != b.raw()
    np.testing.assert_array_equal(a.view(0).features(0), b.view(0).features(0))
    np.testing.assert_array_equal(a.view(0).features(1), b.view(0).features(1))
    assert not np.array_equal(a.view(1).features(1), b.view(1).features(1))


def test_view_features_are_the_same_for_every_determinization():
    """Any full state that fits the view gives the view the same features."""
    for st in random_positions(30):
        for p in (0, 1):
            f = st.view(p).features(p)
            for seed in range(3):
                world = st.resample_from_infostate(p, seed)
                assert world.viewer() == -1
                np.testing.assert_array_equal(f, world.view(p).features(p))


def test_view_counts_the_unknown_hand_by_its_share_of_the_pool():
    """On the US view the German hand of 3 unknown cards drawn from a pool of
    6 (2 Fog of War) holds 3 * 4/6 = 2 cards it can play, in expectation:
    "You cannot play Fog of War cards to perform actions during your turn."."""
    a, _ = _two_worlds()
    f = a.view(0).features(0)
    full = a.features(0)
    # US hand: rifA, scoutA, psgt (3 playable); German full hand: rifA, scoutA, fog (2)
    assert full[idx("hand_cards")] == pytest.approx(3 - 2)
    assert f[idx("hand_cards")] == pytest.approx(3 - 3 * 4 / 6)


# ---------------------------------------------------------------- one position per feature
def test_control_ready_reads_the_control_action():
    """"Control: Take control of the tile where the unit's Combat token is ...
    Cannot control a tile with an enemy Combat token." A ready US Rifleman on
    13B (2 points, not US-controlled) counts its 2 points; with a German token
    there, or suppressed ("A card of a suppressed unit can only flip its token
    ready", RULES.md), it counts none."""
    def feat(us_tokens, de_tokens):
        return position(us=dict(tokens=us_tokens), de=dict(tokens=de_tokens)).features(0)[idx("control_ready")]
    de_far = {"rifA": tok("5B")}
    assert feat({"rifA": tok("13B")}, de_far) == 2
    assert feat({"rifA": tok("13B"), "rifB": tok("13B")}, de_far) == 2      # one tile counts once
    assert feat({"rifA": tok("13B")}, {"rifA": tok("5B"), "scoutA": tok("13B")}) == 0
    assert feat({"rifA": tok("13B", suppressed=True)}, de_far) == 0
    assert feat({"rifA": tok("17B")}, de_far) == 0                          # no objective there


def test_control_hand_needs_the_card_in_hand_and_a_turn_to_come():
    """"you cannot keep cards in your hand for future rounds!": the Rifleman's
    card in hand counts the objective it can Control only while the army's turn
    is on or still to come this round."""
    us = dict(tokens={"rifA": tok("13B")}, hand={"rifA": 1})
    de = dict(tokens={"rifA": tok("5B")})
    on = position(us=us, de=de, to_move=0, initiative=0)
    assert on.features(0)[idx("control_hand")] == 2
    # the US played first (Initiative) and the Germans are on: the US hand is spent
    after = position(us=us, de=de, to_move=1, initiative=0, turn_index=1)
    assert after.features(0)[idx("control_hand")] == 0
    # the card elsewhere: nothing in hand
    assert position(us=dict(tokens={"rifA": tok("13B")}, deck={"rifA": 1}), de=de).features(0)[idx("control_hand")] == 0


def test_threat_is_the_best_hit_chance_of_each_attacker():
    """"Add the basic defense of the Combat token, the cover bonus of the tile,
    and the distance bonus (number of tiles between attacker and defender)
    ... If any die has a result equal to or greater than the total defense,
    the attack is successful. A "0" result is always successful." US Rifleman
    (Attack 1) on 17B against a German Rifleman (defence 4) on 13B (cover 1,
    1 tile away): defence 6, 5 faces of 10 hit."""
    st = position(us=dict(tokens={"rifA": tok("17B")}), de=dict(tokens={"rifA": tok("13B")}))
    f = st.features(0)
    us_threat = 0.5
    # the German Rifleman against the US one on 17B: 4 + cover 3 + 1 = 8, 3 faces
    de_threat = 0.3
    assert f[idx("threat")] == pytest.approx(us_threat - de_threat)
    # a suppressed attacker threatens nothing (it can only rally)
    st = position(us=dict(tokens={"rifA": tok("17B", suppressed=True)}), de=dict(tokens={"rifA": tok("13B")}))
    assert st.features(0)[idx("threat")] == pytest.approx(-de_threat)


def test_fragile_counts_tokens_with_no_card_left():
    """"They must remove one card of the attacked unit from the game ... 4. If
    there are no more cards of the unit, the Combat token is removed from the
    board." A token whose unit has no card in hand, discard pile or deck is
    one hit from leaving."""
    de = dict(tokens={"rifA": tok("5B")}, deck={"rifA": 1})
    assert position(us=dict(tokens={"rifA": tok("17B")}), de=de).features(0)[idx("fragile")] == 1
    assert position(us=dict(tokens={"rifA": tok("17B")}, discard={"rifA": 1}), de=de).features(0)[idx("fragile")] == 0


def test_progress_of_an_immobilize_goal_is_the_enemy_riflemen_gone():
    """"Immobilize the Enemy: You win if your opponent has no more Rifleman
    Combat tokens on the board." Scenario 3 (US immobilize, Germans capture 6):
    the US progress is the share of German Rifleman cards removed from the
    game; the German progress its points over 6."""
    de = dict(tokens={"rifA": tok("16A"), "rifB": tok("11B")}, deck={"rifA": 1, "rifB": 1},
              supply={"rifA": 1, "rifB": 1}, removed={"rifA": 2})
    st = position(us=dict(tokens={"rifA": tok("13A")}, deck={"rifA": 1}), de=de, scenario=3)
    german_points = 2 + 2 + 0                                   # 16A, 11B and 18A held
    assert st.features(0)[idx("progress")] == pytest.approx(2 / 6 - german_points / 6)


def test_supply_and_fog_read_the_deck_building_zones():
    """"Bolster XA: Take up to X cards from your supply and add them to your
    discard pile"; "scouting tiles adds Fog of War cards to your discard pile".
    supply counts the cards a Bolster can still bring in (not Fog of War), fog
    the Fog of War cards in the cycle."""
    st = position(us=dict(supply={"rifA": 2, "fog": 5}, discard={"fog": 2}, hand={"fog": 1}),
                  de=dict(supply={"rifA": 1, "fog": 8}, deck={"fog": 1}))
    f = st.features(0)
    assert f[idx("supply")] == 2 - 1
    assert f[idx("fog")] == 3 - 1


def test_card_counts_read_the_cycle_not_the_supply_or_removed():
    """"They must remove one card of the attacked unit from the game, following
    this order: 1. From hand. 2. From discard pile. 3. From deck": a unit's
    cards in hand, discard pile, deck (and play area) are what casualties can
    take, so rifle_cards and combat_cards count those (supply and removed cards
    not); Squad Leaders, Guide and Sergeant are no combat unit's cards."""
    st = position(us=dict(hand={"rifA": 1, "scoutA": 1}, discard={"rifB": 1}, deck={"scoutB": 2, "psgt": 1},
                          play={"rifA": 1}, supply={"rifA": 4}, removed={"scoutA": 1}),
                  de=dict(deck={"rifA": 1, "sl_A": 1}))
    f = st.features(0)
    assert f[idx("rifle_cards")] == 3 - 1
    assert f[idx("combat_cards")] == 3 - 0


def test_a_pending_roll_counts_its_outcomes_by_their_chances():
    """"Roll attack dice ... If the attack is successful, your opponent suffers
    casualties! They must remove one card of the attacked unit from the game":
    while the roll is pending, every feature but classic is the chance-weighted
    mean over the roll's outcomes (miss, and the hit with its casualty zone);
    classic and goal read the state as they stand (goal is classic wherever
    both goals are capture, as here)."""
    st = position(us=dict(tokens={"rifA": tok("13B")}, play={"rifA": 1}, hand={"fog": 1}),
                  de=dict(tokens={"rifA": tok("12B")}, discard={"rifA": 1}, deck={"fog": 2}),
                  phase="roll", roll={"army": 1, "unit": "rifA", "kind": "casualty", "dice": 1, "defence": 5})
    assert st.is_chance_node()
    outcomes = st.chance_outcomes()
    assert [st.action_to_string(a) for a, _ in outcomes] == ["miss", "hit:discard"]
    f = st.features(0)
    expect = np.zeros(len(NAMES))
    for a, p in outcomes:
        child = st.clone()
        child.apply_action(a)
        expect += p * child.features(0)
    both = [i for i, n in enumerate(NAMES) if n not in ("classic", "classic_roll", "goal")]
    np.testing.assert_allclose(f[both], expect[both], atol=1e-12)
    assert f[idx("goal")] == f[idx("classic")]
    # classic_roll: the first release's value averaged over the outcomes
    v = sum(p * math.tanh(0.5 * st_child(st, a).features(0)[idx("classic")]) for a, p in outcomes)
    assert f[idx("classic_roll")] == pytest.approx(2 * math.atanh(v), abs=1e-9)
    assert f[idx("classic")] != pytest.approx(f[idx("classic_roll")])
    # the hit takes the German Rifleman's last card outside the token: rifle_cards
    # moves by its chance, 1 - (1 - 6/10) = 0.6 with one die against defence 5
    miss = st.clone()
    miss.apply_action(outcomes[0][0])
    assert f[idx("rifle_cards")] - miss.features(0)[idx("rifle_cards")] == pytest.approx(0.6)


def test_points_markers_and_tokens_read_the_board():
    """"The sum of points from all tiles you control"; "place a Control marker
    with the "scouted" side up" (a marker either side up lets the army's units
    move there: "The destination tile must be scouted or controlled by your
    army"); "You win if your opponent has no more Rifleman Combat tokens on
    the board"; Suppress "flip[s] the attacked Combat token to the
    "suppressed" side". Scenario 1: the US holds 17B (0 points) and has 2B
    scouted, the Germans hold 5B (3 points) and have 8A scouted."""
    st = position(us=dict(tokens={"rifA": tok("17B"), "rifB": tok("2B"), "scoutA": tok("17B", suppressed=True)}),
                  de=dict(tokens={"rifA": tok("5B")}))
    f = st.features(0)
    assert f[idx("points")] == 0 - 3
    assert f[idx("markers")] == 2 - 2
    assert f[idx("rifle_tokens")] == 2 - 1
    assert f[idx("other_tokens")] == 1 - 0
    assert f[idx("suppressed")] == 1 - 0


def test_initiative_marker_and_initiative_cards():
    """"The player who played the highest initiative card ... wins the
    Initiative marker ... In case of a tie, the player who already possessed
    the Initiative marker keeps it." initiative: +1 for the holder, -1 for the
    other; initiative_cards: the share of an army's cycle with initiative 7 or
    more (Squad Leaders 7, Platoon Guide 8, Platoon Sergeant 9)."""
    st = position(us=dict(deck={"psgt": 1, "fog": 3}), de=dict(deck={"fog": 2}), initiative=1, to_move=1)
    f = st.features(0)
    assert f[idx("initiative")] == -1
    assert st.features(1)[idx("initiative")] == 1
    assert f[idx("initiative_cards")] == pytest.approx(1 / 4 - 0)


def test_hand_cards_count_only_a_hand_still_to_be_played():
    """"Your turn ends when you have no more cards in your hand that you can
    or want to play. All remaining cards in your hand and cards in your play
    area go to your discard pile." Before the turns (the bids) both hands
    count; once the US (Initiative) has ended its turn, its hand is spent."""
    us = dict(hand={"rifA": 1, "fog": 1})
    de = dict(hand={"rifA": 1, "scoutA": 1, "sl_A": 1})
    st = position(us=us, de=de, phase="bid1")
    assert st.features(0)[idx("hand_cards")] == 1 - 3
    st = position(us=us, de=de, to_move=1, initiative=0, turn_index=1)
    assert st.features(0)[idx("hand_cards")] == 0 - 3


def test_threat_reads_the_hill_rule():
    """"Hill tiles (3/1) have a bonus of 1 if attacked by another hill or by
    Explode, and 3 otherwise." Scenario 2: the US Machine Gunner (Attack 2) on
    the hill 2A against a German Rifleman (defence 4) on the hill 9A, one tile
    away: 4 + 1 + 1 = 6, 5 faces a die, 1 - 0.5^2 = 0.75; from 1A (cover 0,
    not a hill) 4 + 3 + 1 = 8, 1 - 0.7^2 = 0.51. The Rifleman (Attack 1) hits
    back at 4 + 1 + 1 = 6 (0.5) on the hill, 4 + 0 + 1 = 5 (0.6) on 1A."""
    de = dict(tokens={"rifA": tok("9A")})
    on_hill = position(us=dict(tokens={"mg": tok("2A")}), de=de, scenario=2).features(0)[idx("threat")]
    off_hill = position(us=dict(tokens={"mg": tok("1A")}), de=de, scenario=2).features(0)[idx("threat")]
    assert on_hill == pytest.approx(0.75 - 0.5)
    assert off_hill == pytest.approx(0.51 - 0.6)


def test_reach_shares_an_objective_by_the_nearest_riflemans_distance():
    """Design choice (the first release's reach): an objective the army does
    not hold counts 0.4 of its points with a Rifleman on it, 0.2 at one tile,
    0.08 at two (a suppressed Rifleman a tile further), because "Rifleman cards
    are the only ones capable of using the Control action" and Move 1 brings
    a Rifleman one tile nearer per card. Scenario 1, US Rifleman on 12B: 13B
    (2 points) and 7A (1) one tile away, 5B (3, German) one tile, 2B (1) and
    16B (1) two tiles, 6A (2) three tiles."""
    de = dict(tokens={"rifA": tok("11B")})
    st = position(us=dict(tokens={"rifA": tok("12B")}), de=de)
    f = st.features(0)[idx("reach")]
    us = 0.2 * (2 + 1 + 3) + 0.08 * (1 + 1)
    # the German Rifleman on 11B: 5B is held by the Germans (not counted),
    # 13B is two tiles away (via 8A), 7A three: 0.08 * 2
    german = 0.08 * 2
    assert f == pytest.approx(us - german)
