"""Micro Armour transport (issue 12, RULES.md "Transport"): one hand-built position per
rule, each docstring quoting the rulebook digest (shared/seeds/micro-armour.txt) or
naming the design choice. Positions start from keep_only() (tests/test_microarmour_rules.py)
and every one is checked against the reference model (check_reference).

Squares used: x 8..13, y 0..3 are clear (scenarios/introductory.toml); the German
half-tracks htka / htkb (SdKfz 251, cargo 1), the Panzergrenadiers pgra / pgrb
(personnel, 4 MP), the PaK 40 (a towed weapon, 2 MP), Pz IV H pz4a (12 MP).
"""
from __future__ import annotations

import pytest

import ardsearch
from test_microarmour_rules import BASE, GAME, chances, check_reference, crt_expected, keep_only, moves, play

RIDERS = ardsearch.load_game("microarmour", tank_riders=True)


def position(stands, tank_riders=False, **top):
    d = dict(BASE)
    d["stands"] = keep_only(BASE["stands"], stands)
    d.update(top)
    d["tank_riders"] = tank_riders
    state = (RIDERS if tank_riders else GAME).state_from_dict(d)
    check_reference(state)
    return state


def movement(stands, active="german", **top):
    return position(stands, phase="movement", active=active, orders=[3, 3], orders_rolled=2, **top)


def boarding(stands, mover="pgra", **top):
    """The mover in its step, after a passed movement roll."""
    return movement(stands, mover={"id": mover, "step": "step", "ordered": True, "stopped": False}, **top)


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


# ----------------------------------------------------------------- loading
def test_loading_needs_both_stands_touching_in_movement_posture():
    """Digest, Movement: "Loading needs both stands touching in movement posture and a
    cohesion roll". Touching: the squares share an edge or a corner (design: the table's
    adjacent, 1")."""
    pgra = {"at": [9, 1], "posture": "move", "mp": 8}
    assert "load htka" in moves(boarding({"pgra": pgra, "htka": {"at": [10, 2], "posture": "move"}}))
    # not touching: 2" away
    assert "load htka" not in moves(boarding({"pgra": pgra, "htka": {"at": [11, 1], "posture": "move"}}))
    # the vehicle not in movement posture
    for post in ("firing", "firemove"):
        assert "load htka" not in moves(boarding({"pgra": pgra, "htka": {"at": [10, 1], "posture": post}}))
    # the infantry in fire/move posture
    fm = dict(pgra, posture="firemove", mp=4)
    assert "load htka" not in moves(boarding({"pgra": fm, "htka": {"at": [10, 1], "posture": "move"}}))


def test_loading_roll_is_a_cohesion_roll_with_the_stands_own_modifiers():
    """Digest: loading "needs ... a cohesion roll"; "The same roll gates ... loading".
    German cohesion 15; a suppressed stand rolls at +4 (15 - 4 = 11 of 20)."""
    st = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 8},
                   "htka": {"at": [10, 1], "posture": "move"}})
    play(st, "load htka")
    assert st.is_chance_node() and st.to_dict()["mover"]["step"] == "load_roll"
    assert chances(st) == pytest.approx({"c:ok": 0.75, "c:fail": 0.25})
    sup = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 8, "suppressed": True},
                    "htka": {"at": [10, 1], "posture": "move"}})
    play(sup, "load htka")
    assert chances(sup) == pytest.approx({"c:ok": 0.55, "c:fail": 0.45})


def test_a_passed_loading_roll_puts_the_stand_aboard_and_a_failed_one_ends_its_move():
    """Digest: "A vehicle can carry ... personnel up to its cargo capacity". Aboard, the
    stand sits on its carrier's square; its move is over either way (design: the attempt
    spends the move)."""
    st = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 8},
                   "htka": {"at": [10, 1], "posture": "move"}})
    play(st, "load htka")
    ok, bad = st.clone(), st.clone()
    play(ok, "c:ok")
    pg = stand(ok, "pgra")
    assert pg["carried_by"] == "htka" and pg["at"] == [10, 1] and pg["moved"]
    assert stand(ok, "htka")["loaded_this_turn"] and ok.to_dict()["mover"] is None
    play(bad, "c:fail")
    pg = stand(bad, "pgra")
    assert pg["carried_by"] is None and pg["at"] == [9, 1] and pg["moved"]
    assert not stand(bad, "htka")["loaded_this_turn"]


def test_loading_personnel_costs_carrier_and_cargo_half_their_mp_rounded_up():
    """Digest: "Loading any number of personnel stands onto a transport stand costs the
    transport stand and each personnel stand 50% of its movement point allowance for the
    turn, rounded up." The Panzergrenadiers (4 MP) need 2 MP left; the half-track (14 MP)
    moves on with 7 (MP are counted in half-inches: 28 - 14 = 14)."""
    enough = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 4, "steps": 2},
                       "htka": {"at": [10, 1], "posture": "move"}})
    assert "load htka" in moves(enough)
    short = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 3, "steps": 2},
                      "htka": {"at": [10, 1], "posture": "move"}})
    assert "load htka" not in moves(short)
    # the carrier that took them aboard rolls to move later this turn
    st = movement({"pgra": {"at": [10, 1], "carried_by": "htka", "moved": True},
                   "htka": {"at": [10, 1], "posture": "move", "loaded_this_turn": True}},
                  mover={"id": "htka", "step": "roll", "ordered": True, "stopped": False})
    play(st, "c:ok")
    assert stand(st, "htka")["mp"] == 14
    # a vehicle that already moved this phase cannot load (it has no MP left to pay)
    moved = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 8},
                      "htka": {"at": [10, 1], "posture": "move", "moved": True}})
    assert "load htka" not in moves(moved)


def test_loading_a_weapon_costs_all_mp():
    """Digest: loading "costs 50% MP for personnel or all MP for weapons". The PaK 40 must
    load before it moves, and the half-track that takes it spends its move (design: both
    pay all). The PaK 40's load is over 10 points: it is aboard next turn, and both pay
    all their MP in that turn too (tests/test_microarmour_loads.py)."""
    fresh = boarding({"pak": {"at": [9, 1], "posture": "move", "mp": 4},
                      "htka": {"at": [10, 1], "posture": "move"}}, mover="pak")
    assert "load htka" in moves(fresh)
    walked = boarding({"pak": {"at": [9, 1], "posture": "move", "mp": 2, "steps": 1},
                       "htka": {"at": [10, 1], "posture": "move"}}, mover="pak")
    assert "load htka" not in moves(walked)
    play(fresh, "load htka", "c:ok")
    assert stand(fresh, "pak")["loading_onto"] == "htka"
    ht = stand(fresh, "htka")
    assert ht["moved"] and not ht["loaded_this_turn"]
    assert "order htka" not in moves(fresh) and "indep htka" not in moves(fresh)


def test_a_vehicle_carries_one_equipment_stand_and_personnel_up_to_its_capacity():
    """Digest: "A vehicle can carry one equipment stand and any number of personnel up to
    its cargo capacity." The SdKfz 251's capacity is 1 personnel stand (design,
    weapons.toml cargo); it may tow one weapon besides."""
    full = {"htka": {"at": [10, 1], "posture": "move"}, "pgra": {"at": [10, 1], "carried_by": "htka"}}
    st = boarding(dict(full, pgrb={"at": [9, 1], "posture": "move", "mp": 8}), mover="pgrb")
    assert "load htka" not in moves(st)
    st = boarding(dict(full, pak={"at": [9, 1], "posture": "move", "mp": 4}), mover="pak")
    assert "load htka" in moves(st)
    # a tank without the tank riders rule carries nothing
    st = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 8}, "pz4a": {"at": [10, 1], "posture": "move"}})
    assert "load pz4a" not in moves(st)


# ----------------------------------------------------------------- unloading
def test_dismounting_needs_no_roll():
    """Digest: "Dismounting needs no roll." In the movement phase a carried stand that has
    not moved dismounts to a free square beside its carrier as its move for the phase (design:
    it ends in movement posture); then the other player acts."""
    st = movement({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]}})
    legal = moves(st)
    assert {f"unload pgra {d}" for d in ("n", "ne", "e", "se", "s", "sw", "w", "nw")} <= set(legal)
    play(st, "unload pgra e")
    assert not st.is_chance_node() and st.current_player() == 1
    pg = stand(st, "pgra")
    assert pg["carried_by"] is None and pg["at"] == [11, 1] and pg["moved"] and pg["posture"] == "move"
    # not onto a stand, nor off the table
    st = movement({"pgra": {"at": [10, 0], "carried_by": "htka"}, "htka": {"at": [10, 0]}, "pz4a": {"at": [11, 0]}})
    legal = moves(st)
    assert "unload pgra e" not in legal and "unload pgra s" not in legal and "unload pgra w" in legal


def test_a_moving_carrier_drops_its_cargo_off_and_moves_on():
    """Digest: "Dismounting needs no roll." The carrier carries its cargo as it moves (the
    cargo stays on its square) and may drop it beside it at any step, then move on."""
    st = movement({"pgra": {"at": [9, 1], "carried_by": "htka"}, "htka": {"at": [9, 1], "posture": "move", "mp": 28}},
                  mover={"id": "htka", "step": "step", "ordered": True, "stopped": False})
    play(st, "step e")
    assert stand(st, "pgra")["at"] == [10, 1] and stand(st, "pgra")["facing"] == "e"
    play(st, "unload pgra n")
    assert stand(st, "pgra")["at"] == [10, 2] and st.to_dict()["mover"]["id"] == "htka"
    assert "step e" in moves(st)


def test_no_dismount_while_the_carrier_passes_through_a_friend():
    """Design (RULES.md Transport, Unloading): a carrier passing through another stand's
    square ("Friendly stands may pass through one another but not end overlapping") drops
    nobody there: the dismount could fill the one square it needs to step off."""
    st = movement({"pgra": {"at": [9, 1], "carried_by": "htka"}, "htka": {"at": [9, 1], "posture": "move", "mp": 28},
                   "pz4a": {"at": [10, 1]}},
                  mover={"id": "htka", "step": "step", "ordered": True, "stopped": False})
    play(st, "step e")
    assert stand(st, "htka")["at"] == [10, 1]
    assert not any(m.startswith("unload") for m in moves(st))
    play(st, "step e")
    assert any(m.startswith("unload pgra") for m in moves(st))


def test_carried_stands_are_not_marked_and_do_not_move_on_their_own():
    """Design: a carried stand moves only with its carrier (or by dismounting), so it gets
    no posture mark and no movement attempt of its own."""
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]}}, phase="posture")
    assert not any(m.startswith("posture pgra") for m in moves(st))
    assert "posture htka move" in moves(st)


# ----------------------------------------------------------------- the carrier's fate
def test_cargo_cannot_fire_and_fire_at_it_is_fire_at_its_carrier():
    """Digest: "Cargo shares the carrier's defence and combat results and cannot fire.\""""
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]},
                   "rfla": {"at": [13, 1]}, "t34a": {"at": [14, 1]}}, phase="fire", active="german")
    assert not any(m.startswith("fire pgra>") for m in moves(st))
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]},
                   "t34a": {"at": [14, 1]}}, phase="fire", active="soviet")
    assert "fire t34a>htka" in moves(st) and "fire t34a>pgra" not in moves(st)


@pytest.mark.parametrize("result,flags", [("crt:S", ("suppressed",)), ("crt:D", ("disorganized",))])
def test_cargo_shares_its_carriers_combat_results(result, flags):
    """Digest: "Cargo shares the carrier's defence and combat results": an S or D on the
    half-track lands on the Panzergrenadiers aboard."""
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1], "facing": "e"},
                   "t34a": {"at": [14, 1]}}, phase="fire", active="soviet",
                  attack={"side": "soviet", "kind": "standard", "target": "htka", "firers": ["t34a"],
                          "step": "crt", "current": 2, "hit": False})
    play(st, result)
    for sid in ("htka", "pgra"):
        assert all(stand(st, sid)[f] for f in flags)


def test_cargo_dies_with_its_carrier():
    """Digest: "Cargo shares the carrier's defence and combat results": an E on the
    half-track eliminates the cargo too (a loss each: 2 cards to draw); a D on a
    disorganized carrier likewise."""
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1], "facing": "e"},
                   "t34a": {"at": [14, 1]}}, phase="fire", active="soviet",
                  attack={"side": "soviet", "kind": "standard", "target": "htka", "firers": ["t34a"],
                          "step": "crt", "current": 2, "hit": False})
    play(st, "crt:E")
    d = st.to_dict()
    assert not stand(st, "htka")["alive"] and not stand(st, "pgra")["alive"]
    assert stand(st, "pgra")["carried_by"] is None and d["cards"]["german"]["pending"] == 2
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka"},
                   "htka": {"at": [10, 1], "facing": "e", "disorganized": True},
                   "t34a": {"at": [14, 1]}}, phase="fire", active="soviet",
                  attack={"side": "soviet", "kind": "standard", "target": "htka", "firers": ["t34a"],
                          "step": "crt", "current": 2, "hit": False})
    play(st, "crt:D")
    assert not stand(st, "htka")["alive"] and not stand(st, "pgra")["alive"]


def test_the_carrier_keeps_its_own_defence():
    """Digest: "Cargo shares the carrier's defence": the attack on the half-track is worked
    out with the half-track's defence (armoured, DV 6), whatever rides in it: T-34 AP 9 - 6
    = CD 3 from the front, 4" away (0), clear (0)."""
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1], "facing": "e"},
                   "t34a": {"at": [14, 1]}}, phase="fire", active="soviet",
                  attack={"side": "soviet", "kind": "standard", "target": "htka", "firers": ["t34a"],
                          "step": "crt", "current": 2, "hit": False})
    assert chances(st) == pytest.approx(crt_expected(3, 0))


# ----------------------------------------------------------------- brushing aside
def test_armour_brushes_aside_enemy_transports():
    """Digest: "Armoured vehicles brush aside enemy transports." A T-34 drives through the
    German half-track's square with no nerve roll, while passing a Pz IV still needs one
    ("To pass through an enemy armoured stand, a vehicle must stop adjacent and pass a +3
    cohesion roll")."""
    st = movement({"htka": {"at": [10, 1]}, "t34a": {"at": [11, 1], "posture": "move", "mp": 28}},
                  active="soviet", mover={"id": "t34a", "step": "step", "ordered": True, "stopped": False})
    play(st, "step w")
    assert not st.is_chance_node() and stand(st, "t34a")["at"] == [10, 1]
    assert not any(m.startswith("stop") for m in moves(st))      # it cannot end on the transport
    play(st, "step w")
    assert stand(st, "t34a")["at"] == [9, 1] and stand(st, "htka")["at"] == [10, 1]
    tank = movement({"pz4a": {"at": [10, 1]}, "t34a": {"at": [11, 1], "posture": "move", "mp": 28}},
                    active="soviet", mover={"id": "t34a", "step": "step", "ordered": True, "stopped": False})
    play(tank, "step w")
    assert tank.is_chance_node() and tank.to_dict()["mover"]["step"] == "passcheck"


def test_infantry_does_not_brush_aside_transports():
    """Digest: the brushing aside is by "Armoured vehicles"; other stands may not enter an
    enemy's square."""
    st = movement({"htka": {"at": [10, 1]}, "rfla": {"at": [11, 1], "posture": "move", "mp": 8}},
                  active="soviet", mover={"id": "rfla", "step": "step", "ordered": True, "stopped": False})
    assert "step w" not in moves(st)


# ----------------------------------------------------------------- tank riders
def test_tank_riders_optional_rule():
    """Digest: "Optional rules cover tank riders". Design (the digest gives no numbers):
    with the tank_riders parameter a tracked armoured vehicle without a cargo capacity
    carries one personnel stand, loaded and sharing results like any cargo; no towed weapon."""
    pgra = {"at": [9, 1], "posture": "move", "mp": 8}
    off = boarding({"pgra": pgra, "pz4a": {"at": [10, 1], "posture": "move"}})
    assert "load pz4a" not in moves(off)
    on = boarding({"pgra": pgra, "pz4a": {"at": [10, 1], "posture": "move"}}, tank_riders=True)
    assert "load pz4a" in moves(on)
    play(on, "load pz4a", "c:ok")
    assert stand(on, "pgra")["carried_by"] == "pz4a" and stand(on, "pz4a")["loaded_this_turn"]
    gun = boarding({"pak": {"at": [9, 1], "posture": "move", "mp": 4}, "pz4a": {"at": [10, 1], "posture": "move"}},
                   mover="pak", tank_riders=True)
    assert "load pz4a" not in moves(gun)
    full = boarding({"pgrb": pgra, "pgra": {"at": [10, 1], "carried_by": "pz4a"},
                     "pz4a": {"at": [10, 1], "posture": "move"}}, mover="pgrb", tank_riders=True)
    assert "load pz4a" not in moves(full)


# ----------------------------------------------------------------- the Introductory scenario
def test_introductory_panzergrenadiers_start_in_their_half_tracks():
    """Contract, Scenario: "2 Panzergrenadier platoons with 2 half-track transports": the
    Panzergrenadiers start aboard the half-tracks (scenarios/introductory.toml carried_by)."""
    st = GAME.new_initial_state(seed=0)
    assert stand(st, "pgra")["carried_by"] == "htka" and stand(st, "pgrb")["carried_by"] == "htkb"
    assert stand(st, "pgra")["at"] == stand(st, "htka")["at"]
    assert stand(st, "pgrb")["at"] == stand(st, "htkb")["at"]
    check_reference(st)
    text = str(st)
    assert "aboard htka" in text and "aboard htkb" in text


# ----------------------------------------------------------------- validate and the schema
@pytest.mark.parametrize("change,why", [
    ({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1], "alive": False}}, "dead"),
    ({"pgra": {"at": [10, 1], "carried_by": "pgra"}}, "itself"),
    ({"pgra": {"at": [10, 1], "carried_by": "t34a"}, "t34a": {"at": [10, 1]}}, "enemy"),
    ({"pgra": {"at": [9, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]}}, "square"),
    ({"pgra": {"at": [10, 1], "carried_by": "htka"}, "pgrb": {"at": [10, 1], "carried_by": "htka"},
      "htka": {"at": [10, 1]}}, "capacity"),
    ({"pgra": {"at": [10, 1], "carried_by": "htkb"}, "htkb": {"at": [10, 1], "carried_by": "htka"},
      "htka": {"at": [10, 1]}}, "chain"),
    ({"pgra": {"at": [10, 1], "carried_by": "htkb"}, "htkb": {"at": [10, 1], "carried_by": "pgra"}}, "cycle"),
    ({"pz4a": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]}}, "vehicle"),
    ({"pgra": {"at": [10, 1], "carried_by": "htka", "alive": False}, "htka": {"at": [10, 1]}}, "dead cargo"),
])
def test_validate_refuses_corrupt_carrier_links(change, why):
    """A carrier link joins a live stand to a live friendly vehicle on its square, not itself
    carried, within its capacity: anything else is refused with a message, never played."""
    d = dict(BASE)
    d["stands"] = keep_only(BASE["stands"], change)
    with pytest.raises(ValueError, match="carri|cargo"):
        GAME.state_from_dict(d)


def test_validate_refuses_corrupt_carrier_bytes():
    """The serialized carrier bytes (MaState.carrier, RULES.md Structured state): a link
    to no slot, to itself or to an enemy is refused by deserialize_state."""
    good = GAME.new_initial_state(seed=0)
    raw = good.serialize()
    d = good.to_dict()
    slot = [s["id"] for s in d["stands"]].index("pgra")      # german stands fill slots 0.. in order
    from ardsearch.games.microarmour import _engine
    body = _engine.STATE_SIZE
    carrier_off = 452                                        # carrier[32] (RULES.md, The state struct: offset 452)
    assert raw[len(raw) - body + carrier_off + slot] == [s["id"] for s in d["stands"]].index("htka")
    for bad in (200, slot, 16):
        b = bytearray(raw)
        b[len(raw) - body + carrier_off + slot] = bad
        with pytest.raises(ValueError):
            GAME.deserialize_state(bytes(b))


def test_notation_round_trips():
    """RULES.md Notation: `load <vehicle>` and `unload <cargo> <direction>`."""
    st = boarding({"pgra": {"at": [9, 1], "posture": "move", "mp": 8}, "htka": {"at": [10, 1], "posture": "move"}})
    for a in st.legal_actions():
        assert st.string_to_action(st.action_to_string(a)) == a
    st = movement({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]}})
    for a in st.legal_actions():
        assert st.string_to_action(st.action_to_string(a)) == a


def test_a_passenger_takes_a_shared_result_by_its_own_markers():
    """Digest: "Cargo shares the carrier's defence and combat results" and "(S)
    suppresses or counts as D if already suppressed" (contract, Fire): a (S) on the
    half-track suppresses it, while the already suppressed Panzergrenadiers aboard take
    it as a D."""
    st = position({"pgra": {"at": [10, 1], "carried_by": "htka", "suppressed": True},
                   "htka": {"at": [10, 1], "facing": "e"}, "t34a": {"at": [14, 1]}}, phase="fire", active="soviet",
                  attack={"side": "soviet", "kind": "standard", "target": "htka", "firers": ["t34a"],
                          "step": "crt", "current": 2, "hit": False})
    play(st, "crt:(S)")
    ht, pg = stand(st, "htka"), stand(st, "pgra")
    assert ht["suppressed"] and not ht["disorganized"]
    assert pg["disorganized"]


def test_close_combat_goes_at_the_carrier_not_its_cargo():
    """Digest: "Cargo shares the carrier's defence": a rifle platoon beside the
    half-track may assault the half-track, never the Panzergrenadiers riding in it."""
    st = movement({"pgra": {"at": [10, 1], "carried_by": "htka"}, "htka": {"at": [10, 1]},
                   "rfla": {"at": [11, 1], "posture": "move", "mp": 8}},
                  active="soviet", mover={"id": "rfla", "step": "step", "ordered": True, "stopped": False})
    legal = moves(st)
    assert "assault pgra" not in legal


def test_scenario_cargo_is_checked_on_load(tmp_path):
    """A scenario's carried_by names a vehicle of the stand's side with a cargo value and
    room, on the stand's square: a one-line error naming the file, the key and the reason
    otherwise."""
    import os
    from ardsearch.games.microarmour import _data
    text = open(os.path.join(_data.HERE, "scenarios", "introductory.toml")).read()
    bad = text.replace('carried_by = "htka"', 'carried_by = "pz4a"', 1)
    p = tmp_path / "introductory.toml"
    p.write_text(bad)
    with pytest.raises(ValueError, match=r"introductory\.toml: stand pgra\.carried_by: expected a vehicle with a cargo"):
        _data.load_scenario(path=str(p))
    bad = text.replace('carried_by = "htka"', 'carried_by = "nobody"', 1)
    p.write_text(bad)
    with pytest.raises(ValueError, match=r"stand pgra\.carried_by: expected the id of another german stand"):
        _data.load_scenario(path=str(p))
