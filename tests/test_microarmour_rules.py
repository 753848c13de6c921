"""Micro Armour: one hand-built position per rule of shared/games/microarmour.md
(issue one), set up with game.state_from_dict and checked through the public
API. Every position is also loaded into the reference model
(tests/reference/microarmour.py), which must give the same legal moves and
chance outcomes (check_reference), so a failure names the model that
disagrees with the rules.

Positions: every stand not named is lost (alive=false), except the two GHQs,
parked in far corners ((0,0) German, (29,19) Soviet) so movement orders exist.
Map squares used (charts.toml / scenarios/introductory.toml): rows y=0 and
y=3 are clear; woods at (14..16, 4..5); road along y=10 from x=10 (x 0..9 clear);
village (13..16, 8..10).
"""
from __future__ import annotations

import os
import sys
from fractions import Fraction

import pytest

import ardsearch
from ardsearch.games.microarmour import SPEC, _engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import microarmour as ref  # noqa: E402

GAME = ardsearch.Game(SPEC)


def deployed(d):
    """A start dict with every stand on the table: a hand-built position places
    its stands itself, so nobody waits off the table to enter (the Introductory's
    entry from the table edge is tested in tests/test_microarmour_units.py). Each
    side's pre-registered points are recorded where the scenario file puts them
    (the bots' book): a hand-built position is a game under way, past the recording
    before turn 1 (tested in tests/test_microarmour_prereg.py)."""
    d = dict(d)
    d["units"] = dict(d["units"], offtable=[])
    if d.get("artillery"):
        sides = _engine.SCENARIOS[_engine.SCENARIO_NAMES.index(d["scenario"])]["sides"]
        d["artillery"] = dict(d["artillery"], prereg={
            key: [{"at": list(pt), "shown": False} for pt in sides[p]["prereg"]]
            for p, key in enumerate(_engine.SIDE_KEYS)})
    return d


BASE = deployed(GAME.new_initial_state(seed=0).to_dict())


def keep_only(stand_dicts, stands, ghq_at=((0, 0), (29, 19)), keep=()):
    """The scenario's stands with `stands` ({id: {field: value}}) applied, the
    two GHQs parked at `ghq_at` (far corners) and every other stand removed:
    how every hand-built Micro Armour position starts. In a scenario with a
    hidden set-up, the markers in `keep` stay as set up (hidden), a dummy not
    kept is removed (as when spotted) and every other stand is lost (and so
    shown)."""
    out = []
    for st in stand_dicts:
        st = dict(st)
        if st["id"] in stands:
            st.update(stands[st["id"]])
        elif st["id"] == "gghq":
            st["at"] = list(ghq_at[0])
        elif st["id"] == "sghq":
            st["at"] = list(ghq_at[1])
        elif st["id"] in keep:
            pass
        elif st.get("dummy"):
            continue
        else:
            st.update(alive=False, hidden=False)
        if "carried_by" not in stands.get(st["id"], {}):
            st["carried_by"] = None       # aboard only where the position says so (RULES.md, Transport)
        out.append(st)
    return out


def position(stands, **top):
    """A state from {id: {field: value}} (fields of the stand schema) and
    top-level schema keys."""
    d = {k: v for k, v in BASE.items()}
    d["stands"] = keep_only(BASE["stands"], stands)
    d.update(top)
    # the optional rules are game parameters: a position that plays one is a
    # position of a game loaded with it
    options = {k: d[k] for k in ("hot_shot", "low_ammo", "intuitive_action", "conflicting_orders") + ref.DF_OPTIONS
               if d.get(k) != BASE.get(k)}
    game = ardsearch.load_game("microarmour", **options) if options else GAME
    state = game.state_from_dict(d)
    check_reference(state)
    return state


def check_reference(state):
    model = ref.from_dict(state.to_dict())
    assert model.to_dict() == state.to_dict()
    if state.is_terminal():
        return
    if state.is_chance_node():
        got = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
        want = model.chances()
        assert set(got) == set(want)
        for k in got:
            assert got[k] == pytest.approx(float(want[k]), abs=1e-12)
    else:
        assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(model.legal())


def mover_record(sid, step="step", ordered=True):
    """The structured state's `mover` record of stand `sid` about to take `step`
    (RULES.md, structured state): no order spent yet, no target, no firers."""
    return {"id": sid, "step": step, "ordered": ordered, "stopped": False, "pass_dir": "n",
            "close_target": None, "opportunity_firers": []}


def moving_side(sid, side, step="step"):
    """Top-level keys of `side`'s movement phase with stand `sid` moving."""
    return {"mover": mover_record(sid, step), "phase": "movement", "active": side}


def play(state, *notation):
    """Apply each move in notation, checking the reference model after every one."""
    for text in notation:
        state.apply(text)
        check_reference(state)
    return state


def resamples_keeping_the_view(state, viewer, hidden, pool, removed=(), n=1000):
    """Yield (truth dict, its stands by id) for seeds 0..n-1 of
    resample_from_infostate(viewer), after checking each keeps what `viewer` has
    seen (RULES.md, Hidden information): every shown stand as the view has it,
    the `removed` ones gone, each marker of `hidden` (sorted ids) hidden where the
    view shows it, and the markers' contents (a type, or "dummy") dealt from
    `pool`."""
    view = state.view(viewer).to_dict()
    seen = {s["id"]: s for s in view["stands"] if s["type"] != "?"}
    at = {s["id"]: s["at"] for s in view["stands"]}
    assert sorted(s["id"] for s in view["stands"] if s["type"] == "?") == hidden
    for seed in range(n):
        full = state.resample_from_infostate(viewer, seed).to_dict()
        by = {s["id"]: s for s in full["stands"]}
        assert not set(removed) & set(by)
        assert all(by[i] == s for i, s in seen.items())
        assert all(by[m]["hidden"] and by[m]["at"] == at[m] for m in hidden)
        assert sorted("dummy" if by[m]["dummy"] else by[m]["type"] for m in hidden) == sorted(pool)
        yield full, by


def moves(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def chances(state):
    return {state.action_to_string(a): p for a, p in state.chance_outcomes()}


def fire_phase(stands, active="german", **top):
    return position(stands, phase="fire", active=active, **top)


def attack(firers, target, step="tofire", kind="standard", side="german", current=None, **extra):
    return {"attack": {"side": side, "kind": kind, "target": target, "firers": firers, "step": step,
                       "current": current if current is not None else (local(firers[0]) if step != "declare" else 0),
                       "hit": False}, **extra}


def local(sid):
    i = _engine.STAND_IDS.index(sid)
    return i & 15


# ------------------------------------------------------------------ turn sequence
def test_initiative_is_1d6_plus_cohesion_ties_rerolled():
    # German 15 vs Soviet 12: German wins when d1 - d2 > -3, ties at -3 are rerolled
    st = position({}, phase="initiative")
    g = sum(1 for a in range(1, 7) for b in range(1, 7) if a + 15 > b + 12)
    s = sum(1 for a in range(1, 7) for b in range(1, 7) if a + 15 < b + 12)
    assert chances(st) == pytest.approx({"init:G": g / (g + s), "init:S": s / (g + s)})
    st.apply("init:S")
    assert st.current_player() == 1 and moves(st) == ["lead", "follow"]
    st.apply("follow")
    d = st.to_dict()
    assert d["phase"] == "posture" and d["first"] == "german" and st.current_player() == 0


def test_posture_marks_alternate_and_passed_player_is_done():
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [25, 3]}}, phase="posture")
    assert "posture pz4a move" in moves(st) and "posture pz4a firemove" in moves(st)
    st.apply("posture pz4a firemove")
    assert st.current_player() == 1
    st.apply("pass")
    assert st.current_player() == 0            # the Soviet passed: the German keeps marking
    assert "posture pz4a move" not in moves(st)  # marked once
    st.apply("pass")
    assert st.to_dict()["phase"] == "fire"
    assert [s["posture"] for s in st.to_dict()["stands"] if s["id"] == "pz4a"] == ["firemove"]


def test_fire_phase_alternates_until_both_pass():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"}})
    assert "fire pz4a>t34a" in moves(st) and "pass" in moves(st)
    st.apply("pass")
    assert st.current_player() == 1
    assert "fire t34a>pz4a" in moves(st)
    st.apply("fire t34a>pz4a")
    assert moves(st) == ["go"] or "go" in moves(st)
    st.apply("go")
    assert st.is_chance_node()
    st.apply("c:fail")
    # the German passed, so the Soviet keeps attacking; t34a has fired: nothing left
    assert st.current_player() == 1 and moves(st) == ["pass"]
    st.apply("pass")
    assert st.to_dict()["phase"] == "orders"


# ------------------------------------------------------------------ fire
def test_to_fire_cohesion_modifiers_stack():
    # firer S (+4) and D (+3), fire/move posture (+3); target in woods (+3): 15 - 13 = 2 of 20
    st = fire_phase({"pz4a": {"at": [9, 4], "suppressed": True, "disorganized": True, "posture": "firemove"},
                     "t34a": {"at": [14, 4], "facing": "w"}},
                    **attack(["pz4a"], "t34a"))
    assert chances(st) == pytest.approx({"c:ok": 0.1, "c:fail": 0.9})


def test_target_terrain_cohesion_ignored_if_target_fired_or_adjacent():
    fired = fire_phase({"pz4a": {"at": [9, 4]}, "t34a": {"at": [14, 4], "facing": "w", "fired": True}},
                       **attack(["pz4a"], "t34a"))
    assert chances(fired) == {"c:ok": 0.75, "c:fail": 0.25}       # 15/20, no woods +3
    adjacent = fire_phase({"pz4a": {"at": [13, 4]}, "t34a": {"at": [14, 4], "facing": "w"}},
                          **attack(["pz4a"], "t34a"))
    assert chances(adjacent) == {"c:ok": 0.75, "c:fail": 0.25}
    hidden = fire_phase({"pz4a": {"at": [9, 4]}, "t34a": {"at": [14, 4], "facing": "w"}},
                        **attack(["pz4a"], "t34a"))
    assert chances(hidden) == {"c:ok": 0.6, "c:fail": 0.4}        # 12/20


def crt_expected(cd, mod):
    """The design CRT: E <= CD+1, D <= CD+3, (S) <= CD+5, S <= CD+7 on 2D6 + mod."""
    out = {}
    for a in range(1, 7):
        for b in range(1, 7):
            r = a + b + mod
            res = "E" if r <= cd + 1 else "D" if r <= cd + 3 else "(S)" if r <= cd + 5 else "S" if r <= cd + 7 else "-"
            out["crt:" + res] = out.get("crt:" + res, 0) + 1 / 36
    return out


def test_crt_front_shot_and_range_modifier():
    # Pz IV AP 10 vs T-34 DV 11 from the front: CD -1; 7" range: +1; clear: 0
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"}},
                    **attack(["pz4a"], "t34a", step="crt"))
    assert chances(st) == pytest.approx(crt_expected(-1, 1))


def test_side_and_rear_fire_halve_armour_rounded_up():
    # T-34 faces north; the Pz IV fires from the west: side shot, DV 11 -> 6, CD 4
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "n"}},
                    **attack(["pz4a"], "t34a", step="crt"))
    assert chances(st) == pytest.approx(crt_expected(4, 1))
    # facing north-west the shot from due west is still inside the front arc
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "nw"}},
                    **attack(["pz4a"], "t34a", step="crt"))
    assert chances(st) == pytest.approx(crt_expected(-1, 1))


def test_personnel_out_of_firing_posture_halve_defence_and_he_is_used():
    # Pz IV HE 5 vs rifle DV 5: CD 0; in movement posture DV 3: CD 2; 2" range: 0
    firing = fire_phase({"pz4a": {"at": [5, 3]}, "rfla": {"at": [7, 3]}}, **attack(["pz4a"], "rfla", step="crt"))
    assert chances(firing) == pytest.approx(crt_expected(0, 0))
    moving = fire_phase({"pz4a": {"at": [5, 3]}, "rfla": {"at": [7, 3], "posture": "move"}},
                        **attack(["pz4a"], "rfla", step="crt"))
    assert chances(moving) == pytest.approx(crt_expected(2, 0))


def test_range_bands_and_maximum_range():
    st = fire_phase({"pgra": {"at": [5, 3]}, "rfla": {"at": [11, 3]}, "rflb": {"at": [12, 0]}})
    assert "fire pgra>rfla" in moves(st)                  # 6" = the rifle range
    assert "fire pgra>rflb" not in moves(st)              # 7" > 6"
    adj = fire_phase({"pgra": {"at": [5, 3]}, "rfla": {"at": [6, 3]}}, **attack(["pgra"], "rfla", step="crt"))
    assert chances(adj) == pytest.approx(crt_expected(4 - 5, -1))   # 1": -1


def test_combat_differential_below_minus_three_cannot_attack():
    # rifle AP 2 vs T-34 front DV 11: CD -9
    st = fire_phase({"pgra": {"at": [5, 3]}, "t34a": {"at": [7, 3], "facing": "w"}})
    assert "fire pgra>t34a" not in moves(st)


def test_movement_posture_cannot_fire_and_fired_stand_fires_once():
    st = fire_phase({"pz4a": {"at": [5, 3], "posture": "move"}, "pz4b": {"at": [5, 0], "fired": True},
                     "t34a": {"at": [12, 3], "facing": "w"}})
    assert moves(st) == ["pass"]


def test_multiple_firers_resolve_in_order_each_with_its_own_rolls():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "pz4b": {"at": [5, 0]}, "t34a": {"at": [12, 3], "facing": "w"}})
    st.apply("fire pz4b>t34a")
    assert "fire pz4a>t34a" in moves(st) and "go" in moves(st)
    assert "pass" not in moves(st)
    st.apply("fire pz4a>t34a")
    st.apply("go")
    d = st.to_dict()["attack"]
    assert d["firers"] == ["pz4a", "pz4b"] and d["step"] == "tofire" and d["current"] == local("pz4a")
    st.apply("c:fail")                    # pz4a fails: no CRT, has fired
    assert st.to_dict()["attack"]["current"] == local("pz4b")
    st.apply("c:ok")
    st.apply("crt:S")
    t = next(s for s in st.to_dict()["stands"] if s["id"] == "t34a")
    assert t["suppressed"] and not t["disorganized"]
    assert st.to_dict()["attack"] is None and st.current_player() == 1


@pytest.mark.parametrize("before,result,after", [
    ({}, "S", {"suppressed": True}),
    ({"suppressed": True}, "S", {"suppressed": True}),
    ({}, "(S)", {"suppressed": True}),
    ({"suppressed": True}, "(S)", {"suppressed": True, "disorganized": True}),
    ({}, "D", {"disorganized": True}),
    ({"disorganized": True}, "D", {"alive": False}),
    ({"suppressed": True, "disorganized": True}, "(S)", {"alive": False}),
    ({}, "E", {"alive": False}),
    ({}, "-", {}),
])
def test_crt_results(before, result, after):
    # a side shot (CD 4 at 7"): every result is possible
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "n", **before}},
                    **attack(["pz4a"], "t34a", step="crt"))
    st.apply("crt:" + result)
    t = next(s for s in st.to_dict()["stands"] if s["id"] == "t34a")
    want = {"alive": True, "suppressed": False, "disorganized": False, **before, **after}
    if not want["alive"]:
        want.update(suppressed=False, disorganized=False)
    assert {k: t[k] for k in want} == want
    assert t["wreck"] == (not want["alive"])      # a destroyed armoured vehicle leaves a wreck


def test_wrecks_give_cover_and_two_are_rough_three():
    one = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"},
                      "t34b": {"at": [12, 3], "alive": False, "wreck": True}},
                     **attack(["pz4a"], "t34a", step="crt"))
    assert chances(one) == pytest.approx(crt_expected(-1, 1 + 1))
    two = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"},
                      "t34b": {"at": [12, 3], "alive": False, "wreck": True},
                      "t34c": {"at": [12, 3], "alive": False, "wreck": True}},
                     **attack(["pz4a"], "t34a", step="crt"))
    assert chances(two) == pytest.approx(crt_expected(-1, 1 + 2))


# ------------------------------------------------------------------ line of sight
def test_los_blocked_through_woods_but_not_into_them():
    st = fire_phase({"pz4a": {"at": [10, 4]}, "t34a": {"at": [14, 4], "facing": "w"},
                     "t34b": {"at": [19, 4], "facing": "w"}})
    assert "fire pz4a>t34a" in moves(st)        # into the wood's edge
    assert "fire pz4a>t34b" not in moves(st)    # through three woods squares


def test_vehicles_block_all_personnel_block_only_personnel():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "pgra": {"at": [5, 0]},
                     "rfla": {"at": [7, 3]}, "t34a": {"at": [9, 3], "facing": "w"},
                     "rflb": {"at": [7, 0]}, "rflc": {"at": [9, 0]}})
    assert "fire pz4a>t34a" in moves(st)        # a rifle stand between does not block a vehicle target
    assert "fire pgra>rflc" not in moves(st)    # but blocks a personnel target
    st2 = fire_phase({"pz4a": {"at": [5, 3]}, "t34b": {"at": [7, 3], "facing": "w"},
                      "t34a": {"at": [9, 3], "facing": "w"}})
    assert "fire pz4a>t34a" not in moves(st2)   # a vehicle between blocks


def test_ambiguous_corner_los_favours_defender():
    # (5,0) -> (7,2) runs exactly through the corners of (6,0)/(5,1) and (7,1)/(6,2)
    assert _engine._has_los(position({"pz4a": {"at": [5, 0]}, "t34a": {"at": [7, 2]}}).raw(), "pz4a", "t34a")
    blocked = position({"pz4a": {"at": [5, 0]}, "t34a": {"at": [7, 2]}, "t34b": {"at": [7, 1]}})
    assert not _engine._has_los(blocked.raw(), "pz4a", "t34a")


# ------------------------------------------------------------------ movement
def movement(stands, active="german", orders=(3, 3), **top):
    return position(stands, phase="movement", active=active, orders=list(orders), orders_rolled=2, **top)


def test_movement_orders_table_with_ghq_quality():
    st = position({}, phase="orders", first="german")
    # German quality +1: 2D6+1 <= 3 -> 0 (roll 2), 4-5 -> 1, 6-7 -> 2, 8-9 -> 3, 10-11 -> 4, 12+ -> 5
    want = {}
    for a in range(1, 7):
        for b in range(1, 7):
            r = a + b + 1
            k = 0 if r <= 3 else 1 if r <= 5 else 2 if r <= 7 else 3 if r <= 9 else 4 if r <= 11 else 5
            want[f"orders:{k}"] = want.get(f"orders:{k}", 0) + 1 / 36
    assert chances(st) == pytest.approx(want)


def test_lost_ghq_means_no_orders():
    st = position({"gghq": {"alive": False}}, phase="fire", first="german", active="soviet",
                  passed=[True, False])
    st.apply("pass")                                               # fire phase over: orders
    d = st.to_dict()
    assert d["orders_rolled"] == 1 and d["orders"][0] == 0        # German roll skipped


def test_ordered_and_independent_moves():
    st = movement({"pz4a": {"at": [5, 3], "posture": "move"}, "gghq": {"at": [0, 0], "posture": "move"}})
    assert {"order pz4a", "indep pz4a", "order gghq", "indep gghq"} <= set(moves(st))
    st.apply("order pz4a")
    assert chances(st) == {"c:ok": 0.75, "c:fail": 0.25}           # 15, no modifier
    st.apply("c:fail")
    d = st.to_dict()
    assert d["orders"][0] == 2 and st.current_player() == 1       # an order spent; the Soviet's turn
    st.apply("pass")
    assert "order pz4a" in moves(st)                               # a failed group may be ordered again
    st.apply("indep pz4a")
    assert chances(st) == {"c:ok": 0.6, "c:fail": 0.4}             # independent: +3
    assert st.to_dict()["orders"][0] == 0                          # going independent forfeits orders
    hq = movement({"gghq": {"at": [5, 3], "posture": "move"}})
    hq.apply("indep gghq")
    assert chances(hq) == pytest.approx({"c:ok": 0.7, "c:fail": 0.3})             # +3 independent, -2 HQ


def test_movement_points_terrain_costs_and_firemove_half():
    # Pz IV MP 12 = 24 half-MP; on the road (y=10, from x=10) a step costs 1 half MP
    st = movement({"pz4a": {"at": [10, 10], "posture": "move"}, "sghq": {"fired": True}},   # no opportunity fire
                  mover={"id": "pz4a", "step": "roll", "ordered": True, "stopped": False})
    st.apply("c:ok")
    d = next(s for s in st.to_dict()["stands"] if s["id"] == "pz4a")
    assert d["mp"] == 24
    st.apply("step e")
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pz4a")["mp"] == 23
    st.apply("step se")                                            # clear: 1 MP = 2 half
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pz4a")["mp"] == 21
    fm = movement({"pak": {"at": [5, 3], "posture": "firemove"}},
                  mover={"id": "pak", "step": "roll", "ordered": True, "stopped": False})
    fm.apply("c:ok")
    assert next(s for s in fm.to_dict()["stands"] if s["id"] == "pak")["mp"] == 2   # MP 2 -> 1


def test_a_stand_allowed_to_move_moves_at_least_one_inch():
    # PaK 40 in fire/move: 1 MP; woods cost foot 2 MP: it may still enter one square
    st = movement({"pak": {"at": [13, 4], "posture": "firemove", "mp": 2, "steps": 0}},
                  mover={"id": "pak", "step": "step", "ordered": True, "stopped": False})
    assert "step e" in moves(st)
    st.apply("step e")
    assert next(s for s in st.to_dict()["stands"] if s["id"] == "pak")["mp"] == 0
    assert [m for m in moves(st) if m.startswith("step")] == []


def test_friends_pass_through_but_no_ending_on_them_enemies_block():
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "pz4b": {"at": [6, 3]},
                   "rfla": {"at": [5, 2], "fired": True}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    assert "step e" in moves(st) and "step s" not in moves(st)    # a vehicle overruns infantry, never passes
    assert "overrun rfla" in moves(st)
    st.apply("step e")
    assert not any(m.startswith("stop") for m in moves(st))


def test_passing_enemy_armour_needs_a_nerve_roll():
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24},
                   "t34a": {"at": [6, 3], "facing": "w", "fired": True}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    assert "step e" in moves(st)
    st.apply("step e")
    assert st.is_chance_node() and chances(st) == pytest.approx({"c:ok": 0.6, "c:fail": 0.4})   # +3
    fail = st.clone()
    fail.apply("c:fail")                                           # halts adjacent
    pz = next(x for x in fail.to_dict()["stands"] if x["id"] == "pz4a")
    assert pz["at"] == [5, 3] and pz["moved"] and fail.to_dict()["mover"] is None
    st.apply("c:ok")
    pz = next(x for x in st.to_dict()["stands"] if x["id"] == "pz4a")
    assert pz["at"] == [6, 3]
    assert not any(m.startswith("stop") for m in moves(st))        # must move on
    check_reference(st)


def test_close_assault_defender_strikes_first_then_assaulter_at_minus_three():
    st = movement({"pgra": {"at": [5, 3], "posture": "move", "mp": 4},
                   "rfla": {"at": [6, 3], "fired": True}},
                  mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
    assert "assault rfla" in moves(st)
    st.apply("assault rfla")
    d = st.to_dict()
    # the firing-posture defender strikes first: no terrain, 12 to pass
    assert d["attack"]["kind"] == "assault_defence" and d["attack"]["firers"] == ["rfla"]
    assert chances(st) == {"c:ok": 0.6, "c:fail": 0.4}
    st.apply("c:ok")
    # rifle HE 4 vs panzergrenadier DV 5 halved in movement posture (3): CD 1; roll -3
    assert chances(st) == pytest.approx(crt_expected(1, -3))
    st.apply("crt:-")
    assert st.to_dict()["attack"]["kind"] == "assault"
    assert chances(st) == {"c:ok": 0.75, "c:fail": 0.25}
    st.apply("c:ok")
    # panzergrenadier HE 4 vs rifle DV 5 (firing posture): CD -1; -3
    assert chances(st) == pytest.approx(crt_expected(-1, -3))
    st.apply("crt:D")
    assert st.to_dict()["mover"]["step"] == "retreat" and st.current_player() == 1
    assert set(moves(st)) == {"retreat ne", "retreat e", "retreat se"}
    st.apply("retreat e")
    d = st.to_dict()
    rf = next(x for x in d["stands"] if x["id"] == "rfla")
    assert rf["at"] == [7, 3] and rf["disorganized"] and rf["moved"]      # pinned
    assert d["mover"] is None
    # close assault is not fire: neither stand counts as having fired
    assert not next(x for x in d["stands"] if x["id"] == "pgra")["fired"]


def test_close_assault_defender_that_cannot_retreat_is_eliminated():
    st = movement({"pgra": {"at": [1, 3], "posture": "move", "mp": 4},
                   "rfla": {"at": [0, 3], "posture": "move", "fired": True}},
                  mover={"id": "pgra", "step": "step", "ordered": True, "stopped": False})
    st.apply("assault rfla")              # defender not in firing posture: no strike
    assert st.to_dict()["attack"]["kind"] == "assault"
    st.apply("c:ok")
    st.apply("crt:D")                     # the map edge is behind it
    rf = next(x for x in st.to_dict()["stands"] if x["id"] == "rfla")
    assert not rf["alive"]


def test_overrun_sequence():
    """Digest, *Overrun*: "Up to eight armoured vehicles pass over the target and finish
    adjacent, pinning it ... The defender may opportunity fire at range 0 against halved
    armour. The defender then rolls cohesion for each overrunner, and each failure is a 2D6
    attack on the +5 CRT column. Each overrunner then rolls cohesion (+3 vs infantry with AP
    2+), and each failure lets the defender attack on the +2 column (+3 if its AP is 5+)."""
    # a T-34 overruns the PaK 40 (an unarmoured weapon stand)
    st = movement({"t34a": {"at": [5, 3], "posture": "move", "mp": 28}, "pak": {"at": [6, 3]}},
                  active="soviet", mover={"id": "t34a", "step": "step", "ordered": True, "stopped": False})
    st.apply("overrun pak")
    # the defender may fire at range 0 against halved armour: AP 11 vs 6: CD 5
    assert st.current_player() == 0 and set(moves(st)) == {"fire pak>t34a", "pass"}
    fired = st.clone()
    fired.apply("fire pak>t34a")
    fired.apply("go")
    assert chances(fired) == {"c:ok": 0.75, "c:fail": 0.25}        # adjacent: no terrain modifier
    fired.apply("c:ok")
    assert chances(fired) == pytest.approx(crt_expected(5, -1))    # range 0: -1
    st.apply("pass")
    assert chances(st) == {"c:ok": 0.75, "c:fail": 0.25}           # the defender's cohesion (15)
    st.apply("c:fail")
    assert chances(st) == pytest.approx(crt_expected(5, 0))        # the +5 column
    st.apply("crt:S")
    assert chances(st) == {"c:ok": 0.6, "c:fail": 0.4}             # the overrunner's cohesion (12)
    st.apply("c:fail")
    assert chances(st) == pytest.approx(crt_expected(3, 0))        # +3 column: the PaK's AP is 5+
    st.apply("crt:-")
    d = st.to_dict()
    t34 = next(x for x in d["stands"] if x["id"] == "t34a")
    pak = next(x for x in d["stands"] if x["id"] == "pak")
    # the T-34 passed over the PaK and finished beyond it, adjacent, facing the way it went
    assert d["mover"] is None and t34["at"] == [7, 3] and t34["facing"] == "e" and t34["moved"]
    assert pak["suppressed"] and pak["moved"] and pak["at"] == [6, 3]
    assert t34["mp"] == 0 and t34["opportunity_suffered"] is False


def test_overrunner_rolls_at_plus_three_against_armed_infantry():
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "rfla": {"at": [6, 3]}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    st.apply("overrun rfla")
    # the rifle's AP 2 against halved armour 6 is CD -4: no range-0 fire
    assert st.is_chance_node()
    st.apply("c:ok")
    assert chances(st) == {"c:ok": 0.6, "c:fail": 0.4}             # 15 - 3
    st.apply("c:fail")
    assert chances(st) == pytest.approx(crt_expected(2, 0))        # the +2 column


def test_no_overrun_into_woods():
    st = movement({"pz4a": {"at": [13, 4], "posture": "move", "mp": 24}, "rfla": {"at": [14, 4]}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    assert "overrun rfla" not in moves(st)


RAIN_5 = dict(BASE["conditions"], weather="light_rain", sighting=5, sighting_turn=1)   # this turn's sighting 5"


def test_higher_ground_extends_sighting_for_fire():
    """Contract, Table: "Higher ground: +5" sighting per level." Digest: "Units on higher
    ground gain 5" of sighting per level" (RULES.md, Line of sight, Higher ground: the
    levels the firer stands above its target). In light rain with this turn's sighting
    5", a Pz IV on the hill (level 1, (15,14)) may fire at a T-34 7" away below it
    (5 + 5 = 10"); from level ground, 7" is beyond its sighting."""
    hill = fire_phase({"pz4a": {"at": [15, 14]}, "t34a": {"at": [22, 14], "facing": "w"}}, conditions=RAIN_5)
    assert "fire pz4a>t34a" in moves(hill)
    flat = fire_phase({"pz4a": {"at": [8, 3]}, "t34a": {"at": [15, 3], "facing": "w"}}, conditions=RAIN_5)
    assert "fire pz4a>t34a" not in moves(flat)
    flat5 = fire_phase({"pz4a": {"at": [10, 3]}, "t34a": {"at": [15, 3], "facing": "w"}}, conditions=RAIN_5)
    assert "fire pz4a>t34a" in moves(flat5)                        # 5": within the turn's sighting


def test_higher_ground_sighting_limit_is_ten_inches_from_the_hill():
    """Contract, Table: "Higher ground: +5" sighting per level." With sighting 5" a stand
    on the hill (level 1, (16,15)) sees a target on level ground up to 5 + 5 = 10": fire
    at 10" is offered, at 11" it is not (both within the Pz IV's 20" range, over clear
    ground)."""
    at10 = fire_phase({"pz4a": {"at": [16, 15]}, "t34a": {"at": [26, 15], "facing": "w"}}, conditions=RAIN_5)
    assert "fire pz4a>t34a" in moves(at10)
    at11 = fire_phase({"pz4a": {"at": [16, 15]}, "t34a": {"at": [27, 15], "facing": "w"}}, conditions=RAIN_5)
    assert "fire pz4a>t34a" not in moves(at11)


def test_higher_ground_counts_the_levels_above_the_target():
    """Contract, Table: "Higher ground: +5" sighting per level"; digest: "Units on higher
    ground gain 5" of sighting per level" (RULES.md, Line of sight, Higher ground: the
    levels the observer stands above what it sees). The T-34 below the hill gains
    nothing looking up: in 5" sighting it may not fire at the Pz IV on the hill 7" away,
    which may fire at it."""
    st = fire_phase({"pz4a": {"at": [15, 14], "facing": "e"}, "t34a": {"at": [22, 14], "facing": "w"}},
                    active="soviet", conditions=RAIN_5)
    assert st.current_player() == 1 and "fire t34a>pz4a" not in moves(st)


def test_higher_ground_extends_sighting_for_opportunity_fire():
    """Contract, Table: "Higher ground: +5" sighting per level"; digest: "Firing or
    fire/move stands (+3) that have not fired may halt a moving stand and resolve a
    standard attack." In 5" sighting a T-34 on the hill ((16,15), level 1) may halt a Pz IV
    stepping to 7" below it; the same T-34 on level ground ((16,3)) may not."""
    mover = {"id": "pz4a", "step": "step", "ordered": True, "stopped": False}
    hill = movement({"pz4a": {"at": [24, 15], "posture": "move", "mp": 24},
                     "t34a": {"at": [16, 15], "facing": "e"}}, mover=mover, conditions=RAIN_5)
    play(hill, "step w")                                           # to (23,15): 7" from the hill
    assert hill.current_player() == 1 and "fire t34a>pz4a" in moves(hill)
    flat = movement({"pz4a": {"at": [24, 3], "posture": "move", "mp": 24},
                     "t34a": {"at": [16, 3], "facing": "e"}}, mover=mover, conditions=RAIN_5)
    play(flat, "step w")
    assert flat.current_player() == 0                              # no opportunity fire at 7"


def test_engaged_stands_fire_only_at_the_enemy_they_touch():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "rfla": {"at": [6, 3]}, "t34a": {"at": [12, 3], "facing": "n"},
                     "rflb": {"at": [6, 2]}})
    assert "fire pz4a>rfla" in moves(st)
    assert "fire pz4a>t34a" not in moves(st) and "fire pz4a>rflb" not in moves(st)   # rflb only touches a corner


def test_lost_ghq_replaced_by_an_hq_cohesion_roll():
    st = position({"gghq": {"alive": False}, "ghq": {"at": [5, 3], "suppressed": True}},
                  phase="recovery", recovery_next="ghq", ghq=[None, "sghq"])
    st.apply("c:fail")
    d = st.to_dict()
    assert d["replacement_due"] == [True, False] and st.is_chance_node()
    assert chances(st) == pytest.approx({"c:ok": 0.4, "c:fail": 0.6})   # 15 - 3 German - 4 suppressed
    st.apply("c:ok")
    d = st.to_dict()
    assert d["ghq"] == ["ghq", "sghq"] and d["command_due"]["ghq_quality"] == [True, False]
    st.apply("quality:+2")              # the new GHQ's quality on 1D20 (test_microarmour_command.py)
    d = st.to_dict()
    assert d["turn"] == 2 and d["ghq_quality"] == [2, 0]
    # the Soviet at cohesion 12 cannot replace a lost GHQ
    sov = position({"sghq": {"alive": False}, "shq": {"at": [20, 3], "suppressed": True}},
                   phase="recovery", recovery_next="shq", ghq=["gghq", None])
    sov.apply("c:fail")
    assert sov.to_dict()["turn"] == 2 and sov.to_dict()["ghq"] == ["gghq", None]


def test_hot_shot_option_natural_one_shifts_two_columns():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"}},
                    **attack(["pz4a"], "t34a"), hot_shot=True)
    assert chances(st) == pytest.approx({"c:n1": 0.05, "c:ok": 0.7, "c:fail": 0.25})
    st.apply("c:n1")
    assert chances(st) == pytest.approx(crt_expected(-1 + 2, 1))


def test_opportunity_fire_halts_mover_and_forces_a_cohesion_check():
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24},
                   "t34a": {"at": [12, 3], "facing": "w"}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    st.apply("step e")
    assert st.current_player() == 1 and set(moves(st)) == {"fire t34a>pz4a", "pass"}
    st.apply("fire t34a>pz4a")
    st.apply("go")
    st.apply("c:ok")
    st.apply("crt:S")
    assert st.to_dict()["mover"]["step"] == "stopcheck"
    assert chances(st) == pytest.approx({"c:ok": 0.55, "c:fail": 0.45})   # 15 - 4 (now suppressed)
    st.apply("c:fail")
    d = st.to_dict()
    assert d["mover"] is None
    pz = next(s for s in d["stands"] if s["id"] == "pz4a")
    assert pz["moved"] and pz["at"] == [6, 3] and pz["opportunity_suffered"]


def test_each_mover_suffers_one_opportunity_attack_per_phase():
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24, "opportunity_suffered": True},
                   "t34a": {"at": [12, 3], "facing": "w"}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    st.apply("step e")
    assert st.current_player() == 0                                # no opportunity fire


def test_covering_fire_by_firing_posture_stands_at_plus_three():
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "pz4b": {"at": [5, 0]},
                   "pz4c": {"at": [4, 0], "posture": "firemove"}, "t34a": {"at": [12, 3], "facing": "w"}},
                  mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    st.apply("step e")
    st.apply("fire t34a>pz4a")
    st.apply("go")
    st.apply("c:fail")
    # no hit: the moving player may answer with covering fire (firing posture only)
    assert st.current_player() == 0 and set(moves(st)) == {"fire pz4b>t34a", "pass"}
    st.apply("fire pz4b>t34a")
    st.apply("go")
    assert chances(st) == {"c:ok": 0.6, "c:fail": 0.4}             # 15 - 3
    st.apply("c:fail")
    assert st.to_dict()["mover"]["step"] == "step"


# ------------------------------------------------------------------ recovery
def test_recovery_rolls_and_natural_one_and_twenty():
    st = position({"pz4a": {"at": [5, 3], "suppressed": True}, "ghq": {"at": [6, 3]}},
                  phase="recovery", recovery_next="pz4a")
    # 15 - 4 (S) - 1 (good HQ adjacent) = 12: rolls 2..12 succeed
    assert chances(st) == pytest.approx({"c:ok": 11 / 20, "c:fail": 7 / 20, "c:n1": 0.05, "c:n20": 0.05})
    ok = st.clone()
    ok.apply("c:ok")
    assert not next(s for s in ok.to_dict()["stands"] if s["id"] == "pz4a")["suppressed"]
    n20 = st.clone()
    n20.apply("c:n20")                                             # (S) on a suppressed stand: D
    assert next(s for s in n20.to_dict()["stands"] if s["id"] == "pz4a")["disorganized"]
    d = position({"pz4a": {"at": [5, 3], "disorganized": True}}, phase="recovery", recovery_next="pz4a")
    d2 = d.clone()
    d2.apply("c:ok")                                               # a modified success does not rally D
    assert next(s for s in d2.to_dict()["stands"] if s["id"] == "pz4a")["disorganized"]
    d.apply("c:n1")
    assert not next(s for s in d.to_dict()["stands"] if s["id"] == "pz4a")["disorganized"]


# the Soviet formation broken in turn 1 (cards 10 + 10 + 10 + 10 = 40 > 36.75): cohesion 12 - 5 = 7
SOVIET_BROKEN_CARDS = {"german": BASE["cards"]["german"],
                       "soviet": {"drawn": 4, "checked": 4, "pending": 0, "break_check_due": False, "broken": True,
                                  "broken_turn": 1, "total": 40, "deck": [4] * 9 + [12]}}


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def apply_both(state, move):
    """Apply `move` to the engine state and to the reference model loaded from it:
    both must reach the same state."""
    model = ref.from_dict(state.to_dict())
    model.apply(move)
    state.apply(move)
    assert model.to_dict() == state.to_dict()
    check_reference(state)


def test_recovery_natural_one_with_a_modified_success_removes_s_and_d():
    """Contract: "Recovery: each S/D stand rolls cohesion (own modifiers, -1 adjacent to a
    good HQ); a modified success removes S; only a natural 1 removes D; a natural 20
    inflicts (S)." Cohesion: "1D20 + cumulative modifiers <= the force's cohesion level".
    A German stand with S and D (+7) at cohesion 15: the natural 1 is 1 + 7 = 8 <= 15, a
    modified success too, so it removes S as well as D."""
    st = position({"pz4a": {"at": [5, 3], "suppressed": True, "disorganized": True}},
                  phase="recovery", recovery_next="pz4a")
    # 15 - 7 = 8: rolls 2..8 succeed (7), 9..19 fail (11)
    assert chances(st) == pytest.approx({"c:n1": 0.05, "c:ok": 7 / 20, "c:fail": 11 / 20, "c:n20": 0.05})
    apply_both(st, "c:n1")
    pz = stand(st, "pz4a")
    assert not pz["suppressed"] and not pz["disorganized"]


def test_recovery_natural_one_with_a_modified_failure_removes_d_only():
    """Contract: "Recovery: each S/D stand rolls cohesion (own modifiers, -1 adjacent to a
    good HQ); a modified success removes S; only a natural 1 removes D; a natural 20
    inflicts (S)." Cohesion: "1D20 + cumulative modifiers <= the force's cohesion level".
    A broken Soviet formation rolls at 12 - 5 = 7 (digest: "-5 cohesion except for
    movement"); its T-34 with S (+4) and D (+3) rolls the natural 1 as 1 + 7 = 8 > 7, a
    modified failure: the natural 1 removes D and leaves S. No other roll succeeds, so
    `c:ok` is not offered; the natural rolls keep 1/20 each."""
    st = position({"t34a": {"at": [20, 3], "suppressed": True, "disorganized": True}},
                  phase="recovery", recovery_next="t34a", cards=SOVIET_BROKEN_CARDS)
    assert chances(st) == pytest.approx({"c:n1": 0.05, "c:fail": 18 / 20, "c:n20": 0.05})
    apply_both(st, "c:n1")
    t34 = stand(st, "t34a")
    assert t34["suppressed"] and not t34["disorganized"]
    # a good HQ adjacent (-1): 1 + 7 - 1 = 7 <= 7, the natural 1 is a modified success again
    hq = position({"t34a": {"at": [20, 3], "suppressed": True, "disorganized": True}, "shq": {"at": [21, 3]}},
                  phase="recovery", recovery_next="t34a", cards=SOVIET_BROKEN_CARDS)
    assert chances(hq) == pytest.approx({"c:n1": 0.05, "c:fail": 18 / 20, "c:n20": 0.05})
    apply_both(hq, "c:n1")
    t34 = stand(hq, "t34a")
    assert not t34["suppressed"] and not t34["disorganized"]


def test_recovery_natural_one_on_a_suppressed_stand_alone_needs_a_modified_success():
    """Contract: "Recovery: each S/D stand rolls cohesion (own modifiers, -1 adjacent to a
    good HQ); a modified success removes S; only a natural 1 removes D; a natural 20
    inflicts (S)." A natural 1 is a modified success only if 1 + the modifiers <= the
    cohesion level. A suppressed (+4) T-34 of a Soviet force at cohesion 8, broken
    (8 - 5 = 3): 1 + 4 = 5 > 3, the natural 1 leaves S (and there is no D to remove);
    unbroken (8): 1 + 4 = 5 <= 8, the natural 1 removes S."""
    low = position({"t34a": {"at": [20, 3], "suppressed": True}}, phase="recovery", recovery_next="t34a",
                   cohesion=[15, 8], cards=SOVIET_BROKEN_CARDS)
    assert chances(low) == pytest.approx({"c:n1": 0.05, "c:fail": 18 / 20, "c:n20": 0.05})
    apply_both(low, "c:n1")
    assert stand(low, "t34a")["suppressed"]
    ok = position({"t34a": {"at": [20, 3], "suppressed": True}}, phase="recovery", recovery_next="t34a",
                  cohesion=[15, 8])
    assert chances(ok) == pytest.approx({"c:n1": 0.05, "c:ok": 3 / 20, "c:fail": 15 / 20, "c:n20": 0.05})
    apply_both(ok, "c:n1")
    assert not stand(ok, "t34a")["suppressed"]


# ------------------------------------------------------------------ break points, hidden cards
def test_losses_draw_cards_one_two_three():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "shq": {"at": [12, 3], "facing": "n"}},
                    **attack(["pz4a"], "shq", step="crt"))
    st.apply("crt:E")
    assert st.to_dict()["cards"]["soviet"]["pending"] == 2        # an HQ: two cards
    deck = chances(st)
    assert deck["card:10"] == pytest.approx(16 / 52) and deck["card:1"] == pytest.approx(4 / 52)
    st.apply("card:10")
    st.apply("card:3")
    assert chances(st) == {"brk:no": 1.0}                          # 13 <= 15 x 0.35 x 7
    st.apply("brk:no")
    assert st.to_dict()["cards"]["soviet"]["checked"] == 2


def test_breaking_is_a_public_check():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "n"}},
                    **attack(["pz4a"], "t34a", step="crt"),
                    cards={"german": BASE["cards"]["german"],
                           "soviet": {"drawn": 4, "checked": 4, "pending": 0, "break_check_due": False,
                                      "broken": False, "total": 36, "deck": [4] * 8 + [0, 16]}})
    assert _engine._break_units(st.raw(), 1) == 15                 # 10 armed + 2 HQ + 3 GHQ
    st.apply("crt:E")
    st.apply("card:1")                                             # 37 > 36.75
    assert chances(st) == {"brk:yes": 1.0}
    st.apply("brk:yes")
    # the broken formation plays on (test_microarmour_command.py)
    assert not st.is_terminal() and st.to_dict()["cards"]["soviet"]["broken"]


def test_card_values_are_hidden_from_the_opponent():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "n"}},
                    **attack(["pz4a"], "t34a", step="crt"))
    st.apply("crt:E")
    st.apply("card:7")
    assert st.masked_history(0)[-1] == "?" and st.masked_history(1)[-1] == "card:7"
    view = st.view(0)
    assert view.to_dict()["cards"]["soviet"]["total"] is None
    assert view.to_dict()["cards"]["soviet"]["drawn"] == 1
    assert "7" not in view.observation_string(0).split("Soviet:")[1].split("\n")[0]
    other = st.resample_from_infostate(0, seed=3)
    assert other.to_dict()["cards"]["soviet"]["drawn"] == 1
    assert other.view(0).raw() == view.raw()


def test_village_decides_at_the_end():
    # the last roll of turn 12: two German stands against one Soviet in the village
    st = position({"pz4a": {"at": [14, 9], "suppressed": True}, "pz4b": {"at": [15, 9]},
                   "t34a": {"at": [13, 8], "facing": "w"}}, phase="recovery", turn=12, recovery_next="pz4a")
    st.apply("c:fail")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]


def test_notation_round_trips_and_bad_text_is_rejected():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"}})
    for a in st.legal_actions():
        assert st.string_to_action(st.action_to_string(a)) == a
    with pytest.raises(ardsearch.InvalidMoveError):
        st.apply("fire pz4a>nosuch")
    with pytest.raises(ardsearch.IllegalMoveError):
        st.apply("step e")              # no stand is moving
    with pytest.raises(ardsearch.InvalidMoveError):
        st.apply("fire t34a>pz4a")      # fire notation names the side to act's stand first


def test_bad_dicts_name_the_problem():
    d = dict(BASE)
    with pytest.raises(ValueError, match="phase"):
        GAME.state_from_dict({**d, "phase": "lunch"})
    stands = [dict(s) for s in BASE["stands"]]
    stands[0]["at"] = [99, 0]
    with pytest.raises(ValueError, match=r"at\[0\]"):
        GAME.state_from_dict({**d, "stands": stands})
    stands = [dict(s) for s in BASE["stands"]]
    stands[1]["at"] = list(stands[0]["at"])
    with pytest.raises(ValueError, match="two stands"):
        GAME.state_from_dict({**d, "stands": stands})


def test_determinize_respects_passed_break_checks():
    # the Soviet drew 5 cards (10, 10, 5, 5, 5 = 35) and passed its check after
    # them: every resample for the German keeps 5 cards within 36.75
    d = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"}}, phase="fire").to_dict()
    d["cards"]["soviet"] = {"drawn": 5, "checked": 5, "pending": 0, "break_check_due": False, "broken": False,
                            "total": 35, "deck": [4, 4, 4, 4, 1, 4, 4, 4, 4, 14]}
    st = GAME.state_from_dict(d)
    view = st.view(0)
    assert view.to_dict()["cards"]["soviet"]["total"] is None
    for seed in range(40):
        other = st.resample_from_infostate(0, seed=seed)
        c = other.to_dict()["cards"]["soviet"]
        assert c["drawn"] == 5 and c["total"] <= 36 and sum(c["deck"]) == 47
        assert other.view(0).raw() == view.raw()


def test_low_ammunition_option_natural_twenty():
    st = fire_phase({"pz4a": {"at": [5, 3]}, "pz4b": {"at": [5, 0]}, "t34a": {"at": [12, 3], "facing": "w"},
                     "t34b": {"at": [12, 0], "facing": "w"}},
                    **attack(["pz4a"], "t34a"), low_ammo=True)
    assert chances(st) == pytest.approx({"c:ok": 0.75, "c:fail": 0.2, "c:n20": 0.05})
    st.apply("c:n20")                                   # a failure, and low on ammunition
    d = st.to_dict()
    pz = next(x for x in d["stands"] if x["id"] == "pz4a")
    assert pz["low_ammo"] and pz["fired"]
    assert next(x for x in d["stands"] if x["id"] == "t34a")["fired_at_by"] == ["pz4a"]
    # next turn: pz4a may fire only at a stand that fired at it this turn
    d["turn"], d["phase"], d["active"], d["attack"] = 2, "fire", "soviet", None
    for x in d["stands"]:
        x["fired"] = False
        x["fired_at_by"] = []
    st = st.game.state_from_dict(d)
    check_reference(st)
    st.apply("fire t34b>pz4a")
    st.apply("go")
    st.apply("c:fail")
    assert st.current_player() == 0
    assert "fire pz4a>t34b" in moves(st) and "fire pz4a>t34a" not in moves(st)
    assert "fire pz4b>t34a" in moves(st)
    check_reference(st)


def test_structured_state_carries_the_table_and_weapon_data():
    """RULES.md, Structured state: "table: the scenario's map (rows[y], one
    terrain character per square, y 0 the south edge) and types: the weapons
    data of the stands in play, both derived (ignored by state_from_dict)".
    The web board draws terrain and stand labels from the view alone, so a
    player's view must carry them (the map is public, scenarios/introductory.toml)."""
    view = GAME.new_initial_state(seed=0).view(1)
    d = view.to_dict()
    table = d["table"]
    assert (table["width"], table["height"]) == (30, 20)
    # the road along y=10, from x=10 through the village to the east edge (RULES.md Scenarios)
    assert table["rows"][10] == "." * 10 + "=" * 3 + "bbbb" + "=" * 13
    assert table["rows"][8][13:17] == "bbbb"           # the village, x 13..16, y 8..10
    assert table["rows"][15][14:17] == "hhh"           # the hill's top row
    assert table["terrain"]["w"] == "woods" and table["terrain"]["b"] == "buildings"
    assert set(d["types"]) == {s["type"] for s in d["stands"]}
    pz = d["types"]["pz4h"]
    assert (pz["ap"], pz["he"], pz["dv"], pz["defence"], pz["range"]) == (10, 5, 12, "A", 20)
    assert d["types"]["ger_ghq"]["role"] == "ghq"
    again = GAME.state_from_dict(d)                    # derived keys are ignored on input
    assert again.to_dict() == d
