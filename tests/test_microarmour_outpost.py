"""Micro Armour: the outpost scenario (scenarios/outpost.toml) and the rules where its
four families meet: hidden set-up and dummies, minefields real and dummy, transport
(RULES.md "Hidden set-up and spotting", "Minefields", "Transport", and "Transport,
minefields and hidden set-up" for the choices where the digest is silent). One
hand-built position per rule, each docstring quoting the rulebook digest
(shared/seeds/micro-armour.txt) or naming the design choice; every position is
checked against the reference model (check_reference).

Outpost squares used: the stream x = 8 (bridge (8,10), fords (8,16), (8,4)); Soviet
minefield markers (9,10) standard, (9,9) hasty, (9,11) dummy, (9,16) concentrated,
(9,17) dummy, (9,4) standard; Soviet markers m1 T-34 (12,13) and m4 ZiS-3 (13,12) in
woods, m3 rifle (13,16) in a hedgerow, m9 rifle (11,7) and the dummy m2 (12,7) in
woods; x 10..11, y 15..19 and x 9..11, y 9..11 are clear. Stands not named are lost
(shown), dummies not kept are removed, the GHQs parked in far corners.
"""
from __future__ import annotations

import collections
import os

import pytest

import ardsearch
from ardsearch.games.microarmour import _data, _obstacles_data
from test_microarmour_rules import chances, check_reference, keep_only, moves, play, resamples_keeping_the_view
from test_microarmour_rules import mover_record as mover

OUT = ardsearch.load_game("microarmour", scenario="outpost")
RIDERS = ardsearch.load_game("microarmour", scenario="outpost", tank_riders=True)
OB = OUT.new_initial_state(seed=0).to_dict()
SCEN = os.path.join(os.path.dirname(_data.__file__), "scenarios", "outpost.toml")


def outpost(stands, keep=(), game=OUT, **top):
    """A position of the outpost: `stands` ({id: {field: value}}) applied, the markers
    in `keep` kept as they are, the GHQs parked, other dummies removed (spotted) and
    every other stand lost and shown; aboard only where the position says so."""
    d = dict(OB)
    d.update(top)
    d["tank_riders"] = game is RIDERS
    d["stands"] = keep_only(OB["stands"], stands, keep=keep)
    state = game.state_from_dict(d)
    check_reference(state)
    return state


def movement(stands, keep=(), active="german", game=OUT, **top):
    return outpost(stands, keep, game, phase="movement", active=active, orders=[3, 3], orders_rolled=2, **top)


def aboard(at, carrier="htka", cargo="pgra", **carrier_fields):
    """The carrier on `at` in movement posture with its cargo aboard."""
    return {carrier: {"at": list(at), "posture": "move", "facing": "e", **carrier_fields},
            cargo: {"at": list(at), "carried_by": carrier}}


def stand(state, sid):
    return next(s for s in state.to_dict()["stands"] if s["id"] == sid)


def marker(state, x, y):
    return next(m for m in state.to_dict()["minefields"] if m["at"] == [x, y])


# ----------------------------------------------------------------- the scenario
def test_the_outpost_holds_all_four_families():
    """Issue 12: "At least one more scenario with hidden deployment, dummies, minefields
    and transports". Digest: "Each real minefield may be accompanied by dummies according
    to force cohesion (1/4 at 11 or less, 1/2 at 12-14, 1 at 15+)": Soviet cohesion 12,
    four real fields, two dummy markers."""
    st = OUT.new_initial_state(seed=0)
    d = st.to_dict()
    hidden = [s for s in d["stands"] if s["hidden"]]
    assert len(hidden) == 9 and sum(s["dummy"] for s in hidden) == 3
    assert {s["side"] for s in hidden} == {"soviet"}
    cargo = {s["id"]: s["carried_by"] for s in d["stands"] if s["carried_by"]}
    assert cargo == {"pgra": "htka", "pgrb": "htkb", "pion": "htkc", "pak": "htkc"}
    kinds = collections.Counter(m["kind"] for m in d["minefields"])
    real = sum(n for k, n in kinds.items() if k != "dummy")
    assert real == 4 and kinds["dummy"] == 2
    assert kinds["dummy"] == _obstacles_data.dummies_allowed(_data.load_charts(), d["cohesion"][1], real)
    ger = st.view(0).to_dict()
    assert all(s["type"] == "?" for s in ger["stands"] if s["hidden"])
    assert {m["kind"] for m in ger["minefields"]} == {"unknown"}


def _variant(tmp_path, old, new):
    text = open(SCEN).read()
    assert old in text
    p = tmp_path / "bad.toml"
    p.write_text(text.replace(old, new, 1))
    with pytest.raises(ValueError) as e:
        _data.load_scenario("bad", path=str(p))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("bad.toml: ")
    return msg


def test_loader_refuses_a_hidden_stand_or_dummy_aboard_a_carrier(tmp_path):
    """Design (RULES.md "Transport, minefields and hidden set-up"): a marker stands for
    one stand ("Stands placed out of sight ... may be recorded secretly"), so a hidden
    stand or a dummy is never cargo: refused on load, one line naming file, key, reason."""
    msg = _variant(tmp_path, 'id = "m2"\ntype = "dummy"\nside = "soviet"\nat = [12, 7]\nfacing = "w"\nhidden = true',
                   'id = "m2"\ntype = "dummy"\nside = "soviet"\nat = [12, 7]\nfacing = "w"\nhidden = true\n'
                   'carried_by = "m9"')
    assert ".carried_by: expected no carrier for a hidden stand or dummy" in msg
    msg = _variant(tmp_path, 'id = "pgra"\ntype = "pzgren"\nside = "german"\nat = [5, 12]\nfacing = "e"\n',
                   'id = "pgra"\ntype = "pzgren"\nside = "german"\nat = [5, 12]\nfacing = "e"\nhidden = true\n')
    assert "carried_by: expected no carrier for a hidden stand" in msg


def test_loader_refuses_a_hidden_carrier(tmp_path):
    """Design: a marker (real or dummy) carries nothing; its cargo would show where it
    is and, in the enemy's view, what it is. A Soviet rifle set up aboard the hidden
    T-34 m1 is refused."""
    msg = _variant(tmp_path, 'id = "m6"\ntype = "rifle"\nside = "soviet"\nat = [19, 10]\nfacing = "w"\nhidden = true',
                   'id = "m6"\ntype = "rifle"\nside = "soviet"\nat = [12, 13]\nfacing = "w"\ncarried_by = "m1"')
    assert "stand m6.carried_by: expected a carrier that is not hidden" in msg
    msg = _variant(tmp_path, 'id = "m6"\ntype = "rifle"\nside = "soviet"\nat = [19, 10]\nfacing = "w"\nhidden = true',
                   'id = "m6"\ntype = "rifle"\nside = "soviet"\nat = [12, 7]\nfacing = "w"\ncarried_by = "m2"')
    assert "stand m6.carried_by: expected a carrier that is not hidden" in msg


# ----------------------------------------------------------------- a carrier in a minefield
def test_a_loaded_carrier_entering_a_marker_stops_with_its_cargo():
    """Digest: "A stand entering a marker must stop". The half-track htka crosses the
    bridge onto the marker (9,10) with its Panzergrenadiers aboard: it may only stop
    there, its cargo on its square ("Cargo shares the carrier's defence")."""
    st = movement(aboard((8, 10), mp=20, steps=1), mover=mover("htka"))
    play(st, "step e")
    assert not any(m.startswith(("step", "unload")) for m in moves(st))
    assert "stop e" in moves(st)
    assert stand(st, "pgra")["at"] == [9, 10] and stand(st, "pgra")["carried_by"] == "htka"


@pytest.mark.parametrize("result", ["E", "D", "S"])
def test_the_field_attacks_the_carrier_and_its_cargo_shares_the_result(result):
    """Digest: "Only then is the marker revealed as a dummy (removed) or real, in which
    case it attacks on a fixed CRT column" and "Cargo shares the carrier's defence and
    combat results": htka leaves the standard field (9,10) (+3 roll), the reveal is
    `mine:standard`, the field's result lands on the carrier and on the Panzergrenadiers
    aboard (an E kills both; the carrier halts in the field with its cargo)."""
    st = movement(aboard((9, 10), mp=0, steps=0), mover=mover("htka", "roll"))
    assert chances(st)["c:ok"] == pytest.approx(12 / 20)
    play(st, "c:ok")
    assert st.to_dict()["mover"]["step"] == "reveal" and chances(st) == {"mine:standard": 1.0}
    play(st, "mine:standard", "crt:" + result)
    ht, pg = stand(st, "htka"), stand(st, "pgra")
    assert marker(st, 9, 10)["revealed"] and not marker(st, 9, 10)["removed"]
    if result == "E":
        assert not ht["alive"] and not pg["alive"] and pg["carried_by"] is None
    else:
        key = {"D": "disorganized", "S": "suppressed"}[result]
        assert ht[key] and pg[key] and pg["carried_by"] == "htka" and pg["at"] == ht["at"] == [9, 10]
        assert st.to_dict()["mover"] is None


def test_cargo_does_not_dismount_in_a_minefield():
    """Design (the digest: "it needs a +3 cohesion roll to leave. Only then is the marker
    revealed"; "Dismounting needs no roll"): cargo dismounting from a carrier on an
    enemy marker would leave the field with no roll, so it may not; it leaves with its
    carrier. Off the marker, or once the marker is gone (a revealed dummy), it may."""
    assert not [m for m in moves(movement(aboard((9, 10)))) if m.startswith("unload")]
    assert "unload pgra e" in moves(movement(aboard((10, 12))))
    # onto a marker is allowed: the stand entered it and has ended its move there
    assert "unload pgra s" in moves(movement(aboard((9, 12))))
    gone = [dict(m, revealed=True, removed=True) if m["at"] == [9, 11] else m for m in OB["minefields"]]
    assert "unload pgra e" in moves(movement(aboard((9, 11)), minefields=gone))


def test_no_boarding_into_or_out_of_a_minefield():
    """Design, as above: a stand that entered a marker must stop there and may leave it
    only by the +3 roll, so it does not board a vehicle beside it; nor does a stand board
    a vehicle standing on a marker (it would enter the field without stopping)."""
    pg = {"posture": "move", "mp": 8, "facing": "e"}
    ht = {"posture": "move", "facing": "e"}
    on = movement({"pgra": dict(pg, at=[9, 10], steps=1), "htka": dict(ht, at=[10, 10])}, mover=mover("pgra"))
    assert "load htka" not in moves(on)
    into = movement({"pgra": dict(pg, at=[10, 10], steps=1), "htka": dict(ht, at=[9, 10])}, mover=mover("pgra"))
    assert "load htka" not in moves(into)
    clear = movement({"pgra": dict(pg, at=[10, 10], steps=1), "htka": dict(ht, at=[10, 11])}, mover=mover("pgra"))
    assert "load htka" in moves(clear)


def test_pioneers_aboard_do_not_breach():
    """Digest *Engineering*: breaching rolls are "made in the Marker Removal Phase while
    the stand stays in place". Design: a stand aboard a carrier does no engineering work
    (it must dismount to clear mines); the pioneers aboard htkc on the revealed field
    (9,10) roll nothing; on foot there, they roll."""
    mf = [dict(m, revealed=(m["at"] == [9, 10])) for m in OB["minefields"]]
    st = outpost(aboard((9, 10), "htkc", "pion"), phase="movement", active="german", minefields=mf)
    play(st, "pass", "pass")
    assert st.to_dict()["engineering_roll"] is None and st.to_dict()["turn"] == 2
    st = outpost({"pion": {"at": [9, 10]}}, phase="movement", active="german", minefields=mf)
    play(st, "pass", "pass")
    assert st.to_dict()["engineering_roll"] == "pion"


# ----------------------------------------------------------------- spotting and transport
def test_a_stand_that_dismounts_beside_a_hidden_marker_spots_it():
    """Digest: "In hedgerows, a target can only be spotted by adjacent stands unless it
    has fired." The half-track 2" from the hedgerow marker m3 (13,16) does not spot it;
    its Panzergrenadiers dismount beside m3 and spot it at once (spotting follows every
    action, design): the marker shows what it is, a public chance outcome."""
    st = movement(aboard((11, 17)), keep=("m3",))
    assert stand(st, "m3")["hidden"] and not st.is_chance_node()
    view = st.view(0)
    play(st, "unload pgra e")
    view.apply("unload pgra e")
    assert st.is_chance_node() and chances(st) == {"shown:rifle": 1.0}
    assert view.raw() == st.view(0).raw()
    play(st, "shown:rifle")
    assert not stand(st, "m3")["hidden"] and stand(st, "m3")["type"] == "rifle"


def test_cargo_spots_what_its_carrier_spots_and_no_more():
    """Design: cargo shares its carrier's square, so it sees what the carrier sees; a
    carrier 2" from the hedgerow marker spots nothing, with or without cargo aboard."""
    for stands in (aboard((11, 17)), {"htka": {"at": [11, 17]}}):
        st = movement(stands, keep=("m3",))
        assert stand(st, "m3")["hidden"] and not st.is_chance_node()


def test_a_minefield_reveal_and_a_spotting_in_one_move_keep_the_view_in_step():
    """Digest: the marker is revealed when the stand leaves it ("Only then is the
    marker revealed"), and a stand beside a hidden one spots it. The loaded htka leaves
    the hasty field (9,9): the reveal (`mine:hasty`), the field's attack (`crt:-`), a
    step south-east beside the hidden rifle m9 (11,7), its showing (`shown:rifle`). The
    German view, fed the same public events, equals the view of the true state after
    each one; in it, the reveal's kinds and the marker's content are the unseen ones."""
    st = movement(aboard((9, 9), mp=0, steps=0), keep=("m9", "m2"), mover=mover("htka", "roll"))
    view = st.view(0)
    seq = ["c:ok", "mine:hasty", "crt:-", "step se", "shown:rifle"]
    for text in seq:
        if text == "mine:hasty":
            assert set(chances(view)) == {"mine:dummy", "mine:hasty", "mine:standard", "mine:concentrated"}
            assert chances(view)["mine:dummy"] == pytest.approx(2 / 6)
        if text == "shown:rifle":
            assert st.to_dict()["mover"]["id"] == "htka" and st.is_chance_node()
            assert chances(view) == pytest.approx({"shown:rifle": 0.5, "shown:dummy": 0.5})
        play(st, text)
        view.apply(text)
        assert view.raw() == st.view(0).raw(), text
    assert not stand(st, "m9")["hidden"] and stand(st, "m2")["hidden"]
    assert marker(st, 9, 9)["kind"] == "hasty" and stand(st, "pgra")["at"] == [10, 8]


# ----------------------------------------------------------------- hidden information
def _midgame():
    """After some play: the T-34 m1 spotted, the dummy m2 removed, the dummy marker
    (9,11) revealed and removed, the standard field (9,10) revealed; htka on it with its
    Panzergrenadiers aboard, htkb beside the ford with pgrb aboard."""
    mf = [dict(m, revealed=m["at"] in ([9, 10], [9, 11]), removed=(m["at"] == [9, 11])) for m in OB["minefields"]]
    keep = ("m3", "m4", "m5", "m6", "m7", "m8", "m9")
    return outpost({"m1": {"hidden": False}, **aboard((9, 10)), **aboard((7, 16), "htkb", "pgrb"),
                    "pz4a": {"at": [7, 12]}}, keep=keep, phase="fire", active="german", minefields=mf)


def test_resamples_never_contradict_what_the_viewer_has_seen():
    """RULES.md "Hidden information": resample_from_infostate keeps everything the
    German player has seen (every stand shown, the carriers and their cargo, the spotted
    T-34 m1, the removed dummy m2, the revealed fields) and deals the rest from what the
    Soviet record sheets hold less what was seen: the seven markers' contents and the
    four unrevealed fields' kinds. 1,000 resamples."""
    st = _midgame()
    view = st.view(0).to_dict()
    hidden = ["m3", "m4", "m5", "m6", "m7", "m8", "m9"]
    assert next(s for s in view["stands"] if s["id"] == "pgra")["carried_by"] == "htka"
    pool = ["rifle", "zis3", "dummy", "rifle", "t34", "dummy", "rifle"]
    shown = {tuple(m["at"]): m for m in view["minefields"] if m["revealed"]}
    unseen = [m["at"] for m in view["minefields"] if not m["revealed"]]
    assert sorted(unseen) == [[9, 4], [9, 9], [9, 16], [9, 17]]
    dummy = collections.Counter()
    for full, by in resamples_keeping_the_view(st, 0, hidden, pool, removed=("m2",)):
        assert all(by[m]["carried_by"] is None for m in hidden)
        kinds = {tuple(m["at"]): m for m in full["minefields"]}
        assert all(kinds[k] == m for k, m in shown.items())
        assert sorted(kinds[tuple(a)]["kind"] for a in unseen) == ["concentrated", "dummy", "hasty", "standard"]
        for a in unseen:
            dummy[tuple(a)] += kinds[tuple(a)]["kind"] == "dummy"
        for m in hidden:
            dummy[m] += by[m]["dummy"]
    for k, n in dummy.items():
        lo, hi = ((170, 330) if isinstance(k, tuple) else (190, 390))    # 1 in 4 fields, 2 in 7 markers
        assert lo < n < hi, (k, n)


def test_a_dummy_is_never_boarded_even_with_tank_riders():
    """Design: a dummy marker is no stand; its placeholder type (the side's first hidden
    type, a T-34) must not make it a tank a rifle could ride (optional tank riders). The
    rifle m9, shown, beside the dummy m2 and beside the shown T-34 m7 in movement
    posture: it may board only m7."""
    st = movement({"m9": {"hidden": False, "posture": "move", "mp": 8, "steps": 1, "facing": "w"},
                   "m7": {"hidden": False, "at": [10, 7], "posture": "move", "facing": "w"}},
                  keep=("m2",), active="soviet", game=RIDERS, mover=mover("m9"))
    legal = moves(st)
    assert "load m7" in legal and "load m2" not in legal


def _refused(game, stands, keep=(), **top):
    d = dict(OB, tank_riders=game is RIDERS, **top)
    out = []
    for st in OB["stands"]:
        st = dict(st)
        st.update(stands.get(st["id"], {}))
        if st["dummy"] and st["id"] not in keep and st["id"] not in stands:
            continue
        out.append(st)
    d["stands"] = out
    with pytest.raises(ValueError) as e:
        game.state_from_dict(d)
    return str(e.value)


def test_validate_refuses_a_hidden_marker_carried_or_carrying():
    """Issue 12, Bad input: a corrupt state of this scenario linking a hidden marker to
    a carrier is refused with a ValueError that says what is wrong (tank riders: a T-34
    carries one personnel stand)."""
    msg = _refused(RIDERS, {"m9": {"hidden": False, "at": [12, 13], "carried_by": "m1"}})
    assert "hidden marker carried or carrying" in msg
    msg = _refused(RIDERS, {"m7": {"hidden": False, "at": [13, 16], "posture": "firing"},
                            "m3": {"carried_by": "m7"}})
    assert "hidden marker carried or carrying" in msg


def test_validate_refuses_an_engineering_roll_for_cargo():
    """Corrupt: the marker removal phase's engineering roll named for the pioneers
    aboard htkc (cargo does no engineering work, design)."""
    mf = [dict(m, revealed=(m["at"] == [9, 10])) for m in OB["minefields"]]
    st = outpost({"pion": {"at": [9, 10]}}, phase="movement", active="german", minefields=mf)
    play(st, "pass", "pass")
    d = st.to_dict()
    assert d["engineering_roll"] == "pion"
    for s in d["stands"]:
        if s["id"] == "htkc":
            s.update(alive=True, at=[9, 10])
        if s["id"] == "pion":
            s["carried_by"] = "htkc"
    with pytest.raises(ValueError):
        OUT.state_from_dict(d)


def test_the_text_board_of_the_outpost():
    """RULES.md "Board text": in the German view each Soviet marker is `?` on the map
    and in the list, each minefield marker `!` and its kind `unknown`; cargo is listed
    `aboard` its carrier and not drawn on the map."""
    from ardsearch.games.microarmour import SPEC
    st = OUT.new_initial_state(seed=0)
    text = SPEC.render(st.view(0).raw())
    rows = {int(line[:2]): line[3:] for line in text.splitlines()[1:21]}
    for s in OB["stands"]:
        if s["hidden"]:
            x, y = s["at"]
            assert rows[y][x] == "?", s["id"]
    for m in OB["minefields"]:
        x, y = m["at"]
        assert rows[y][x] == "!"
        assert f"minefield {x},{y} soviet unknown" in text
    assert "pgra   pzgren     5,12 e  firing    aboard htka" in text
    assert "pak    pak40      5,10 e  firing    aboard htkc" in text


def _carrier_offset(state):
    """The transport block's carrier bytes (RULES.md, The state struct), found from the
    outpost's start: pgra, pgrb, pion and pak (slots 6, 8, 10, 11) aboard slots 5, 7, 9, 9."""
    want = bytearray([255] * 32)
    want[6], want[8], want[10], want[11] = 5, 7, 9, 9
    return state.raw().index(bytes(want))


@pytest.mark.parametrize("cargo,carrier", [(26, 18), (18, 17), (19, 17), (6, 18)])
def test_validate_refuses_corrupt_carrier_bytes(cargo, carrier):
    """Issue 12, Bad input: a serialized outpost state whose carrier byte puts a marker
    aboard (m9 on the hidden T-34 m1; m1 or the dummy m2 on the HQ's T-34) or a German
    aboard a Soviet marker is refused with a ValueError, never a crash (tank riders on,
    so a T-34 has room)."""
    st = RIDERS.new_initial_state(seed=0)
    at = _carrier_offset(st)
    raw = bytearray(st.raw())
    ser = st.serialize()
    i = ser.index(bytes(raw))
    raw[at + cargo] = carrier
    with pytest.raises(ValueError):
        RIDERS.deserialize_state(ser[:i] + bytes(raw) + ser[i + len(raw):])


def _two_truths():
    """Two outposts the German player cannot tell apart: m1 and m2 swap what is under
    them (a T-34, a dummy) and the fields (9,10) and (9,11) swap kinds (standard, dummy)."""
    a = OUT.new_initial_state(seed=3)
    d = a.to_dict()
    by = {s["id"]: s for s in d["stands"]}
    by["m1"].update(type=by["m2"]["type"], dummy=True)
    by["m2"].update(type="t34", dummy=False)
    kinds = {tuple(m["at"]): m["kind"] for m in d["minefields"]}
    for m in d["minefields"]:
        if m["at"] in ([9, 10], [9, 11]):
            m["kind"] = kinds[(9, 11)] if m["at"] == [9, 10] else kinds[(9, 10)]
    return a, OUT.state_from_dict(d)


@pytest.mark.parametrize("bot", ["greedy", "ismcts"])
def test_a_bot_never_plays_on_what_it_cannot_see(bot):
    """Issue 12, Bots: "a bot never plays on what it cannot see": the German views of two
    truths (markers and minefield kinds swapped) are the same bytes, and the German
    choice is the same in both."""
    a, b = _two_truths()
    assert a.raw() != b.raw() and a.view(0).raw() == b.view(0).raw()
    moves = []
    for state in (a, b):
        state.apply("init:G")
        state.apply("lead")
        assert state.current_player() == 0
        if bot == "greedy":
            player = ardsearch.load_bot("greedy", OUT, seed=7)
        else:
            player = ardsearch.ISMCTSBot(OUT, simulations=200, seed=7, reuse_tree=False)
        moves.append(state.action_to_string(player.step(state)))
    assert moves[0] == moves[1]


def test_the_text_board_names_the_owners_dummies():
    """RULES.md "Board text": on the Soviet side a dummy marker's line says `dummy` (not
    its placeholder T-34) and every unspotted marker's line ends `hidden`; the German
    view lists `?`."""
    from ardsearch.games.microarmour import SPEC
    st = OUT.new_initial_state(seed=0)
    own = {line.split()[0]: line for line in SPEC.render(st.view(1).raw()).splitlines() if line.startswith("  m")}
    assert own["m2"].split()[1] == "dummy" and own["m2"].endswith("hidden")
    assert own["m1"].split()[1] == "t34" and own["m1"].endswith("hidden")
    enemy = {line.split()[0]: line for line in SPEC.render(st.view(0).raw()).splitlines() if line.startswith("  m")}
    assert enemy["m2"].split()[1] == "?" and not enemy["m2"].endswith("hidden")


def test_tank_riders_share_the_fields_attack_too():
    """Digest: "Optional rules cover tank riders" and "Cargo shares the carrier's ...
    combat results": a Pz IV carrying Panzergrenadiers as tank riders leaves the standard
    field (9,10); the field's D lands on tank and riders alike."""
    st = movement(aboard((9, 10), "pz4a", "pgra", mp=0, steps=0), game=RIDERS, mover=mover("pz4a", "roll"))
    play(st, "c:ok", "mine:standard", "crt:D")
    assert stand(st, "pz4a")["disorganized"] and stand(st, "pgra")["disorganized"]
    assert stand(st, "pgra")["carried_by"] == "pz4a"


def test_a_loaded_carrier_that_fails_to_leave_keeps_its_cargo_in_the_field():
    """Digest: "it needs a +3 cohesion roll to leave. Only then is the marker revealed":
    htka fails its roll on the marker (9,10); the marker stays unrevealed, the cargo
    aboard, and (design) the cargo may not dismount there."""
    st = movement(aboard((9, 10), mp=0, steps=0), mover=mover("htka", "roll"))
    play(st, "c:fail")
    assert not marker(st, 9, 10)["revealed"] and stand(st, "pgra")["carried_by"] == "htka"
    assert not any(m.startswith("unload") for m in (moves(st) if not st.is_chance_node() else []))


def test_a_dummy_marker_revealed_under_a_loaded_carrier_frees_its_cargo():
    """Digest: "Only then is the marker revealed as a dummy (removed)": htka leaves the
    dummy marker (9,11): `mine:dummy`, the marker is removed, the carrier moves on with
    its cargo; on the next square (clear) the cargo may dismount."""
    st = movement(aboard((9, 11), mp=0, steps=0), mover=mover("htka", "roll"))
    play(st, "c:ok")
    assert chances(st) == {"mine:dummy": 1.0}
    play(st, "mine:dummy")
    assert marker(st, 9, 11)["removed"] and st.to_dict()["mover"]["step"] == "step"
    play(st, "step e")
    assert stand(st, "pgra")["at"] == [10, 11] and "unload pgra e" in moves(st)
