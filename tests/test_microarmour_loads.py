"""Micro Armour: loads over 10 points take two turns (RULES.md "Transport", two-turn loads).

Digest, Movement: "Loading needs both stands touching in movement posture and a cohesion
roll, and costs 50% MP for personnel or all MP for weapons; loads over 10 points take two
turns." Load points are design values in data/loads.toml (the digest prints none; the
point-buy costs of points.toml are on another scale): a platoon 5, the leIG 18 5, the
ZiS-3 9, the PaK 40 14. One hand-built position per rule, each checked against the
reference model (check_reference). Squares x 8..13, y 0..3 are clear (introductory).
"""
from __future__ import annotations

import os

import pytest

import ardsearch
from ardsearch.games.microarmour import _data, _data_transport, _engine
from test_microarmour_rules import BASE, GAME, attack, chances, check_reference, keep_only, moves
from test_microarmour_transport import boarding, movement, play, position, stand

PAK_BY_HT = {"pak": {"at": [9, 1], "posture": "move", "mp": 4}, "htka": {"at": [10, 1], "posture": "move"}}


def german_moves(st):
    """The German player's moves in this state (whoever is to move in it)."""
    d = dict(st.to_dict(), active="german", passed=[False, False])
    return moves(GAME.state_from_dict(d))


def half_loaded(phase="posture", pak=None, htka=None, **top):
    """The PaK 40 half-loaded onto htka (turn 2 of 12), in `phase`."""
    stands = {"pak": {"at": [9, 1], "loading_onto": "htka", **(pak or {})},
              "htka": {"at": [10, 1], **(htka or {})}}
    return position(stands, phase=phase, turn=2, **top)


def to_movement(pak_posture="move", ht_posture="move", **extra):
    """Turn 2's orders phase with the second roll due (both stands marked as given): the
    roll opens the movement phase, where the load completes or is off."""
    st = half_loaded("orders", pak={"posture": pak_posture, **extra.get("pak", {})},
                     htka={"posture": ht_posture, **extra.get("htka", {})},
                     orders_rolled=1, first="german", orders=[2, 0])
    play(st, next(iter(chances(st))))
    assert st.to_dict()["phase"] == "movement"
    return st


# ----------------------------------------------------------------- the data
def test_load_points_are_design_values_on_the_thresholds_scale():
    """Digest: "loads over 10 points take two turns". Design (data/loads.toml): personnel and
    light guns load in one turn, guns over 1.2 t (PaK 40, M-30, 52-K) in two; vehicles are
    never cargo (0). Every listed key is a weapon type of weapons.toml."""
    w = {t["key"]: t for t in _data.load_weapons()}
    assert (w["pzgren"]["load"], w["pzgren"]["two_turn_load"]) == (5, False)
    assert (w["leig18"]["load"], w["leig18"]["two_turn_load"]) == (5, False)
    assert (w["zis3"]["load"], w["zis3"]["two_turn_load"]) == (9, False)
    assert (w["pak40"]["load"], w["pak40"]["two_turn_load"]) == (14, True)
    assert w["m30"]["two_turn_load"] and w["aa52k"]["two_turn_load"]
    assert w["sdkfz251"]["load"] == 0 and w["pz4h"]["load"] == 0 and not w["pz4h"]["two_turn_load"]
    from ardsearch._toml import read_toml
    listed = read_toml(os.path.join(os.path.dirname(_data.__file__), "data", "loads.toml"))["stand"]
    assert set(listed) <= set(w)
    assert all(_data_transport.cargo_kind(w[k]) for k in listed)      # only stands that can be cargo


@pytest.mark.parametrize("text,words", [
    ("two_turns_over = 0\n[default]\npersonnel = 5\nequipment = 9\n", "two_turns_over"),
    ("two_turns_over = 10\n[default]\npersonnel = 5\n", "default.equipment"),
    ("two_turns_over = 10\n[default]\npersonnel = 5\nequipment = 9\n[stand]\npak40 = 99\n", "stand.pak40"),
    ("two_turns_over = 10\n[default]\npersonnel = 5\nequipment = true\n", "default.equipment"),
])
def test_the_loader_refuses_bad_load_points(tmp_path, text, words):
    """A bad load points file is refused, naming the key and what it expected."""
    p = tmp_path / "loads.toml"
    p.write_text(text)
    with pytest.raises(ValueError, match=words):
        _data_transport.add_load_points(_data.load_weapons(), path=str(p))


# ----------------------------------------------------------------- the first turn
def test_a_load_over_10_points_starts_and_both_pay_the_first_turn():
    """Digest: "loads over 10 points take two turns" and loading "costs ... all MP for
    weapons". The PaK 40 (14 points) passes its loading roll: it is committed to the load
    on its own square (not aboard yet), its move over; the half-track has spent its move."""
    st = boarding(PAK_BY_HT, mover="pak")
    play(st, "load htka")
    assert chances(st) == pytest.approx({"c:ok": 0.75, "c:fail": 0.25})     # one cohesion roll
    play(st, "c:ok")
    pak, ht = stand(st, "pak"), stand(st, "htka")
    assert pak["loading_onto"] == "htka" and pak["carried_by"] is None and pak["at"] == [9, 1]
    assert pak["moved"] and ht["moved"]
    assert "  pak " in str(st) and "loading onto htka" in str(st)
    assert "order htka" not in german_moves(st) and "indep htka" not in german_moves(st)


def test_a_failed_roll_starts_nothing():
    """Digest: loading "needs ... a cohesion roll": a failed roll loads nothing (the attempt
    spends the stand's move, RULES.md Transport) and holds no vehicle."""
    st = boarding(PAK_BY_HT, mover="pak")
    play(st, "load htka", "c:fail")
    assert stand(st, "pak")["loading_onto"] is None and stand(st, "pak")["moved"]
    assert not stand(st, "htka")["moved"] and "order htka" in german_moves(st)


@pytest.mark.parametrize("sid,ht", [("pgra", {"at": [10, 1], "posture": "move"})])
def test_a_load_of_10_points_or_less_is_aboard_at_once(sid, ht):
    """Digest: only "loads over 10 points take two turns": a Panzergrenadier platoon (5
    points) is aboard as soon as its roll passes."""
    st = boarding({sid: {"at": [9, 1], "posture": "move", "mp": 8}, "htka": ht}, mover=sid)
    play(st, "load htka", "c:ok")
    assert stand(st, sid)["carried_by"] == "htka" and stand(st, sid)["loading_onto"] is None


def test_a_light_gun_loads_in_one_turn():
    """Digest: "loads over 10 points take two turns": the leIG 18 (5 points, a support
    stand) is aboard at once, its carrier's move spent ("all MP for weapons")."""
    game = ardsearch.load_game("microarmour", support=True)
    d = dict(BASE, support=True)
    d["stands"] = keep_only(game.new_initial_state(seed=0).to_dict()["stands"],
                            {"ig": {"at": [9, 1], "posture": "move", "mp": 4},
                             "htka": {"at": [10, 1], "posture": "move"}})
    d.update(phase="movement", active="german", orders=[3, 3], orders_rolled=2,
             mover={"id": "ig", "step": "step", "ordered": True, "stopped": False})
    st = game.state_from_dict(d)
    check_reference(st)
    play(st, "load htka", "c:ok")
    assert stand(st, "ig")["carried_by"] == "htka" and stand(st, "htka")["moved"]


# ----------------------------------------------------------------- between the turns
def test_the_carrier_is_held_and_takes_no_other_load():
    """Design (RULES.md, two-turn loads): the vehicle is held for the load: it does not
    move, and no other stand boards it, until the load is complete or off."""
    st = position({"pak": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [10, 1], "posture": "move"},
                   "pgra": {"at": [11, 1], "posture": "move", "mp": 8}},
                  phase="movement", active="german", orders=[3, 3], orders_rolled=2,
                  mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
    assert "load htka" not in moves(st)
    free = position({"pak": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [10, 1], "posture": "move"},
                     "pgra": {"at": [11, 1], "posture": "move"}},
                    phase="movement", active="german", orders=[3, 3], orders_rolled=2)
    assert "order htka" not in moves(free) and "indep htka" not in moves(free)
    assert "order pak" not in moves(free) and "order pgra" in moves(free)


def test_the_half_loaded_stand_does_not_move():
    """Design: the stand is committed to the load across the turn boundary: no movement
    attempt of its own (an unmoved one in a hand-built movement phase)."""
    st = half_loaded("movement", pak={"posture": "move"}, htka={"posture": "move"}, active="german",
                     orders=[3, 3], orders_rolled=2)
    assert not any(m.split()[-1] == "pak" for m in moves(st) if m.startswith(("order", "indep")))


@pytest.mark.parametrize("target,res", [("pak", "S"), ("pak", "D"), ("htka", "S"), ("htka", "(S)")])
def test_a_result_on_either_stand_breaks_the_load_off(target, res):
    """Design (RULES.md, two-turn loads): an S, (S) or D on the stand or its carrier breaks
    the load off at once (the crews take cover); the stand stays where it is."""
    st = position({"pak": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [10, 1]},
                   "t34a": {"at": [14, 1]}}, phase="fire", turn=2,
                  **attack(["t34a"], target, step="crt", side="soviet"), active="soviet")
    play(st, "crt:" + res)
    assert stand(st, "pak")["loading_onto"] is None and stand(st, "pak")["carried_by"] is None
    assert stand(st, "pak")["at"] == [9, 1]


def test_a_no_effect_attack_leaves_the_load_on():
    """Design: only a result breaks the load off; a miss ('-') does not."""
    st = position({"pak": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [10, 1]},
                   "t34a": {"at": [14, 1]}}, phase="fire", turn=2,
                  **attack(["t34a"], "pak", step="crt", side="soviet"), active="soviet")
    play(st, "crt:-")
    assert stand(st, "pak")["loading_onto"] == "htka"


def test_the_carrier_destroyed_the_stand_survives_unloaded():
    """Digest: "Cargo shares the carrier's ... combat results" - but the half-loaded stand
    is not aboard yet: an E on the half-track ends the load and the PaK 40 lives."""
    st = position({"pak": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [10, 1]},
                   "t34a": {"at": [14, 1]}}, phase="fire", turn=2,
                  **attack(["t34a"], "htka", step="crt", side="soviet"), active="soviet")
    play(st, "crt:E")
    assert stand(st, "pak")["alive"] and stand(st, "pak")["loading_onto"] is None
    assert not stand(st, "htka")["alive"]


# ----------------------------------------------------------------- the second turn
def test_the_load_completes_as_the_next_movement_phase_opens():
    """Digest: "loads over 10 points take two turns". Both marked for movement in the
    second turn ("both stands touching in movement posture"): when the movement phase opens
    the PaK 40 is aboard on its carrier's square, and both have spent that turn's move too
    ("all MP for weapons")."""
    st = to_movement()
    pak, ht = stand(st, "pak"), stand(st, "htka")
    assert pak["carried_by"] == "htka" and pak["loading_onto"] is None and pak["at"] == ht["at"] == [10, 1]
    assert pak["moved"] and ht["moved"]
    assert "order htka" not in moves(st) and not any(m.startswith("unload pak") for m in moves(st))
    assert "aboard htka" in str(st) and "loading onto" not in str(st)


@pytest.mark.parametrize("pak,ht", [("firing", "move"), ("move", "firemove"), ("firemove", "firing")])
def test_the_load_is_off_unless_both_are_in_movement_posture(pak, ht):
    """Digest: "Loading needs both stands touching in movement posture": a stand not marked
    for movement in the second turn breaks the load off; both are free again."""
    st = to_movement(pak, ht)
    assert stand(st, "pak")["carried_by"] is None and stand(st, "pak")["loading_onto"] is None
    assert not stand(st, "htka")["moved"]


def test_a_suppressed_stand_completes_its_load():
    """Design: markers do not stop the load, only a new result does: a PaK 40 that was
    already Suppressed when it began (it loads as it moves, with +4 on its roll) is aboard
    next turn."""
    st = to_movement(pak={"suppressed": True})
    assert stand(st, "pak")["carried_by"] == "htka"


# ----------------------------------------------------------------- state, views and validate
def test_a_view_shows_the_load_to_both_players():
    """Transport is public (RULES.md, Hidden information): both players' views show the
    half-load as the full state does."""
    st = half_loaded()
    for p in (0, 1):
        assert stand(st.view(p), "pak")["loading_onto"] == "htka"


def test_a_resample_keeps_the_load():
    """Hidden information (RULES.md): a search's resample_from_infostate keeps what both
    players see, the half-load included, for either viewer."""
    st = half_loaded()
    for p in (0, 1):
        for seed in range(3):
            assert stand(st.resample_from_infostate(p, seed), "pak")["loading_onto"] == "htka"


@pytest.mark.parametrize("change,words", [
    ({"pak": {"at": [9, 1], "loading_onto": "t34a"}, "t34a": {"at": [10, 1]}}, "enemy"),
    ({"pak": {"at": [9, 1], "loading_onto": "pak"}}, "itself"),
    ({"pak": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [12, 1]}}, "touching"),
    ({"pgra": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [10, 1]}}, "10 points"),
    ({"pak": {"at": [9, 1], "loading_onto": "pgra"}, "pgra": {"at": [10, 1]}}, "10 points"),
    ({"pak": {"at": [9, 1], "loading_onto": "htka"}, "htka": {"at": [10, 1], "alive": False}}, "dead"),
    ({"pak": {"at": [9, 1], "loading_onto": "htka", "carried_by": "htkb"}, "htkb": {"at": [9, 1]},
      "htka": {"at": [10, 1]}}, "carried"),
])
def test_validate_refuses_corrupt_two_turn_loads(change, words):
    """A two-turn load joins a live stand whose load is over 10 points to a live friendly
    vehicle touching it, neither carried: anything else is refused with a message."""
    d = dict(BASE)
    d["stands"] = keep_only(BASE["stands"], change)
    with pytest.raises(ValueError, match=words):
        GAME.state_from_dict(d)
    d["stands"] = keep_only(BASE["stands"], {"pak": {"at": [9, 1], "loading_onto": "nobody"}})
    with pytest.raises(ValueError, match="loading_onto"):
        GAME.state_from_dict(d)


def test_validate_refuses_corrupt_two_turn_load_bytes():
    """The serialized tr_half / tr_held bytes (RULES.md, The state struct: offset 512): a
    link to no slot, or a held bit without its load, is refused by deserialize_state."""
    st = half_loaded()
    raw = st.serialize()
    body = _engine.STATE_SIZE
    slot = [s["id"] for s in st.to_dict()["stands"]].index("pak")
    base = len(raw) - body + 512
    assert raw[base + slot] == [s["id"] for s in st.to_dict()["stands"]].index("htka")
    for off, val in ((slot, 200), (slot, slot), (33, 0), (32, 0xFF)):
        b = bytearray(raw)
        b[base + off] = val
        with pytest.raises(ValueError):
            GAME.deserialize_state(bytes(b))
    assert GAME.deserialize_state(raw).to_dict() == st.to_dict()
