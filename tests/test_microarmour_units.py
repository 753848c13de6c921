"""Micro Armour: the special stand types (RULES.md, "Special stand types"), one
hand-built position per rule in the meeting scenario (scenarios/meeting.toml),
each checked against the reference model (check_reference) as the rules tests
do. The digest (shared/seeds/micro-armour.txt) names the types and gives the
cavalry and flame rules; the numbers are design values in data/weapons.toml.

Meeting map squares used: the stream is the column x = 12 (a ford at 12,6 on the
road y = 6); hills at (6..8, 11..12) and (16..18, 4..5); woods at (2..4, 3..4);
rough at (4..5, 8..9); clear at rows y = 0..2 away from x = 6, 7, 12, 18, 19.
"""
from __future__ import annotations

import os
import sys

import pytest

import ardsearch
from ardsearch.games.microarmour import _data, _engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import check_reference, chances, deployed, keep_only, moves, moving_side, play  # noqa: E402

GAME = ardsearch.load_game("microarmour", scenario="meeting")
BASE = deployed(GAME.new_initial_state(seed=0).to_dict())
FIELDS = 432      # the family's 20 bytes (RULES.md, The state struct: offset 432; blocks merged later sit after it)


def position(stands, units=None, **top):
    """A meeting state: `stands` ({id: {field: value}}) as named, the GHQs in far
    corners, every other stand lost; `units` the "units" key."""
    d = dict(BASE)
    d["stands"] = keep_only(BASE["stands"], stands, ghq_at=((0, 0), (23, 13)))
    d["units"] = units if units is not None else {"mounted": [], "flame": None, "offtable": [], "group": None}
    d.update(top)
    state = GAME.state_from_dict(d)
    check_reference(state)
    return state


# ------------------------------------------------------------------ horse cavalry
def test_mounted_cavalry_moves_with_its_horses_mp():
    """Digest, Defence classes: "There are special rules for ... horse cavalry
    (mount/dismount)". Design (weapons.toml kazak): on horseback 12 MP, on foot 4."""
    st = position({"kaz1": {"at": [20, 1], "posture": "move"}}, {"mounted": ["kaz1"], "flame": None},
                  **moving_side("kaz1", "soviet", step="roll"))
    play(st, "c:ok")
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "kaz1")["mp"] == 24    # half-MP
    foot = position({"kaz1": {"at": [20, 1], "posture": "move"}}, **moving_side("kaz1", "soviet", step="roll"))
    play(foot, "c:ok")
    assert next(s for s in foot.to_dict()["stands"] if s["id"] == "kaz1")["mp"] == 8


def test_dismounting_costs_mp_before_the_first_step_and_only_once():
    """Digest: cavalry "mount/dismount". Design: the change is made before the
    stand's first step and costs mount_cost (2 MP); the new allowance applies."""
    st = position({"kaz1": {"at": [20, 1], "posture": "move", "mp": 24}}, {"mounted": ["kaz1"], "flame": None},
                  **moving_side("kaz1", "soviet"))
    assert "dismount" in moves(st) and "mount" not in moves(st)
    play(st, "dismount")
    d = st.to_dict()
    assert d["units"]["mounted"] == []
    assert next(s for s in d["stands"] if s["id"] == "kaz1")["mp"] == 8 - 4
    assert "mount" not in moves(st) and "dismount" not in moves(st)


def test_mounting_is_not_offered_after_the_first_step():
    """Design: mounting or dismounting happens before the stand moves."""
    st = position({"kaz1": {"at": [20, 1], "posture": "move", "mp": 6, "steps": 1}},
                  **moving_side("kaz1", "soviet"))
    assert "mount" not in moves(st)


def test_mounted_cavalry_does_not_fire_dismounted_cavalry_does():
    """Design (digest: cavalry "mount/dismount"; a stand represents "a 30-50 man
    infantry or cavalry platoon"): troopers fight on foot, so a mounted stand
    does not fire; it may still close assault."""
    stands = {"kaz1": {"at": [20, 0]}, "rad1": {"at": [17, 0]}}
    mounted = position(stands, {"mounted": ["kaz1"], "flame": None}, phase="fire", active="soviet")
    assert "fire kaz1>rad1" not in moves(mounted)
    on_foot = position(stands, phase="fire", active="soviet")
    assert "fire kaz1>rad1" in moves(on_foot)


def test_mounted_cavalry_close_assaults_at_double_value():
    """Digest, Close assault: "Only infantry and cavalry may assault" and
    "Cavalry double their printed combat value when close assaulting personnel or
    other non-vehicle stands." A mounted defender does not strike first (it
    does not fire)."""
    st = position({"kaz1": {"at": [18, 1], "posture": "move", "mp": 10, "steps": 2}, "rad1": {"at": [17, 1]}},
                  {"mounted": ["kaz1"], "flame": None}, **moving_side("kaz1", "soviet"))
    assert "assault rad1" in moves(st)
    back = position({"kaz1": {"at": [17, 1]}, "rad1": {"at": [18, 1], "posture": "move", "mp": 10, "steps": 2}},
                    {"mounted": ["kaz1"], "flame": None}, **moving_side("rad1", "german"))
    play(back, "assault kaz1")
    assert back.to_dict()["attack"]["kind"] == "assault"      # no defender's strike from horseback


def test_cavalry_doubles_not_against_buildings():
    """Digest, Close assault: "Cavalry double their value vs non-vehicles (not vs
    buildings or improved positions)". The Cossacks close assaulting the cyclists
    in the open count their HE twice; against the same stand in a building area
    of the meeting's village (13,8) once (terrain is otherwise ignored in a close
    assault, so the difference is exactly one HE value). The same exception for a
    defender with the benefit of an improved position shares ip_of() with the
    position's fire modifiers (tests/test_microarmour_obstacles.py); the meeting
    has no positions and no other scenario has cavalry."""
    he = BASE["types"]["kazak"]["he"]
    open_ = position({"kaz1": {"at": [15, 3]}, "rad1": {"at": [14, 3]}}).serialize()[-GAME.state_size:]
    village = position({"kaz1": {"at": [14, 8]}, "rad1": {"at": [13, 8]}}).serialize()[-GAME.state_size:]
    assert (_engine._combat_diff(open_, "kaz1", "rad1", assault=True)
            == _engine._combat_diff(village, "kaz1", "rad1", assault=True) + he)
    assert (_engine._combat_diff(open_, "kaz1", "rad1")
            == _engine._combat_diff(village, "kaz1", "rad1"))  # fire: the range and cover modifiers are not in the CD


def test_mounted_personnel_defend_as_out_of_firing_posture():
    """Digest, Codes: 'P' "defence halved when not in firing posture". Design: a
    mounted stand is never in firing posture for its defence."""
    raw_foot = position({"kaz1": {"at": [20, 1]}, "rad1": {"at": [17, 1]}}).serialize()[-GAME.state_size:]
    raw_horse = position({"kaz1": {"at": [20, 1]}, "rad1": {"at": [17, 1]}},
                         {"mounted": ["kaz1"], "flame": None}).serialize()[-GAME.state_size:]
    assert _engine._combat_diff(raw_horse, "rad1", "kaz1") == _engine._combat_diff(raw_foot, "rad1", "kaz1") + 2


# ------------------------------------------------------------------ movement types
def step_mp(sid, side, at, d, mp=20):
    st = position({sid: {"at": at, "posture": "move", "mp": mp}}, **moving_side(sid, side))
    play(st, f"step {d}")
    return mp - next(s for s in st.to_dict()["stands"] if s["id"] == sid)["mp"]


def test_mountain_troops_cross_hills_rough_and_woods_at_one_mp():
    """Digest: special rules for "bicycle, ski and mountain troops". Design
    (weapons.toml gebjg): hills, rough and woods cost mountain troops 1 MP per
    inch (foot infantry: hill 2, rough 1, woods 2)."""
    assert step_mp("geb", "german", [5, 11], "e") == 2        # into the hill at 6,11: 1 MP
    assert step_mp("geb", "german", [1, 4], "e") == 2         # into the woods at 2,4: 1 MP
    assert step_mp("rad1", "german", [5, 11], "e", mp=16) == 8  # bicycles pushed up the hill: 4 MP


def test_bicycle_troops_ride_roads_fast_and_walk_off_them():
    """Digest: special rules for "bicycle ... troops". Design (weapons.toml
    radfahr): 8 MP, roads 1/2 MP per inch, clear 2, woods and hills 4: 16" on a
    road, 4" across clear, as foot infantry."""
    assert step_mp("rad1", "german", [2, 6], "e") == 1        # road: 1/2 MP
    assert step_mp("rad1", "german", [2, 1], "e") == 4        # clear: 2 MP


def test_ski_troops_cross_clear_and_rough_at_one_mp():
    """Digest: special rules for "ski ... troops". Design (weapons.toml lyzhnik;
    the meeting scenario is a winter one): 6 MP, clear, rough and hills 1 MP per
    inch, woods 2."""
    assert step_mp("ski", "soviet", [22, 0], "w") == 2
    assert step_mp("ski", "soviet", [18, 9], "w") == 2        # rough at 17,9: 1 MP
    assert step_mp("ski", "soviet", [20, 2], "w") == 4        # woods at 19,2: 2 MP


def test_boats_move_only_on_water():
    """Digest, Terrain: "Streams, rivers and water need fords, bridges, amphibious
    movement or fording boats"; special rules for "boats". Design: a boat moves
    only on water (the stream and its ford), 1 MP per inch."""
    st = position({"bk": {"at": [12, 9], "posture": "move", "mp": 20}}, **moving_side("bk", "soviet"))
    steps = [m for m in moves(st) if m.startswith("step")]
    assert sorted(steps) == ["step n", "step s"]
    play(st, "step s")
    play(st, "step s")
    play(st, "step s")                                        # onto the ford at 12,6
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "bk")["at"] == [12, 6]


# ------------------------------------------------------------------ flame
def flame_crt(target, at, res="S", **extra):
    stands = {"flam": {"at": [14, 1], "facing": "e"}, target: {"at": at}, **extra}
    return position(stands, phase="fire", active="german",
                    attack={"side": "german", "kind": "standard", "target": target, "firers": ["flam"],
                            "step": "crt", "current": 2, "hit": False})


def test_a_flame_hit_makes_the_target_roll_cohesion():
    """Digest, Close assault: "A defender that fails its cohesion roll when hit by
    a flame-throwing vehicle must retreat at least 1" farther away, or it
    surrenders and is eliminated." The roll is the target side's cohesion (12)."""
    st = flame_crt("rifm", [16, 1])
    play(st, "crt:S")
    assert st.to_dict()["units"]["flame"] == {"target": "rifm", "by": "flam", "step": "roll"}
    assert chances(st) == pytest.approx({"c:ok": 12 / 20 - 4 / 20, "c:fail": 8 / 20 + 4 / 20})   # S: +4
    assert "flame: flam > rifm [roll]" in str(st)


def test_a_failed_flame_roll_retreats_the_target_away_from_the_flame_vehicle():
    """Digest: "must retreat at least 1" farther away" (design: exactly 1", its
    owner picks the square, as for a close assault's D)."""
    st = flame_crt("rifm", [16, 1])
    play(st, "crt:S")
    play(st, "c:fail")
    assert st.to_dict()["units"]["flame"]["step"] == "retreat"
    assert sorted(moves(st)) == ["retreat e", "retreat ne", "retreat se"]
    play(st, "retreat e")
    d = st.to_dict()
    assert next(s for s in d["stands"] if s["id"] == "rifm")["at"] == [17, 1]
    assert d["units"]["flame"] is None


def test_a_flamed_stand_that_cannot_retreat_surrenders():
    """Digest: "... or it surrenders and is eliminated." Hemmed in by the table's
    south edge and friends, the rifle platoon cannot fall back."""
    st = flame_crt("rifm", [16, 0], shq={"at": [17, 0]}, ski={"at": [17, 1]})
    play(st, "crt:S")
    play(st, "c:fail")
    assert not next(s for s in st.to_dict()["stands"] if s["id"] == "rifm")["alive"]


def test_a_flame_miss_or_a_passed_roll_changes_nothing():
    """Digest: only a defender "that fails its cohesion roll when hit"."""
    st = flame_crt("rifm", [16, 1])
    play(st, "crt:-")
    assert st.to_dict()["units"]["flame"] is None
    st = flame_crt("rifm", [16, 1])
    play(st, "crt:S")
    play(st, "c:ok")
    assert st.to_dict()["units"]["flame"] is None
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "rifm")["at"] == [16, 1]


# ------------------------------------------------------------------ data and bad input
def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


BASE_W = """[inf]
ap = 2
he = 4
dv = 5
defence = "P"
range = 6
mp = 4
move = "F"
"""


@pytest.mark.parametrize("extra,words", [
    ('flame = true\n', "only on an armoured vehicle"),
    ('mounted_mp = 10\n', "only on a cavalry = true type"),
    ('terrain_cost = { swamp = 1 }\n', "a terrain of charts.toml"),
    ('boat = true\nterrain_cost = { stream = 1 }\n', "a boat moves only on water"),
    ('cavalry = true\nmount_cost = 2\n', "only beside mounted_mp"),
])
def test_the_loader_refuses_bad_stand_type_codes(tmp_path, extra, words):
    """weapons.toml codes of this family are validated with the key and the reason."""
    with pytest.raises(ValueError, match=words):
        _data.load_weapons(write(tmp_path, "weapons.toml", BASE_W + extra))


def test_a_boat_is_placed_only_on_water(tmp_path):
    """Design: "boats only where a map has water": the loader accepts a boat stand
    only on a water square."""
    text = open(os.path.join(os.path.dirname(_data.__file__), "scenarios", "meeting.toml")).read()
    bad = text.replace("at = [12, 11]", "at = [11, 11]")
    with pytest.raises(ValueError, match="meeting.toml: stand\\[14\\].at: expected a water square"):
        _data.load_scenario(path=write(tmp_path, "meeting.toml", bad))
    horse = text.replace('id = "rifm"\ntype = "rifle"\nside = "soviet"\nat = [23, 10]\nfacing = "w"',
                         'id = "rifm"\ntype = "rifle"\nside = "soviet"\nat = [23, 10]\nfacing = "w"\nmounted = true')
    with pytest.raises(ValueError, match="mounted: expected false: rifle has no horses"):
        _data.load_scenario(path=write(tmp_path, "meeting.toml", horse))


def corrupt(state, offset, values):
    b = bytearray(state.serialize())
    start = len(b) - GAME.state_size + FIELDS
    for i, v in enumerate(values):
        b[start + offset + i] = v
    return bytes(b)


def test_validate_refuses_corrupt_stand_type_fields():
    """Corrupt bytes in the family's fields are refused with a ValueError, never a crash."""
    st = GAME.new_initial_state(seed=1)
    assert GAME.deserialize_state(st.serialize()).to_dict()["units"]["mounted"] == ["kaz1", "kaz2"]
    for offset, values in ((0, [1, 0, 0, 0]),          # slot 0 (the German GHQ) on horseback
                           (4, [1]),                     # a flame roll with no target
                           (4, [3]),                     # no such flame step
                           (5, [3]),                     # a target with no flame check
                           (7, [1]),                     # the reserved byte
                           (11, [0x80]),                 # slot 31 (empty) off the table
                           (12, [0]),                    # a group attempt with no step
                           (13, [1]),                    # a group roll with no group
                           (13, [3]),                    # no such group step
                           (15, [1])):                   # the group block's reserved byte
        with pytest.raises(ValueError):
            GAME.deserialize_state(corrupt(st, offset, values))


def test_from_dict_names_a_mounted_stand_without_horses():
    d = dict(BASE)
    d["units"] = {"mounted": ["rifm"], "flame": None}
    with pytest.raises(ValueError, match="units.mounted: 'rifm' has no horses"):
        GAME.state_from_dict(d)


def test_board_text_and_structured_state_show_the_new_fields():
    """RULES.md, Reading the board: `H` marks a stand on horseback; the types list
    their special codes."""
    d = BASE
    assert d["units"]["mounted"] == ["kaz1", "kaz2"] and d["units"]["flame"] is None
    assert d["types"]["kazak"]["special"] == ["cavalry"] and d["types"]["kazak"]["mounted_mp"] == 12
    assert d["types"]["bkboat"]["special"] == ["boat", "terrain_cost"]
    assert d["types"]["flammpz"]["special"] == ["flame"]
    text = str(GAME.new_initial_state(seed=0))
    assert any(line.split()[0] == "kaz1" and "H" in line.split()[-1] for line in text.splitlines()[1:] if line.strip())


# ------------------------------------------------------------------ entry from the table edge
def test_both_sides_start_off_the_table_at_their_edges():
    """Digest, Scenarios: "Both sides enter the playing surface on turn one (1),
    Germans from one narrow edge, Soviets from the other." The meeting scenario's
    sides have entry = true: every stand on its edge column starts off the table
    (its square there is its entry point); the boat is already on the stream."""
    d = GAME.new_initial_state(seed=0).to_dict()
    off = d["units"]["offtable"]
    assert "bk" not in off and len(off) == 14
    assert all(s["at"][0] in (0, 23) for s in d["stands"] if s["id"] in off)
    text = str(GAME.new_initial_state(seed=0))
    assert "\n 6 ============f===========" in text           # nobody drawn on the table yet
    close = ardsearch.load_game("microarmour", scenario="meeting", deployment="close")
    assert close.new_initial_state(seed=0).to_dict()["units"]["offtable"] == []


def entering(extra=None, **top):
    stands = {"pz4m": {"at": [0, 5]}, "t34m": {"at": [23, 7]}, **(extra or {})}
    return position(stands, {"mounted": [], "flame": None, "offtable": ["pz4m", "t34m"]}, **top)


def test_stands_off_the_table_neither_fire_nor_are_fired_at():
    """Design (the digest's stands "enter the playing surface" on turn 1): before it
    has entered a stand is not on the table, so it cannot fire or be attacked."""
    st = entering({"rad1": {"at": [3, 5]}, "rifm": {"at": [6, 5]}}, phase="fire", active="german")
    assert "fire rad1>rifm" in moves(st)
    assert not any(m.startswith("fire pz4m") or m.endswith(">t34m") for m in moves(st))
    st = entering({"rad1": {"at": [3, 5]}, "rifm": {"at": [2, 5]}, "kaz1": {"at": [1, 4]}},
                  phase="fire", active="soviet")
    assert "fire rifm>pz4m" not in moves(st) and "fire kaz1>pz4m" not in moves(st)


def test_a_stand_enters_by_paying_for_its_entry_square():
    """Design: entering is the stand's first inch, onto its entry square on the
    edge (clear at 0,5: 1 MP), after its movement roll passes."""
    st = position({"pz4m": {"at": [0, 5], "posture": "move"}, "t34m": {"at": [23, 7]}},
                  {"mounted": [], "flame": None, "offtable": ["pz4m", "t34m"]}, **moving_side("pz4m", "german", step="roll"))
    play(st, "c:ok")
    d = st.to_dict()
    pz = next(s for s in d["stands"] if s["id"] == "pz4m")
    assert d["units"]["offtable"] == ["t34m"]
    assert pz["at"] == [0, 5] and pz["steps"] == 1 and pz["mp"] == 24 - 2


def test_a_failed_movement_roll_leaves_the_stand_off_the_table():
    st = position({"pz4m": {"at": [0, 5], "posture": "move"}, "t34m": {"at": [23, 7]}},
                  {"mounted": [], "flame": None, "offtable": ["pz4m", "t34m"]}, **moving_side("pz4m", "german", step="roll"))
    play(st, "c:fail")
    assert st.to_dict()["units"]["offtable"] == ["pz4m", "t34m"]


def test_stands_still_off_at_the_end_of_turn_1_movement_are_placed_on_their_squares():
    """Design: the digest has both sides enter on turn 1; a stand that did not move
    in (failed rolls, no orders) is placed on its entry square when turn 1's
    movement phase ends."""
    st = entering(phase="movement", active="german", passed=[False, True])
    play(st, "pass")
    assert st.to_dict()["units"]["offtable"] == []
    assert st.to_dict()["phase"] == "recovery" or st.to_dict()["turn"] == 2


def test_a_stand_waiting_to_enter_holds_its_entry_square():
    """Design: no stand moves onto an entry square before its stand has entered."""
    st = position({"pz4m": {"at": [0, 5]}, "rad1": {"at": [1, 5], "posture": "move", "mp": 8},
                   "t34m": {"at": [23, 7]}},
                  {"mounted": [], "flame": None, "offtable": ["pz4m"]}, **moving_side("rad1", "german"))
    assert "step w" not in moves(st) and "step nw" in moves(st)


def test_from_dict_and_validate_refuse_bad_entry_marks():
    d = dict(BASE)
    d["units"] = {"mounted": [], "flame": None, "offtable": ["bk"]}
    with pytest.raises(ValueError, match="units.offtable: 'bk' is not a stand entering"):
        GAME.state_from_dict(d)
    d["units"] = {"mounted": [], "flame": None, "offtable": ["pz4m"]}
    d["turn"] = 2
    with pytest.raises(ValueError, match="off the table"):
        GAME.state_from_dict(d)


# ------------------------------------------------------------------ movement groups
BIKES = {"ghq": {"at": [3, 1]}, "rad1": {"at": [4, 1]}, "rad2": {"at": [5, 1]}}


def test_a_group_is_marked_for_posture_in_one_move():
    """Digest, Posture: "In the Posture Determination Phase players alternately mark
    multi-stand movement groups, then single-stand groups, as movement or fire/move;
    unmarked stands are in firing posture." The scenario's group gbik (ghq, rad1,
    rad2) is marked with one move; the turn passes to the other player."""
    st = position(BIKES, phase="posture", active="german")
    assert {"gposture gbik move", "gposture gbik firemove"} <= set(moves(st))
    assert not any(m.startswith("gposture gpz") for m in moves(st))     # its stands are lost
    play(st, "gposture gbik move")
    d = st.to_dict()
    assert all(s["posture"] == "move" for s in d["stands"] if s["id"] in BIKES)
    assert d["active"] == "soviet"


def moving_bikes(**extra):
    stands = {k: {**v, "posture": "move"} for k, v in BIKES.items()}
    for k, v in extra.items():
        stands[k] = {**stands[k], **v}
    return position(stands, phase="movement", active="german", orders=[2, 0])


def test_a_group_rolls_one_base_die_with_each_stands_modifiers():
    """Digest, Movement: "Movement groups roll one base 1D20 and apply each stand's
    modifiers to it, so some stands may move while others stay; each HQ/GHQ in the
    group gives -2." German cohesion 15; the HQ gives -2 to all three; rad1 is
    Suppressed (+4): it moves on 1..13, the others on 1..17 (outcomes named by the
    lowest roll with that effect)."""
    st = moving_bikes(rad1={"suppressed": True})
    play(st, "gorder gbik")
    assert st.to_dict()["orders"][0] == 1                # one order for the group
    assert chances(st) == pytest.approx({"g:1": 13 / 20, "g:14": 4 / 20, "g:18": 3 / 20})
    play(st, "g:14")
    d = st.to_dict()
    assert d["units"]["group"] == {"id": "gbik", "step": "moving", "ordered": True,
                                   "attempting": ["ghq", "rad1", "rad2"], "to_move": ["rad2"]}
    assert d["mover"]["id"] == "ghq" and d["mover"]["step"] == "step"
    assert "group: gbik (moving) ghq,rad1,rad2; still to move: rad2" in str(st)
    play(st, "step n")
    play(st, "stop n")
    assert st.to_dict()["mover"]["id"] == "rad2"          # the next stand that passed
    play(st, "stop n")
    d = st.to_dict()
    assert d["units"]["group"] is None and d["mover"] is None
    rad1 = next(s for s in d["stands"] if s["id"] == "rad1")
    assert not rad1["moved"]


def test_a_failed_group_may_get_more_orders():
    """Digest, Movement orders: "Each ordered attempt costs one order whether or not
    it passes, and a failed group may get more orders.\""""
    st = moving_bikes()
    play(st, "gorder gbik")
    play(st, "g:18")
    d = st.to_dict()
    assert d["units"]["group"] is None and d["orders"][0] == 1
    st2 = GAME.state_from_dict({**d, "active": "german"})
    check_reference(st2)
    assert "gorder gbik" in moves(st2) and "order rad1" in moves(st2)


def test_an_independent_group_attempt_is_at_plus_three_and_forfeits_orders():
    """Digest: "Once orders are spent, each unmoved group may try one independent move
    at +3 ([R]econ stands are exempt)." (As for a single stand, going independent
    gives up the orders left.) 15 - 3 + 2 (the HQ): all move on 1..14."""
    st = moving_bikes()
    play(st, "gindep gbik")
    d = st.to_dict()
    assert d["orders"][0] == 0
    assert all(s["indep_tried"] for s in d["stands"] if s["id"] in BIKES)
    assert chances(st) == pytest.approx({"g:1": 14 / 20, "g:15": 6 / 20})


def test_conflicting_orders_on_a_group_roll_stops_the_group():
    """Digest: "A natural 1 or 20 on an ordered movement roll gives 'Intuitive Action'
    or 'Conflicting Orders'" (RULES.md, Movement: a natural 20 loses the orders
    left and the attempt fails; a passing natural 1 keeps the order)."""
    game = ardsearch.load_game("microarmour", scenario="meeting", intuitive_action=True, conflicting_orders=True)
    d = dict(moving_bikes().to_dict())
    d["intuitive_action"] = d["conflicting_orders"] = True
    st = game.state_from_dict(d)
    check_reference(st)
    play(st, "gorder gbik")
    assert set(chances(st)) == {"g:1", "g:2", "g:18", "g:20"}
    st2 = game.state_from_dict(st.to_dict())
    play(st, "g:20")
    assert st.to_dict()["orders"][0] == 0 and st.to_dict()["units"]["group"] is None
    play(st2, "g:1")
    assert st2.to_dict()["orders"][0] == 2                 # Intuitive Action: the order is not spent


@pytest.mark.parametrize("groups,words", [
    ('[[group]]\nid = "g1"\nside = "german"\nstands = ["flam"]\n', "2 to 8 distinct stand ids"),
    ('[[group]]\nid = "g1"\nside = "german"\nstands = ["flam", "kaz1"]\n', "2 to 8 distinct stand ids"),
    ('[[group]]\nid = "g1"\nside = "german"\nstands = ["flam", "geb"]\n', "stands in no other group"),
    ('[[group]]\nid = "flam"\nside = "german"\nstands = ["geb", "gghq"]\n', "not a stand's id"),
])
def test_the_loader_refuses_bad_groups(tmp_path, groups, words):
    text = open(os.path.join(os.path.dirname(_data.__file__), "scenarios", "meeting.toml")).read()
    with pytest.raises(ValueError, match=words):
        _data.load_scenario(path=write(tmp_path, "meeting.toml", text + groups))


def test_mounting_gives_the_horses_allowance_less_the_cost():
    """Digest: cavalry "mount/dismount". Design: mounting before the first step
    costs 2 MP off the mounted allowance (12 MP: 24 half-MP, less 4)."""
    st = position({"kaz1": {"at": [20, 1], "posture": "move", "mp": 8}}, **moving_side("kaz1", "soviet"))
    assert "mount" in moves(st) and "dismount" not in moves(st)
    play(st, "mount")
    d = st.to_dict()
    assert d["units"]["mounted"] == ["kaz1"]
    assert next(s for s in d["stands"] if s["id"] == "kaz1")["mp"] == 20


def test_a_group_enters_from_the_table_edge_one_stand_after_another():
    """Digest: "Movement groups roll one base 1D20 ..." and "Both sides enter the
    playing surface on turn one (1)". Each stand of the group that passed enters
    onto its own entry square when its turn to move comes."""
    stands = {"ghq": {"at": [0, 9], "posture": "move"}, "rad1": {"at": [0, 8], "posture": "move"},
              "rad2": {"at": [0, 4], "posture": "move"}}
    st = position(stands, {"mounted": [], "flame": None, "offtable": ["ghq", "rad1", "rad2"], "group": None},
                  phase="movement", active="german", orders=[1, 0])
    play(st, "gorder gbik")
    play(st, "g:1")
    d = st.to_dict()
    assert d["mover"]["id"] == "ghq" and d["units"]["offtable"] == ["rad1", "rad2"]
    play(st, "stop e")
    assert st.to_dict()["mover"]["id"] == "rad1" and st.to_dict()["units"]["offtable"] == ["rad2"]
