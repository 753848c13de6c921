"""Undaunted: what the cards in each zone can still do (RULES.md, Evaluation:
`hand_use`, `deck_use`, `discard_use`, `supply_use`).

A combat card is worth what its unit can do with it from where its token
stands (its spawn tile if the token is off the board): the best hit chance of
its Attack (a Mortar: Aim then Explode, at half), for a Rifleman the best
objective it could Control (points / 2 per step still needed: a Move onto a
tile with the army's marker, a tile without one, an enemy token to drive
off), for a Scout an objective without the army's marker that Scout 2 could
mark (a quarter of its points); halved while the token is suppressed. Hand-built
positions on scenario 1's board (tiles, covers and objectives in
scenarios/1.toml); each docstring quotes the rulebook digest
(shared/seeds/undaunted-normandy.txt) for the rule the number reflects.
"""
from __future__ import annotations

import pytest

from tests.test_undaunted_evaluation import idx, position, tok

# Scenario 1: a German Rifleman on 5B (cover 1) seen from 13B or 17B, two
# tiles away: defence 4 + 1 + 2 = 7, so faces 7, 8, 9 and 0 hit: 0.4.
RIFLE_HIT_AT_5B = 0.4
# A US Rifleman on 13B (objective 2, no marker needed: it stands there, no
# enemy token): Control takes its 2 points.
RIFLE_ON_13B = 2.0 + RIFLE_HIT_AT_5B

DE = dict(tokens={"rifA": tok("5B")}, supply={})


def feature(name, us, de=DE, **kw):
    return position(us=us, de=de, **kw).features(0)[idx(name)]


def test_hand_use_counts_the_cards_still_to_be_played_by_what_their_unit_can_do():
    """"Control: Take control of the tile where the unit's Combat token is";
    "Remember: you cannot keep cards in your hand for future rounds!" The US
    Rifleman A on objective 13B (2 points) can Control it and Attack the
    German Rifleman on 5B (0.4): its card in hand is worth 2.4 while the US
    turn is on; Fog of War adds nothing ("You cannot play Fog of War cards");
    once the US turn is over the hand is worth nothing."""
    us = dict(tokens={"rifA": tok("13B")}, hand={"rifA": 1, "fog": 1}, supply={})
    assert feature("hand_use", us) == pytest.approx(RIFLE_ON_13B)
    # the US played first (Initiative) and the Germans are on: the US hand is spent
    assert feature("hand_use", us, to_move=1, initiative=0, turn_index=1) == 0
    # two copies in hand: two plays
    us2 = dict(us, hand={"rifA": 2})
    assert feature("hand_use", us2) == pytest.approx(2 * RIFLE_ON_13B)


def test_a_suppressed_units_cards_are_worth_half():
    """"If a Combat token is face down ("suppressed" side), the unit cannot
    perform actions. If you try, flip the token face up ("ready" side), but
    the action is not performed." The suppressed Rifleman's card is worth half
    of what it could do once ready."""
    us = dict(tokens={"rifA": tok("13B", suppressed=True)}, hand={"rifA": 1}, supply={})
    assert feature("hand_use", us) == pytest.approx(0.5 * RIFLE_ON_13B)


def test_control_needs_the_enemy_gone_and_a_marker_to_move_onto():
    """"Cannot control a tile with an enemy Combat token"; "Move X: ... The
    destination tile must be scouted or controlled by your army." With a
    German Scout on 13B the Rifleman must drive it off first: 13B counts 2 /
    2 = 1 (the hit chance is now the best of two targets: the Scout on 13B,
    defence 5 + cover 1 + 0 = 6, hits on 6-9 and 0: 0.5). From 17B (the US
    controls it) the best objective is 2B (1 point, one Move onto the US's
    scouted marker: 1 / 2) or 13B (2 points, one step without a marker, so
    two steps: 2 / 4): 0.5, plus the 0.4 against 5B."""
    de = dict(tokens={"rifA": tok("5B"), "scoutA": tok("13B")}, supply={})
    us = dict(tokens={"rifA": tok("13B")}, hand={"rifA": 1}, supply={})
    assert feature("hand_use", us, de) == pytest.approx(1.0 + 0.5)
    us = dict(tokens={"rifA": tok("17B")}, hand={"rifA": 1}, supply={})
    assert feature("hand_use", us) == pytest.approx(0.5 + RIFLE_HIT_AT_5B)


def test_deck_use_is_the_next_draw_of_four_cards():
    """"At the start of each round, both players draw four cards from their
    personal deck to form their hand." deck_use is 4 x the mean use of a deck
    card: the Rifleman's card (2.4) among 3 Fog of War is 0.6 a card, 2.4 for
    the four drawn; with one Fog of War, 4.8: a deck diluted by Fog of War
    ("scouting tiles adds Fog of War cards") draws less."""
    us = dict(tokens={"rifA": tok("13B")}, deck={"rifA": 1, "fog": 3}, supply={})
    assert feature("deck_use", us) == pytest.approx(4 * RIFLE_ON_13B / 4)
    us = dict(tokens={"rifA": tok("13B")}, deck={"rifA": 1, "fog": 1}, supply={})
    assert feature("deck_use", us) == pytest.approx(4 * RIFLE_ON_13B / 2)
    # the Germans' deck is read the same way and subtracted (mine minus yours)
    de = dict(DE, deck={"rifA": 1, "fog": 1})
    # the German Rifleman on 5B: Attack on 13B (defence 4 + cover 1 + 2 tiles
    # = 7: 0.4); 5B is its own (controlled); 13B is 2 points two tiles away
    # with no German marker and the US token on it (4 steps: 2 / 16), 7A 1
    # point two tiles away without a marker (3 steps: 1 / 8): 0.125
    assert feature("deck_use", us, de) == pytest.approx(4 * RIFLE_ON_13B / 2 - 4 * (0.4 + 0.125) / 2)


def test_discard_use_reads_the_pile_the_next_deck_is_shuffled_from():
    """"If your deck runs out, simply shuffle your discard pile to form a new
    deck"; "All remaining cards in your hand and cards in your play area go
    to your discard pile." discard_use is 4 x the mean use of a card in the
    discard pile and the play area: Rifleman A (2.4) among 3 Fog of War."""
    us = dict(tokens={"rifA": tok("13B")}, discard={"rifA": 1, "fog": 1}, play={"fog": 2}, supply={})
    assert feature("discard_use", us) == pytest.approx(4 * RIFLE_ON_13B / 4)
    assert feature("deck_use", us) == 0


def test_supply_use_counts_what_a_bolster_can_bring_in_from_the_spawn_tile():
    """"Bolster XA: Take up to X cards from your supply and add them to your
    discard pile"; "If a Combat token corresponding to a Combat card you want
    to use is not on the board, it is immediately placed in the appropriate
    Proliferation marker space." Rifleman B has no token on the board: its 2
    supply cards are read from the US spawn 17B (0.4 against 5B, 0.5 for 2B
    or 13B, as above): 2 x 0.9; Fog of War in the supply and cards removed
    from the game count nothing."""
    us = dict(tokens={"rifA": tok("13B")}, supply={"rifB": 2, "fog": 8}, removed={"rifB": 3, "rifA": 2})
    assert feature("supply_use", us) == pytest.approx(2 * (0.4 + 0.5))


def test_a_scout_is_worth_the_objective_it_can_mark():
    """"Scout X: Move the unit's Combat token up to X tiles. For each tile you
    pass through or move to that does not have one of your Control markers,
    place a Control marker with the "scouted" side up." From 17B a Scout (Attack 1, defence-5 token
    irrelevant here) can mark 5B (3 points, two tiles, no US marker): a
    quarter of 3, plus its Attack 1 against 5B (0.4)."""
    us = dict(tokens={"scoutA": tok("17B")}, hand={"scoutA": 1}, supply={})
    assert feature("hand_use", us) == pytest.approx(0.75 + RIFLE_HIT_AT_5B)


def test_a_mortar_is_worth_half_an_explode_on_a_target_three_tiles_away():
    """"Aim: Place your Target marker on a tile three or more tiles away from
    your Mortar's Combat token"; "Explode: All Combat tokens on the tile with
    the Target marker are targeted". A US Mortar on 17B: the German Rifleman
    on 5B is two tiles away, out of Aim's reach (0); on 6A (three tiles,
    cover 1: defence 4 + 1, distance not counted for Explode) one die hits on
    5-9 and 0, 0.6, halved for the two cards Aim and Explode take: 0.3."""
    us = dict(tokens={"mortar": tok("17B")}, hand={"mortar": 1}, supply={})
    assert feature("hand_use", us) == 0
    de = dict(tokens={"rifA": tok("6A")}, supply={})
    assert feature("hand_use", us, de) == pytest.approx(0.3)


def test_cycle_use_totals_the_cards_still_cycling_and_ignores_how_they_are_spread():
    """"They must remove one card of the attacked unit from the game, following
    this order: 1. From hand. 2. From discard pile. 3. From deck"; "Scout X:
    ... For each marker placed, take a Fog of War card from your supply and
    place it in your discard pile." cycle_use is the total use of the cards in
    deck, hand, discard pile and play area: two Rifleman A cards on 13B count
    2 x 2.4 wherever they sit, a Fog of War card added by scouting changes
    nothing (the means deck_use and discard_use would fall), a card lost to a
    casualty takes its use away."""
    spread = dict(tokens={"rifA": tok("13B")}, hand={"rifA": 1}, deck={"rifA": 1, "fog": 1}, supply={})
    together = dict(tokens={"rifA": tok("13B")}, discard={"rifA": 2}, supply={})
    fogged = dict(tokens={"rifA": tok("13B")}, discard={"rifA": 2, "fog": 3}, supply={})
    lost = dict(tokens={"rifA": tok("13B")}, discard={"rifA": 1}, removed={"rifA": 1}, supply={})
    assert feature("cycle_use", spread) == pytest.approx(2 * RIFLE_ON_13B)
    assert feature("cycle_use", together) == pytest.approx(2 * RIFLE_ON_13B)
    assert feature("cycle_use", fogged) == pytest.approx(2 * RIFLE_ON_13B)
    assert feature("discard_use", fogged) < feature("discard_use", together)
    assert feature("cycle_use", lost) == pytest.approx(RIFLE_ON_13B)
