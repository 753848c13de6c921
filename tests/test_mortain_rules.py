"""Hand-built positions, one or more per rule of shared/games/mortain.md
(RULES.md names each rule's source). Positions are set up with the
structured state (from_dict) and driven in notation."""
import pytest

from ardsearch.games.mortain import _engine as E

CHANCE, TERMINAL = -1, -4
# the historical setup, which starts with the first card; the game's default starts with the US setup
HISTORICAL = E.pack_params({"setup": "historical"})


def position(units, **fields):
    """Units not named: German in reserve, US eliminated except CCA in reserve
    (so the game is not over for want of US units)."""
    full = {u: {"at": "reserve" if i < 11 else "eliminated"} for i, u in enumerate(E.unit_ids())}
    full["cca"] = {"at": "reserve"}
    for u, v in units.items():
        full[u] = v if isinstance(v, dict) else {"at": v}
    return E.from_dict({"units": full, **fields})


def names(raw):
    if E.player(raw) == CHANCE:
        return sorted(E.action_text(raw, a) for a, _ in E.chance(raw))
    return sorted(E.action_text(raw, a) for a in E.legal(raw))


def do(raw, *moves):
    for m in moves:
        a = E.parse(raw, m)
        assert a >= 0, f"unparsable {m!r}"
        assert m in names(raw), f"{m!r} not legal here; legal: {names(raw)}"
        raw = E.apply(raw, a)
        assert E.check(raw) is None, E.check(raw)
    return raw


def state(raw):
    return E.to_dict(raw)


def acting(units, card, **fields):
    return position(units, phase="act", card=card, **fields)


# ----------------------------------------------------------- activation ----
def test_black_8_gives_four_activations_used_by_one_unit():
    raw = position({"panther": "1005", "2-120": "0203"})
    raw = do(raw, "8b")
    d = state(raw)
    assert d["active"] == "german" and d["activations_left"] == 4
    for dest in ("0905", "0805", "0705", "0605"):
        raw = do(raw, f"panther-{dest}")
    assert state(raw)["units"]["panther"]["at"] == "0605"
    assert E.player(raw) == CHANCE and state(raw)["phase"] == "draw"


@pytest.mark.parametrize("card,acts", [("Ab", 1), ("2b", 1), ("3r", 2), ("6b", 3), ("9r", 5), ("10b", 5)])
def test_number_cards_give_half_rounded_up(card, acts):
    raw = do(position({"panther": "1005", "2-120": "0203"}), card)
    assert state(raw)["activations_left"] == acts
    assert state(raw)["active"] == ("us" if card.endswith("r") else "german")


def test_pass_ends_the_card():
    raw = do(position({"panther": "1005", "2-120": "0203"}), "8b", "pass")
    assert E.player(raw) == CHANCE and state(raw)["card"] is None


def test_face_card_activates_one_stack_both_units_act():
    raw = acting({"panther": "1005", "iv2": "1005", "stug": "1004", "2-120": "0203"}, "Kb")
    raw = do(raw, "stack 1005")
    assert state(raw)["stack"] == ["panther", "iv2"]
    assert not any(m.startswith("stug") for m in names(raw))
    raw = do(raw, "panther-0905")
    assert "panther-0805" not in names(raw)           # one activation per unit of the stack
    raw = do(raw, "iv2-0905")
    assert E.player(raw) == CHANCE


def test_face_card_one_unit_on_the_map_acts_without_naming_a_stack():
    """C, Sequence: "J, Q, K = one unit or one stack (all units in one hex, activated
    together)"; Notation: "move unit u to hex h (or enter, or exit) | `<u>-<hex>` /
    `<u>-exit`", "fire | `<u>[+<u2>]x<target>`", "activate a stack (face card) | `stack
    <hex>` then the moves/fire of its units". The one unit is activated with its own
    move or fire (the reviewer's position: only `stack 1005` was legal), and its one act
    uses the card: the next draw comes."""
    start = acting({"panther": "1005", "2-120": "0805"}, "Kb", deck={"5b": 2})
    moves = names(start)
    assert "panther-0905" in moves and "pantherx2-120" in moves and "stack 1005" in moves
    raw = do(start, "panther-0905")
    d = state(raw)
    assert d["units"]["panther"]["at"] == "0905"
    assert E.player(raw) == CHANCE and d["phase"] == "draw" and d["card"] is None
    raw = do(start, "pantherx2-120")
    assert state(raw)["attack"] == {"kind": "ground", "firers": ["panther"], "target": "2-120"}
    raw = do(raw, "5b")                               # AI 3 against 5 + clear 0: a miss
    d = state(raw)
    assert E.player(raw) == CHANCE and d["phase"] == "draw" and d["card"] is None
    assert d["units"]["2-120"] == {"at": "0805", "reduced": False}
    for a in E.legal(start):                          # every text reads back as its action
        assert E.parse(start, E.action_text(start, a)) == a


def test_face_card_us_unit_alone_in_its_hex_acts_directly():
    """C, Sequence: "black -> the German player acts, red -> the US player acts ... J,
    Q, K = one unit or one stack"; Notation: "`<u>-<hex>`". A US unit alone in its hex
    moves on a red Queen without `stack`, and the card is used."""
    raw = acting({"panther": "1005", "2-120": "0803"}, "Qr")
    assert "2-120-0703" in names(raw)
    raw = do(raw, "2-120-0703")
    assert state(raw)["units"]["2-120"]["at"] == "0703"
    assert E.player(raw) == CHANCE and state(raw)["card"] is None


def test_face_card_one_unit_of_a_two_unit_stack_acts_alone():
    """C, Sequence: "J, Q, K = one unit or one stack (all units in one hex, activated
    together)". One unit of a two-unit hex may be the one unit: it acts, its partner
    does not, and the card is used. Two units firing together are the stack: `stack
    <hex>` first (RULES.md, Turn and cards)."""
    start = acting({"panther": "0905", "iv2": "0905", "2-120": "0805"}, "Jb", deck={"9b": 2})
    moves = names(start)
    assert "iv2-1005" in moves and "pantherx2-120" in moves
    assert "panther+iv2x2-120" not in moves           # two firers: a stack, named first
    raw = do(start, "iv2-1005")
    d = state(raw)
    assert d["units"]["iv2"]["at"] == "1005" and d["units"]["panther"]["at"] == "0905"
    assert E.player(raw) == CHANCE and d["card"] is None
    raw = do(start, "pantherx2-120", "9b")
    assert E.player(raw) == CHANCE and state(raw)["card"] is None   # iv2 did not act
    assert "panther+iv2x2-120" in names(do(start, "stack 0905"))


def test_face_card_tiger_rides_free_with_a_directly_activated_unit():
    """C, Sequence: "J, Q, K = one unit or one stack"; "the Tiger does not count and,
    when a German unit in its hex is activated, the Tiger may activate with it for free
    (same move or joining its fire)". The Panther activated alone on a face card takes
    the Tiger along (`panther+tiger-<hex>`, `tiger+pantherx<target>`), and that one act
    uses the card; the Tiger acting directly is the one unit, its partner stays."""
    start = acting({"tiger": "0905", "panther": "0905", "743": "0705"}, "Kb", deck={"10b": 2})
    moves = names(start)
    assert "panther+tiger-0805" in moves and "tiger+pantherx743" in moves
    raw = do(start, "panther+tiger-0805")
    d = state(raw)
    assert d["units"]["tiger"]["at"] == d["units"]["panther"]["at"] == "0805"
    assert E.player(raw) == CHANCE and d["card"] is None
    raw = do(start, "tiger+pantherx743")
    assert state(raw)["attack"]["firers"] == ["tiger", "panther"]
    raw = do(raw, "10b")
    assert E.player(raw) == CHANCE and state(raw)["card"] is None
    raw = do(start, "tiger-1005")
    d = state(raw)
    assert d["units"]["tiger"]["at"] == "1005" and d["units"]["panther"]["at"] == "0905"
    assert E.player(raw) == CHANCE and d["card"] is None


def test_face_card_can_bring_on_one_reserve_unit():
    raw = acting({"2-120": "0203"}, "Qb")
    assert "panther-1305" in names(raw)
    raw = do(raw, "panther-1305")
    assert E.player(raw) == CHANCE


def test_stack_fires_together_on_one_activation():
    raw = acting({"panther": "0805", "iv2": "0805", "2-120": "0705"}, "Jb", deck={"5b": 1, "6b": 1})
    raw = do(raw, "stack 0805", "panther+iv2x2-120")
    assert state(raw)["attack"] == {"kind": "ground", "firers": ["panther", "iv2"], "target": "2-120"}


# ----------------------------------------------------- stacking, Tiger ----
def test_two_units_a_hex_and_the_tiger_is_free():
    raw = acting({"panther": "1005", "iv2": "1005", "stug": "1006", "tiger": "1006", "2-120": "0203"}, "8b")
    moves = names(raw)
    assert "stug-1005" not in moves                   # 2 units there already
    assert "tiger-1005" in moves                      # the Tiger does not count
    raw = do(raw, "tiger-1005")
    assert state(raw)["units"]["tiger"]["at"] == "1005"


def test_no_mixed_hexes():
    raw = acting({"panther": "0805", "2-120": "0705"}, "8b")
    assert "panther-0705" not in names(raw)


def test_tiger_moves_and_fires_free_with_a_unit_in_its_hex():
    raw = acting({"panther": "0805", "tiger": "0805", "iv2": "0806", "743": "0705"}, "Ab",
                 deck={"5b": 2})
    moves = names(raw)
    assert "panther+tiger-0905" in moves              # moves together for one activation
    assert "tiger+pantherx743" in moves               # fires together for one activation
    assert "tiger+iv2x743" not in moves               # not in its hex: would cost 2
    raw = do(raw, "panther+tiger-0905")
    d = state(raw)
    assert d["units"]["tiger"]["at"] == d["units"]["panther"]["at"] == "0905"


def test_at_most_two_firers():
    raw = position({"panther": "0805", "2-120": "0705"})
    assert E.parse(raw, "panther+iv2+stugx2-120") == -1


# ------------------------------------------------------------ Air / OBA ----
US_AIR = {"panther": "0805", "iv2": "0905", "2-120": "0203"}


def test_red_jack_offers_air():
    moves = names(acting(US_AIR, "Jr"))
    assert "air panther" in moves and "airi 0805" in moves
    assert not any(m.startswith("oba") for m in moves)


@pytest.mark.parametrize("card", ["Ar", "3r", "5r", "7r", "9r"])
def test_red_odd_offers_air(card):
    assert "air panther" in names(acting(US_AIR, card))


@pytest.mark.parametrize("card", ["2r", "4r", "6r", "8r", "10r", "Qr", "Kr"])
def test_other_red_cards_offer_oba(card):
    moves = names(acting(US_AIR, card))
    assert "oba panther" in moves
    assert not any(m.startswith("air") for m in moves)


def test_red_4_offers_oba():
    moves = names(acting(US_AIR, "4r"))
    assert "oba panther" in moves and "oba iv2" in moves


def test_second_air_or_oba_in_a_turn_refused():
    raw = do(acting(US_AIR, "Jr"), "airi 0805")
    assert state(raw)["air_used"]
    raw = do(raw, "4r")
    assert not any(m.split()[0] in ("air", "airi", "oba") for m in names(raw))
    raw = do(raw, "pass", "7r")
    assert not any(m.split()[0] in ("air", "airi", "oba") for m in names(raw))


def test_air_is_instead_of_ground_activations():
    raw = acting({**US_AIR, "1-120": "0605"}, "7r")
    raw = do(raw, "1-120-0604")                        # a ground activation first...
    assert not any(m.startswith("air") for m in names(raw))   # ...rules the marker out
    raw = do(acting(US_AIR, "7r", deck={"2b": 1, "3b": 1}), "air panther", "2b")
    assert E.player(raw) == CHANCE                     # the strike used the whole card


def test_air_marker_returns_next_turn():
    raw = do(acting(US_AIR, "Jr", activated=["german", "us"]), "airi 0805")
    raw = do(raw, "joker")
    assert state(raw)["turn"] == 2 and not state(raw)["air_used"] and state(raw)["interdicted"] is None


@pytest.mark.parametrize("card,hit", [("4b", True), ("5b", False)])
def test_air_strike_strength_4_ignores_terrain(card, hit):
    # panther in a city (+2) would be safe from 4 on a 3 with terrain; the errata ignores it
    raw = acting({"panther": "0604", "2-120": "0203"}, "Jr", deck={card: 1, "Kb": 1})
    raw = do(raw, "air panther", card)
    assert state(raw)["units"]["panther"]["reduced"] is hit


@pytest.mark.parametrize("card,hit", [("3b", True), ("4b", False)])
def test_oba_strength_3(card, hit):
    raw = do(acting({"df1": "0604", "2-120": "0203"}, "2r", deck={card: 1, "Kb": 1}), "oba df1", card)
    assert state(raw)["units"]["df1"]["reduced"] is hit


def test_strike_terrain_variant_applies_terrain_without_adjacent_germans():
    units = {"panther": "0604", "2-120": "0203"}
    raw = acting(units, "Jr", deck={"3b": 1, "Kb": 1}, params={"strike_terrain": "variant"})
    raw = do(raw, "air panther", "3b")                 # 3 + city 2 = 5 > 4: miss
    assert not state(raw)["units"]["panther"]["reduced"]
    raw = acting({**units, "iv2": "0605"}, "Jr", deck={"3b": 1, "Kb": 1}, params={"strike_terrain": "variant"})
    raw = do(raw, "air panther", "3b")                 # a German unit adjacent: terrain ignored
    assert state(raw)["units"]["panther"]["reduced"]


def test_interdiction_adds_one_to_german_attacks_also_for_units_moving_in():
    # panther (AI 3) at 0905 fires on 2-120 in clear 0705 (distance 2): a 3 hits, interdicted a 3 misses
    base = {"panther": "1005", "iv2": "0805", "2-120": "0705"}
    raw = do(acting(base, "Jr"), "airi 0805")
    assert state(raw)["interdicted"] == "0805"
    raw = do(raw, "8b", "panther-0905")                # moves into a hex next to 0805 afterwards
    raw = E.from_dict({**state(raw), "deck": {"3b": 1, "Kb": 1}})
    raw = do(raw, "panther x2-120".replace(" ", ""), "3b")
    assert not state(raw)["units"]["2-120"]["reduced"]
    raw = acting(base, "8b", deck={"3b": 1, "Kb": 1})
    raw = do(raw, "panther-0905", "pantherx2-120", "3b")
    assert state(raw)["units"]["2-120"]["reduced"]


# ---------------------------------------------------------------- combat ----
def test_fire_blocked_through_forest_but_allowed_into_it():
    raw = acting({"panther": "0102", "743": "0303"}, "8b")
    assert "pantherx743" not in names(raw)             # 0202 forest lies between
    raw = acting({"panther": "0401", "743": "0403"}, "8b")
    assert "pantherx743" in names(raw)                 # the target's own forest does not block


def test_line_along_an_edge_blocked_if_either_side_blocks():
    # 0401 -> 0601 runs along the edge of 0501 (village) and 0502 (clear)
    assert "pantherx743" not in names(acting({"panther": "0401", "743": "0601"}, "8b"))


def test_range_two_or_three_from_a_hill():
    assert "pantherx743" not in names(acting({"panther": "0301", "743": "0304"}, "8b"))   # 3, clear line
    assert "pantherx743" in names(acting({"panther": "0806", "743": "1106"}, "8b"))   # 0806 is a hill


@pytest.mark.parametrize("iv2_at,hit", [("0604", True), ("0503", False)])
def test_minus_one_only_when_every_firer_is_adjacent(iv2_at, hit):
    # panther AI 3 + iv2 AI 3 = 6 against 2-120 in clear 0505; card 7 (adjacent: 6, hit)
    raw = acting({"panther": "0605", "iv2": iv2_at, "2-120": "0505"}, "8b", deck={"7b": 1, "Kb": 1})
    raw = do(raw, "panther+iv2x2-120", "7b")
    assert state(raw)["units"]["2-120"]["reduced"] is hit


@pytest.mark.parametrize("target,card,hit", [("743", "7b", True), ("743", "8b", False), ("2-120", "3b", True),
                                            ("2-120", "4b", False)])
def test_tiger_minus_one_on_at_attacks_only(target, card, hit):
    # Tiger AT 6 / AI 3 from distance 2 against clear 0505
    raw = acting({"tiger": "0507", target: "0505"}, "Ab", deck={card: 1, "Kb": 1})
    raw = do(raw, f"tigerx{target}", card)
    assert state(raw)["units"][target]["reduced"] is hit


@pytest.mark.parametrize("where,hit", [("0505", True), ("0507", False)])
def test_terrain_modifier_is_added(where, hit):
    # panther AI 3 against 2-120: card 3 hits in clear, misses in a village (+1)
    near = {"0505": "0503", "0507": "0509"}[where]
    raw = acting({"panther": near, "2-120": where}, "Ab", deck={"3b": 1, "Kb": 1})
    raw = do(raw, "pantherx2-120", "3b")
    assert state(raw)["units"]["2-120"]["reduced"] is hit


def test_hit_flips_then_eliminates():
    raw = acting({"panther": "0503", "2-120": {"at": "0505", "reduced": True}, "1-120": "0101"}, "Ab",
                 deck={"Ab": 1, "Kb": 1})
    raw = do(raw, "pantherx2-120", "Ab")
    assert state(raw)["units"]["2-120"]["at"] == "eliminated"


def test_face_card_in_combat_redraw_or_miss():
    raw = acting({"panther": "0503", "2-120": "0505"}, "Ab", deck={"Qb": 1, "Ab": 1, "5b": 1})
    raw = do(raw, "pantherx2-120", "Qb")
    assert names(raw) == ["miss", "redraw"] and E.player(raw) == 0
    missed = do(raw, "miss")
    assert not state(missed)["units"]["2-120"]["reduced"] and E.player(missed) == CHANCE
    again = do(raw, "redraw")
    assert E.player(again) == CHANCE and state(again)["phase"] == "combat"
    again = do(again, "Ab")
    assert state(again)["units"]["2-120"]["reduced"]


def test_joker_in_combat_ends_the_turn_and_misses():
    raw = acting({"panther": "0503", "2-120": "0505"}, "8b", activated=["german", "us"])
    raw = do(raw, "pantherx2-120", "joker")
    d = state(raw)
    assert d["turn"] == 2 and not d["units"]["2-120"]["reduced"] and d["attack"] is None


def test_no_fire_when_the_deck_is_empty():
    raw = acting({"panther": "0503", "2-120": "0505"}, "8b", deck={})
    assert "pantherx2-120" not in names(raw) and "panther-0504" in names(raw)


# --------------------------------------------------- jokers, deck, turns ----
def test_joker_as_first_card_is_ignored():
    raw = E.initial_raw(HISTORICAL)
    raw = do(raw, "joker")
    d = state(raw)
    assert E.player(raw) == CHANCE and d["turn"] == 1 and d["deck"]["joker"] == 0
    assert sum(d["deck"].values()) == 52


def test_joker_ignored_until_both_sides_had_a_card():
    raw = do(E.initial_raw(HISTORICAL), "5b", "pass", "joker")
    assert state(raw)["turn"] == 1
    raw = do(E.initial_raw(HISTORICAL), "5b", "pass", "5r", "pass", "joker")
    assert state(raw)["turn"] == 2 and sum(state(raw)["deck"].values()) == 53


def test_deck_exhausted_ends_the_turn():
    raw = position({"panther": "1005", "2-120": "0203"}, deck={"5b": 1})
    raw = do(raw, "5b", "pass")
    assert state(raw)["turn"] == 2


def test_chance_probabilities_are_exact_over_cards_left():
    outs = dict(E.chance(E.initial_raw(HISTORICAL)))
    assert len(outs) == 27 and outs[26] == pytest.approx(1 / 53) and outs[0] == pytest.approx(2 / 53)
    raw = position({"panther": "1005", "2-120": "0203"}, deck={"5b": 2, "Kr": 1, "joker": 1})
    assert sorted((E.action_text(raw, a), p) for a, p in E.chance(raw)) == \
        [("5b", 0.5), ("Kr", 0.25), ("joker", 0.25)]


def test_us_wins_after_the_last_turn():
    raw = position({"panther": "1005", "2-120": "0203"}, turn=6, activated=["german", "us"])
    raw = do(raw, "joker")
    assert E.player(raw) == TERMINAL and E.returns(raw) == [-1.0, 1.0]


# ---------------------------------------------------------- entry, exit ----
def test_germans_enter_on_the_east_edge():
    moves = names(do(position({"2-120": "0203"}), "Ab"))
    assert "panther-1301" in moves and "panther-1309" in moves and "panther-1201" not in moves


def test_us_reinforcements_enter_west_from_turn_2():
    assert not any(m.startswith("cca") for m in names(acting({"2-120": "0203"}, "8r")))
    moves = names(acting({"2-120": "0203"}, "8r", turn=2))
    assert "cca-0101" in moves and "cca-0109" in moves and "cca-0201" not in moves


def test_exit_counted_and_german_win_at_end_of_turn_with_five():
    exited = {u: "exited" for u in ("iv2", "stug", "iv3", "df1")}
    raw = acting({**exited, "panther": "0105", "2-120": "0809"}, "Ab", activated=["german", "us"])
    assert state(raw)["exits"] == 4
    raw = do(raw, "panther-exit")
    assert state(raw)["exits"] == 5
    assert E.player(raw) == CHANCE                     # not yet: the Germans win at the end of the turn
    raw = do(raw, "joker")
    assert E.player(raw) == TERMINAL and E.returns(raw) == [1.0, -1.0]


def test_four_exits_at_end_of_turn_is_not_enough():
    exited = {u: "exited" for u in ("iv2", "stug", "iv3", "df1")}
    raw = position({**exited, "panther": "0105", "2-120": "0809"}, activated=["german", "us"])
    raw = do(raw, "joker")
    assert state(raw)["turn"] == 2 and E.player(raw) == CHANCE


def test_tiger_exits_with_its_stack_mate():
    raw = acting({"panther": "0105", "tiger": "0105", "2-120": "0809"}, "Ab")
    raw = do(raw, "panther+tiger-exit")
    assert state(raw)["exits"] == 2


def test_german_wins_at_once_when_no_us_units_are_left():
    raw = acting({"panther": "0503", "2-120": {"at": "0505", "reduced": True}, "cca": "eliminated",
                  "ccb": "eliminated", "ccr": "eliminated"}, "Ab", deck={"Ab": 1, "Kb": 1})
    raw = do(raw, "pantherx2-120", "Ab")
    assert E.player(raw) == TERMINAL and E.returns(raw) == [1.0, -1.0]


# ----------------------------------------------------------------- setup ----
TO_PLACE = ["2-120", "1-120", "3-120", "1-117", "2-117", "td-a", "td-b", "743"]   # scenario file order


def free_start():
    return E.initial_raw(E.pack_params({"setup": "free"}))


def test_free_setup_places_each_us_unit_outside_the_east_column():
    """C, Order of battle: "The US setup is part of the game: a chance-free setup phase
    in which the US player places each non-CC unit (one action per unit: `setup <unit>
    <hex>`), stacking limits apply"; US units "set up anywhere except column 13"."""
    raw = free_start()
    assert E.player(raw) == 1
    moves = names(raw)
    # every non-CC unit, each on the 108 hexes outside column 13; no CC unit
    assert len(moves) == 8 * 108
    assert {m.split()[1] for m in moves} == set(TO_PLACE)
    assert not any(m.split()[2].startswith("13") for m in moves)
    raw = do(raw, "setup 2-120 0704", "setup 1-120 0704")
    assert "setup 3-120 0704" not in names(raw)        # stacking limit
    for uid, h in (("3-120", "0604"), ("1-117", "0605"), ("2-117", "0507"), ("td-a", "0802"), ("td-b", "0803"),
                   ("743", "0604")):
        raw = do(raw, f"setup {uid} {h}")
    assert E.player(raw) == CHANCE and state(raw)["units"]["cca"]["at"] == "reserve"


def test_free_setup_any_order_the_last_unit_first():
    """C, Order of battle: "The US setup is part of the game: a chance-free setup phase
    in which the US player places each non-CC unit (one action per unit: `setup <unit>
    <hex>`), stacking limits apply." C fixes no order, so any unit still to place may go
    next: here the scenario file's last unit first, then the rest in reverse."""
    raw = free_start()
    assert "setup 743 0604" in names(raw)
    placement = [("743", "0604"), ("td-b", "0604"), ("td-a", "0201"), ("2-117", "0102"),
                 ("1-117", "0504"), ("3-120", "0505"), ("1-120", "0506"), ("2-120", "0803")]
    for k, (uid, h) in enumerate(placement):
        raw = do(raw, f"setup {uid} {h}")
        left = TO_PLACE[:len(TO_PLACE) - k - 1]      # the units not yet placed, in file order
        if left:
            assert state(raw)["phase"] == "setup"
            assert {m.split()[1] for m in names(raw)} == set(left)
    assert all(state(raw)["units"][uid]["at"] == h for uid, h in placement)
    assert state(raw)["phase"] == "draw"


def test_free_setup_a_unit_cannot_be_placed_twice():
    """C, Order of battle: "The US setup is part of the game: a chance-free setup phase
    in which the US player places each non-CC unit (one action per unit: `setup <unit>
    <hex>`), stacking limits apply": one action per unit, so a placed unit is not
    offered again, and the public API refuses it."""
    import ardsearch
    raw = do(free_start(), "setup 743 0604")
    assert not any(m.startswith("setup 743 ") for m in names(raw))
    assert len(names(raw)) == 7 * 108
    s = ardsearch.load_game("mortain", setup="free").new_initial_state(seed=0)
    s.apply("setup 743 0604")
    with pytest.raises(ardsearch.IllegalMoveError, match=r"'setup 743 0605' \(\d+\) is not a legal move for player 1"):
        s.apply("setup 743 0605")
    assert s.to_dict()["units"]["743"]["at"] == "0604"
    with pytest.raises(ValueError, match="'743' is not a US unit still to place"):
        E.from_dict({"params": {"setup": "free"}, "phase": "setup", "setup_next": "743",
                     "units": {u: {"at": "0604" if u == "743" else "reserve"} for u in TO_PLACE}})


def test_free_setup_refuses_column_13_and_a_full_hex():
    """C, Order of battle: "The US setup is part of the game: a chance-free setup phase
    in which the US player places each non-CC unit (one action per unit: `setup <unit>
    <hex>`), stacking limits apply"; US units "set up anywhere except column 13";
    C Sequence: "at most 2 friendly ground units per hex"."""
    import ardsearch
    s = ardsearch.load_game("mortain", setup="free").new_initial_state(seed=0)
    with pytest.raises(ardsearch.IllegalMoveError, match=r"'setup 2-120 1305' \(\d+\) is not a legal move for player 1"):
        s.apply("setup 2-120 1305")
    s.apply("setup 743 0704")
    s.apply("setup td-a 0704")
    with pytest.raises(ardsearch.IllegalMoveError, match=r"'setup 2-120 0704' \(\d+\) is not a legal move for player 1"):
        s.apply("setup 2-120 0704")
    assert "setup 2-120 0703" in [s.action_to_string(a) for a in s.legal_actions()]
    # the same positions given as a structured state are refused, naming the problem
    units = {u: {"at": "reserve"} for u in TO_PLACE}
    with pytest.raises(ValueError, match="not on an allowed hex"):
        E.from_dict({"params": {"setup": "free"}, "phase": "setup", "units": {**units, "743": {"at": "1305"}}})
    with pytest.raises(ValueError, match="more than 2 units in a hex"):
        E.from_dict({"params": {"setup": "free"}, "phase": "setup",
                     "units": {**units, "743": {"at": "0704"}, "td-a": {"at": "0704"}, "td-b": {"at": "0704"}}})


def test_free_setup_ends_after_the_last_unit():
    """C, Order of battle: "The US setup is part of the game: a chance-free setup phase
    in which the US player places each non-CC unit (one action per unit: `setup <unit>
    <hex>`), stacking limits apply": the phase ends when every non-CC unit is placed,
    whatever the order; Turn 1 then begins with the first card draw (C Sequence)."""
    raw = free_start()
    for k, uid in enumerate(["td-b", "743", "1-117", "2-120", "3-120", "td-a", "2-117"]):
        raw = do(raw, f"setup {uid} 0{k + 1}05")
        assert state(raw)["phase"] == "setup" and E.player(raw) == 1
    assert {m.split()[1] for m in names(raw)} == {"1-120"}
    from ardsearch.games.mortain import render
    assert "US setup: to place 1-120" in render(raw).splitlines()[0]
    raw = do(raw, "setup 1-120 0803")
    d = state(raw)
    assert d["phase"] == "draw" and E.player(raw) == CHANCE and len(names(raw)) == 27
    assert d["turn"] == 1 and sum(d["deck"].values()) == 53
    assert all(d["units"][u]["at"] == "reserve" for u in ("cca", "ccb", "ccr"))
    assert all(d["units"][u]["at"] != "reserve" for u in TO_PLACE)


def test_setup_texts_round_trip():
    """C, Order of battle: "The US setup is part of the game: a chance-free setup phase
    in which the US player places each non-CC unit (one action per unit: `setup <unit>
    <hex>`), stacking limits apply": every `setup <unit> <hex>` text reads back as the
    same action, and a state in mid-setup round-trips through the structured state."""
    raw = free_start()
    for a in E.legal(raw):
        text = E.action_text(raw, a)
        assert text.startswith("setup ") and E.parse(raw, text) == a
    raw = do(raw, "setup 743 0604", "setup 2-117 0604", "setup td-a 0101")
    for a in E.legal(raw):
        assert E.parse(raw, E.action_text(raw, a)) == a
    d = state(raw)
    assert "setup_next" not in d and d["phase"] == "setup"
    still = [u for u in TO_PLACE if d["units"][u]["at"] == "reserve"]
    assert still == ["2-120", "1-120", "3-120", "1-117", "td-b"]
    assert E.from_dict(d, {"setup": "free"}) == raw
    # an older dict naming the next unit of the old fixed order is read (and the key ignored)
    assert E.from_dict({**d, "setup_next": "2-120"}) == raw and E.from_dict({**d, "setup_next": None}) == raw
    with pytest.raises(ValueError, match="every US unit is placed"):
        E.from_dict({"params": {"setup": "free"}, "phase": "setup"})   # the historical units, all placed
    with pytest.raises(ValueError, match="reinforcement is on the map before its entry turn"):
        E.from_dict({**d, "units": {**d["units"], "cca": {"at": "0101", "reduced": False}}})


def test_historical_setup_from_the_scenario():
    d = state(E.initial_raw(HISTORICAL))
    assert d["units"]["2-120"]["at"] == "0803" and d["phase"] == "draw"
    assert all(d["units"][u]["at"] == "reserve" for u in E.unit_ids()[:11])


# ------------------------------------------------ audit against the contract ----
# Each test below quotes the words of shared/games/mortain.md ("C") or of the
# rulebook and errata (shared/seeds/stand-at-mortain.txt, "R", "E") it checks.

CONTRACT_MAP = """
      01 02 03 04 05 06 07 08 09 10 11 12 13
  01   .  f  .  .  v  .  f  f  .  .  f  .  .
  02   .  f  .  .  .  .  f  h  h  .  .  v  .
  03   v  .  .  f  .  .  .  h  h  .  .  .  .
  04   .  .  .  f  .  C  C  .  .  f  .  .  .
  05   .  .  v  .  .  C  .  .  .  f  .  v  .
  06   .  f  .  .  .  .  .  h  .  .  .  .  .
  07   .  f  .  .  v  .  .  h  f  .  v  .  .
  08   .  .  .  f  .  .  .  .  f  .  .  .  .
  09   v  .  .  f  .  .  v  .  .  .  .  f  .
"""


def test_map_terrain_is_the_contracts_hex_by_hex():
    """C, Map: "Hex map, 13 columns (01 west .. 13 east) x 9 rows (01 north .. 09
    south) ... Terrain: `.` clear, `v` village, `C` city (Mortain), `h` hill (Hill 314
    east of the town), `f` forest", with the map drawn there (row 07 has a village in
    column 11). The engine once had clear terrain at 1107."""
    from ardsearch.games.mortain import scenario
    sc = scenario.load()
    rows = [line.split()[1:] for line in CONTRACT_MAP.strip().splitlines()[1:]]
    assert len(rows) == 9 and all(len(r) == 13 for r in rows)
    for r, letters in enumerate(rows):
        for c, letter in enumerate(letters):
            got = sc.terrain_letters[sc.hex_terrain[c * 9 + r]]
            assert got == letter, f"hex {c + 1:02d}{r + 1:02d}: engine {got!r}, contract {letter!r}"


@pytest.mark.parametrize("card,hit", [("2b", True), ("3b", False)])
def test_village_1107_adds_one_and_blocks_line_of_sight(card, hit):
    """C, Map: row 07 column 11 is `v`; "Terrain combat modifier ...: village +1";
    "fire may enter but not pass through village, city, hill and forest hexes"."""
    # panther AI 3 at 1105 against 2-120 in 1107 (distance 2, 1106 clear between): 2 + 1 hits, 3 + 1 misses
    raw = acting({"panther": "1105", "2-120": "1107"}, "Ab", deck={card: 1, "Kb": 1})
    raw = do(raw, "pantherx2-120", card)
    assert state(raw)["units"]["2-120"]["reduced"] is hit
    # 1107 lies between 1106 and 1108: fire may not pass through it
    assert "pantherx2-120" not in names(acting({"panther": "1106", "2-120": "1108"}, "8b"))


def test_contract_notation_examples_round_trip():
    """C, Notation: "`7r`, `Kb`", "`tiger-1104`", "`panther+iv2x2-120`", "`stack 1104`",
    "`air <target>`, `airi <hex>`, `oba <target>`", "`redraw` / `miss`", "`pass`",
    "`joker`", "`<u>-<hex>` / `<u>-exit`": each example reads as one action and is
    written back exactly as the contract spells it."""
    raw = E.initial_raw(HISTORICAL)
    examples = ["7r", "Kb", "joker", "pass", "tiger-1104", "panther+iv2x2-120", "stack 1104",
                "air panther", "airi 1104", "oba tiger", "redraw", "miss", "pg37-exit", "cca-0105",
                "2-120x743".replace("743", "tiger"), "setup 2-120 0803", "Ab", "10r", "Qb", "Jr"]
    seen = set()
    for text in examples:
        a = E.parse(raw, text)
        assert a >= 0, text
        assert a not in seen, text
        seen.add(a)
        assert E.action_text(raw, a) == text


def test_contract_notation_examples_play_in_a_game():
    """C, Notation: "move unit u to hex h (or enter, or exit) | `<u>-<hex>`", example
    `tiger-1104`; "fire | `<u>[+<u2>]x<target>`", example `panther+iv2x2-120`; "activate
    a stack (face card) | `stack <hex>` then the moves/fire of its units", example
    `stack 1104`: each example is a legal move in a position built for it."""
    raw = acting({"tiger": "1204", "2-120": "0203"}, "Ab")
    raw = do(raw, "tiger-1104")
    assert state(raw)["units"]["tiger"]["at"] == "1104"
    raw = acting({"panther": "0805", "iv2": "0805", "2-120": "0705"}, "8b", deck={"5b": 1, "6b": 1})
    raw = do(raw, "panther+iv2x2-120")
    assert state(raw)["attack"]["firers"] == ["panther", "iv2"] and state(raw)["phase"] == "combat"
    raw = acting({"panther": "1104", "iv2": "1104", "2-120": "0203"}, "Kb")
    raw = do(raw, "stack 1104")
    assert state(raw)["stack"] == ["panther", "iv2"]


def test_structured_state_round_trips_every_field():
    """RULES.md, Structured state (the schema the project documents for C's structured
    state): a hand-built dict using every key reads in and is written back unchanged."""
    d = {"game": "mortain", "turn": 3, "phase": "combat",
         "params": {"setup": "historical", "strike_terrain": "variant"},
         "units": {"tiger": {"at": "1104", "reduced": True}, "panther": {"at": "exited", "reduced": False},
                   "iv2": {"at": "eliminated", "reduced": False}, "2-120": {"at": "1004", "reduced": True},
                   "cca": {"at": "0105", "reduced": False}},
         "deck": {"Ab": 1, "Kr": 2, "joker": 1},
         "active": "german", "card": "Qb", "activations_left": 0, "card_fresh": False,
         "stack": [], "activated": ["german", "us"], "air_used": True, "interdicted": "1205",
         "exits": 1,
         "attack": {"kind": "ground", "firers": ["tiger"], "target": "2-120"},
         "winner": None, "viewer": -1}
    raw = E.from_dict(d)
    out = E.to_dict(raw)
    for k, v in d.items():
        if k == "units":
            for uid, u in v.items():
                assert out["units"][uid] == u, uid
        elif k == "deck":
            assert {c: n for c, n in out["deck"].items() if n} == v
        else:
            assert out[k] == v, k
    assert E.from_dict(out) == raw


def test_errata_example_black_8_two_pair_attacks_or_one_unit_four_times():
    """E, Activation: "German draws a black 8 card allowing 4 Activations. He has two
    units in H and two units in I. He could attack a single ... unit in K twice, using
    any combination of two units from his own in H or I, or just Activate one unit 4
    times and attack each time ... But no more than two ground units can join together
    and fire at a single target." C: "each firing unit spends one of the card's
    activations"."""
    units = {"panther": "0905", "iv2": "0905", "stug": "0906", "iv3": "0906", "2-120": "0805"}
    misses = {"10b": 2, "9b": 2, "8b": 2, "7b": 2}
    raw = acting(units, "8b", deck=misses)
    raw = do(raw, "panther+stugx2-120", "10b")          # units from H and I together: 2 activations
    assert state(raw)["activations_left"] == 2
    raw = do(raw, "iv2+iv3x2-120", "10b")
    assert E.player(raw) == CHANCE and state(raw)["phase"] == "draw"   # 4 activations spent
    raw = acting(units, "8b", deck=misses)
    for k in range(4):
        assert state(raw)["activations_left"] == 4 - k
        raw = do(raw, "pantherx2-120", "9b" if k < 2 else "7b")   # AI 3 + 0: all miss
    assert E.player(raw) == CHANCE
    assert E.parse(raw, "panther+iv2+stugx2-120") == -1


def test_pair_fire_needs_two_activations_on_a_number_card():
    """C, Combat: "each firing unit spends one of the card's activations (a stack
    activation covers both)"; R: an ace allows one activation."""
    raw = acting({"panther": "0905", "iv2": "0905", "2-120": "0805"}, "Ab", deck={"9b": 1})
    moves = names(raw)
    assert "pantherx2-120" in moves and "panther+iv2x2-120" not in moves


def test_face_card_fire_only_by_units_of_the_stack():
    """C, Sequence: "J, Q, K = one unit or one stack (all units in one hex, activated
    together)"; Combat: "a stack activation covers both". A unit outside the named
    stack does not act on that card."""
    raw = do(acting({"panther": "0905", "iv2": "0906", "2-120": "0805"}, "Kb", deck={"9b": 1}), "stack 0905")
    moves = names(raw)
    assert "pantherx2-120" in moves
    assert "iv2x2-120" not in moves and "panther+iv2x2-120" not in moves and "iv2-0907" not in moves


def test_pass_ends_a_face_card_stack_early():
    """C, Sequence: "The acting player may `pass` or activate"; a face card activates
    "one unit or one stack": after one unit of the stack acts, `pass` ends the card."""
    raw = do(acting({"panther": "1005", "iv2": "1005", "2-120": "0203"}, "Qb"), "stack 1005", "panther-0905")
    assert state(raw)["stack"] == ["iv2"]
    raw = do(raw, "pass")
    assert E.player(raw) == CHANCE and state(raw)["units"]["iv2"]["at"] == "1005"


def test_no_zones_of_control():
    """C, Sequence: "No zones of control" (R: "The game has no Zones of Control"): a
    unit next to an enemy moves on along it and away freely, one hex per activation."""
    raw = acting({"panther": "0805", "2-120": "0705"}, "6b")
    moves = names(raw)
    assert {"panther-0804", "panther-0806", "panther-0905"} <= set(moves)
    raw = do(raw, "panther-0804", "panther-0704")          # past the US unit, still adjacent
    assert state(raw)["units"]["panther"]["at"] == "0704"


def test_exit_only_from_column_01_and_only_german():
    """C, Sequence: "A German unit in column 01 may exit west as its move; it leaves
    play and counts toward the German victory.\""""
    raw = acting({"panther": "0205", "2-120": "0809"}, "8b")
    assert "panther-exit" not in names(raw)
    raw = do(raw, "panther-0105")
    assert "panther-exit" in names(raw)
    raw = acting({"panther": "1305", "1-120": "0105", "2-120": "0809"}, "8r")
    assert "1-120-exit" not in names(raw)


def test_units_do_not_block_line_of_sight():
    """C, Combat: "fire may enter but not pass through village, city, hill and forest
    hexes": only those terrains block, so a unit between firer and target does not."""
    raw = acting({"panther": "0305", "iv2": "0205", "2-120": "0105"}, "8b")
    assert "pantherx2-120" in names(raw)                   # 0205 clear, iv2 in it


def test_interdiction_target_hex_must_hold_a_german_unit_and_needs_no_line_of_sight():
    """C, US Air / OBA: "Each strike targets one hex and attacks one chosen enemy unit
    in it" (R: "can target any one enemy unit or stack"); no range or line of sight is
    named for the markers."""
    raw = acting({"panther": "1305", "2-120": "0109"}, "9r")  # far from any US unit
    moves = names(raw)
    assert "air panther" in moves and "airi 1305" in moves
    assert "airi 1205" not in moves


def test_redraw_not_offered_when_the_deck_is_empty():
    """C, Combat: "A face card drawn for combat: the firing player chooses `redraw` or
    `miss`" -- with no card left there is nothing to redraw (design choice)."""
    raw = acting({"panther": "0503", "2-120": "0505"}, "8b", deck={"Qb": 1})
    raw = do(raw, "pantherx2-120", "Qb")
    assert names(raw) == ["miss"]


def test_ignored_joker_in_combat_is_set_aside_and_the_card_drawn_again():
    """C, Sequence: "A joker drawn before both players have activated at least once is
    ignored (set aside; draw again)" -- also when it is drawn for combat."""
    raw = acting({"panther": "0503", "2-120": "0505"}, "8b", deck={"joker": 1, "Ab": 1}, activated=["german"])
    raw = do(raw, "pantherx2-120", "joker")
    d = state(raw)
    assert d["turn"] == 1 and d["phase"] == "combat" and d["deck"]["joker"] == 0
    raw = do(raw, "Ab")
    assert state(raw)["units"]["2-120"]["reduced"]


def test_game_lasts_six_turns():
    """C, Sequence: "6 turns. Each turn: a deck of 52 cards plus 1 joker is shuffled"
    (R Game Length: "The game lasts 6 turns"): the end of turn 5 starts turn 6 with a
    full deck; the end of turn 6 ends the game."""
    raw = position({"panther": "1005", "2-120": "0203"}, turn=5, activated=["german", "us"], deck={"5b": 1, "joker": 1})
    raw = do(raw, "joker")
    d = state(raw)
    assert d["turn"] == 6 and sum(d["deck"].values()) == 53 and d["activated"] == [] and E.player(raw) == CHANCE


def test_last_turn_victory_five_exits_in_turn_6():
    """C, Winning: "The German player wins at the end of any turn if five German units
    have exited the west edge ... Otherwise the US player wins at the end of Turn 6":
    five exits reached during Turn 6 win for the Germans at its end, not the US."""
    exited = {u: "exited" for u in ("iv2", "stug", "iv3", "df1")}
    raw = acting({**exited, "panther": "0105", "df3": "1205", "2-120": "0809"}, "Ab", turn=6,
                 activated=["german", "us"], deck={"joker": 1, "5b": 1})
    raw = do(raw, "panther-exit")
    assert E.player(raw) == CHANCE
    raw = do(raw, "joker")
    assert E.player(raw) == TERMINAL and E.returns(raw) == [1.0, -1.0]
    assert state(raw)["winner"] == "german"


def test_last_turn_deck_exhausted_with_five_exits_is_german():
    """C, Winning: "wins at the end of any turn if five German units have exited"; C:
    "The turn ends when the joker is drawn ... or the deck is exhausted."""
    exited = {u: "exited" for u in ("iv2", "stug", "iv3", "df1", "panther")}
    raw = acting({**exited, "df3": "1205", "2-120": "0809"}, "Ab", turn=6, activated=["german", "us"], deck={})
    raw = do(raw, "pass")
    assert E.player(raw) == TERMINAL and E.returns(raw) == [1.0, -1.0]


def test_five_exits_win_at_the_end_of_a_middle_turn():
    """E, Who Wins: "Germans win if at the end of any turn..." (C: "at the end of any
    turn"): not only at the end of Turn 6."""
    exited = {u: "exited" for u in ("iv2", "stug", "iv3", "df1", "panther")}
    raw = position({**exited, "df3": "1205", "2-120": "0809"}, turn=3, activated=["german", "us"])
    raw = do(raw, "joker")
    assert E.player(raw) == TERMINAL and E.returns(raw) == [1.0, -1.0]


def test_us_reinforcements_still_to_enter_keep_the_us_in_the_game():
    """C, Winning: the Germans win "at once when no US units are left" (R: "no US units
    are left in the game"); CCA/B/R waiting to enter are still in the game (design
    choice, RULES.md Winning)."""
    raw = acting({"panther": "0503", "2-120": {"at": "0505", "reduced": True}}, "Ab", deck={"Ab": 1, "Kb": 1})
    raw = do(raw, "pantherx2-120", "Ab")
    assert state(raw)["units"]["2-120"]["at"] == "eliminated"
    assert E.player(raw) == CHANCE and state(raw)["winner"] is None


@pytest.mark.parametrize("exited,winner", [(4, [1.0, -1.0]), (3, [-1.0, 1.0])])
def test_no_german_unit_left_to_act_ends_the_game_at_once(exited, winner):
    """C, Winning: "The German player wins at the end of any turn if five German units
    have exited ... Otherwise the US player wins at the end of Turn 6." Design choice
    (RULES.md Winning): with no German unit left to act nothing can change the result,
    so the game ends at once with it."""
    ids = E.unit_ids()[:11]
    units = {u: "exited" if i < exited else "eliminated" for i, u in enumerate(ids) if u != "recon"}
    units["recon"] = "0105"
    raw = acting({**units, "2-120": "0809"}, "Ab")
    raw = do(raw, "recon-exit")                          # the last German unit leaves: exits + 1
    assert state(raw)["exits"] == exited + 1
    assert E.player(raw) == TERMINAL and E.returns(raw) == winner


def test_face_card_tiger_in_the_stack_acts_and_rides_free_with_its_partner():
    """C, Stacking: "when a German unit in its hex is activated, the Tiger may activate
    with it for free (same move or joining its fire)"; E: "Previously Activated units
    may be selected to be Activated again". Design choice (RULES.md, Stacking and the
    Tiger): on a face card the Tiger acts once as a stack unit and may also ride free
    with its partner's activation."""
    raw = acting({"tiger": "0905", "panther": "0905", "743": "0705"}, "Kb", deck={"10b": 2})
    raw = do(raw, "stack 0905", "tigerx743", "10b")         # the Tiger's own activation (a miss)
    assert state(raw)["stack"] == ["panther"]
    assert "tiger+pantherx743" in names(raw) and "tigerx743" not in names(raw)
    raw = do(raw, "panther+tiger-0805")                     # the free ride with panther's move
    d = state(raw)
    assert d["units"]["tiger"]["at"] == d["units"]["panther"]["at"] == "0805" and E.player(raw) == CHANCE


def test_face_card_tiger_rides_free_by_fire_first_then_acts_alone():
    """C, Stacking: "when a German unit in its hex is activated, the Tiger may activate
    with it for free (same move or joining its fire)"; RULES.md, Stacking and the Tiger:
    on a face card the Tiger acts once as a unit of the stack and may also ride free.
    Joining the Panther's fire first uses the Panther's activation only: the Tiger still
    has its own (the engine once spent both and ended the stack)."""
    raw = acting({"tiger": "0905", "panther": "0905", "743": "0705"}, "Kb", deck={"10b": 2})
    raw = do(raw, "stack 0905", "tiger+pantherx743", "10b")   # the free ride first (a hit)
    assert state(raw)["stack"] == ["tiger"]                  # only the Panther's activation used
    assert E.player(raw) == 0 and "tigerx743" in names(raw) and "tiger-0805" in names(raw)
    raw = do(raw, "tigerx743", "10b")                        # then the Tiger's own activation
    assert E.player(raw) == CHANCE and state(raw)["card"] is None


def test_face_card_tiger_rides_free_by_move_first_then_acts_alone():
    """C, Stacking: "when a German unit in its hex is activated, the Tiger may activate
    with it for free (same move or joining its fire)": moving with the Panther first
    uses the Panther's activation only; the Tiger then acts alone from the new hex."""
    raw = acting({"tiger": "0905", "panther": "0905", "743": "0705"}, "Kb", deck={"10b": 2})
    raw = do(raw, "stack 0905", "panther+tiger-0805")        # the free ride first
    d = state(raw)
    assert d["units"]["tiger"]["at"] == d["units"]["panther"]["at"] == "0805"
    assert d["stack"] == ["tiger"] and E.player(raw) == 0
    moves = names(raw)
    assert "tigerx743" in moves and "tiger-0804" in moves
    assert not any(m.startswith("panther") for m in moves)  # the Panther has acted
    raw = do(raw, "tiger-0804")                              # the Tiger's own activation
    assert E.player(raw) == CHANCE and state(raw)["units"]["tiger"]["at"] == "0804"


def test_face_card_tiger_gets_the_same_actions_in_either_order():
    """C, Stacking: "the Tiger may activate with it for free (same move or joining its
    fire)": free in both orders, so alone-then-ride and ride-then-alone give the same
    actions (the Tiger two, the Panther one) and end in the same position."""
    start = do(acting({"tiger": "0905", "panther": "0905", "743": "0705"}, "Qb", deck={"10b": 2}), "stack 0905")
    alone_first = do(start, "tigerx743", "10b", "panther+tiger-0805")
    ride_first = do(start, "panther+tiger-0805", "tigerx743", "10b")
    assert alone_first == ride_first
    assert E.player(ride_first) == CHANCE and state(ride_first)["units"]["tiger"]["at"] == "0805"


def test_face_card_tiger_exiting_with_its_partner_ends_the_stack():
    """C, Sequence: "A German unit in column 01 may exit west as its move; it leaves
    play"; Stacking: the Tiger "may activate with it for free (same move ...)". The
    Tiger that rides off the map with its partner has no activation left to use in the
    stack, so the card ends."""
    raw = acting({"tiger": "0105", "panther": "0105", "2-120": "0809"}, "Jb")
    raw = do(raw, "stack 0105", "panther+tiger-exit")
    d = state(raw)
    assert d["units"]["tiger"]["at"] == d["units"]["panther"]["at"] == "exited" and d["exits"] == 2
    assert E.player(raw) == CHANCE and d["stack"] == []


def test_default_game_starts_with_the_us_setup_phase():
    """C, Order of battle: "The US setup is part of the game: a chance-free setup phase
    in which the US player places each non-CC unit (one action per unit: `setup <unit>
    <hex>`), stacking limits apply." (R Set-Up: "Place all US units ... except CCA/B/R
    units anywhere but the eastern hexrow.") The game loaded without parameters starts
    there: the US player to move, no chance node, `setup <unit> <hex>` legal."""
    import ardsearch
    game = ardsearch.load_game("mortain")
    assert game.params["setup"] == "free"
    s = game.new_initial_state(seed=0)
    assert not s.is_chance_node() and s.current_player() == 1
    d = s.to_dict()
    assert d["phase"] == "setup" and d["turn"] == 1 and d["card"] is None
    assert all(d["units"][u]["at"] == "reserve" for u in E.unit_ids())   # nobody placed yet
    moves = [s.action_to_string(a) for a in s.legal_actions()]
    assert moves and all(m.startswith("setup ") for m in moves)
    assert "setup 2-120 0803" in moves and "setup 2-120 1303" not in moves   # not column 13
    assert not any(m.startswith("setup cca ") for m in moves)                 # CC units enter later
    s.apply("setup 2-120 0803")
    assert s.current_player() == 1 and not s.is_chance_node()
    assert E.initial_raw() == E.initial_raw(E.pack_params({"setup": "free"}))


def test_setup_historical_starts_with_the_first_card():
    """C, Order of battle: "Parameter `setup=historical` uses a fixed setup from the
    scenario file instead (2/120 on Hill 314, the rest around the town), which is the
    default for search benchmarks": no setup phase, the first draw is the first node."""
    import ardsearch
    for game in (ardsearch.load_game("mortain", setup="historical"),
                 ardsearch.load_game("mortain(setup=historical)")):
        s = game.new_initial_state(seed=0)
        assert s.is_chance_node() and len(s.chance_outcomes()) == 27
        d = s.to_dict()
        assert d["phase"] == "draw" and d["params"]["setup"] == "historical"
        assert d["units"]["2-120"]["at"] == "0803"
        assert not any(s.action_to_string(a).startswith("setup") for a, _ in s.chance_outcomes())


def test_with_the_deck_empty_only_interdiction_is_offered():
    """C, US Air / OBA: "OBA: an AT or AI attack of strength 3. Air: an AT or AI attack
    of strength 4, or interdiction"; C Combat: "The firer draws a card". Design choice
    (RULES.md Combat): with no card left an attack cannot be resolved, so `air`/`oba`
    are not offered, while `airi` (no draw) is."""
    moves = names(acting(US_AIR, "9r", deck={}))
    assert "airi 0805" in moves and "air panther" not in moves
    assert not any(m.startswith("oba") for m in names(acting(US_AIR, "8r", deck={})))
