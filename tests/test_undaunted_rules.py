"""Undaunted: Normandy: one hand-built position per rule of shared/games/undaunted.md.

Positions are structured states (RULES.md schema) built from scenario 1 with
the zones, tokens and markers each rule needs; the expected results are
written out from the rules text.
"""
from __future__ import annotations

import copy
import math
import os
import re

import pytest

import ardsearch
from ardsearch.games import undaunted as U
from ardsearch.games.undaunted import _engine as E


def load(**params):
    if "undaunted" in ardsearch.list_games():
        return ardsearch.load_game("undaunted", **params)
    from ardsearch._core import Game
    return Game(U.SPEC, params)


GAME = load()
SETUP = U.load_scenario(U.scenario_path(1))


def position(us=None, de=None, to_move=0, initiative=0, phase="turn", turn_index=None, **top):
    """Scenario 1 in the middle of a turn, with army fields replaced by us/de."""
    d = copy.deepcopy(SETUP)
    d.update(phase=phase, round=1, to_move=to_move, initiative=initiative,
             turn_index=(0 if to_move == initiative else 1) if turn_index is None else turn_index)
    d.update(top)
    for a, mods in ((0, us), (1, de)):
        army = d["armies"][a]
        army.update(deck={}, hand={}, discard={}, play={})
        army.update(mods or {})
    return GAME.state_from_dict(d)


def legal(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def chance(state):
    return {state.action_to_string(a): p for a, p in state.chance_outcomes()}


def army(state, a):
    return state.to_dict()["armies"][a]


# ---------------------------------------------------------------- setup and the round
def test_scenario_1_setup():
    s = GAME.new_initial_state(seed=0)
    d = s.to_dict()
    assert d["phase"] == "deal" and d["round"] == 1 and d["initiative"] == 0
    us, de = d["armies"]
    assert us["deck"] == {"fog": 2, "rifA": 1, "rifB": 1, "scoutA": 1, "scoutB": 1,
                          "sl_A": 1, "sl_B": 1, "psgt": 1}
    assert us["supply"] == {"fog": 8, "rifA": 4, "rifB": 4, "scoutA": 2, "scoutB": 2}
    assert set(us["tokens"]) == {"rifA", "rifB", "scoutA", "scoutB"}
    assert all(t["tile"] == "17B" for t in us["tokens"].values())
    assert us["controlled"] == ["17B"] and us["scouted"] == ["2B"]
    assert de["controlled"] == ["5B"] and de["scouted"] == ["8A"] and de["points"] == 3
    # the first draw: one card of the 9-card deck, each type with its share
    assert chance(s) == pytest.approx({"draw:fog": 2 / 9, **{f"draw:{c}": 1 / 9 for c in
                                       ("mortar",) * 0 + ("rifA", "rifB", "scoutA", "scoutB",
                                                          "sl_A", "sl_B", "psgt")}})


def test_round_start_draws_four_each_then_bids():
    s = GAME.new_initial_state(seed=3)
    for _ in range(8):
        assert s.is_chance_node()
        s.apply_random_chance()
    d = s.to_dict()
    assert [sum(a["hand"].values()) for a in d["armies"]] == [4, 4]
    assert d["phase"] == "bid1" and s.current_player() == 0   # the Initiative holder first


def test_empty_deck_reshuffles_discard_but_not_play_area():
    s = position(us={"hand": {"psgt": 1}, "discard": {"rifA": 2, "fog": 1}, "play": {"sl_A": 1}})
    s.apply("psgt:command:1")
    assert chance(s) == pytest.approx({"draw:fog": 1 / 3, "draw:rifA": 2 / 3})
    s.apply("draw:rifA")
    us = army(s, 0)
    assert us["hand"] == {"rifA": 1} and us["deck"] == {"fog": 1, "rifA": 1}
    assert us["discard"] == {} and us["play"] == {"sl_A": 1, "psgt": 1}


def test_initiative_higher_card_wins_tie_keeps_holder():
    def bids(first, second):
        s = position(us={"hand": {"rifA": 1, "psgt": 1}}, de={"hand": {"scoutA": 1, "rifB": 1}},
                     phase="bid1", to_move=0)
        s.apply(f"bid:{first}")
        s.apply(f"bid:{second}")
        assert s.is_chance_node() and chance(s) == {f"reveal:{first}": 1.0}
        s.apply(f"reveal:{first}")
        return s

    s = bids("rifA", "scoutA")           # 5 < 6: the Germans take the Initiative
    assert s.to_dict()["initiative"] == 1 and s.current_player() == 1
    assert army(s, 0)["discard"] == {"rifA": 1} and army(s, 1)["discard"] == {"scoutA": 1}
    s = bids("rifA", "rifB")             # tie: the holder keeps it
    assert s.to_dict()["initiative"] == 0 and s.current_player() == 0
    s = bids("psgt", "scoutA")
    assert s.to_dict()["initiative"] == 0


def test_first_bid_is_hidden_from_the_second_chooser():
    s = position(us={"hand": {"rifA": 1, "psgt": 1}}, de={"hand": {"scoutA": 1}}, phase="bid1")
    a = s.string_to_action("bid:psgt")
    assert E._visible(s.raw(), a, 1) == 0 and E._visible(s.raw(), a, 0) == 1
    s.apply("bid:psgt")
    v = s.view(1)
    assert v.to_dict()["armies"][0]["bid"] == "unknown"
    assert v.to_dict()["armies"][0]["deck"] == {"rifA": 1, "psgt": 1}   # the pool
    # the same view whichever card the US chose
    t = position(us={"hand": {"rifA": 1, "psgt": 1}}, de={"hand": {"scoutA": 1}}, phase="bid1")
    t.apply("bid:rifA")
    assert t.view(1).raw() == v.raw()
    # the second bid is seen by the first chooser (already committed)
    s.apply("bid:scoutA")
    assert s.view(0).to_dict()["armies"][1]["bid"] == "scoutA"


def test_end_discards_play_area_and_reveals_leftover_hand():
    s = position(us={"hand": {"fog": 2}, "play": {"rifA": 1}})
    s.apply("end")
    assert s.is_chance_node() and chance(s) == {"reveal:fog": 1.0}
    s.apply("reveal:fog")
    s.apply("reveal:fog")
    d = s.to_dict()
    assert d["armies"][0]["discard"] == {"fog": 2, "rifA": 1}
    assert d["turn_index"] == 1 and s.current_player() == 1


def test_second_turn_end_starts_next_round():
    s = position(us={"deck": {"fog": 2}}, de={"deck": {"rifA": 1}}, to_move=1, initiative=0)
    s.apply("end")
    d = s.to_dict()
    assert d["round"] == 2 and d["phase"] == "deal"


# ---------------------------------------------------------------- card play basics
def test_fog_of_war_cannot_act_or_shelter():
    s = position(us={"hand": {"fog": 3}})
    assert legal(s) == ["end"]


def test_shelter_returns_card_to_supply_without_placing_token():
    s = position(us={"hand": {"rifC": 1}, "supply": {}})
    s.apply("rifC:shelter")
    us = army(s, 0)
    assert us["supply"] == {"rifC": 1} and "rifC" not in us["tokens"] and us["hand"] == {}


def test_token_off_board_enters_at_spawn():
    s = position(us={"hand": {"rifC": 1}})
    assert "rifC:control" not in legal(s)               # 17B is already US controlled
    assert "rifC:move:2B" in legal(s)                   # moves from the spawn tile 17B
    s.apply("rifC:move:2B")
    assert army(s, 0)["tokens"]["rifC"]["tile"] == "2B"
    assert army(s, 0)["play"] == {"rifC": 1}


def test_suppressed_unit_only_rallies():
    us = {"hand": {"rifA": 1}, "tokens": {"rifA": {"tile": "17B", "suppressed": True}}}
    s = position(us=us)
    assert legal(s) == ["end", "rifA:rally", "rifA:shelter"]
    s.apply("rifA:rally")
    assert army(s, 0)["tokens"]["rifA"] == {"tile": "17B", "suppressed": False}
    assert army(s, 0)["play"] == {"rifA": 1}


# ---------------------------------------------------------------- movement
def test_move_needs_scouted_or_controlled_destination():
    s = position(us={"hand": {"rifA": 1}})
    moves = [m for m in legal(s) if ":move:" in m]
    assert moves == ["rifA:move:2B"]                    # 17B's neighbours: only 2B is scouted


def test_sneak_goes_anywhere_adjacent():
    us = {"hand": {"sniper": 1}, "tokens": {"sniper": {"tile": "17B", "suppressed": False}}}
    s = position(us=us)
    assert sorted(m for m in legal(s) if ":sneak:" in m) == \
        ["sniper:sneak:12B", "sniper:sneak:13B", "sniper:sneak:2B", "sniper:sneak:7A"]


def test_scout_places_markers_and_fog_cards():
    s = position(us={"hand": {"scoutA": 1}, "supply": {"fog": 8}})
    assert "scoutA:scout:13B,16B" in legal(s) and "scoutA:scout:12B" in legal(s)
    s.apply("scoutA:scout:2B,16B")                      # 2B already scouted: one new marker
    us = army(s, 0)
    assert us["tokens"]["scoutA"]["tile"] == "16B"
    assert sorted(us["scouted"]) == ["16B", "2B"]
    assert us["discard"] == {"fog": 1} and us["supply"]["fog"] == 7


def test_scout_without_fog_in_supply_still_marks():
    s = position(us={"hand": {"scoutA": 1}, "supply": {}})
    s.apply("scoutA:scout:13B,3B")
    us = army(s, 0)
    assert sorted(us["scouted"]) == ["13B", "2B", "3B"] and us["discard"] == {}


def test_advance_moves_any_ready_token():
    us = {"hand": {"guide": 1}, "tokens": {"rifA": {"tile": "17B", "suppressed": False},
                                            "rifB": {"tile": "17B", "suppressed": True}}}
    s = position(us=us)
    adv = [m for m in legal(s) if "advance" in m]
    assert adv == ["guide:advance:rifA,2B"]
    s.apply("guide:advance:rifA,2B")
    assert army(s, 0)["tokens"]["rifA"]["tile"] == "2B"


def test_moving_the_mortar_removes_its_target():
    us = {"hand": {"mortar": 1}, "tokens": {"mortar": {"tile": "17B", "suppressed": False}},
          "target": "11B"}
    s = position(us=us)
    s.apply("mortar:move:2B")
    assert army(s, 0)["target"] is None


# ---------------------------------------------------------------- support actions
def test_bolster_takes_up_to_x_in_card_order():
    s = position(us={"hand": {"psgt": 1}, "supply": {"rifA": 1, "scoutB": 2}})
    s.apply("psgt:bolster")
    assert legal(s) == ["bolster:rifA", "bolster:scoutB", "bolster:stop"]
    s.apply("bolster:scoutB")
    assert legal(s) == ["bolster:scoutB", "bolster:stop"]   # no going back to rifA
    s.apply("bolster:scoutB")
    assert s.to_dict()["phase"] == "turn"                    # nothing left to take
    us = army(s, 0)
    assert us["discard"] == {"scoutB": 2} and us["supply"] == {"rifA": 1}


def test_squad_leader_bolster_is_limited_to_its_combat_group():
    s = position(us={"hand": {"sl_B": 1}, "supply": {"rifA": 2, "rifB": 1, "scoutB": 1, "fog": 4}})
    s.apply("sl_B:bolster")
    assert legal(s) == ["bolster:rifB", "bolster:scoutB", "bolster:stop"]
    s.apply("bolster:rifB")
    s.apply("bolster:scoutB")
    assert army(s, 0)["discard"] == {"rifB": 1, "scoutB": 1}
    s2 = position(us={"hand": {"sl_A": 1}, "supply": {"rifB": 1}})
    assert "sl_A:bolster" not in legal(s2)


def test_command_draws_now():
    s = position(us={"hand": {"psgt": 1}, "deck": {"rifA": 1, "fog": 1}})
    assert {"psgt:command:1", "psgt:command:2"} <= set(legal(s))
    s.apply("psgt:command:2")
    assert s.is_chance_node()
    s.apply("draw:rifA")
    s.apply("draw:fog")
    assert army(s, 0)["hand"] == {"rifA": 1, "fog": 1} and s.current_player() == 0


def test_conceal_puts_fog_in_opponent_discard():
    s = position(us={"hand": {"scoutA": 1}}, de={"supply": {"fog": 2}})
    s.apply("scoutA:conceal")
    de = army(s, 1)
    assert de["supply"] == {"fog": 1} and de["discard"] == {"fog": 1}
    s2 = position(us={"hand": {"scoutA": 1}}, de={"supply": {}})
    assert "scoutA:conceal" not in legal(s2)


def test_control_flips_enemy_marker_to_scouted_and_counts_points():
    us = {"hand": {"rifA": 1}, "tokens": {"rifA": {"tile": "13B", "suppressed": False}}}
    de = {"controlled": ["13B"], "scouted": [], "tokens": {"rifA": {"tile": "5B", "suppressed": False}}}
    s = position(us=us, de=de)
    s.apply("rifA:control")
    d = s.to_dict()
    assert "13B" in d["armies"][0]["controlled"] and d["armies"][0]["points"] == 2
    assert d["armies"][1]["controlled"] == [] and d["armies"][1]["scouted"] == ["13B"]


def test_control_forbidden_with_enemy_token_on_tile():
    us = {"hand": {"rifA": 1}, "tokens": {"rifA": {"tile": "13B", "suppressed": False}}}
    de = {"tokens": {"rifA": {"tile": "13B", "suppressed": False}}}
    assert "rifA:control" not in legal(position(us=us, de=de))


def test_inspire_returns_a_card_of_its_group_from_play_area():
    s = position(us={"hand": {"sl_A": 1}, "play": {"rifA": 1, "rifB": 1, "sl_B": 1}})
    assert [m for m in legal(s) if "inspire" in m] == ["sl_A:inspire:rifA"]
    s.apply("sl_A:inspire:rifA")
    us = army(s, 0)
    assert us["hand"] == {"rifA": 1} and us["play"] == {"rifB": 1, "sl_B": 1, "sl_A": 1}


def test_reconnoitre_removes_fog_then_draws():
    s = position(us={"hand": {"scoutA": 1, "fog": 1}, "deck": {"psgt": 1}})
    s.apply("scoutA:recon")
    us = army(s, 0)
    assert us["removed"] == {"fog": 1} and us["hand"] == {}
    assert chance(s) == {"draw:psgt": 1.0}
    assert "scoutA:recon" not in legal(position(us={"hand": {"scoutA": 1}}))


def test_aim_needs_three_tiles_from_the_mortar():
    us = {"hand": {"mortar": 1}, "tokens": {"mortar": {"tile": "17B", "suppressed": False}}}
    s = position(us=us)
    aims = sorted(m.split(":")[2] for m in legal(s) if ":aim:" in m)
    # distances from 17B: 2B 13B 12B 7A are 1; 16B 3B 8A 5B 4B are 2; 6A and 11B are 3
    assert aims == ["11B", "6A"]


# ---------------------------------------------------------------- combat
def test_attack_probabilities_are_exact():
    assert E._hit_probability(1, 7) == pytest.approx(0.4)
    assert E._hit_probability(2, 7) == pytest.approx(0.64)
    assert E._hit_probability(3, 7) == pytest.approx(1 - 0.6 ** 3)
    assert E._hit_probability(1, 5) == pytest.approx(0.6)
    assert E._hit_probability(2, 9) == pytest.approx(1 - 0.8 ** 2)
    assert E._hit_probability(1, 12) == pytest.approx(0.1)      # only the 0
    assert E._hit_probability(4, 10) == pytest.approx(1 - 0.9 ** 4)
    assert E._hit_probability(1, 1) == 1.0


def test_attack_total_defence_is_token_cover_distance():
    # US rifleman on 17B attacks the German scout on 5B (cover 1, distance 2): 5 + 1 + 2 = 8
    us = {"hand": {"rifA": 1}}
    de = {"hand": {"scoutA": 1}, "deck": {"scoutA": 1}}
    s = position(us=us, de=de)
    s.apply("rifA:attack:scoutA")
    d = s.to_dict()
    assert d["roll"]["defence"] == 8 and d["roll"]["dice"] == 1
    assert chance(s) == pytest.approx({"miss": 0.7, "hit:hand": 0.3})


def hill_position(hills, us_tokens, de_tokens, hand=None, **us):
    """A scenario-1 position with `hills` made hill tiles and the US
    (`hand`, default the two riflemen) and German tokens placed as given."""
    tiles = copy.deepcopy(SETUP["tiles"])
    for t in tiles:
        if t["name"] in hills:
            t["cover"] = "hill"
    def placed(tokens):
        return {u: {"tile": t, "suppressed": False} for u, t in tokens.items()}
    return position(us={"hand": hand or {"rifA": 1, "rifB": 1}, "tokens": placed(us_tokens), **us},
                    de={"tokens": placed(de_tokens)}, tiles=tiles)


def test_hill_cover_depends_on_attacker():
    s = hill_position(("5B", "17B"), {"rifA": "17B", "rifB": "2B"}, {"rifA": "5B"})
    a = s.clone()
    a.apply("rifA:attack:rifA")          # hill to hill: cover 1; 4 + 1 + 2
    assert a.to_dict()["roll"]["defence"] == 7
    b = s.clone()
    b.apply("rifB:attack:rifA")          # from 2B: cover 3; distance 2B-13B-8A-5B = 3
    assert b.to_dict()["roll"]["defence"] == 4 + 3 + 3


def test_hill_cover_against_an_attacker_on_the_same_hill_is_three():
    """Rulebook, Combat step 2: "Hill tiles (3/1) have a bonus of 1 if attacked
    by another hill or by Explode, and 3 otherwise." An attacker on the
    defender's own hill tile is not on *another* hill: cover 3, distance 0."""
    s = hill_position(("5B", "17B"), {"rifA": "5B", "rifB": "17B"}, {"rifA": "5B"})
    same = s.clone()
    same.apply("rifA:attack:rifA")       # the same hill: 4 + 3 + 0
    assert same.to_dict()["roll"]["defence"] == 7
    other = s.clone()
    other.apply("rifB:attack:rifA")      # another hill, 17B-12B-5B: 4 + 1 + 2
    assert other.to_dict()["roll"]["defence"] == 4 + 1 + 2


def test_casualty_order_hand_discard_deck_then_token():
    def hit(de):
        s = position(us={"hand": {"rifA": 1}}, de=de)
        s.apply("rifA:attack:rifB")
        outcomes = chance(s)
        (zone,) = [k for k in outcomes if k.startswith("hit")]
        s.apply(zone)
        return zone, army(s, 1)

    zone, de = hit({"hand": {"rifB": 1}, "discard": {"rifB": 1}, "deck": {"rifB": 1}})
    assert zone == "hit:hand" and de["hand"] == {} and de["removed"] == {"rifB": 1}
    zone, de = hit({"discard": {"rifB": 1}, "deck": {"rifB": 1}})
    assert zone == "hit:discard" and de["discard"] == {} and de["deck"] == {"rifB": 1}
    zone, de = hit({"deck": {"rifB": 1}})
    assert zone == "hit:deck" and de["deck"] == {}
    zone, de = hit({"supply": {"rifB": 3}})      # supply cards do not count
    assert zone == "hit:token" and "rifB" not in de["tokens"]


def test_suppress_flips_token_and_no_casualty():
    us = {"hand": {"mg": 1}, "tokens": {"mg": {"tile": "13B", "suppressed": False}}}
    s = position(us=us, de={"hand": {"rifA": 1}})
    s.apply("mg:suppress:rifA")
    d = s.to_dict()["roll"]
    assert d["dice"] == 4 and d["kind"] == "suppress"
    # rifle on 5B: 4 + cover 1 + distance 2 (13B-8A-5B) = 7; four dice: 1 - 0.6^4
    assert chance(s) == pytest.approx({"miss": 0.6 ** 4, "hit": 1 - 0.6 ** 4})
    s.apply("hit")
    de = army(s, 1)
    assert de["tokens"]["rifA"]["suppressed"] and de["hand"] == {"rifA": 1}


def test_explode_attacks_every_token_on_target_including_own():
    us = {"hand": {"mortar": 1}, "tokens": {"mortar": {"tile": "17B", "suppressed": False},
                                             "rifA": {"tile": "11B", "suppressed": False}},
          "target": "11B", "deck": {"rifA": 1}}
    de = {"tokens": {"rifA": {"tile": "11B", "suppressed": False}}, "deck": {"rifA": 2}}
    s = position(us=us, de=de)
    s.apply("mortar:explode")
    # US rifle first (army 0), cover 0 and no distance: defence 4, one die: 0.7
    d = s.to_dict()
    assert d["roll"]["army"] == 0 and d["roll"]["defence"] == 4
    assert chance(s) == pytest.approx({"miss": 0.3, "hit:deck": 0.7})
    s.apply("hit:deck")
    d = s.to_dict()
    assert d["roll"]["army"] == 1 and d["roll"]["unit"] == "rifA"
    s.apply("miss")
    assert s.current_player() == 0 and s.to_dict()["armies"][0]["removed"] == {"rifA": 1}


def test_explode_on_a_hill_uses_cover_one():
    s = hill_position(("11B",), {"mortar": "17B"}, {"scoutA": "11B"}, hand={"mortar": 1}, target="11B")
    s.apply("mortar:explode")
    assert s.to_dict()["roll"]["defence"] == 5 + 1


# ---------------------------------------------------------------- the end
def test_capture_objectives_wins_immediately():
    us = {"hand": {"rifA": 1}, "controlled": ["17B", "2B", "7A"], "scouted": [],
          "tokens": {"rifA": {"tile": "13B", "suppressed": False}}}
    s = position(us=us)
    s.apply("rifA:control")              # 1 + 1 + 2 = 4 < 5: not yet
    assert not s.is_terminal()
    us["controlled"].append("16B")
    s = position(us=us)
    s.apply("rifA:control")              # 1 + 1 + 1 + 2 = 5
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert s.to_dict()["end_reason"] == "objectives"


def test_immobilize_goal_wins_when_no_enemy_rifleman_on_board():
    d = U.load_scenario(U.scenario_path(3))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    us, de = d["armies"]
    us["hand"] = {"rifA": 1}
    de["tokens"] = {"rifA": {"tile": "12B", "suppressed": False}}
    de["deck"] = {}
    s = GAME_3.state_from_dict(d)
    s.apply("rifA:attack:rifA")
    s.apply("hit:token")
    assert s.is_terminal() and s.returns() == [1.0, -1.0]
    assert s.to_dict()["end_reason"] == "immobilized"


GAME_3 = load(scenario=3)


def test_both_immobilized_most_points_then_initiative():
    # the mortar's Explode removes the last rifleman token of each army
    us = {"hand": {"mortar": 1}, "tokens": {"mortar": {"tile": "17B", "suppressed": False},
                                             "rifA": {"tile": "11B", "suppressed": False}},
          "target": "11B", "controlled": ["17B"], "scouted": []}
    de = {"tokens": {"rifA": {"tile": "11B", "suppressed": False}}}
    s = position(us=us, de=de, initiative=1, to_move=0, turn_index=1)
    s.apply("mortar:explode")
    s.apply("hit:token")                 # US rifleman gone: US immobilized alone, play goes on
    assert not s.is_terminal()
    s.apply("hit:token")                 # German rifleman gone too
    assert s.is_terminal()
    d = s.to_dict()
    assert d["end_reason"] == "both_immobilized" and d["winner"] == "germans"   # 3 points against 0


def test_both_immobilized_tie_goes_to_initiative_holder():
    us = {"hand": {"mortar": 1}, "tokens": {"mortar": {"tile": "17B", "suppressed": False},
                                             "rifA": {"tile": "11B", "suppressed": False}},
          "target": "11B", "controlled": ["17B"], "scouted": []}
    de = {"tokens": {"rifA": {"tile": "11B", "suppressed": False}}, "controlled": [], "scouted": []}
    s = position(us=us, de=de, initiative=0)
    s.apply("mortar:explode")
    s.apply("hit:token")
    s.apply("hit:token")
    assert s.to_dict()["winner"] == "us"


def test_irremediable_player_loses_to_opponent_with_more_points():
    # US has no Rifleman card anywhere: it can never Control again; Germans lead 3-0
    us = {"hand": {"scoutA": 1}, "supply": {"fog": 2}, "deck": {}, "controlled": ["17B"],
          "tokens": {"rifA": {"tile": "17B", "suppressed": False}, "scoutA": {"tile": "17B", "suppressed": False}}}
    de = {"hand": {"rifA": 1}}
    s = position(us=us, de=de, to_move=1, initiative=1)
    # the Germans attack; any event that checks the end finds the US irremediable
    s.apply("rifA:attack:scoutA")
    s.apply("miss")
    d = s.to_dict()
    assert d["phase"] == "over" and d["winner"] == "germans" and d["end_reason"] == "irremediable"


def test_irremediable_against_an_immobilize_goal_wins_before_both_immobilized():
    """Rulebook, Special Situations: "Irremediable Situation: If a player can no
    longer win the scenario by the required objective points, they are considered
    immobilized. If the opponent's objective was to immobilize, they win
    immediately." Both armies immobilized ends on points only "if both armies are
    immobilized and no one has won". Scenario 3: the US (goal: immobilize) has no
    Rifleman token on the board; the Germans (goal: capture) lose their last
    Rifleman card, so they can never Control again. The US wins, though the
    Germans lead on points (an audit found both_immobilized giving it to them)."""
    d = U.load_scenario(U.scenario_path(3))
    d.update(phase="turn", round=1, to_move=0, initiative=0, turn_index=0)
    us, de = d["armies"]
    assert (us["goal"], de["goal"]) == ("immobilize", "capture")
    us.update(deck={}, hand={"sniper": 1}, discard={}, play={}, supply={},
              tokens={"sniper": {"tile": "15B", "suppressed": False}})
    de.update(deck={}, hand={"rifB": 1}, discard={}, play={}, supply={},
              tokens={"rifB": {"tile": "11B", "suppressed": False}})
    s = GAME_3.state_from_dict(d)
    assert army(s, 1)["points"] > army(s, 0)["points"]
    s.apply("sniper:attack:rifB")
    s.apply("hit:hand")                  # the last German Rifleman card leaves the game
    d = s.to_dict()
    assert d["armies"][1]["tokens"]["rifB"]["tile"] == "11B"   # its token stays: not yet immobilized by the goal
    assert d["phase"] == "over" and d["winner"] == "us" and d["end_reason"] == "irremediable"


def test_irremediable_without_opponent_lead_plays_on():
    us = {"hand": {"scoutA": 1}, "supply": {}, "controlled": ["17B", "13B"],
          "tokens": {"rifA": {"tile": "17B", "suppressed": False}, "scoutA": {"tile": "17B", "suppressed": False}}}
    de = {"hand": {"rifA": 1}, "controlled": ["4B"], "scouted": ["8A"]}
    s = position(us=us, de=de, to_move=1, initiative=1)
    s.apply("rifA:attack:scoutA")
    s.apply("miss")                      # US 2 points, Germans 0: the game goes on
    assert not s.is_terminal()


def test_max_rounds_ends_on_points():
    g = load(max_rounds=1)
    d = copy.deepcopy(SETUP)
    d.update(phase="turn", round=1, to_move=1, initiative=0, turn_index=1, max_rounds=1)
    s = g.state_from_dict(d)
    s.apply("end")
    d = s.to_dict()
    assert d["phase"] == "over" and d["end_reason"] == "max_rounds" and d["winner"] == "germans"


# ---------------------------------------------------------------- hidden information
def test_views_do_not_depend_on_opponent_hand():
    a = position(us={"hand": {"rifA": 1}, "deck": {"fog": 2, "psgt": 1}},
                 de={"hand": {"scoutA": 1, "fog": 1}, "deck": {"rifA": 1, "psgt": 1}})
    b = position(us={"hand": {"rifA": 1}, "deck": {"fog": 2, "psgt": 1}},
                 de={"hand": {"rifA": 1, "psgt": 1}, "deck": {"scoutA": 1, "fog": 1}})
    assert a.view(0).raw() == b.view(0).raw()
    assert a.view(0).observation_string(0) == b.view(0).observation_string(0)
    assert a.view(1).raw() != b.view(1).raw()
    v = a.view(0).to_dict()["armies"][1]
    assert v["hand"] == {} and v["unknown_hand"] == 2
    assert v["deck"] == {"fog": 1, "psgt": 1, "rifA": 1, "scoutA": 1}


def test_opponent_draws_are_hidden_and_determinize_deals_from_pool():
    s = position(de={"deck": {"fog": 3, "psgt": 1}}, phase="command_draw", to_move=1,
                 initiative=1, draws_pending=2)
    assert E._visible(s.raw(), 0, 0) == 0 and E._visible(s.raw(), 0, 1) == 1
    v = s.view(0)
    v.apply("?")
    v.apply("?")
    d = v.to_dict()["armies"][1]
    assert d["unknown_hand"] == 2 and d["deck"] == {"fog": 3, "psgt": 1}
    seen = set()
    for seed in range(40):
        full = s.view(0)
        full.apply("?")
        full.apply("?")
        r = E._determinize(full.raw(), 0, seed)
        hand = E.to_dict(r)["armies"][1]["hand"]
        assert sum(hand.values()) == 2
        seen.add(tuple(sorted(hand.items())))
    assert seen == {(("fog", 2),), (("fog", 1), ("psgt", 1))}


def test_casualty_zone_probability_in_a_view():
    # the attacker does not know whether the defender's hand holds the unit's card
    us = {"hand": {"rifA": 1}}
    de = {"hand": {"fog": 1}, "deck": {"scoutA": 1, "fog": 1}}
    s = position(us=us, de=de)
    s.apply("rifA:attack:scoutA")
    v = s.view(0)
    q = 0.3                                             # defence 8 (see above): 1 die 0.3
    # pool {scoutA, fog, fog}, one unknown hand card: P(scoutA in hand) = 1/3
    assert chance(v) == pytest.approx({"miss": 0.7, "hit:hand": q / 3, "hit:deck": 2 * q / 3})


# ---------------------------------------------------------------- notation and formats
def test_notation_round_trips():
    s = position(us={"hand": {"scoutA": 1, "psgt": 1, "sl_A": 1, "guide": 1, "mg": 1, "mortar": 1,
                              "sniper": 1, "rifA": 1, "fog": 1},
                     "play": {"rifA": 1},
                     "tokens": {"mg": {"tile": "13B", "suppressed": False},
                                "mortar": {"tile": "17B", "suppressed": False},
                                "rifA": {"tile": "17B", "suppressed": False}},
                     "target": "11B"})
    for a in s.legal_actions():
        text = s.action_to_string(a)
        assert s.string_to_action(text) == a, text
    for text in ("rifA:move:12B", "scoutB:scout:13B,3B", "rifA:attack:scoutA", "psgt:bolster",
                 "bolster:rifA", "rifB:shelter", "bid:rifA", "end", "draw:fog", "hit", "miss",
                 "hit:token", "guide:advance:rifA,2B", "mortar:aim:6A", "psgt:command:2"):
        assert s.action_to_string(s.string_to_action(text)) == text
    for bad in ("rifA:sneak:2B", "sniper:move:2B", "fog:shelter", "rifA:move:99Z", "psgt:command:3",
                "scoutA:scout:", "a:b:c:d:e", "", "rifA:attack:psgt"):
        with pytest.raises(ardsearch.InvalidMoveError):
            s.string_to_action(bad)


def test_from_dict_errors_name_the_problem():
    d = copy.deepcopy(SETUP)
    d.update(phase="turn", round=1)
    bad = copy.deepcopy(d)
    bad["armies"][0]["hand"] = {"tank": 1}
    with pytest.raises(ValueError, match="unknown card 'tank'"):
        GAME.state_from_dict(bad)
    bad = copy.deepcopy(d)
    bad["armies"][1]["tokens"] = {"rifA": "99A"}
    with pytest.raises(ValueError, match="tile"):
        GAME.state_from_dict(bad)
    bad = copy.deepcopy(d)
    bad["phase"] = "dance"
    with pytest.raises(ValueError, match="phase"):
        GAME.state_from_dict(bad)


def test_other_scenarios_load_and_play():
    for sc in (2, 3):
        g = load(scenario=sc)
        s = g.new_initial_state(seed=sc)
        assert s.to_dict()["scenario"] == sc
        import random
        rng = random.Random(sc)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_random_chance()
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        assert sorted(s.returns()) == [-1.0, 1.0]


def test_greedy_beats_random():
    wins, losses = E._greedy_vs_random(60, 11, U.pack_params({"scenario": 1}))
    assert wins > 45


def test_the_contracts_card_and_action_names_are_read():
    """Contract, Notation: "cards as `rifA`, ... `mg_A`, ..." and "The
    rulebook's action names are used; fan names in brackets" (Reconnoitre
    [Recon]). Both spellings are read; the engine writes `mg` and `recon`."""
    us = {"hand": {"mg": 1, "scoutA": 1, "fog": 1}, "tokens": {"mg": {"tile": "13B", "suppressed": False},
                                                                "scoutA": {"tile": "17B", "suppressed": False}}}
    s = position(us=us, de={"hand": {"rifA": 1}})
    for contract, written in (("mg_A:attack:rifA", "mg:attack:rifA"), ("mg_A:suppress:rifA", "mg:suppress:rifA"),
                              ("scoutA:reconnoitre", "scoutA:recon")):
        assert s.action_to_string(s.string_to_action(contract)) == written
        assert s.string_to_action(contract) in s.legal_actions()


# ---------------------------------------------------------------- the card table as data

CONTRACT_CARDS = {   # contract, "Cards": initiative, Attack X, token defence
    "fog": (1, None, None), "mortar": (2, None, 3), "mg": (3, 2, 4), "sniper": (4, 3, 5),
    "rifA": (5, 1, 4), "rifB": (5, 1, 4), "rifC": (5, 1, 4), "scoutA": (6, 1, 5), "scoutB": (6, 1, 5),
    "scoutC": (6, 1, 5), "sl_A": (7, None, None), "sl_B": (7, None, None), "sl_C": (7, None, None),
    "guide": (8, None, None), "psgt": (9, None, None)}


def test_the_card_table_is_data_and_holds_the_contracts_values():
    """Contract, Undaunted: the card values "live in data files, `cards.toml` and
    `scenarios/*.toml`, so a user can correct them from the printed components".
    The shipped data/cards.toml is the contract's table, and it is the table
    the engine plays: Machine Gunner "Attack 2 / Suppress 4", Mortar "Explode 1",
    Squad Leader "Bolster 2", Platoon Guide "Bolster 1", Platoon Sergeant "Bolster 3"."""
    table = U.load_card_table()
    assert E.card_table() == table
    for card, (initiative, attack, defence) in CONTRACT_CARDS.items():
        assert table["initiative"][card] == initiative, card
        assert table["attack"].get(card) == attack, card
        assert table["defence"].get(card) == defence, card
    assert table["bolster"] == {"sl_A": 2, "sl_B": 2, "sl_C": 2, "guide": 1, "psgt": 3}
    assert table["dice"] == {"suppress": 4, "explode": 1}


def test_a_corrected_card_table_is_played(tmp_path):
    """A user who corrects the Mortar's defence to 4 (the contract: "sources say
    3 or 4") and the Machine Gunner's Suppress to 3 gets those values in play:
    the Suppress roll's dice and a rifleman's shot at the Mortar's defence."""
    shipped = U.load_card_table()
    text = open(os.path.join(os.path.dirname(U.__file__), "data", "cards.toml")).read()
    text = text.replace("mortar = 3 ", "mortar = 4 ").replace("suppress = 4 ", "suppress = 3 ")
    path = tmp_path / "cards.toml"
    path.write_text(text)
    corrected = U.load_card_table(str(path))
    assert corrected["defence"]["mortar"] == 4 and corrected["dice"]["suppress"] == 3
    try:
        E.set_card_table(corrected)
        us = {"hand": {"mg": 1, "rifA": 1}, "tokens": {"mg": {"tile": "13B", "suppressed": False},
                                                        "rifA": {"tile": "17B", "suppressed": False}}}
        s = position(us=us, de={"tokens": {"mortar": {"tile": "5B", "suppressed": False}}})
        a = s.clone()
        a.apply("mg:suppress:mortar")
        assert a.to_dict()["roll"]["dice"] == 3
        b = s.clone()
        b.apply("rifA:attack:mortar")       # 4 + cover 1 + distance 2 (17B-12B-5B)
        assert b.to_dict()["roll"]["defence"] == 4 + 1 + 2
    finally:
        E.set_card_table(shipped)
    assert E.card_table() == shipped


@pytest.mark.parametrize("edit, message", [
    (("psgt = 9", "psgt = 10"), "[initiative] psgt: expected an integer from 1 to 9, got 10"),
    (("mg = 4\nsniper", "mg = \"four\"\nsniper"), "[defence] mg: expected an integer from 0 to 10"),
    (("[attack]               # Attack X: the dice rolled (1-9); only these cards have Attack\nmg = 2",
      "[attack]\nmortar = 1\nmg = 2"), "the Mortar has no Attack action"),
    (("guide = 1", ""), "[bolster]: guide missing"),
    (("[dice]", "[dice]\nsmoke = 2"), "[dice] smoke: not a key of this section"),
    (("[dice]", "[weather]\nrain = 1\n[dice]"), "[weather]: no such section"),
])
def test_a_wrong_card_table_is_refused_with_the_key_named(tmp_path, edit, message):
    text = open(os.path.join(os.path.dirname(U.__file__), "data", "cards.toml")).read()
    assert edit[0] in text
    path = tmp_path / "cards.toml"
    path.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(U.CardTableError, match=re.escape(message)):
        U.load_card_table(str(path))
