"""Micro Armour: the Introductory scenario enters from the table edges on turn 1
(contract shared/games/microarmour.md, "Scenario (design)": "both sides enter on turn
1 from opposite narrow edges"; digest, Scenarios: "Both sides enter the playing
surface on turn one (1), Germans from one narrow edge, Soviets from the other.").
RULES.md "Entry from the table edge"; scenarios/introductory.toml. Each position is
checked against the reference model (check_reference); the entry mechanism itself is
tested on the meeting scenario in tests/test_microarmour_units.py."""
from __future__ import annotations

import os
import random
import sys

import pytest

import ardsearch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import check_reference, chances, moves, moving_side, movement, play  # noqa: E402

GAME = ardsearch.load_game("microarmour")
START = GAME.new_initial_state(seed=0).to_dict()
GERMAN = [s["id"] for s in START["stands"] if s["side"] == "german"]
SOVIET = [s["id"] for s in START["stands"] if s["side"] == "soviet"]


def position(stands, offtable, game=GAME, **top):
    """The Introductory start with `stands` ({id: {field: value}}) changed, `offtable`
    the stands still waiting to enter, and top-level keys; every stand stays alive."""
    d = dict(game.new_initial_state(seed=0).to_dict())
    d["stands"] = [dict(s, **stands.get(s["id"], {})) for s in d["stands"]]
    d["units"] = dict(d["units"], offtable=list(offtable))
    d.update(top)
    state = game.state_from_dict(d)
    check_reference(state)
    return state


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def test_both_sides_start_off_the_table_at_opposite_narrow_edges():
    """Digest, Scenarios: "Both sides enter the playing surface on turn one (1), Germans from
    one narrow edge, Soviets from the other." The table is 30" x 20", so its narrow edges
    are the west and east ones: every German stand waits at x = 0, every Soviet one at x =
    29, the half-track htka (with its Panzergrenadiers aboard) on the road's row (y = 10;
    the road starts 10" in, RULES.md Scenarios `introductory`), the T-34 t34c on the
    road itself; the map shows no stand and each stand line is marked `o`."""
    sc = ardsearch.games.microarmour._engine.SCENARIOS[0]
    assert (sc["width"], sc["height"]) == (30, 20)
    assert [sd["edge"] for sd in sc["sides"]] == ["west", "east"] and all(sd["entry"] for sd in sc["sides"])
    by = {s["id"]: s for s in START["stands"]}
    assert all(by[i]["at"][0] == 0 for i in GERMAN) and all(by[i]["at"][0] == 29 for i in SOVIET)
    assert sorted(START["units"]["offtable"]) == sorted(GERMAN + SOVIET)
    assert by["htka"]["at"] == [0, 10] and by["pgra"]["carried_by"] == "htka" and by["pgra"]["at"] == [0, 10]
    terrain = [t["name"] for t in ardsearch.games.microarmour._engine.CHARTS["terrain"]]
    assert terrain[sc["grid"][10][29]] == "road" and terrain[sc["grid"][10][0]] == "clear"
    assert by["t34c"]["at"] == [29, 10]
    text = str(GAME.new_initial_state(seed=0)).splitlines()
    assert all(set(row[3:]) <= set(".=wrbh") for row in text[1:21])          # terrain only
    lines = [line.split() for line in text[24:] if line.startswith("  ")]
    assert all(parts[-1].endswith("o") or "o" in parts[-1] or "aboard" in parts for parts in lines
               if parts[0] in GERMAN + SOVIET)
    supp = ardsearch.load_game("microarmour", support=True).new_initial_state(seed=0).to_dict()
    assert len(supp["units"]["offtable"]) == 32


def test_deployment_close_starts_everyone_on_the_table_nine_inches_in():
    """RULES.md, parameters: `deployment=close` starts each side 9" from its own edge,
    on the table (nobody enters)."""
    d = ardsearch.load_game("microarmour", deployment="close").new_initial_state(seed=0).to_dict()
    assert d["units"]["offtable"] == []
    assert {s["at"][0] for s in d["stands"] if s["side"] == "german"} == {9}
    assert {s["at"][0] for s in d["stands"] if s["side"] == "soviet"} == {20}


def test_a_ghq_off_the_table_still_gives_its_sides_orders():
    """Digest, Scenarios: "Both sides enter the playing surface on turn one (1), Germans from
    one narrow edge, Soviets from the other." Design (RULES.md, Entry): the orders roll of
    turn 1 comes before anyone has entered; the GHQ's quality still sets it."""
    st = GAME.new_initial_state(seed=0)
    while st.to_dict()["phase"] != "orders" or not st.is_chance_node():
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        else:
            st.apply_action(st.legal_actions()[-1])
        assert st.to_dict()["turn"] == 1
    assert len(st.to_dict()["units"]["offtable"]) == 23
    assert len(chances(st)) > 1 and all(k.startswith("orders:") for k in chances(st))


def test_the_panzergrenadiers_enter_with_their_half_track():
    """Digest, Scenarios: "Both sides enter the playing surface on turn one (1), Germans from
    one narrow edge, Soviets from the other." Digest, Movement: cargo moves with its
    carrier. Off the table the Panzergrenadiers may not dismount; once the half-track's
    movement roll passes, its first inch is onto its entry square (0,10) and its cargo
    enters with it; then pgra may dismount east of it (west is off the table)."""
    everyone = GERMAN + SOVIET
    st = position({"htka": {"posture": "move"}}, everyone, phase="movement", active="german")
    assert not any(m.startswith("unload") for m in moves(st))
    st = position({"htka": {"posture": "move"}}, everyone, **moving_side("htka", "german", step="roll"))
    play(st, "c:ok")
    off = st.to_dict()["units"]["offtable"]
    assert "htka" not in off and "pgra" not in off and "htkb" in off and "pgrb" in off
    assert stand(st, "pgra")["at"] == stand(st, "htka")["at"] == [0, 10]
    assert "unload pgra e" in moves(st) and "unload pgra w" not in moves(st)
    play(st, "step e")
    assert stand(st, "pgra")["at"] == [1, 10] and stand(st, "pgra")["carried_by"] == "htka"


def test_nobody_boards_a_vehicle_that_has_not_entered():
    """Digest, Movement: "Loading needs both stands touching in movement posture";
    a vehicle off the table touches nobody (RULES.md, Entry): pgra, on the table beside
    the waiting (empty) half-track htkb, may board it only once htkb has entered."""
    rest = [i for i in GERMAN + SOVIET if i not in ("pgra", "htka", "pgrb")]
    stands = {"pgra": {"at": [1, 8], "carried_by": None, "posture": "move", "mp": 8},
              "pgrb": {"at": [5, 3], "carried_by": None}, "htka": {"at": [3, 3]}, "htkb": {"posture": "move"}}
    st = position(stands, rest, **moving_side("pgra", "german"))
    assert "load htkb" not in moves(st)
    st = position(stands, [i for i in rest if i != "htkb"], **moving_side("pgra", "german"))
    assert "load htkb" in moves(st)


def test_stands_off_the_table_block_no_line_of_sight():
    """Design (RULES.md, Entry): a stand not yet entered is not on the table, so it
    blocks no line of sight: the Pz IV at 0,4 sees the T-34 at 0,14 along the edge
    past the waiting German vehicles at 0,5..0,13; once they have entered they block."""
    stands = {"pz4a": {"at": [0, 4], "facing": "n"}, "t34d": {"at": [0, 16]}}
    waiting = [i for i in GERMAN + SOVIET if i not in stands]
    st = position(stands, waiting, phase="fire", active="german")
    assert "fire pz4a>t34d" in moves(st)
    assert not any(m.startswith("fire pz4a>") and m != "fire pz4a>t34d" for m in moves(st))
    st = position(stands, [i for i in waiting if i not in ("pz4b", "htka", "pgra")], phase="fire", active="german")
    assert "fire pz4a>t34d" not in moves(st)


@pytest.mark.parametrize("scenario", ["barrage", "combined"])
def test_nothing_is_plotted_before_anyone_has_entered(scenario):
    """Digest, Scenarios: "Both sides enter the playing surface on turn one (1), Germans from
    one narrow edge, Soviets from the other." Digest, Artillery: fire is "plotted by an FO
    or HQ with LOS". Design (RULES.md, Entry): a stand off the table sees nothing and
    plots nothing (a pre-registered point too needs a plotter on the table): the turn-1
    plot phase of the scenarios on the Introductory table offers each battery only `hold`
    (an aircraft's bomb plot needs no observer)."""
    game = ardsearch.load_game("microarmour", scenario=scenario)
    st = game.new_initial_state(seed=0)
    seen = 0
    while st.to_dict()["phase"] != "movement":
        if st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
            continue
        if st.to_dict()["phase"] == "plot" and "hold" in moves(st):      # a battery's plot decision
            assert moves(st) == ["hold"]
            seen += 1
        st.apply_action(st.legal_actions()[-1])
    assert seen


def test_validate_refuses_cargo_and_carrier_on_different_sides_of_the_edge():
    """Design (RULES.md, Entry): cargo is off the table exactly while its carrier is.
    A state with the half-track htka still off the table but its Panzergrenadiers
    (aboard it) marked entered, or the reverse, is refused with a message naming it."""
    everyone = GERMAN + SOVIET
    for off in ([i for i in everyone if i != "pgra"], [i for i in everyone if i != "htka"]):
        d = dict(START, units=dict(START["units"], offtable=off))
        with pytest.raises(ValueError, match="cargo not off the table exactly while its carrier is"):
            GAME.state_from_dict(d)


def test_no_airstrike_at_a_stand_that_has_not_entered():
    """Digest, Scenarios: "Both sides enter the playing surface on turn one (1), Germans
    from one narrow edge, Soviets from the other." Design (RULES.md, Entry): a stand off
    the table is not on the playing surface, so no aircraft strafes it or bombs its
    square. The combined scenario's Il-2 flies from turn 1: through turn 1 of seeded
    random games, no strafe or bomb offered names a stand (or the square of one) still
    off the table, while strafes at stands on the table are offered in turn 2."""
    game = ardsearch.load_game("microarmour", scenario="combined")
    offered = 0
    for seed in range(3):
        st = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while st.to_dict()["turn"] <= 2:
            if st.is_chance_node():
                st.apply_random_chance()
                continue
            d = st.to_dict()
            off = set(d["units"]["offtable"])
            squares = {"%d,%d" % tuple(s["at"]) for s in d["stands"] if s["id"] in off}
            for m in moves(st):
                word, _, rest = m.partition(" ")
                assert not (word == "strafe" and rest in off) and not (word == "bomb" and rest in squares), m
                offered += word == "strafe"
            st.apply_action(rng.choice(st.legal_actions()))
    assert offered


@pytest.mark.parametrize("scenario", ["barrage", "combined"])
def test_stands_wait_off_the_table_through_the_plot_phase(scenario):
    """Digest, Sequence of play: the Joint Plot phase comes before movement, so in
    turn 1 it finds every stand still off the table ("Both sides enter the playing
    surface on turn one (1)": they come on in the movement phase). Every state of
    seeded random turn-1 play up to the movement phase, and every child of it, is
    one validate() accepts (the merge once refused the plot phase: its phase number
    is higher than movement's though it comes first)."""
    game = ardsearch.load_game("microarmour", scenario=scenario)
    for seed in range(3):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        seen_plot = False
        while state.to_dict()["phase"] != "movement" and not state.is_terminal():
            seen_plot |= state.to_dict()["phase"] == "plot"
            acts = ([a for a, _ in state.chance_outcomes()] if state.current_player() == ardsearch.CHANCE
                    else state.legal_actions())
            for a in acts:
                child = state.clone()
                child.apply_action(a)
                game.state_from_raw(child.raw())
            state.apply_action(rng.choice(acts))
        assert seen_plot and state.to_dict()["units"]["offtable"]


@pytest.mark.parametrize("link", [32, 200, 254])
def test_a_carrier_byte_out_of_range_is_refused_while_stands_wait(link):
    """Issue 12, Bad input: "Nothing crashes on a corrupt serialized state". A
    serialized Introductory start (every stand off the table) whose carrier byte
    for pgra points past the 32 slots is refused with a ValueError; the entry check
    does not read the bad link (the sanitizer once caught it shifting by 254)."""
    st = GAME.new_initial_state(seed=0)
    raw = bytearray(st.raw())
    want = bytearray([255] * 32)
    ids = [s["id"] for s in START["stands"]]
    for s in START["stands"]:
        if s["carried_by"]:
            want[ids.index(s["id"])] = ids.index(s["carried_by"])
    at = bytes(raw).index(bytes(want))
    ser = st.serialize()
    i = ser.index(bytes(raw))
    raw[at + ids.index("pgra")] = link
    with pytest.raises(ValueError):
        GAME.deserialize_state(ser[:i] + bytes(raw) + ser[i + len(raw):])


def _drive_east(sid, half_mp, start=(0, 10)):
    """(The square, the half-MP left there) when `sid`, starting at `start` with
    `half_mp` half-MP (its entry square paid), steps east along y = 10 as far as
    the engine lets it."""
    st = movement({sid: {"at": list(start), "posture": "move", "mp": half_mp},
                   "sghq": {"fired": True}},                  # it has fired: no opportunity fire
                  mover={"id": sid, "step": "step", "ordered": True, "stopped": False})
    while "step e" in moves(st):
        st.apply("step e")
    check_reference(st)
    return stand(st, sid)["at"], stand(st, sid)["mp"]


def test_the_road_starts_ten_inches_in_so_no_german_vehicle_reaches_the_village_on_turn_1():
    """RULES.md Scenarios, `introductory` (design choice, balance): "the road runs
    from the east edge through the village and ends 10" from the west edge" ... "So
    no German vehicle reaches the village on turn 1: a half-track entering on the
    road's row would need 10 + 1.5 + 3 = 14.5 MP of its 14, and a Pz IV ends turn 1
    beside the village (11.5 MP of 12), while a T-34 entering on the road reaches it
    (6.5 + 3 of 14)."
    Costs (charts.toml, RULES.md Movement): clear 1 MP, road 1/2, buildings 3 for
    vehicles; the entry square is paid as the first inch."""
    sc = ardsearch.games.microarmour._engine.SCENARIOS[0]
    terrain = [t["name"] for t in ardsearch.games.microarmour._engine.CHARTS["terrain"]]
    row = [terrain[sc["grid"][10][x]] for x in range(30)]
    assert row == ["clear"] * 10 + ["road"] * 3 + ["buildings"] * 4 + ["road"] * 13
    # the half-track: 14 MP = 28 half, 2 paid for the clear entry square
    assert _drive_east("htka", 26) == ([12, 10], 26 - 9 * 2 - 3)     # 5 half-MP left, the village costs 6
    assert _drive_east("pz4a", 22) == ([12, 10], 22 - 9 * 2 - 3)     # 12 MP = 24 half, 2 paid
    # the T-34 on the road: 28 half, 1 paid for its road entry square; 12 road squares, then the village
    st = movement({"t34c": {"at": [29, 10], "posture": "move", "mp": 27}, "gghq": {"fired": True}}, active="soviet",
                  mover={"id": "t34c", "step": "step", "ordered": True, "stopped": False})
    for _ in range(12):
        st.apply("step w")
    assert stand(st, "t34c")["at"] == [17, 10] and "step w" in moves(st)
    st.apply("step w")                                               # into the village, x = 16
    check_reference(st)
    assert stand(st, "t34c")["at"] == [16, 10] and stand(st, "t34c")["mp"] == 27 - 12 - 6
