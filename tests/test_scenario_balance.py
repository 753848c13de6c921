"""Scenario balance data (issue 15): the designed scenarios carry the
balance changes their RULES.md names as design choices, and the scenarios
whose terms a rules contract or a printed rulebook fixes keep those terms.
Measurements: bench/README.md, "Scenario balance", second pass."""
from __future__ import annotations

from ardsearch.games import undaunted as U
from ardsearch.games.mortain import SCENARIO as MORTAIN
from ardsearch.games.stosstruppen import data as stoss_data

MORALE = ("green", "regular", "veteran")


def stoss_scenario(name):
    _, scenarios = stoss_data.load_all()
    return next(s for s in scenarios if s["name"] == name)


def us_deck(number):
    return U.load_scenario(U.scenario_path(number))["armies"][0]["deck"]


def test_undaunted_designed_scenarios_slow_the_us_with_fog_of_war():
    """Undaunted RULES.md, design choices (balance): "scenario 3's US deck
    starts with two Fog of War cards, not one" and "scenario 2's US deck
    starts with three Fog of War cards, not two". Scenario 1 is the
    contract's La Rayé: "2 Fog of War" in each starting deck."""
    assert us_deck(3)["fog"] == 2
    assert us_deck(2)["fog"] == 3
    assert us_deck(1)["fog"] == 2


def test_villers_is_six_turns_all_objectives_and_veteran_british():
    """Stosstruppen RULES.md, Villers: "6 turns; Germans need all 3 building
    objectives", the British Veteran (design choice, balance; the contract
    fixes only "Scenario 2 should feature tanks on both sides")."""
    sc = stoss_scenario("villers")
    assert sc["turns"] == 6
    assert sc["objectives_needed"] == 3 == len(sc["objectives"])
    assert MORALE[sc["armies"][1]["morale"]] == "veteran"


def test_kaiserschlacht_keeps_the_contracts_victory_terms():
    """Rules contract, Stosstruppen: "The Germans win by occupying at least 3
    of the 5 trench squares marked as objectives at the end of turn 8" with a
    British position "Regular" and the Germans "Veteran": balance may not
    change these (bench/README.md, second pass)."""
    sc = stoss_scenario("kaiserschlacht")
    assert sc["turns"] == 8
    assert sc["objectives_needed"] == 3 and len(sc["objectives"]) == 5
    assert [MORALE[a["morale"]] for a in sc["armies"]] == ["veteran", "regular"]


def test_mortain_keeps_the_printed_five_exits_in_six_turns():
    """Rules: "The German player wins if, by the end of Turn 6, five of his
    units exit the west edge of the map ... Otherwise the US player wins";
    errata: "Germans win if at the end of any turn". Printed, so not a
    balance knob."""
    assert MORTAIN.exits_to_win == 5
    assert MORTAIN.turns == 6
