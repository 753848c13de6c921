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


# ================================================================ audit: contract clauses
# Each test below quotes the words of shared/games/ardennes.md (or the
# rulebook) it checks, written from the text rather than from either model.

def test_board_pieces_and_stock_at_the_start(model):
    """Contract, Board and pieces: "7 roads ... Design choice: `road_length`
    default 16" and "Each has 25 units in stock: 5 anti-tank mines (1 tile),
    7 tanks (3), 6 privates (2), 2 corporals (2), 1 sergeant (2), and the
    special units, one each: general (5), spy (1), command tank (3), mortar (2)."
    """
    st = model.new(first="allies")
    st.play("obj:1", "obj:2")
    d = st.dict()
    assert d["road_length"] == 16 and [r["road"] for r in d["roads"]] == list(range(1, 8))
    want = {"M": 5, "T": 7, "P": 6, "C": 2, "S": 1, "G": 1, "Y": 1, "K": 1, "R": 1}
    for side in SIDES:
        assert d["stock"][side] == want and sum(d["stock"][side].values()) == 25
    # The tiles each unit covers, read from where it still fits: road 1 with
    # exactly n free tiles (n = 1..5) takes the units of length <= n.
    length = {"M": 1, "Y": 1, "P": 2, "C": 2, "S": 2, "R": 2, "T": 3, "K": 3, "G": 5}
    for n, line in ((1, "TTM"), (2, "TT"), (3, "TMM"), (4, "TM"), (5, "T")):
        st = model.from_dict(position({1: (line, "")}, L=8))
        legal = st.legal()
        for u, ln in length.items():
            assert (f"{u}1" in legal) == (ln <= n), (n, u)


def test_unused_action_points_are_lost(model):
    """Contract, Turn: "each turn has 4 action points (AP); unused AP are lost"."""
    st = model.from_dict(position({}, ap=3))
    st.play("pass")                       # the Allies end with 3 AP unused
    assert st.dict()["ap"] == 4 and st.dict()["to_move"] == "germans"
    st.play("T1", "pass")                 # the Germans use 1 of 4
    d = st.dict()
    assert d["to_move"] == "allies" and d["ap"] == 4 and d["round"] == 2


def test_no_automatic_end_with_action_points_left(model):
    """Contract, Turn: "A turn also ends by itself when no AP is left and no
    attack (clash, flank or mortar shot) is possible." With AP left the turn
    goes on until `pass`, even when pass is the only move."""
    # L = 8. Every Allied unit that could still be placed is too long or is a
    # special (the spy is on the board); with 1 AP no front or retreat.
    d = position({1: ("TT", "M"), 2: ("TT", "M"), 3: ("TT", "M"), 4: ("TMMMMM", ""),
                  5: ("YPP", "T"), 6: ("PPPP", ""), 7: ("CCS", "M")}, L=8, ap=1)
    st = model.from_dict(d)
    assert st.legal() == {"pass"}
    assert st.dict()["to_move"] == "allies" and st.dict()["ap"] == 1
    st.play("pass")
    assert st.dict()["to_move"] == "germans"


def test_attacker_does_not_move_and_the_gap_can_be_filled(model):
    """Contract, Clash: "Removed units return to their owner's stock. The
    attacker does not move; the gap may be filled by later placements."
    """
    st = model.from_dict(position({4: ("TTT", "MCPP")}, L=16))
    st.play("a4")
    assert road(st, 4)[:2] == ("TTT", "M")          # the Allied line is where it was
    assert stock(st, "germans", "P") == 6 and stock(st, "germans", "C") == 2
    assert {"P4", "G4", "T4"} <= st.legal()        # 16 - 9 - 1 = 6 free tiles
    st.play("P4")
    assert road(st, 4)[0] == "TTTP"


def test_mortar_fires_from_anywhere_in_its_line(model):
    """Contract, Special attacks: "Design choice: each special attack may be
    made whenever its condition holds, from wherever the unit stands in its
    line." An Allied mortar behind a tank (road 5, tiles 2..3, leading tile 3)
    still fires at a German private covering tile 3 of road 3."""
    st = model.from_dict(position({5: ("MRT", ""), 3: ("", "TTTTP")}))
    assert "m5" in st.legal()
    st.play("m5")
    assert road(st, 3)[1] == "TTTT"


@pytest.mark.parametrize("card,roads", list(enumerate(ref.OBJECTIVES, start=1)))
def test_each_objective_card_wins_with_its_two_roads(model, card, roads):
    """Contract, Conquering and winning: "a deck of 8 cards, each naming two
    roads: {1,7} {2,6} {3,5} {1,4} {4,7} {2,5} {3,6} {2,7}" and "A player
    wins at once when they have conquered every road named on their Objective
    card". Road a is held, road b is one mine short (L = 8)."""
    a, b = roads
    other = 1 if card != 1 else 2
    st = model.from_dict(position({a: ("TTP", ""), b: ("TTM", "")}, L=8,
                                  objectives=(card, other)))
    assert not st.is_terminal()
    st.play(f"M{b}")
    assert st.is_terminal() and st.returns() == [1.0, -1.0]


def test_victory_cards_parameter_is_off(model):
    """Contract, Conquering and winning: "(Victory cards: the rulebook does not
    print their effects; the engine draws none. Parameter kept for later:
    `victory_cards=false`.)" Conquering a road draws no card: no chance node."""
    if model.name == "engine":
        with pytest.raises(ValueError, match="victory_cards"):
            model.game(victory_cards=True)
        assert model.game(victory_cards=False).params["victory_cards"] is False
    st = model.from_dict(position({2: ("TTT", "")}, L=12))
    st.play("T2")
    assert road(st, 2)[2] == "allies"
    assert st.player() == 0 and st.dict()["to_move"] == "allies"


def test_objective_win_in_the_last_turn_beats_the_round_count(model):
    """Contract: "A player wins at once when they have conquered every road
    named on their Objective card" and "after `max_rounds` rounds ... the game
    ends; the player with more conquered roads wins, else a draw". In the last
    turn of the last round the Germans (second player) conquer road 4 with
    their last AP: card 4 = {1, 4} wins at once, although the round count would
    read 2 roads to 2, a draw."""
    d = position({2: ("TTP", ""), 3: ("TTP", ""), 1: ("", "TTP"), 4: ("", "TTM")},
                 L=8, to_move="germans", ap=1, round=3, max_rounds=3, objectives=(1, 4))
    st = model.from_dict(d)
    st.play("M4")
    assert st.is_terminal()
    assert st.dict()["winner"] == "germans" and st.returns() == [-1.0, 1.0]


def test_third_road_in_the_last_turn_wins_at_once(model):
    """Contract: "or when they are the first to conquer any 3 roads". The
    Allies (first player) conquer their third road with their last AP in the
    last round: the game ends there and then, the Germans get no last turn."""
    d = position({2: ("TTP", ""), 3: ("TTP", ""), 5: ("TTM", "")},
                 L=8, ap=1, round=2, max_rounds=2, objectives=(1, 2))
    st = model.from_dict(d)
    st.play("M5")
    assert st.is_terminal() and st.dict()["winner"] == "allies"
    assert st.dict()["round"] == 2


def test_front_rotation_on_a_conquered_road_keeps_the_conquest(model):
    """Design choice (RULES.md): the contract's "The road is locked: no
    retreat, no flank or mortar shot into it" does not forbid bringing the
    rearmost unit to the front; the line still fills the road, so it stays
    conquered."""
    st = model.from_dict(position({3: ("TTP", "")}, L=8))
    legal = st.legal()
    assert "x3" not in legal and "f3" in legal
    st.play("f3")
    assert road(st, 3) == ("TPT", "", "allies")
    assert st.dict()["ap"] == 2


def test_rulebook_example_start_of_a_new_game(model):
    """Rulebook, Setup Example: "the Germans placed 4 units (1 infantry
    private, 2 tanks and 1 anti-tank mine) on roads 3, 4 and 5. This means 4
    action points in total have been used, so now the Allies can start their
    round." (Contract: the turn ends by itself with no AP and no attack.)"""
    st = model.from_dict(position({}, to_move="germans"))
    st.play("P3", "T4", "T5", "M5")
    d = st.dict()
    assert d["to_move"] == "allies" and d["ap"] == 4
    assert [road(st, r)[1] for r in (3, 4, 5)] == ["P", "T", "TM"]


def test_rulebook_example_blocking(model):
    """Rulebook, Blocking: "the Germans placed an anti-tank mine in front of an
    enemy tank. The Germans have no more action points left, so they decide
    not to attack, but block the enemy tank." Then "there is no room for them
    to place a stronger opposing unit on that road, and therefore removing
    their front unit is the only option. This costs them 3 valuable action
    points" (contract: "3 AP if it is blocked")."""
    st = model.from_dict(position({2: ("T", "PC")}, L=8, to_move="germans", ap=1))
    st.play("M2")                                  # 3 + 4 + 1 = 8: the mine touches the tank
    assert st.dict()["to_move"] == "germans" and st.dict()["ap"] == 0
    assert st.legal() == {"a2", "pass"}            # the mine could attack; they block
    st.play("pass")
    legal = st.legal()
    assert st.dict()["to_move"] == "allies"
    assert not any(m[0] in ref.UNITS and m.endswith("2") for m in legal)  # no room
    assert "a2" not in legal                       # a tank cannot attack a mine
    st.play("x2")
    assert st.dict()["ap"] == 1 and road(st, 2)[0] == ""


def test_rulebook_example_command_tank(model):
    """Rulebook, Example: using the command tank: "The Germans placed their
    command tank with their last action point. They decide to attack the left
    road, because the left arrow is pointing towards an infantry unit. This
    Infantry unit must be removed from the battlefield together with ALL units
    in front of this unit, no matter which unit. The German command tank can't
    attack the right road, because the arrow of the command tank is not in
    line with an infantry unit. The Germans can now choose between blocking
    the front 2 infantry units or attack. If they attack, both infantry units
    must be removed". L = 10; the German K goes to road 5, tiles 8..10
    (leading tile 8); the Germans' left is road 6 (they face the Allies)."""
    d = position({5: ("MMMPP", ""),      # Allied privates at tiles 4..7: touch the K
                  6: ("TTPY", ""),       # Allied private at 7..8, spy at 9 in front of it
                  4: ("MCCT", "")},      # Allied tank at 6..8: not infantry
                 L=10, to_move="germans", ap=1)
    st = model.from_dict(d)
    st.play("K5")
    assert st.dict()["to_move"] == "germans" and st.dict()["ap"] == 0
    assert st.legal() == {"k5:6", "a5", "pass"}
    st.play("k5:6")
    assert road(st, 6)[0] == "TT"                  # the private and the spy in front of it
    assert stock(st, "allies", "Y") == 1
    st.play("a5")
    assert road(st, 5)[0] == "MMM"                 # both privates; the tank stops at the mines
    assert st.dict()["to_move"] == "allies"        # nothing left to attack: the turn ends


def test_contract_notation_examples(model):
    """Contract, Notation: the examples `T3`, `f3`, `x3`, `a3`, `k3:2`, `m5`,
    `pass`, `first:A` / `first:G` and `obj:4` read back to the same text, and
    name the actions the table says (numbers as in RULES.md)."""
    examples = {"T3": 1 * 7 + 2, "f3": 63 + 2, "x3": 70 + 2, "a3": 77 + 2,
                "k3:2": 84 + 2 * 2 + 0, "k3:4": 84 + 2 * 2 + 1, "m5": 98 + 4,
                "pass": 105, "first:A": 106, "first:G": 107, "obj:4": 108 + 3}
    for text, number in examples.items():
        if model.name == "engine":
            st = model.game().new_initial_state(seed=0)
            assert st.string_to_action(text) == number, text
            assert st.action_to_string(number) == text, text
        else:
            assert ref.string_to_action(text) == number, text
            assert ref.action_to_string(number) == text, text
    if model.name == "engine":
        import ardsearch
        st = model.game().new_initial_state(seed=0)
        # "obj:<k> (hidden from the opponent: `?` in their view)"
        assert st.string_to_action("?") == ardsearch.HIDDEN
        assert st.action_to_string(ardsearch.HIDDEN) == "?"


def _contract_example(mines_in_stock):
    """The contract's structured-state example, with its elisions filled in:
    roads 2..7 empty and the Germans' stock the full set less the private on
    road 1."""
    return {"game": "ardennes", "variant": "standard", "road_length": 16, "max_rounds": 80,
            "round": 1, "to_move": "allies", "ap": 4,
            "roads": [{"road": 1, "allies": ["T", "T", "M"], "germans": ["P"], "conquered": None}]
            + [{"road": r, "allies": [], "germans": [], "conquered": None} for r in range(2, 8)],
            "stock": {"allies": {"M": mines_in_stock, "T": 5, "P": 6, "C": 2, "S": 1,
                                 "G": 1, "Y": 1, "K": 1, "R": 1},
                      "germans": {"M": 5, "T": 7, "P": 5, "C": 2, "S": 1,
                                  "G": 1, "Y": 1, "K": 1, "R": 1}},
            "objectives": {"allies": 1, "germans": 2},
            "winner": None}


def test_contract_structured_state_example(model):
    """Contract, Structured state: the example dict round-trips exactly through
    state_from_dict and to_dict. As printed it lists "M": 5 in the Allied stock
    beside a mine on road 1, six mines of five: the contract also says
    state_from_dict "rejects anything inconsistent (unit counts over 25 ...)
    with a ValueError naming the problem", so that literal form is refused and
    the consistent one ("M": 4) is the example that round-trips."""
    good = _contract_example(4)
    st = model.from_dict(good)
    assert st.dict() == good
    if model.name == "engine":
        import json
        assert json.dumps(st.dict()) == json.dumps(good)   # same keys, same order
    with pytest.raises(ValueError, match="M|mine"):
        model.from_dict(_contract_example(5))


def test_board_text_as_the_contract_describes(model):
    """Contract, Board text: "One line per road, Allied block on the left,
    tile by tile: upper case Allied units, lower case German, `.` free tiles,
    with unit boundaries visible (two tanks side by side must read as two
    tanks); then conquered-road markers, whose turn, AP left, and each
    player's stock counts. A player's own objective is shown only in that
    player's view." (Full-state text: RULES.md, design choice.)"""
    if model.name != "engine":
        pytest.skip("board text is the engine's str(state)")
    game = model.game(road_length=8)
    st = game.state_from_dict(position({1: ("TT", "P"), 3: ("TTP", "")}, L=8, ap=3,
                                       objectives=(4, 6)))
    text = str(st)
    rows = [line for line in text.splitlines() if line.startswith("road ")]
    assert len(rows) == 7
    assert rows[0] == "road 1 [T T T|T T T|p p]"            # two tanks, then a German private
    assert rows[1] == "road 2 [. . . . . . . .]"
    assert rows[2].startswith("road 3 [T T T|T T T|P P]") and "conquered by Allies" in rows[2]
    assert "Allies to move, 3 AP left" in text
    assert "stock M5 T3 P5 C2 S1 G1 Y1 K1 R1" in text       # Allies: 4 tanks, 1 private out
    assert "stock M5 T7 P5 C2 S1 G1 Y1 K1 R1" in text       # Germans: 1 private out
    mine, theirs = "objective card 4", "objective card 6"
    assert mine in st.observation_string(0) and theirs not in st.observation_string(0)
    assert theirs in st.observation_string(1) and mine not in st.observation_string(1)
    assert "objective hidden" in st.observation_string(0)
