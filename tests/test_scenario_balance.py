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


def test_breakout_german_supply_holds_a_fourth_rifleman_b():
    """Undaunted RULES.md, design choice (balance between the strongest
    bots): "scenario 3's German supply holds four Rifleman B cards, not
    three" (US 66% of ISMCTS self-play games with three, 48% of 64 with
    four); the rest of the German supply and deck as designed."""
    de = U.load_scenario(U.scenario_path(3))["armies"][1]
    assert de["supply"] == {"rifA": 3, "rifB": 4, "mg": 2, "scoutA": 2, "mortar": 2, "fog": 8}
    assert de["deck"]["rifA"] == de["deck"]["rifB"] == 1


def test_hill_30_one_point_objective_on_13A_not_12A():
    """Undaunted RULES.md, design choice (balance between the strongest
    bots): "scenario 2's one-point objective of the bottom row is on 13A,
    not 12A" (US 72% of ISMCTS self-play games on 12A, 53% of 64 on 13A):
    each army has 4 points near its spawn and the total stays 8."""
    tiles = U.load_scenario(U.scenario_path(2))["tiles"]
    points = {t["name"]: t["objective"] for t in tiles if t["objective"]}
    assert points == {"3A": 1, "9A": 3, "7A": 2, "11A": 1, "13A": 1}


def test_villers_is_six_turns_two_objectives_and_veteran_british():
    """Stosstruppen RULES.md, Villers: "6 turns; Germans need 2 of the 3
    building objectives", the British Veteran (design choice, balance; the
    contract fixes only "Scenario 2 should feature tanks on both sides";
    bench/README.md, fourth pass)."""
    sc = stoss_scenario("villers")
    assert sc["turns"] == 6
    assert sc["objectives_needed"] == 2 and len(sc["objectives"]) == 3
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


def test_kaiserschlacht_map_open_approach_and_craters_behind_the_trench():
    """Stosstruppen RULES.md, design choice (balance, session 11):
    "Kaiserschlacht's approach is open (no buildings on d4-e4, no woods on the
    hill at k4-l5) and craters lie behind the trench line (e9-g9, i9-m9) and
    under the field gun (j11); the contract's "woods, buildings and a hill"
    remain" (level-4 self-play: Germans 27 of 64, 42%)."""
    sc = stoss_scenario("kaiserschlacht")

    def terrain(square):
        col, row = ord(square[0]) - ord("a"), int(square[1:]) - 1
        return stoss_data.TERRAIN_NAMES[sc["terrain"][row * 16 + col]]

    assert all(terrain(q) == "open" for q in ("d4", "e4", "k4", "l4", "k5", "l5"))
    assert all(terrain(q) == "craters" for q in ("e9", "f9", "g9", "i9", "j9", "k9", "l9", "m9", "j11"))
    assert terrain("h9") == "bunker" and all(terrain(f"{c}8") == "trench" for c in "defghijklm")
    kinds = {terrain(f"{c}{r}") for c in "abcdefghijklmnop" for r in range(1, 13)}
    assert {"woods", "buildings"} <= kinds and sc["hill"]


def test_mortain_keeps_the_printed_five_exits_in_six_turns():
    """Rules: "The German player wins if, by the end of Turn 6, five of his
    units exit the west edge of the map ... Otherwise the US player wins";
    errata: "Germans win if at the end of any turn". Printed, so not a
    balance knob."""
    assert MORTAIN.exits_to_win == 5
    assert MORTAIN.turns == 6


def microarmour_file(name):
    import os
    import tomllib
    from ardsearch.games import microarmour
    path = os.path.join(os.path.dirname(microarmour.__file__), "scenarios", name + ".toml")
    with open(path, "rb") as f:
        return tomllib.load(f)


def test_microarmour_introductory_keeps_the_contracts_forces_and_terms():
    """Rules contract, Micro Armour, Scenario: "German GHQ (quality +1), 1 HQ,
    4 Pz IV platoons, 2 Panzergrenadier platoons with 2 half-track
    transports, 1 PaK 40; cohesion 15. Soviet GHQ (quality 0), 1 HQ, 6
    T-34/76 platoons, 3 rifle platoons, 1 ZiS-3 gun; cohesion 12 ... 12
    turns". Balance may not change these (bench/README.md, "Micro Armour's
    scenarios on the current engine (session 8)"): only the layout is ours.
    The `support = true` stands play only with the `support` parameter."""
    import collections
    d = microarmour_file("introductory")
    assert d["turns"] == 12
    assert (d["side"]["german"]["cohesion"], d["side"]["german"]["quality"]) == (15, 1)
    assert (d["side"]["soviet"]["cohesion"], d["side"]["soviet"]["quality"]) == (12, 0)
    forces = {side: collections.Counter(s["type"] for s in d["stand"]
                                        if s["side"] == side and not s.get("support"))
              for side in ("german", "soviet")}
    assert forces["german"] == {"ger_ghq": 1, "ger_hq": 1, "pz4h": 4, "pzgren": 2, "sdkfz251": 2, "pak40": 1}
    assert forces["soviet"] == {"sov_ghq": 1, "sov_hq": 1, "t34": 6, "rifle": 3, "zis3": 1}


def test_microarmour_combined_gives_the_soviets_three_sections_and_no_german_prereg():
    """Micro Armour RULES.md, Scenarios, `combined` (design choice, balance):
    "the Soviet battery has 3 sections, not the 2 first written, and the
    German pre-registered point 14,9 (a village square) is gone"; the German
    battery is unchanged (2 sections, open sheaf)."""
    d = microarmour_file("combined")
    batteries = {b["id"]: b for b in d["battery"]}
    assert (batteries["m30"]["side"], batteries["m30"]["sections"]) == ("soviet", 3)
    assert (batteries["lefh"]["sections"], batteries["lefh"]["sheaf"]) == (2, "open")
    assert "prereg" not in d["side"]["german"]


def test_microarmour_combined_lasts_sixteen_turns():
    """Micro Armour RULES.md, Scenarios, `combined` (design choice, balance,
    session 34): "16 turns (`turns = 16` in this file, the default of the
    `turns` parameter here ...), not its base's 12"; the base, the
    Introductory, keeps the contract's 12."""
    import ardsearch
    d = microarmour_file("combined")
    assert (d["base"], d["turns"]) == ("introductory", 16)
    assert microarmour_file("introductory")["turns"] == 12
    assert ardsearch.load_game("microarmour", scenario="combined").new_initial_state(seed=0).to_dict()["turns"] == 16
    assert ardsearch.load_game("microarmour").new_initial_state(seed=0).to_dict()["turns"] == 12


def test_microarmour_outpost_sets_the_germans_up_on_the_streams_west_bank():
    """Micro Armour RULES.md, Scenarios, `outpost` (design choice, balance): "the
    German stands set up 4 squares further east (x 4..7, the stream's west bank),
    not at x 0..3 as first written"; the stream (x = 8) and the belt stay where they
    were, so the Germans still cross it."""
    d = microarmour_file("outpost")
    german = [s for s in d["stand"] if s["side"] == "german"]
    assert len(german) == 12 and {s["at"][0] for s in german} == {4, 5, 6, 7}
    assert all(s["at"][0] < 8 for s in german)
    assert {tuple(m["at"]) for m in d["minefield"]} == {(9, 10), (9, 9), (9, 11), (9, 16), (9, 17), (9, 4)}


def test_microarmour_outpost_lasts_fourteen_turns():
    """Micro Armour RULES.md, Scenarios, `outpost` (design choice, balance,
    session 34): "14 turns (`turns = 14`, the default of the `turns` parameter
    in this scenario), not 12: the Germans again ran short of time"; a
    `turns` given by name still wins."""
    import ardsearch
    assert microarmour_file("outpost")["turns"] == 14
    assert ardsearch.load_game("microarmour", scenario="outpost").new_initial_state(seed=0).to_dict()["turns"] == 14
    assert ardsearch.load_game("microarmour", scenario="outpost", turns=12).new_initial_state(seed=0).to_dict()["turns"] == 12


def test_microarmour_minefield_moves_the_germans_up_and_thins_the_soviets():
    """Micro Armour RULES.md, Scenarios, `minefield` (design choices, balance):
    session 9, "the Soviets have one T-34 fewer (`t34d`) ... and no ZiS-3
    (`zis`; its medium position stays, empty)"; session 34, "the German stands
    one square further west, x 1..3, not 2..4 (still 1 square east of where
    first written)", so still west of the stream (x 6)."""
    import collections
    d = microarmour_file("minefield")
    german = [s for s in d["stand"] if s["side"] == "german" and not s.get("support")]
    assert {s["at"][0] for s in german} == {1, 2, 3}
    soviet = collections.Counter(s["type"] for s in d["stand"] if s["side"] == "soviet" and not s.get("support"))
    assert soviet == {"sov_ghq": 1, "sov_hq": 1, "t34": 3, "t34_dozer": 1, "t34_pt3": 1, "rifle": 3}
    assert {"at": [15, 11], "class": "medium", "side": "soviet", "facing": "w"} in d["position"]


def test_microarmour_airstrike_ju87_has_no_fasc():
    """Micro Armour RULES.md, Scenarios, `airstrike` (design choice, balance):
    "the Ju 87 has no Forward Air Support Coordinator, where it was first
    written with one"; the Il-2 is unchanged (no FASC, bomb point 6,10 plotted
    before play). The FASC rules are tested on the file as first written
    (tests/data/microarmour_fasc/airstrike_fasc.toml)."""
    d = microarmour_file("airstrike")
    planes = {a["id"]: a for a in d["aircraft"]}
    assert (planes["ju87"]["fasc"], planes["ju87"]["bomb"], planes["ju87"]["ordnance"]) == (False, 12, 1)
    assert (planes["il2"]["fasc"], planes["il2"]["plot"]) == (False, [6, 10])


def test_microarmour_airstrike_has_a_seventh_soviet_t34():
    """Micro Armour RULES.md, Scenarios, `airstrike` (design choice, balance,
    session 34): "a seventh Soviet T-34 (`t34g`, entering at 28,18, the next
    square of the T-34s' row), where the Introductory has six"; the rest of
    the Introductory's forces, cohesion and quality stay, with one AA stand
    a side."""
    import collections
    import ardsearch
    d = microarmour_file("airstrike")
    t34s = {s["id"]: s for s in d["stand"] if s["type"] == "t34"}
    assert len(t34s) == 7 and t34s["t34g"]["at"] == [28, 18] and t34s["t34g"]["side"] == "soviet"
    assert sorted(s["at"][1] for s in t34s.values()) == [4, 6, 8, 12, 14, 16, 18]
    intro = microarmour_file("introductory")
    assert collections.Counter(s["type"] for s in intro["stand"])["t34"] == 6
    assert (d["side"]["german"]["cohesion"], d["side"]["soviet"]["cohesion"]) == (15, 12)
    assert {(s["id"], s["side"]) for s in d["stand"] if s["type"] in ("flak38", "aa52k")} == {
        ("flak", "german"), ("aa85", "soviet")}
    stands = ardsearch.load_game("microarmour", scenario="airstrike").new_initial_state(seed=0).to_dict()["stands"]
    assert any(s["id"] == "t34g" for s in stands)


def test_microarmour_meeting_lasts_sixteen_turns():
    """Micro Armour RULES.md, Scenarios, `meeting` (design choice, balance): "16
    turns (`turns = 16`, the default of the `turns` parameter in this scenario),
    not the 12 first written"; forces, cohesion and quality stay the Introductory's."""
    import ardsearch
    d = microarmour_file("meeting")
    assert d["turns"] == 16
    assert (d["side"]["german"]["cohesion"], d["side"]["soviet"]["cohesion"]) == (15, 12)
    assert (d["side"]["german"]["quality"], d["side"]["soviet"]["quality"]) == (1, 0)
    assert ardsearch.load_game("microarmour", scenario="meeting").new_initial_state(seed=0).to_dict()["turns"] == 16


def test_microarmour_ambush_lasts_sixteen_turns():
    """Micro Armour RULES.md, Scenarios, `ambush` (design choice, balance,
    session 34): "16 turns (`turns = 16`, the default of the `turns` parameter
    in this scenario), not 12"; cohesion, quality and the light rain stay."""
    import ardsearch
    d = microarmour_file("ambush")
    assert (d["turns"], d["weather"]) == (16, "light_rain")
    assert (d["side"]["german"]["cohesion"], d["side"]["soviet"]["cohesion"]) == (15, 12)
    assert ardsearch.load_game("microarmour", scenario="ambush").new_initial_state(seed=0).to_dict()["turns"] == 16


def test_microarmour_ambush_has_one_dummy_and_five_t34s():
    """Micro Armour RULES.md, Scenarios, `ambush` (design choice, balance): "the
    markers `m5` (12,6) and `m8` (25,12) are T-34s; as first written they were
    dummies"; `m2` stays the one dummy, and every marker stays where it was."""
    import collections
    d = microarmour_file("ambush")
    markers = {s["id"]: s for s in d["stand"] if s.get("hidden")}
    assert (markers["m5"]["type"], markers["m5"]["at"]) == ("t34", [12, 6])
    assert (markers["m8"]["type"], markers["m8"]["at"]) == ("t34", [25, 12])
    assert collections.Counter(s["type"] for s in markers.values()) == {"t34": 5, "rifle": 2, "zis3": 1, "dummy": 1}
    assert markers["m2"]["type"] == "dummy"


def test_microarmour_airdrop_lasts_sixteen_turns():
    """Micro Armour RULES.md, Scenarios, `airdrop` (design choice, balance): "16
    turns (`turns = 16`, the default of the `turns` parameter in this scenario),
    not the Introductory's 12 first written"; the landing group (three platoons and
    their HQ, a hot jump on turn 2 with +2 on the arrival roll) is unchanged."""
    import ardsearch
    d = microarmour_file("airdrop")
    assert d["turns"] == 16
    assert (d["side"]["german"]["cohesion"], d["side"]["soviet"]["cohesion"]) == (15, 12)
    (drop,) = d["drop"]
    assert (drop["stands"], drop["turn"], drop["jump"], drop["modifier"]) == (["fja", "fjb", "fjc", "fjhq"], 2, "hot", 2)
    assert ardsearch.load_game("microarmour", scenario="airdrop").new_initial_state(seed=0).to_dict()["turns"] == 16


def test_microarmour_ambush_support_lasts_sixteen_turns():
    """Micro Armour RULES.md, Scenarios, `ambush_support` (design choice, balance):
    "16 turns (`turns = 16` in this file ...), not its base's 12"; its fire support
    (the 2-section leFH battery, the Ju 87 without FASC) is unchanged; its base
    `ambush` has 16 turns too since session 34, and this file keeps its own."""
    import ardsearch
    d = microarmour_file("ambush_support")
    assert (d["base"], d["turns"]) == ("ambush", 16)
    (battery,) = d["battery"]
    assert (battery["id"], battery["sections"], battery["sheaf"]) == ("lefh", 2, "open")
    assert [(a["id"], a["turns"], a["fasc"]) for a in d["aircraft"]] == [("ju87", 3, False)]
    assert ardsearch.load_game("microarmour", scenario="ambush_support").new_initial_state(seed=0).to_dict()["turns"] == 16


def test_microarmour_barrage_lasts_twenty_turns_and_the_soviet_122_fires_a_barrage():
    """Micro Armour RULES.md, Scenarios, `barrage` (design choice, balance): "20
    turns (`turns = 20` in this file ...), not its base's 12, and the Soviet
    `m30`'s fire a barrage (two CRT columns up)"; the German batteries (lefh 3
    sections closed, sfh 2 open, a barrage) and the ZiS-3 battery are unchanged
    (session 45: the 15 cm battery kept, since removing it did not move the
    seats and would leave no shipped game with a multi-turn battery)."""
    import ardsearch
    d = microarmour_file("barrage")
    assert (d["base"], d["turns"]) == ("introductory", 20)
    bats = {b["id"]: b for b in d["battery"]}
    assert (bats["m30"]["sections"], bats["m30"]["sheaf"], bats["m30"].get("barrage")) == (3, "open", True)
    assert (bats["lefh"]["sections"], bats["lefh"].get("barrage", False)) == (3, False)
    assert (bats["sfh"]["sections"], bats["sfh"]["barrage"], bats["sfh"]["duration"]) == (2, True, 2)
    assert not bats["zisb"].get("barrage", False)
    assert ardsearch.load_game("microarmour", scenario="barrage").new_initial_state(seed=0).to_dict()["turns"] == 20
