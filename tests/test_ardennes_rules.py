"""Clash of the Ardennes: one hand-built position per rule of shared/games/ardennes.md.

Every test runs twice: against the engine (through the public API:
load_game, state_from_dict, legal_actions, apply, to_dict) and against the
independent reference model tests/reference/ardennes.py. The expected results
are written out in each test from the rules text, so a failure names the model
that disagrees with the rules, not just "the two differ".

Positions are written as {road: (allied line, german line)}, each line a string
of unit letters from its owner's starting block to its leading unit (the
schema's order). Allied tiles count 1..L from the Allied end; a German line
fills from tile L downward.
"""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import ardennes as ref  # noqa: E402

SIDES = ("allies", "germans")


# ---------------------------------------------------------------- positions
def position(roads, L=16, to_move="allies", ap=4, round=1, variant="standard",
             max_rounds=80, objectives=(1, 2)):
    """A structured-state dict (the rules file's schema) from a compact description.

    Stock is whatever is not on the board; a road whose line fills all L tiles
    against an empty enemy line is marked conquered by that line's owner.
    """
    full = dict(ref.FULL_STOCK)
    stock = {side: dict(full) for side in SIDES}
    if variant == "basic":
        for side in SIDES:
            for u in ref.SPECIALS:
                stock[side][u] = 0
    out_roads = []
    for r in range(1, 8):
        allied, german = roads.get(r, ("", ""))
        for side, line in zip(SIDES, (allied, german)):
            for u in line:
                stock[side][u] -= 1
                assert stock[side][u] >= 0, f"test bug: too many {u} for {side}"
        conquered = None
        for side, line, other in ((SIDES[0], allied, german), (SIDES[1], german, allied)):
            if sum(ref.LENGTH[u] for u in line) == L and not other:
                conquered = side
        out_roads.append({"road": r, "allies": list(allied), "germans": list(german),
                          "conquered": conquered})
    return {"game": "ardennes", "variant": variant, "road_length": L,
            "max_rounds": max_rounds, "round": round, "to_move": to_move, "ap": ap,
            "roads": out_roads, "stock": stock,
            "objectives": {"allies": objectives[0], "germans": objectives[1]},
            "winner": None}


# ---------------------------------------------------------------- the two models
class EngineModel:
    name = "engine"

    def __init__(self):
        import ardsearch
        self.ardsearch = ardsearch

    def game(self, **params):
        return self.ardsearch.load_game("ardennes", **params)

    def from_dict(self, d):
        game = self.game(variant=d["variant"], road_length=d["road_length"],
                         max_rounds=d["max_rounds"])
        return EngineState(game.state_from_dict(d))

    def new(self, **params):
        return EngineState(self.game(**params).new_initial_state(seed=0))


class EngineState:
    def __init__(self, state):
        self.s = state

    def legal(self):
        return {self.s.action_to_string(a) for a in self.s.legal_actions()}

    def play(self, *moves):
        for m in moves:
            self.s.apply(m)
        return self

    def dict(self):
        return self.s.to_dict()

    def view_dict(self, player):
        return self.s.view(player).to_dict()

    def returns(self):
        return list(self.s.returns())

    def player(self):
        return self.s.current_player()

    def is_terminal(self):
        return self.s.is_terminal()

    def chance(self):
        return [(self.s.action_to_string(a), p) for a, p in self.s.chance_outcomes()]


class ReferenceModel:
    name = "reference"

    def from_dict(self, d):
        return ReferenceState(ref.ArdennesState.from_dict(d))

    def new(self, **params):
        return ReferenceState(ref.Ardennes(**params).new_initial_state())


class ReferenceState:
    def __init__(self, state):
        self.s = state

    def legal(self):
        return {ref.action_to_string(a) for a in self.s.legal_actions()}

    def play(self, *moves):
        for m in moves:
            self.s.apply(ref.string_to_action(m))
        return self

    def dict(self):
        return self.s.to_dict()

    def view_dict(self, player):
        return self.s.to_dict(viewer=player)

    def returns(self):
        return self.s.returns()

    def player(self):
        return self.s.current_player()

    def is_terminal(self):
        return self.s.is_terminal()

    def chance(self):
        return [(ref.action_to_string(a), float(p)) for a, p in self.s.chance_outcomes()]


@pytest.fixture(params=["engine", "reference"])
def model(request):
    if request.param == "reference":
        return ReferenceModel()
    try:
        import ardsearch
        ardsearch.load_game("ardennes")
    except Exception as e:  # pragma: no cover - only while the engine is missing
        pytest.skip(f"ardennes engine not available: {e}")
    return EngineModel()


def road(st, r):
    """(allied line, german line, conquered) of road r as strings."""
    d = st.dict()["roads"][r - 1]
    assert d["road"] == r
    return "".join(d["allies"]), "".join(d["germans"]), d["conquered"]


def stock(st, side, unit):
    return st.dict()["stock"][side][unit]


# ================================================================ placement
def test_place_needs_free_tiles_at_least_unit_length(model):
    # Road 1: 6 Allied + 5 German tiles of 12 -> 1 free; road 2: 4 free (own line only).
    st = model.from_dict(position({1: ("TT", "SPM"), 2: ("TTP", "")}, L=12))
    legal = st.legal()
    # road 1: 12 - 6 - 5 = 1 free tile: only 1-tile units (mine, spy)
    assert {"M1", "Y1"} <= legal
    assert not legal & {"T1", "P1", "C1", "S1", "G1", "K1", "R1"}
    # road 2: 12 - 8 = 4 free tiles, no enemy: never past the road end
    assert {"M2", "T2", "P2", "K2", "R2"} <= legal
    assert "G2" not in legal  # the general is 5 tiles long


def test_place_costs_one_ap_and_goes_to_the_front(model):
    st = model.from_dict(position({3: ("TM", "P")}))
    st.play("P3")
    assert road(st, 3)[0] == "TMP"
    d = st.dict()
    assert d["ap"] == 3 and d["to_move"] == "allies"
    assert d["stock"]["allies"]["P"] == 5
    st.play("C3")
    assert road(st, 3)[0] == "TMPC"


def test_place_germans_front_is_toward_the_allies(model):
    st = model.from_dict(position({4: ("", "T")}, to_move="germans"))
    st.play("M4")
    assert road(st, 4)[1] == "TM"
    assert stock(st, "germans", "M") == 4


def test_empty_stock_cannot_be_placed(model):
    st = model.from_dict(position({1: ("S", "")}))
    assert not any(m.startswith("S") for m in st.legal())  # the only sergeant is on road 1


def test_special_unit_limit_one_on_board(model):
    st = model.from_dict(position({2: ("TG", "")}))
    legal = st.legal()
    assert not legal & {f"{u}{r}" for u in "GYKR" for r in range(1, 8)}
    assert "P1" in legal
    st.play("x2")  # retreat the general: specials become placeable again
    legal = st.legal()
    assert {"Y1", "K1", "R1", "G1"} <= legal


def test_special_wedged_in_conquered_road_blocks_specials_for_good(model):
    # Allies conquered road 6 (16 tiles) with the spy inside it.
    st = model.from_dict(position({6: ("TTTTTY", "")}, L=16))
    assert road(st, 6)[2] == "allies"
    legal = st.legal()
    assert not legal & {f"{u}{r}" for u in "GYKR" for r in range(1, 8)}
    assert "x6" not in legal


def test_basic_variant_has_no_special_units(model):
    st = model.from_dict(position({1: ("T", "P")}, variant="basic"))
    legal = st.legal()
    assert not legal & {f"{u}{r}" for u in "GYKR" for r in range(1, 8)}
    assert {"M1", "T1", "P1", "C1", "S1"} <= legal
    d = st.dict()
    for side in SIDES:
        assert all(d["stock"][side][u] == 0 for u in "GYKR")


# ================================================================ front rotation
def test_front_rotation_needs_two_units_and_costs_two_ap(model):
    st = model.from_dict(position({1: ("T", ""), 2: ("TMP", "")}))
    legal = st.legal()
    assert "f1" not in legal  # a single unit
    assert "f2" in legal
    st.play("f2")
    assert road(st, 2)[0] == "MPT"  # rearmost tank goes to the front
    assert st.dict()["ap"] == 2


def test_front_rotation_needs_two_ap(model):
    st = model.from_dict(position({2: ("TMP", "")}, ap=1))
    assert "f2" not in st.legal()


def test_front_rotation_for_germans(model):
    st = model.from_dict(position({5: ("", "PTM")}, to_move="germans"))
    st.play("f5")
    assert road(st, 5)[1] == "TMP"


# ================================================================ retreat
def test_retreat_free_leading_unit_costs_two_ap(model):
    st = model.from_dict(position({1: ("TP", "M")}))
    st.play("x1")
    assert road(st, 1)[0] == "T"
    d = st.dict()
    assert d["ap"] == 2 and d["stock"]["allies"]["P"] == 6


def test_retreat_blocked_leading_unit_costs_three_ap(model):
    # 3 + 2 + 3 = 8 = L: the Allied private touches the German tank (blocked).
    st = model.from_dict(position({1: ("TP", "T")}, L=8))
    legal = st.legal()
    assert "x1" in legal and "a1" not in legal  # private cannot attack a tank
    st.play("x1")
    assert st.dict()["ap"] == 1
    assert road(st, 1)[0] == "T"


def test_blocked_retreat_needs_three_ap(model):
    st = model.from_dict(position({1: ("TP", "T"), 2: ("TP", "")}, L=8, ap=2))
    legal = st.legal()
    assert "x1" not in legal  # blocked: 3 AP
    assert "x2" in legal      # free: 2 AP


def test_no_retreat_on_own_conquered_road(model):
    st = model.from_dict(position({3: ("TTP", "")}, L=8))
    assert road(st, 3)[2] == "allies"
    assert "x3" not in st.legal()


# ================================================================ clash: who may attack
# (attacker's leading unit, defender's leading unit, may attack)
PAIRINGS = [
    ("T", "P", True), ("P", "T", False),        # tank beats infantry
    ("T", "G", True), ("G", "T", False),
    ("T", "R", True), ("R", "T", False),
    ("M", "T", True), ("T", "M", False),        # mine beats tank
    ("M", "K", True), ("K", "M", False),
    ("P", "M", True), ("M", "P", False),        # infantry beats mine
    ("G", "M", True), ("R", "M", True), ("M", "R", False),
    ("C", "P", True), ("P", "C", False),        # ranks
    ("S", "C", True), ("C", "S", False),
    ("G", "S", True), ("S", "G", False),
    ("Y", "G", True), ("G", "Y", False),        # general loses to the spy
    ("P", "R", True), ("R", "P", False),        # mortar loses to every infantry
    ("G", "R", True), ("R", "C", False),
    ("Y", "T", True), ("Y", "M", True), ("Y", "K", True), ("Y", "R", True),
    ("T", "Y", False), ("M", "Y", False), ("P", "Y", False), ("K", "Y", False),
    ("K", "P", True), ("K", "S", True), ("P", "K", False),   # command tank = tank
    ("T", "K", True), ("K", "T", True),         # equal: both may attack
    ("P", "P", True), ("M", "M", True), ("Y", "Y", True), ("G", "G", True), ("R", "R", True),
]


@pytest.mark.parametrize("att,dfn,allowed", PAIRINGS)
def test_clash_strength(model, att, dfn, allowed):
    # The two units alone on road 4, touching; mines behind them pad short
    # roads up to the minimum length 8.
    la, ld = ref.LENGTH[att], ref.LENGTH[dfn]
    pad = max(0, 8 - la - ld)
    L = la + ld + pad
    pad_a, pad_g = "M" * ((pad + 1) // 2), "M" * (pad // 2)
    st = model.from_dict(position({4: (pad_a + att, pad_g + dfn)}, L=L))
    assert ("a4" in st.legal()) == allowed
    # the same pairing with the Germans attacking
    st = model.from_dict(position({4: (pad_a + dfn, pad_g + att)}, L=L, to_move="germans"))
    assert ("a4" in st.legal()) == allowed


def test_no_clash_without_contact(model):
    st = model.from_dict(position({4: ("TTT", "P")}, L=12))  # one free tile between
    assert "a4" not in st.legal()


def test_attack_costs_no_ap(model):
    st = model.from_dict(position({4: ("TTT", "MMMMPP")}, L=17))
    st.play("a4")
    d = st.dict()
    assert d["ap"] == 4 and d["to_move"] == "allies"


# ================================================================ clash: resolution
def test_tank_sweeps_all_infantry_and_stops_at_mine(model):
    st = model.from_dict(position({4: ("TTT", "MCPP")}, L=16))
    st.play("a4")
    assert road(st, 4)[:2] == ("TTT", "M")
    d = st.dict()
    assert d["stock"]["germans"]["P"] == 6 and d["stock"]["germans"]["C"] == 2


def test_equal_clash_removes_only_the_two(model):
    st = model.from_dict(position({5: ("TMP", "TPMP")}, L=14))
    st.play("a5")
    assert road(st, 5)[:2] == ("TM", "TPM")
    d = st.dict()
    assert d["stock"]["allies"]["P"] == 6 and d["stock"]["germans"]["P"] == 5


def test_tank_versus_command_tank_is_equal(model):
    st = model.from_dict(position({5: ("MT", "PK")}, L=9))
    st.play("a5")
    assert road(st, 5)[:2] == ("M", "P")
    assert stock(st, "germans", "K") == 1


def test_rulebook_example_sergeant_sweeps_to_the_tank(model):
    # Rulebook "Same units in line": Allies T,M,P,M on road 5; Germans T,P,S.
    st = model.from_dict(position({5: ("TMPM", "TPS")}, L=14, to_move="germans", ap=1))
    assert "a5" in st.legal()
    st.play("a5")
    assert road(st, 5)[:2] == ("T", "TPS")
    d = st.dict()
    assert d["stock"]["allies"]["M"] == 5 and d["stock"]["allies"]["P"] == 6


def test_rulebook_example_corporal_takes_private_and_mine(model):
    st = model.from_dict(position({2: ("TC", "TMP")}, L=11))
    st.play("a2")
    assert road(st, 2)[:2] == ("TC", "T")


def test_sweep_stops_at_equal_unit(model):
    st = model.from_dict(position({3: ("TS", "PSPM")}, L=12))
    st.play("a3")
    assert road(st, 3)[:2] == ("TS", "PS")  # mine and private gone, sergeant stays


def test_sweep_stops_at_stronger_unit(model):
    st = model.from_dict(position({3: ("C", "PSPM")}, L=9))
    st.play("a3")
    assert road(st, 3)[:2] == ("C", "PS")


def test_general_sweeps_infantry_and_mines_not_tanks(model):
    st = model.from_dict(position({3: ("G", "TMSCP")}, L=15))
    st.play("a3")
    assert road(st, 3)[:2] == ("G", "T")


def test_spy_removes_at_most_two_units(model):
    st = model.from_dict(position({6: ("Y", "PPTT")}, L=11))
    st.play("a6")
    assert road(st, 6)[:2] == ("Y", "PP")


def test_spy_second_unit_enemy_spy_stays(model):
    st = model.from_dict(position({6: ("TY", "TYM")}, L=9))
    st.play("a6")
    assert road(st, 6)[:2] == ("TY", "TY")
    assert stock(st, "germans", "M") == 5


def test_spy_against_spy_removes_both(model):
    st = model.from_dict(position({6: ("TY", "CPY")}, L=9))
    st.play("a6")
    assert road(st, 6)[:2] == ("T", "CP")


def test_mortar_in_clash_beats_only_the_mine(model):
    st = model.from_dict(position({2: ("TR", "PMM")}, L=9))
    st.play("a2")
    assert road(st, 2)[:2] == ("TR", "P")


# ================================================================ command tank flank
def _german_line_covering_tile4(target):
    """German line on a 16-tile road whose unit `target` starts at tile 4 (so
    covers tile 4), with a mine in front of it at tile 3; returns (line, line
    left after the target and all in front are removed)."""
    behind_tiles = 16 - (3 + ref.LENGTH[target])
    behind = "T" * (behind_tiles // 3) + "M" * (behind_tiles % 3)
    return behind + target + "M", behind


@pytest.mark.parametrize("target,allowed", [
    ("P", True), ("C", True), ("S", True), ("G", True), ("R", True),
    ("T", False), ("K", False), ("M", False), ("Y", False),
])
def test_command_tank_flanks_infantry_only(model, target, allowed):
    # Allied command tank on road 3 at tiles 2..4 (its leading tile is 4).
    german, left = _german_line_covering_tile4(target)
    st = model.from_dict(position({3: ("MK", ""), 2: ("", german)}))
    assert ("k3:2" in st.legal()) == allowed
    if allowed:
        st.play("k3:2")
        assert road(st, 2)[1] == left     # the target and the mine in front of it
        assert st.dict()["ap"] == 4       # free


def test_command_tank_flank_right_and_left(model):
    # Allied K on road 4 at tiles 1..3 (leading tile 3); German privates at
    # tiles 3..4 on road 3 and on road 5 (with a mine in front at tile 2).
    d = position({4: ("K", ""), 3: ("", "TTTTP"), 5: ("", "TTTMMMPM")})
    st = model.from_dict(d)
    assert {"k4:3", "k4:5"} <= st.legal()
    st.play("k4:5")
    assert road(st, 5)[1] == "TTTMMM"
    legal = st.legal()
    assert "k4:5" not in legal and "k4:3" in legal


def test_command_tank_arrows_are_on_its_leading_tile(model):
    # Allied K at tiles 2..4 (leading tile 4). A German private at tiles 2..3
    # touches the tank's other tiles but not its leading tile: no flank.
    st = model.from_dict(position({3: ("MK", ""), 2: ("", "TTTTMP")}))
    assert road(st, 2)[1] == "TTTTMP"
    assert "k3:2" not in st.legal()  # tile 4 holds a mine, the private is at 2..3
    # A private at tiles 4..5 covers the leading tile: flank.
    st = model.from_dict(position({3: ("MK", ""), 2: ("", "TTTMMP")}))
    assert "k3:2" in st.legal()


def test_command_tank_not_into_conquered_road(model):
    # Road 2 conquered by the Germans; a private covers tile 4 but the road is locked.
    d = position({3: ("MK", ""), 2: ("", "TTTTPP")})
    assert d["roads"][1]["conquered"] == "germans"
    st = model.from_dict(d)
    assert "k3:2" not in st.legal()


def test_command_tank_on_edge_road_has_one_side(model):
    st = model.from_dict(position({1: ("K", ""), 2: ("", "TTTTP")}))
    assert {m for m in st.legal() if m.startswith("k")} == {"k1:2"}


def test_german_command_tank_flank(model):
    # German K on road 6 at tiles 14..16 (leading tile 14); Allied private at
    # tiles 13..14 on road 7.
    st = model.from_dict(position({6: ("", "K"), 7: ("TTTTP", "")}, to_move="germans"))
    assert "k6:7" in st.legal()
    st.play("k6:7")
    assert road(st, 7)[0] == "TTTT"


def test_command_tank_flank_from_anywhere_in_its_line(model):
    # The K is behind a tank: K at tiles 2..4 (leading 4); German private at 3..4.
    st = model.from_dict(position({3: ("MKT", ""), 2: ("", "TTTTP")}))
    assert "k3:2" in st.legal()


# ================================================================ mortar
def test_allied_mortar_shoots_two_roads_left(model):
    # Allied mortar on road 5 at tiles 2..3 (leading 3); German privates at
    # tiles 3..4 on road 3 (r-2: target) and on road 7 (r+2: not a target).
    st = model.from_dict(position({5: ("MR", ""), 3: ("", "TTTTP"), 7: ("", "TTTMMMP")}))
    assert "m5" in st.legal()
    st.play("m5")
    assert road(st, 3)[1] == "TTTT"
    assert road(st, 7)[1] == "TTTMMMP"
    assert st.dict()["ap"] == 4
    assert "m5" not in st.legal()


def test_german_mortar_shoots_two_roads_the_other_way(model):
    # German mortar on road 3 at tiles 15..16 (leading 15); Allied privates at
    # tiles 14..15 on road 5 (r+2: target) and on road 1 (r-2: not a target).
    st = model.from_dict(position({3: ("", "R"), 5: ("TTTTMP", ""), 1: ("TTTMMMMP", "")},
                                  to_move="germans"))
    assert "m3" in st.legal()
    st.play("m3")
    assert road(st, 5)[0] == "TTTTM"
    assert road(st, 1)[0] == "TTTMMMMP"


def test_mortar_removes_private_and_everything_in_front(model):
    st = model.from_dict(position({5: ("MR", ""), 3: ("", "TTTTPY")}))
    st.play("m5")
    assert road(st, 3)[1] == "TTTT"
    assert stock(st, "germans", "Y") == 1


@pytest.mark.parametrize("german", ["TTTTC", "TTTTS", "TTTTR", "TTTG", "TTTTT", "TTTTMM"])
def test_mortar_targets_only_privates(model, german):
    st = model.from_dict(position({5: ("MR", ""), 3: ("", german)}))
    assert "m5" not in st.legal()


def test_mortar_off_the_board(model):
    # Allied mortar on road 2: road 0 does not exist (road 4 is on its right).
    st = model.from_dict(position({2: ("MR", ""), 4: ("", "TTTTP")}))
    assert not any(m.startswith("m") for m in st.legal())


def test_mortar_shoots_over_conquered_road(model):
    d = position({5: ("MR", ""), 4: ("", "CCSGMMMMM"), 3: ("", "TTTTP")})
    assert d["roads"][3]["conquered"] == "germans"
    st = model.from_dict(d)
    assert "m5" in st.legal()


def test_mortar_not_into_conquered_road(model):
    d = position({5: ("MR", ""), 3: ("", "TTTTPMM")})
    assert d["roads"][2]["conquered"] == "germans"
    st = model.from_dict(d)
    assert "m5" not in st.legal()


# ================================================================ conquest and winning
def test_filling_a_road_conquers_it_and_locks_it(model):
    st = model.from_dict(position({2: ("TTT", "")}, L=12, objectives=(1, 2)))
    st.play("T2")
    assert road(st, 2)[2] == "allies"
    legal = st.legal()
    assert not any(m.endswith("2") and m[0] in ref.UNITS for m in legal)
    assert "x2" not in legal
    assert not st.is_terminal()


def test_objective_card_win(model):
    # Allied card 1 = roads {1, 7}; road 1 already conquered, road 7 one mine short.
    d = position({1: ("TTTTP", ""), 7: ("TTTCC", "")}, L=14, objectives=(1, 2))
    st = model.from_dict(d)
    assert road(st, 1)[2] == "allies" and road(st, 7)[2] is None
    st.play("M7")
    assert st.is_terminal()
    assert st.returns() == [1.0, -1.0]
    assert st.dict()["winner"] == "allies"


def test_german_objective_card_win(model):
    # German card 4 = roads {1, 4}.
    d = position({1: ("", "TTTTP"), 4: ("", "TTTCC")}, L=14, objectives=(2, 4), to_move="germans")
    st = model.from_dict(d)
    st.play("M4")
    assert st.is_terminal() and st.returns() == [-1.0, 1.0]
    assert st.dict()["winner"] == "germans"


def test_first_to_three_roads_wins(model):
    # Allied card 1 {1,7}: not met; roads 2 and 3 conquered, road 5 completes three.
    d = position({2: ("TTTTP", ""), 3: ("PPPPPCC", ""), 5: ("TTTSMM", "")}, L=14,
                 objectives=(1, 2))
    st = model.from_dict(d)
    assert not st.is_terminal()
    st.play("M5")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]


def test_two_roads_not_on_card_do_not_win(model):
    d = position({2: ("TTTTP", ""), 3: ("PPPPPCM", "")}, L=14, objectives=(1, 2))
    st = model.from_dict(d)
    st.play("M3")
    assert not st.is_terminal()


def _setup(model, **params):
    """A new game with first=allies, objectives drawn: Allies card 1, Germans card 2."""
    st = model.new(first="allies", **params)
    assert st.player() == -1
    st.play("obj:1", "obj:2")
    assert st.player() == 0
    return st


def test_max_rounds_more_roads_wins(model):
    st = _setup(model, road_length=8, max_rounds=2)
    st.play("T1", "T1", "P1")  # 8 tiles: road 1 conquered with 1 AP left
    assert road(st, 1)[2] == "allies"
    st.play("pass")
    assert st.dict()["to_move"] == "germans" and st.dict()["round"] == 1
    st.play("pass")
    assert st.dict()["round"] == 2 and st.dict()["to_move"] == "allies"
    st.play("pass")
    assert not st.is_terminal()
    st.play("pass")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]
    assert st.dict()["winner"] == "allies"


def test_max_rounds_equal_roads_is_a_draw(model):
    st = _setup(model, road_length=8, max_rounds=1)
    st.play("pass")
    assert not st.is_terminal()
    st.play("pass")
    assert st.is_terminal() and st.returns() == [0.0, 0.0]
    assert st.dict()["winner"] == "draw"


def test_germans_first_round_order(model):
    st = model.new(first="germans", max_rounds=1)
    st.play("obj:3", "obj:5")  # the starting player (Germans) draws first
    d = st.dict()
    assert d["objectives"] == {"allies": 5, "germans": 3}
    assert d["to_move"] == "germans" and d["ap"] == 4
    st.play("pass", "pass")
    assert st.is_terminal()


# ================================================================ turn structure
def test_turn_ends_by_itself_when_ap_spent_and_no_attack(model):
    st = model.from_dict(position({1: ("T", "")}, ap=1))
    st.play("P2")
    d = st.dict()
    assert d["to_move"] == "germans" and d["ap"] == 4


def test_turn_stays_open_while_an_attack_is_possible(model):
    # Contact the placer cannot exploit: the Allied mine now touches a German
    # private (3 + 1 + 4 = 8 tiles), but a mine cannot attack a private.
    st = model.from_dict(position({1: ("T", "PP")}, L=8, ap=1))
    st.play("M1")
    d = st.dict()
    assert d["to_move"] == "germans"  # the mine cannot attack a private
    st = model.from_dict(position({1: ("T", "MP")}, L=8, ap=1))
    st.play("M1")  # Allied T,M (4) against German M,P (3): 1 free -> no contact
    assert st.dict()["to_move"] == "germans"
    st = model.from_dict(position({1: ("T", "PP")}, L=9, ap=1))
    st.play("P1")  # 5 + 4 = 9: private touches private: an equal attack is possible
    d = st.dict()
    assert d["to_move"] == "allies" and d["ap"] == 0
    assert st.legal() == {"a1", "pass"}
    st.play("a1")
    d = st.dict()
    assert d["to_move"] == "germans" and d["ap"] == 4


def test_turn_stays_open_while_a_flank_or_mortar_shot_is_possible(model):
    # Placing the command tank on road 4 (tiles 1..3) with the last AP: a German
    # private covers tile 3 on road 3, so the flank keeps the turn open.
    st = model.from_dict(position({3: ("", "TTTTP")}, ap=1))
    st.play("K4")
    assert st.dict()["to_move"] == "allies" and st.legal() == {"k4:3", "pass"}
    st.play("k4:3")
    assert st.dict()["to_move"] == "germans"
    # Placing the mortar on road 5 at tiles 2..3 with the last AP: private on road 3.
    st = model.from_dict(position({3: ("", "TTTTP"), 5: ("M", "")}, ap=1))
    st.play("R5")
    assert st.dict()["to_move"] == "allies" and st.legal() == {"m5", "pass"}
    st.play("pass")
    assert st.dict()["to_move"] == "germans"


def test_pass_with_ap_left(model):
    st = model.from_dict(position({}, ap=3))
    assert "pass" in st.legal()
    st.play("pass")
    d = st.dict()
    assert d["to_move"] == "germans" and d["ap"] == 4


def test_pass_legal_at_every_decision(model):
    st = model.from_dict(position({}, ap=1))
    assert "pass" in st.legal()
    st = model.from_dict(position({1: ("TP", "T")}, L=8, ap=4, to_move="germans"))
    assert "pass" in st.legal()


# ================================================================ setup chance and hidden objective
def test_setup_chance_nodes(model):
    st = model.new()
    assert st.player() == -1
    assert st.chance() == [("first:A", 0.5), ("first:G", 0.5)]
    st.play("first:G")
    outs = st.chance()
    assert [m for m, _ in outs] == [f"obj:{k}" for k in range(1, 9)]
    assert all(abs(p - 1 / 8) < 1e-12 for _, p in outs)
    st.play("obj:6")  # the Germans' card
    outs = st.chance()
    assert [m for m, _ in outs] == [f"obj:{k}" for k in (1, 2, 3, 4, 5, 7, 8)]
    assert all(abs(p - 1 / 7) < 1e-12 for _, p in outs)
    st.play("obj:2")
    d = st.dict()
    assert d["objectives"] == {"allies": 2, "germans": 6}
    assert d["to_move"] == "germans" and d["ap"] == 4 and d["round"] == 1


def test_first_parameter_skips_the_coin(model):
    st = model.new(first="allies")
    assert [m for m, _ in st.chance()] == [f"obj:{k}" for k in range(1, 9)]


def test_hidden_objective_in_views(model):
    st = model.from_dict(position({}, objectives=(3, 7)))
    assert st.view_dict(0)["objectives"] == {"allies": 3, "germans": None}
    assert st.view_dict(1)["objectives"] == {"allies": None, "germans": 7}
    assert st.dict()["objectives"] == {"allies": 3, "germans": 7}


def test_hidden_objective_in_engine_history_and_text(model):
    if model.name != "engine":
        pytest.skip("engine-only API (masked_history, observation_string)")
    game = model.game(first="allies")
    st = game.new_initial_state(seed=1)
    st.apply("obj:4")
    st.apply("obj:6")
    assert st.masked_history(0) == ["obj:4", "?"]
    assert st.masked_history(1) == ["?", "obj:6"]
    # the Germans' view must not reveal the Allied card (4 = roads 1 and 4)
    assert st.view(1).to_dict()["objectives"]["allies"] is None
    assert "card 4" not in st.observation_string(1) and "roads 1 and 4" not in st.observation_string(1)
    assert "card 6" not in st.observation_string(0)
    # Resampling from the Germans' information set keeps their card and the
    # board, and deals the Allies one of the 7 other cards.
    seen = set()
    for seed in range(300):
        full = st.resample_from_infostate(1, seed).to_dict()
        assert full["objectives"]["germans"] == 6
        assert full["roads"] == st.to_dict()["roads"]
        seen.add(full["objectives"]["allies"])
    assert seen == {1, 2, 3, 4, 5, 7, 8}


# ================================================================ structured state
def test_to_dict_round_trip(model):
    d = position({1: ("TMP", "SC"), 4: ("K", "Y"), 6: ("TTTTP", "")}, L=14, ap=3,
                 objectives=(5, 8))
    st = model.from_dict(d)
    assert st.dict() == d


@pytest.mark.parametrize("bad,what", [
    ("overlap", "overlapping lines"),
    ("too_many", "unit counts over 25"),
    ("two_specials", "two specials on board"),
])
def test_state_from_dict_rejects_inconsistent(model, bad, what):
    if bad == "overlap":
        d = position({1: ("TTT", "TTT")}, L=16)
        d["road_length"] = 8  # 18 tiles of units on an 8-tile road
        d["roads"][0]["conquered"] = None
    elif bad == "too_many":
        d = position({1: ("T", "")})
        d["stock"]["allies"]["T"] = 7  # 7 in stock + 1 on board
    else:
        d = position({1: ("G", ""), 2: ("Y", "")})
    with pytest.raises(ValueError):
        model.from_dict(d)


# ================================================================ notation and bad input
def test_action_numbering_and_notation(model):
    if model.name != "engine":
        pytest.skip("the reference defines the agreed numbering")
    game = model.game()
    st = game.new_initial_state(seed=0)
    assert game.num_actions == ref.NUM_ACTIONS
    for a in range(ref.NUM_ACTIONS):
        text = ref.action_to_string(a)
        assert st.action_to_string(a) == text, f"action {a}"
        assert st.string_to_action(text) == a, f"notation {text!r}"


def test_illegal_and_unparsable_moves_leave_state_unchanged(model):
    if model.name != "engine":
        pytest.skip("engine-only API (IllegalMoveError, InvalidMoveError)")
    import ardsearch
    game = model.game(road_length=10)
    st = game.state_from_dict(position({1: ("TTT", "")}, L=10))
    before = st.to_dict()
    with pytest.raises(ardsearch.IllegalMoveError):
        st.apply("T1")  # 1 free tile, a tank needs 3
    with pytest.raises(ardsearch.InvalidMoveError):
        st.apply("Z9")
    with pytest.raises(ValueError):
        st.apply("k1:0")
    assert st.to_dict() == before


def test_dict_round_trip_keeps_round_counting(model):
    # A Germans-first game rebuilt from its own dict must count rounds the same:
    # the round ends when the Allies (second player) end their turn.
    if model.name == "engine":
        game = model.game(first="germans")
        st = game.new_initial_state(seed=0)
        for m in ("obj:1", "obj:2", "pass"):
            st.apply(m)
        rebuilt = game.state_from_dict(st.to_dict())
        a, b = EngineState(st), EngineState(rebuilt)
    else:
        st = ref.Ardennes(first="germans").new_initial_state()
        for m in ("obj:1", "obj:2", "pass"):
            st.apply(ref.string_to_action(m))
        rebuilt = ref.ArdennesState.from_dict(st.to_dict(), first="germans")
        a, b = ReferenceState(st), ReferenceState(rebuilt)
    assert a.dict() == b.dict()
    a.play("pass")
    b.play("pass")
    assert a.dict()["round"] == 2
    assert b.dict() == a.dict()


@pytest.mark.parametrize("bad", [dict(road_length=7), dict(road_length=25), dict(variant="advanced"),
                                 dict(first="nobody"), dict(max_rounds=0)])
def test_bad_parameters_are_rejected(model, bad):
    if model.name != "engine":
        pytest.skip("engine-only API (load_game)")
    with pytest.raises(ValueError):
        model.game(**bad)


@pytest.mark.parametrize("L", [8, 24])
def test_road_length_limits_are_playable(model, L):
    st = model.new(first="allies", road_length=L)
    st.play("obj:1", "obj:2")
    assert st.dict()["road_length"] == L
    assert "T1" in st.legal()
