"""Micro Armour: command and morale (issue 12): broken formations play on, the enemy's
rising cohesion checks, lost HQ and GHQ replacement, a new GHQ's quality on 1D20, and
the optional natural-roll rules of the ordered movement roll. One hand-built position per
rule (RULES.md, "Broken formations", "Marker removal: recovery and command", "Movement"),
each docstring quoting the digest (shared/seeds/micro-armour.txt); every position is also
checked against the reference model (check_reference in test_microarmour_rules)."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_microarmour_rules import (BASE, attack, check_reference, chances, fire_phase, moves,  # noqa: E402
                                    movement, position)

from ardsearch.games.microarmour import _engine  # noqa: E402

# the Soviet formation has broken in turn 1: 4 cards, 10 + 10 + 10 + 10 = 40 > 36.75
SOVIET_BROKEN = {"german": BASE["cards"]["german"],
                 "soviet": {"drawn": 4, "checked": 0, "pending": 0, "break_check_due": False, "broken": True,
                            "broken_turn": 1, "total": 40, "deck": [4] * 9 + [12]}}


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def apply(state, *texts):
    for t in texts:
        state.apply(t)
        check_reference(state)


# ------------------------------------------------------------------ broken formations
def test_a_break_does_not_end_the_game():
    """Digest, *Break points*: "When the total exceeds the break point the formation breaks:
    -5 cohesion except for movement, fires only if fired on ... If all of a side's formations
    break, the enemy must pass rising cohesion checks to keep fighting": the broken side plays on."""
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "n"}},
                    **attack(["pz4a"], "t34a", step="crt"),
                    cards={"german": BASE["cards"]["german"],
                           "soviet": {"drawn": 4, "checked": 4, "pending": 0, "break_check_due": False,
                                      "broken": False, "total": 36, "deck": [4] * 8 + [0, 16]}}, turn=3)
    apply(st, "crt:E", "card:1", "brk:yes")
    d = st.to_dict()
    assert not st.is_terminal() and d["cards"]["soviet"]["broken"] and d["cards"]["soviet"]["broken_turn"] == 3
    assert _engine._side_broken(st.raw(), 1) and not _engine._side_broken(st.raw(), 0)
    assert d["phase"] == "fire" and st.current_player() == 1       # the fire phase goes on: the Soviet's attack


def test_broken_formation_has_five_less_cohesion_except_for_movement():
    """Digest, *Break points*: "the formation breaks: -5 cohesion except for movement"."""
    fire = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"}}, active="soviet",
                      **attack(["t34a"], "pz4a", side="soviet"), cards=SOVIET_BROKEN)
    assert chances(fire) == pytest.approx({"c:ok": 0.35, "c:fail": 0.65})       # 12 - 5 = 7
    move = movement({"t34a": {"at": [20, 3], "posture": "move"}}, active="soviet", cards=SOVIET_BROKEN,
                    mover={"id": "t34a", "step": "roll", "ordered": True, "stopped": False})
    assert chances(move) == pytest.approx({"c:ok": 0.6, "c:fail": 0.4})         # movement: 12
    rec = position({"t34a": {"at": [20, 3], "suppressed": True}}, phase="recovery", recovery_next="t34a",
                   cards=SOVIET_BROKEN)
    # 7 - 4 (S): rolls 2 and 3 recover
    assert chances(rec) == pytest.approx({"c:ok": 0.1, "c:fail": 0.8, "c:n1": 0.05, "c:n20": 0.05})
    init = position({}, phase="initiative", cards=SOVIET_BROKEN)
    assert chances(init) == {"init:G": 1.0}                       # 1D6 + 15 always beats 1D6 + 7


def test_broken_formation_fires_only_if_fired_on():
    """Digest, *Break points*: a broken formation "fires only if fired on" (RULES.md: only
    at enemy stands that rolled to fire at it this turn, as Low Ammunition)."""
    stands = {"pz4a": {"at": [5, 3]}, "pz4b": {"at": [5, 0]}, "t34a": {"at": [12, 3], "facing": "w"}}
    st = fire_phase(stands, active="soviet", cards=SOVIET_BROKEN)
    assert moves(st) == ["pass"]
    stands["t34a"]["fired_at_by"] = ["pz4a"]
    st = fire_phase(stands, active="soviet", cards=SOVIET_BROKEN)
    assert set(moves(st)) == {"fire t34a>pz4a", "pass"}


def test_broken_formation_moves_toward_its_own_edge_and_does_not_attack():
    """Digest, *Break points*: a broken formation "must move toward its friendly edge"
    (the Soviet's is the east edge): every step nearer to it; no overrun or close assault."""
    stands = {"t34a": {"at": [20, 3], "posture": "move", "mp": 28}, "pak": {"at": [19, 3]}}
    whole = movement(stands, active="soviet", mover={"id": "t34a", "step": "step", "ordered": True,
                                                     "stopped": False})
    assert "overrun pak" in moves(whole) and "step w" not in moves(whole)
    st = movement(stands, active="soviet", cards=SOVIET_BROKEN,
                  mover={"id": "t34a", "step": "step", "ordered": True, "stopped": False})
    assert {m for m in moves(st) if m.startswith(("step", "overrun"))} == {"step ne", "step e", "step se"}
    inf = movement({"rfla": {"at": [20, 3], "posture": "move", "mp": 8}, "pgra": {"at": [19, 3], "fired": True}},
                   active="soviet", cards=SOVIET_BROKEN,
                   mover={"id": "rfla", "step": "step", "ordered": True, "stopped": False})
    assert not any(m.startswith("assault") for m in moves(inf))


def test_broken_formation_draws_no_more_cards():
    """Digest, *Break points*: "draw one card per stand lost ... When the total exceeds the
    break point the formation breaks" (RULES.md: the cards only decide the break)."""
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "n"}},
                    **attack(["pz4a"], "t34a", step="crt"), cards=SOVIET_BROKEN)
    apply(st, "crt:E")
    d = st.to_dict()
    assert d["cards"]["soviet"]["pending"] == 0 and d["cards"]["soviet"]["drawn"] == 4
    assert stand(st, "t34a")["wreck"] and st.current_player() == 1


# ------------------------------------------------------------------ rising cohesion checks
def test_the_enemy_of_a_broken_side_rolls_rising_cohesion_checks():
    """Digest, *Break points*: "If all of a side's formations break, the enemy must pass
    rising cohesion checks to keep fighting" (RULES.md: each marker removal phase, +2 more
    each time; a failure ends the battle, and the side that broke the enemy wins)."""
    st = position({"pz4a": {"at": [5, 3], "suppressed": True}}, phase="recovery", recovery_next="pz4a",
                  cards=SOVIET_BROKEN, turn=2)
    apply(st, "c:fail")
    assert st.to_dict()["command_due"]["rising_check"] == [True, False]
    assert chances(st) == pytest.approx({"c:ok": 0.65, "c:fail": 0.35})    # 15 - 2
    passed = st.clone()
    apply(passed, "c:ok")
    assert passed.to_dict()["turn"] == 3 and passed.to_dict()["rising_checks"] == [1, 0]
    second = position({}, phase="recovery", recovery_next=None, cards=SOVIET_BROKEN, turn=3,
                      rising_checks=[1, 0], command_due={"rising_check": [True, False]})
    assert chances(second) == pytest.approx({"c:ok": 0.55, "c:fail": 0.45})  # 15 - 4
    apply(st, "c:fail")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    assert st.to_dict()["end_cause"] == "rising_check"


def test_a_broken_side_loses_at_the_end_even_holding_the_village():
    """Introductory scenario: "hold the village at the end, or break the enemy" (contract,
    *Scenario*): with the Soviet broken, the Germans win at the end of the last turn."""
    st = position({"pz4a": {"at": [5, 3]}, "t34a": {"at": [14, 9], "facing": "w"}}, phase="recovery",
                  recovery_next=None, cards=SOVIET_BROKEN, turn=12, command_due={"rising_check": [True, False]})
    apply(st, "c:ok")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    assert st.to_dict()["end_cause"] == "last_turn"


def test_both_formations_broken_the_village_decides_at_once():
    """RULES.md, How the game ends (design): when the second formation breaks too, nobody
    is left to keep fighting: the game ends and the village decides."""
    german = {"drawn": 5, "checked": 4, "pending": 0, "break_check_due": True, "broken": False,
              "total": 50, "deck": [4] * 9 + [11]}
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [14, 9], "facing": "w"}},
                    cards={"german": german, "soviet": SOVIET_BROKEN["soviet"]}, turn=4)
    assert chances(st) == {"brk:yes": 1.0}
    apply(st, "brk:yes")
    assert st.is_terminal() and st.returns() == [-1.0, 1.0]
    assert st.to_dict()["end_cause"] == "both_broken"


# ------------------------------------------------------------------ command units
def test_a_lost_hq_is_replaced_by_a_cohesion_roll_and_an_appointment():
    """Digest, *HQ*: "When a command unit is lost, a replacement needs a cohesion roll at +3
    (German/US), +4 (British) or +5 (others). Forces at cohesion 12 or less cannot replace it"
    (an HQ is a command unit as the GHQ is; RULES.md: the owner appoints the stand)."""
    st = position({"pz4a": {"at": [5, 3], "suppressed": True}, "pz4b": {"at": [6, 3]}, "ghq": {"alive": False}},
                  phase="recovery", recovery_next="pz4a", hq_lost=[1, 0])
    apply(st, "c:fail")
    assert st.to_dict()["command_due"]["hq_replacement"] == [True, False]
    assert chances(st) == pytest.approx({"c:ok": 0.6, "c:fail": 0.4})     # 15 - 3
    apply(st, "c:ok")
    assert st.current_player() == 0 and set(moves(st)) == {"appoint pz4a", "appoint pz4b"}
    apply(st, "appoint pz4b")
    d = st.to_dict()
    assert stand(st, "pz4b")["hq"] and d["hq_lost"] == [0, 0] and d["turn"] == 2
    # the new HQ gives -2 to its movement roll and -1 to an adjacent stand's recovery
    mv = movement({"pz4b": {"at": [6, 3], "posture": "move", "hq": True}, "ghq": {"alive": False}},
                  mover={"id": "pz4b", "step": "roll", "ordered": True, "stopped": False})
    assert chances(mv) == pytest.approx({"c:ok": 0.85, "c:fail": 0.15})
    rec = position({"pz4a": {"at": [5, 3], "suppressed": True}, "pz4b": {"at": [6, 3], "hq": True},
                    "ghq": {"alive": False}}, phase="recovery", recovery_next="pz4a")
    assert chances(rec)["c:ok"] == pytest.approx(11 / 20)     # 15 - 4 (S) - 1 (HQ adjacent): rolls 2..12


def test_no_hq_replacement_at_cohesion_twelve_or_when_broken():
    """Digest, *HQ*: "Forces at cohesion 12 or less cannot replace it" (RULES.md: a broken
    formation's cohesion, 5 lower, counts)."""
    sov = position({"t34a": {"at": [20, 3], "suppressed": True}, "shq": {"alive": False}}, phase="recovery",
                   recovery_next="t34a", hq_lost=[0, 1])
    apply(sov, "c:fail")
    assert sov.to_dict()["turn"] == 2 and sov.to_dict()["hq_lost"] == [0, 1]
    cards = {"german": {**SOVIET_BROKEN["soviet"], "total": 40, "deck": [4] * 9 + [12]},
             "soviet": BASE["cards"]["soviet"]}
    ger = position({"pz4a": {"at": [5, 3], "suppressed": True}, "ghq": {"alive": False}}, phase="recovery",
                   recovery_next="pz4a", hq_lost=[1, 0], cards=cards)
    apply(ger, "c:fail")
    d = ger.to_dict()
    assert d["command_due"]["hq_replacement"] == [False, False] and d["command_due"]["rising_check"] == [False, True]


def test_a_new_ghq_rolls_its_quality_on_1d20():
    """Digest, *HQ*: "a new GHQ's quality is rolled on 1D20" (design table, charts.toml
    [command]); the orders roll then uses it: "2D6 + GHQ quality"."""
    st = position({"gghq": {"alive": False}, "ghq": {"at": [5, 3]}, "pz4a": {"at": [7, 3], "suppressed": True}},
                  phase="recovery", recovery_next="pz4a", ghq=[None, "sghq"])
    apply(st, "c:fail")
    assert st.to_dict()["replacement_due"] == [True, False]
    apply(st, "c:ok")
    assert st.to_dict()["ghq"] == ["ghq", "sghq"] and not stand(st, "ghq")["hq"]
    table = _engine.CHARTS["command"]
    want, lo = {}, 0
    for top, q in zip(table["ghq_quality_at"], table["ghq_quality"]):
        key = f"quality:{q:+d}" if q else "quality:0"
        want[key] = want.get(key, 0) + (top - lo) / 20
        lo = top
    assert chances(st) == pytest.approx(want)
    assert want == pytest.approx({"quality:+3": 0.05, "quality:+2": 0.15, "quality:+1": 0.25, "quality:0": 0.3,
                                  "quality:-1": 0.2, "quality:-2": 0.05})
    apply(st, "quality:-2")
    # the promoted HQ left its post empty: it is filled in the same phase
    assert st.to_dict()["command_due"]["hq_replacement"] == [True, False] and st.to_dict()["hq_lost"] == [1, 0]
    apply(st, "c:fail")
    d = st.to_dict()
    assert d["ghq_quality"] == [-2, 0] and d["turn"] == 2
    orders = position({"gghq": {"alive": False}, "ghq": {"at": [5, 3]}}, phase="orders", first="german",
                      ghq=["ghq", "sghq"], ghq_quality=[-2, 0])
    want = {}
    for a in range(1, 7):
        for b in range(1, 7):
            r = a + b - 2
            k = 0 if r <= 3 else 1 if r <= 5 else 2 if r <= 7 else 3 if r <= 9 else 4 if r <= 11 else 5
            want[f"orders:{k}"] = want.get(f"orders:{k}", 0) + 1 / 36
    assert chances(orders) == pytest.approx(want)


# ------------------------------------------------------------------ natural movement rolls
def test_intuitive_action_on_a_natural_one():
    """Digest, *Cohesion*: "A natural 1 or 20 on an ordered movement roll gives 'Intuitive
    Action' or 'Conflicting Orders'" (design, RULES.md: Intuitive Action moves the stand and
    the order is not spent)."""
    st = movement({"pz4a": {"at": [5, 3], "posture": "move"}}, intuitive_action=True)
    apply(st, "order pz4a")
    assert st.to_dict()["orders"][0] == 2
    assert chances(st) == pytest.approx({"c:n1": 0.05, "c:ok": 0.7, "c:fail": 0.25})
    apply(st, "c:n1")
    d = st.to_dict()
    assert d["orders"][0] == 3 and d["mover"]["step"] == "step" and stand(st, "pz4a")["mp"] == 24
    indep = movement({"pz4a": {"at": [5, 3], "posture": "move"}}, intuitive_action=True)
    apply(indep, "indep pz4a")
    assert chances(indep) == pytest.approx({"c:ok": 0.6, "c:fail": 0.4})   # not an ordered roll


def test_conflicting_orders_on_a_natural_twenty():
    """Digest, *Cohesion*: "A natural 1 or 20 on an ordered movement roll gives 'Intuitive
    Action' or 'Conflicting Orders'" (design, RULES.md: Conflicting Orders is a failure and
    the side loses the orders it has left this turn)."""
    st = movement({"pz4a": {"at": [5, 3], "posture": "move"}, "pz4b": {"at": [5, 0], "posture": "move"}},
                  conflicting_orders=True)
    apply(st, "order pz4a")
    assert chances(st) == pytest.approx({"c:ok": 0.75, "c:fail": 0.2, "c:n20": 0.05})
    apply(st, "c:n20")
    d = st.to_dict()
    assert d["orders"][0] == 0 and d["mover"] is None and not stand(st, "pz4a")["moved"]
    both = movement({"pz4a": {"at": [5, 3], "posture": "move"}}, intuitive_action=True,
                    conflicting_orders=True)
    apply(both, "order pz4a")
    assert chances(both) == pytest.approx({"c:n1": 0.05, "c:ok": 0.7, "c:fail": 0.2, "c:n20": 0.05})


# ------------------------------------------------------------------ more of the same rules
def test_broken_side_opportunity_and_covering_fire_only_at_who_fired_at_it():
    """Digest, *Break points*: a broken formation "fires only if fired on" — in the
    movement phase too: its opportunity fire needs a mover that fired at it this turn."""
    stands = {"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "t34a": {"at": [12, 3], "facing": "w"}}
    st = movement(stands, cards=SOVIET_BROKEN, mover={"id": "pz4a", "step": "step", "ordered": True,
                                                      "stopped": False})
    apply(st, "step e")
    assert st.current_player() == 0                                # no opportunity fire offered
    stands["t34a"]["fired_at_by"] = ["pz4a"]
    st = movement(stands, cards=SOVIET_BROKEN, mover={"id": "pz4a", "step": "step", "ordered": True,
                                                      "stopped": False})
    apply(st, "step e")
    assert st.current_player() == 1 and set(moves(st)) == {"fire t34a>pz4a", "pass"}


def test_broken_side_rolls_close_combat_at_five_less():
    """Digest, *Break points*: "-5 cohesion except for movement": the overrun's "contest of
    discipline" rolls are not movement rolls."""
    st = movement({"pz4a": {"at": [5, 3], "posture": "move", "mp": 24}, "rfla": {"at": [6, 3], "fired": True}},
                  cards=SOVIET_BROKEN, mover={"id": "pz4a", "step": "step", "ordered": True, "stopped": False})
    apply(st, "overrun rfla")
    assert chances(st) == pytest.approx({"c:ok": 0.35, "c:fail": 0.65})   # the rifle: 12 - 5
    ok = st.clone()
    apply(ok, "c:ok")
    assert chances(ok) == pytest.approx({"c:ok": 0.6, "c:fail": 0.4})     # the German: 15 - 3


def test_a_broken_side_cannot_replace_its_ghq():
    """Digest, *HQ*: "Forces at cohesion 12 or less cannot replace it": a broken German
    force (15 - 5 = 10) gets no replacement roll, and so no orders."""
    cards = {"german": {**SOVIET_BROKEN["soviet"]}, "soviet": BASE["cards"]["soviet"]}
    st = position({"gghq": {"alive": False}, "ghq": {"at": [5, 3], "suppressed": True}}, phase="recovery",
                  recovery_next="ghq", ghq=[None, "sghq"], cards=cards)
    apply(st, "c:fail")
    d = st.to_dict()
    assert d["replacement_due"] == [False, False] and d["command_due"]["rising_check"] == [False, True]
    apply(st, "c:ok")
    assert st.to_dict()["turn"] == 2 and st.to_dict()["ghq"] == [None, "sghq"]


def test_views_and_resamples_of_a_broken_formation():
    """Hidden information (RULES.md): the break is public, the card total is not; a broken
    formation draws no more cards, so every resample keeps its total over the break point."""
    st = fire_phase({"pz4a": {"at": [5, 3]}, "t34a": {"at": [12, 3], "facing": "w"}}, cards=SOVIET_BROKEN)
    view = st.view(0).to_dict()
    assert view["cards"]["soviet"]["broken"] and view["cards"]["soviet"]["total"] is None
    for seed in range(20):
        other = st.resample_from_infostate(0, seed=seed)
        c = other.to_dict()["cards"]["soviet"]
        assert c["drawn"] == 4 and c["total"] > 36.75 and c["broken"]
        assert other.view(0).raw() == st.view(0).raw()


def test_the_new_fields_round_trip_and_bad_values_are_named():
    """RULES.md, Structured state: the command fields read back; a wrong value is a
    ValueError naming its key."""
    st = position({"pz4a": {"at": [5, 3], "hq": True}, "ghq": {"alive": False}}, phase="recovery",
                  recovery_next=None, cards=SOVIET_BROKEN, turn=3, rising_checks=[2, 0],
                  ghq_quality=[3, -1], command_due={"rising_check": [True, False]})
    d = st.to_dict()
    assert st.game.state_from_dict(d).raw() == st.raw()
    assert d["ghq_quality"] == [3, -1] and stand(st, "pz4a")["hq"] and d["cards"]["soviet"]["broken_turn"] == 1
    for key, value, name in (("ghq_quality", [4, 0], "ghq_quality"), ("end_cause", "lunch", "end_cause"),
                             ("rising_checks", [1], "rising_checks"), ("hq_lost", [0, 99], "hq_lost")):
        with pytest.raises(ValueError, match=name):
            st.game.state_from_dict({**d, key: value})
    with pytest.raises(ValueError, match="rising cohesion check"):
        st.game.state_from_dict({**d, "command_due": {"rising_check": [False, True]}})
