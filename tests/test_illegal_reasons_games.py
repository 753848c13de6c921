"""Each game's reasons for refusing a move that is notation but not legal
here (ardsearch/games/<game>/_illegal_reasons.py): a hand-built position
(the structured state, or a seeded game played to a position), the move,
and the words of the reason. Each docstring quotes the rule (the game's
contract shared/games/<game>.md, or its RULES.md) that forbids the move."""
from __future__ import annotations

import copy
import random

from test_illegal_reasons import refused

import ardsearch


def first_position(game, wanted, seed: int = 1):
    """The first decision of seeded random play whose structured state satisfies `wanted`."""
    rng, played = random.Random(seed), seed
    state = game.new_initial_state(seed=seed)
    while True:
        if state.is_terminal():
            played += 1
            state = game.new_initial_state(seed=played)
        elif state.is_chance_node():
            state.apply_random_chance()
        elif wanted(state.to_dict()):
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))


# --- Stand at Mortain ------------------------------------------------------------------
MORTAIN = ardsearch.load_game("mortain")


def mortain(card: str, **units):
    """Turn 1 of the historical set-up with `card` in play; units moved as given."""
    return MORTAIN.state_from_dict({"game": "mortain", "phase": "act", "card": card,
                                    "units": {u: {"at": at} for u, at in units.items()}})


def free_setup():
    return ardsearch.load_game("mortain", setup="free").new_initial_state(seed=0)


def test_mortain_a_placed_unit_is_not_placed_again():
    """RULES.md, Setup (`setup=free`): "each action places any unit not yet
    placed ... A placed unit is not placed again." """
    state = free_setup()
    state.apply("setup 743 0604")
    assert "743 is already placed (on 0604): place another unit (2-120, " in refused(state, "setup 743 0605")


def test_mortain_column_13_is_off_limits_in_the_set_up():
    """Contract, Order of battle: US units "set up anywhere except column 13"."""
    assert "column 13 is off limits in the US set-up" in refused(free_setup(), "setup 2-120 1305")


def test_mortain_a_full_hex_takes_no_third_unit_in_the_set_up():
    """Contract, Sequence: "at most 2 friendly ground units per hex" (the free
    set-up: "stacking limits apply")."""
    state = free_setup()
    state.apply("setup 743 0704")
    state.apply("setup td-a 0704")
    assert "0704 already holds 2 US units (td-a, 743): at most 2 a hex" in refused(state, "setup 2-120 0704")


def test_mortain_only_the_cards_side_acts():
    """Contract, Sequence: "black -> the German player acts, red -> the US player acts"."""
    text = refused(mortain("8r"), "tiger-1301")
    assert "tiger is a German unit, and the US player acts on this card (8r)" in text


def test_mortain_a_unit_moves_one_hex():
    """Contract, Sequence: "An activated ground unit either moves 1 hex or fires"."""
    text = refused(mortain("8r"), "2-120-0601")
    assert "0601 is 3 hexes from 2-120 on 0803: a unit moves 1 hex an activation" in text
    assert "2-120's legal moves here: 2-120-0703" in text


def test_mortain_stacking_limit_on_a_move():
    """Contract, Sequence: "Stacking: at most 2 friendly ground units per hex;
    the Tiger does not count"."""
    text = refused(mortain("8r"), "1-120-0704")
    assert "0704 already holds 2 US units (3-120, td-a): at most 2 a hex (the Tiger does not count)" in text


def test_mortain_german_and_us_units_never_share_a_hex():
    """Contract, Sequence: "German and US units never share a hex"."""
    text = refused(mortain("8b", df1="0904"), "df1-0803")
    assert "0803 holds US units (2-120): German and US units never share a hex" in text


def test_mortain_fire_out_of_range():
    """Contract, Combat: "Range 2 hexes, 3 if the firer is on a hill"."""
    text = refused(mortain("8b", df1="1005"), "df1x2-120")
    assert "2-120 on 0803 is out of range of df1 on 1005 (3 hexes, range 2)" in text


def test_mortain_two_firers_on_a_face_card_are_a_stack_named_first():
    """Contract, Sequence: "J, Q, K = one unit or one stack (all units in one hex,
    activated together)"; Notation: "activate a stack (face card) | `stack <hex>` then
    the moves/fire of its units". RULES.md, Turn and cards: two units firing together
    are a stack, named first."""
    assert "two units fire together as a stack, so name it first: `stack 1004`" in \
        refused(mortain("Qb", panther="1004", iv2="1004"), "panther+iv2x2-120")
    assert "panther on 1004 and iv2 on 0904 are not in one hex" in \
        refused(mortain("Qb", panther="1004", iv2="0904"), "panther+iv2x2-120")


def test_mortain_air_needs_an_air_card():
    """Contract, Sequence: "a red odd number (A, 3, 5, 7, 9) or a Jack allows
    the Air marker; any other red card allows the OBA marker"."""
    assert "8r allows OBA, not Air (Air needs a red A, 3, 5, 7, 9 or J)" in \
        refused(mortain("8r", tiger="1104"), "air tiger")


def test_mortain_air_and_oba_once_a_turn():
    """Contract, Sequence: "US Air / OBA, once per turn, either one"."""
    state = MORTAIN.state_from_dict({"game": "mortain", "phase": "act", "card": "7r", "air_used": True,
                                     "units": {"tiger": {"at": "1104"}}})
    assert "the US has already used Air or OBA this turn" in refused(state, "air tiger")


# --- Clash of the Ardennes ---------------------------------------------------------------
ARDENNES = ardsearch.load_game("ardennes")


def ardennes_board():
    """Allies to move, 4 AP. Road 1: three Allied tanks against two German
    (1 free tile); road 3: a tank and the spy; road 4: an Allied sergeant
    touching the German line led by a tank; road 5: conquered by the Allies
    (six privates, two corporals)."""
    roads = [{"road": r, "allies": [], "germans": [], "conquered": None} for r in range(1, 8)]
    roads[0].update(allies=["T", "T", "T"], germans=["T", "T"])
    roads[2].update(allies=["T", "Y"])
    roads[3].update(allies=["S"], germans=["P", "T", "T", "T", "T"])
    roads[4].update(allies=["P"] * 6 + ["C", "C"], conquered="allies")
    return ARDENNES.state_from_dict({"game": "ardennes", "to_move": "allies", "roads": roads,
                                     "objectives": {"allies": 2, "germans": 3}})


def test_ardennes_a_unit_not_in_stock_cannot_be_placed():
    """Contract, Turn: "place a unit from stock at the front of own line"."""
    assert "you have no private left in stock: all your privates are on the board" in \
        refused(ardennes_board(), "P6")


def test_ardennes_one_special_unit_on_the_board():
    """Contract, Turn: "at most one of a player's special units (general, spy,
    command tank, mortar) on the board at a time"."""
    assert "you already have a special unit on the board (your spy on road 3)" in refused(ardennes_board(), "G6")


def test_ardennes_a_placement_needs_room():
    """Contract, Turn: place "legal only if the free tiles between the two
    lines are at least the unit's length"."""
    text = refused(ardennes_board(), "T1")
    assert "road 1 has 1 free tile between the lines and a tank needs 3" in text
    assert "T's legal moves here: T2, T3" in text


def test_ardennes_front_needs_two_units():
    """Contract, Turn: rearmost to front "only with at least two units in that line"."""
    assert "you have 1 unit on road 4: the front move needs at least two" in refused(ardennes_board(), "f4")


def test_ardennes_no_retreat_on_a_conquered_road():
    """Contract, Turn: retreat "Not on a road the player has conquered"."""
    assert "a leading unit cannot retreat from a conquered road" in refused(ardennes_board(), "x5")


def test_ardennes_a_clash_needs_touching_lines():
    """Contract, Clash: "Attack is possible when the two leading units on a road
    touch (no free tile between them)"."""
    assert "the leading units on road 1 do not touch (1 free tile between them)" in refused(ardennes_board(), "a1")


def test_ardennes_no_attack_on_a_stronger_unit():
    """Contract, Clash: "and the active player's leading unit is not weaker than
    the enemy's leading unit"; a tank beats every infantry unit."""
    assert "your leading sergeant on road 4 is weaker than the enemy's leading tank" in \
        refused(ardennes_board(), "a4")


def test_ardennes_specials_attack_from_where_they_stand():
    """Contract, Special attacks: the command tank flanks and the mortar fires
    from the road it stands on."""
    assert "your command tank is not on road 3 (it is in stock)" in refused(ardennes_board(), "k3:2")
    assert "your mortar is not on road 3 (it is in stock)" in refused(ardennes_board(), "m3")


# --- Undaunted: Normandy -----------------------------------------------------------------
UNDAUNTED = ardsearch.load_game("undaunted")


def mine(d):
    return d["armies"][d["to_move"]]


def test_undaunted_a_card_not_in_hand():
    """Contract, Round: "the initiative player plays cards one at a time": from
    the hand."""
    state = first_position(UNDAUNTED, lambda d: d["phase"] == "turn" and not mine(d)["hand"].get("psgt"))
    assert "you have no psgt in hand (your hand: " in refused(state, "psgt:command:1")


def test_undaunted_initiative_is_bid_at_the_start_of_a_round():
    """Contract, Round: "2. Initiative: each player secretly chooses a card from
    hand" before "3. Turns"."""
    state = first_position(UNDAUNTED, lambda d: d["phase"] == "turn")
    assert "initiative is chosen at the start of a round" in refused(state, "bid:rifA")
    bidding = first_position(UNDAUNTED, lambda d: d["phase"] in ("bid1", "bid2"))
    assert "choose a card from your hand with `bid:<card>`" in refused(bidding, "end")


def test_undaunted_moves_go_to_scouted_or_controlled_tiles():
    """Contract, Round: "Movement destinations must be scouted or controlled by
    the mover's army (Sneak excepted)"."""
    def rifleman_beside_an_unscouted_tile(d):
        me = mine(d)
        if d["phase"] != "turn" or not me["hand"].get("rifA") or "rifA" not in me["tokens"]:
            return False
        return any(t not in me["scouted"] + me["controlled"] for t in _adjacent(d, me["tokens"]["rifA"]["tile"]))
    state = first_position(UNDAUNTED, rifleman_beside_an_unscouted_tile)
    d = state.to_dict()
    me = mine(d)
    here = me["tokens"]["rifA"]["tile"]
    tile = next(t for t in _adjacent(d, here) if t not in me["scouted"] + me["controlled"])
    assert f"{tile} is neither scouted nor controlled by your army" in refused(state, f"rifA:move:{tile}")
    far = next(t["name"] for t in d["tiles"] if t["name"] != here and t["name"] not in _adjacent(d, here))
    assert f"{far} is not next to rifA's tile {here}: it moves one tile" in refused(state, f"rifA:move:{far}")


def test_undaunted_a_suppressed_tokens_card_only_rallies():
    """Contract, Round: "A suppressed token's card played for an action only
    flips the token ready" (RULES.md: rally or shelter)."""
    state = first_position(UNDAUNTED, lambda d: d["phase"] == "turn" and mine(d)["hand"].get("rifA")
                           and "rifA" in mine(d)["tokens"])
    d = copy.deepcopy(state.to_dict())
    mine(d)["tokens"]["rifA"]["suppressed"] = True
    text = refused(UNDAUNTED.state_from_dict(d), "rifA:control")
    assert "rifA is suppressed: its card can only rally it (`rifA:rally`) or be sheltered" in text
    assert "rifA is not suppressed: `rally` flips a suppressed token ready" in refused(state, "rifA:rally")


def test_undaunted_aim_needs_a_tile_3_or_more_away():
    """RULES.md, Playing a card: "**Aim** (`mortar:aim:<tile>`): the Target
    marker on a tile at distance 3 or more from the Mortar". Scenario 2, the
    US Mortar on 10A."""
    game = ardsearch.load_game("undaunted", scenario=2)
    state = first_position(game, lambda d: d["phase"] == "turn" and mine(d)["hand"].get("mortar")
                           and mine(d)["tokens"].get("mortar") == {"tile": "10A", "suppressed": False})
    assert "10A is 0 tiles from the Mortar: Aim needs a tile 3 or more away" in refused(state, "mortar:aim:10A")
    assert "5A is 1 tile from the Mortar: Aim needs a tile 3 or more away" in refused(state, "mortar:aim:5A")
    assert "1A is 2 tiles from the Mortar: Aim needs a tile 3 or more away" in refused(state, "mortar:aim:1A")


def _adjacent(d, tile):
    return next(t["adjacent"] for t in d["tiles"] if t["name"] == tile)


# --- Stosstruppen ------------------------------------------------------------------------
STOSSTRUPPEN = ardsearch.load_game("stosstruppen")
STOSS_START = STOSSTRUPPEN.new_initial_state(seed=1).to_dict()
# the Germans a row further forward, where Kaiserschlacht put them until
# session 44 (RULES.md, Scenarios): the squares these tests name
for _u in STOSS_START["units"]:
    if _u["side"] == "german":
        _u["square"] = _u["square"][0] + str(int(_u["square"][1:]) + 1)


def stoss(card: str, **units):
    """The Kaiserschlacht start with `card` drawn; the units on the squares
    named (d3=...) changed as given."""
    d = copy.deepcopy(STOSS_START)
    d.update(phase={"m": "move", "f": "fire", "a": "assault", "r": "rally"}[card[1]], card=card, drawn=[card])
    for u in d["units"]:
        u.update(units.get(u["square"], {}))
    return STOSSTRUPPEN.state_from_dict(d)


def test_stosstruppen_each_card_has_its_phase():
    """Contract, Sequence: "The card's player performs that phase for all their units"."""
    assert "fire is made on your Fire card; this is the move phase (card Gm)" in refused(stoss("Gm"), "h2xh11")
    assert "markers are placed on your Fire card" in refused(stoss("Gm"), "barrage e7")


def test_stosstruppen_pinned_units_do_not_move():
    """Contract, Movement: "Pinned and suppressed units do not move"."""
    assert "d3 (Rifle) is pinned: pinned and suppressed units do not move" in \
        refused(stoss("Gm", d3={"status": "pinned"}), "d3-d4")


def test_stosstruppen_a_unit_moves_once_a_phase_and_star_units_move_or_fire():
    """RULES.md, Movement: units move "at most once a phase"; contract: "Units
    marked `*` may move or fire in one turn, not both"."""
    state = stoss("Gm", f3={"acted": True}, i2={"fired": True})
    assert "f3 (Rifle) has already moved this phase" in refused(state, "f3-f4")
    assert "i2 (Light infantry gun) fired this turn: a * unit moves or fires in a turn, not both" in \
        refused(state, "i2-i1")
    assert "h3 is occupied: units move through friends but never end on another unit" in refused(state, "h2-h3")


def test_stosstruppen_suppressed_units_do_not_fire_and_each_fires_once():
    """RULES.md, Fire: "Each unit that is not suppressed fires once a turn"."""
    state = stoss("Gf", d3={"status": "suppressed"}, f3={"fired": True})
    assert "d3 (Rifle) is suppressed: suppressed units do not fire" in refused(state, "d3xe8")
    assert "f3 (Rifle) has already fired this turn" in refused(state, "f3xe8")


def test_stosstruppen_only_anti_tank_weapons_fire_at_tanks():
    """Contract, Fire: "Tanks: only AT rifles, infantry guns, field guns,
    gun-armed tanks and German light trench mortars fire at tanks"."""
    assert "a Pioneers cannot fire at tanks" in refused(stoss("Gf"), "h3xn9")


def test_stosstruppen_at_rifles_do_not_fire_at_tanks_at_long_range():
    """RULES.md, Fire: "Against tanks (Tanks A): only units with an `at` die
    (AT rifles as a light infantry gun but not at long range (Optional A), ...";
    Table and measurement: "long range 40 cm = 8". Villers: the German AT rifle
    on k2, a Whippet on m11 (9 squares)."""
    villers = ardsearch.load_game("stosstruppen", scenario="villers")
    d = villers.new_initial_state(seed=1).to_dict()
    d.update(phase="fire", card="Gf", drawn=["Gf"])
    state = villers.state_from_dict(d)
    text = refused(state, "k2xm11")
    assert "AT Rifles do not fire at tanks at long range (8 squares or more; m11 is 9)" in text


def test_stosstruppen_tanks_fire_in_their_front_arc():
    """Contract, Fire: "Only the FT-17 fires all round; other tanks fire in a
    45-degree front arc"."""
    text = refused(stoss("Bf", l3={"square": "n10"}), "n9xn10")
    assert "n10 is outside the 45-degree front arc of n9 (Mark IV (male), facing s)" in text


def test_stosstruppen_assault_from_a_neighbouring_square():
    """Contract, Assault: "foot units in contact (adjacent square) with an
    enemy may assault"; Table: "Distance is Chebyshev (diagonal = 1)". From
    d7 the rifle may assault e8 (diagonal); from d6 it is two squares away."""
    near = stoss("Ga", d3={"square": "d7"})
    assert "d7@e8" in {near.action_to_string(a) for a in near.legal_actions()}
    text = refused(stoss("Ga", d3={"square": "d6"}), "d6@e8")
    assert ("e8 is not next to d6 (2 squares away): a unit assaults an enemy on one of the 8 squares "
            "around it, diagonals included") in text


# --- Micro Armour ------------------------------------------------------------------------
MICROARMOUR = ardsearch.load_game("microarmour")


def microarmour(phase: str, **stands):
    """The Introductory scenario at the German posture step of turn 2 (a seeded
    game), set to `phase`, stands changed as given."""
    def german_posture_turn_2(d):
        return d["turn"] == 2 and d["phase"] == "posture" and d["to_move"] == "german"
    d = copy.deepcopy(first_position(MICROARMOUR, german_posture_turn_2).to_dict())
    d["phase"] = phase
    for s in d["stands"]:
        s.update(stands.get(s["id"], {}))
    return MICROARMOUR.state_from_dict(d)


def test_microarmour_each_phase_takes_its_moves():
    """Contract, Core rules: "Turn phases: ... 2 Posture ... 4 Standard fire ...
    6 Movement"."""
    assert "this is the fire phase, not the movement phase" in refused(microarmour("fire"), "order pz4a")
    assert "this is the posture phase, not the fire phase" in refused(microarmour("posture"), "fire pz4a>t34a")
    assert "no stand is moving: start a move with `order <stand>`" in refused(microarmour("movement"), "step n")


def test_microarmour_a_stand_is_marked_once():
    """Contract, Core rules: "2 Posture (players alternately mark groups:
    movement, fire/move; unmarked = firing)"."""
    text = refused(microarmour("posture", pz4c={"posture": "move"}), "posture pz4c firemove")
    assert "pz4c is already marked move this turn" in text


def test_microarmour_fire_once_and_not_in_move_posture():
    """Contract, Core rules: "failure = no CRT roll and no more fire this turn";
    stands fire in firing or fire/move posture (movement-posture stands do not)."""
    state = microarmour("fire", pz4a={"at": [10, 5]}, t34a={"at": [12, 5]}, pz4b={"fired": True},
                        pz4c={"posture": "move"})
    assert "pz4b has already fired this turn" in refused(state, "fire pz4b>t34a")
    assert "pz4c is in move posture: it does not fire this turn" in refused(state, "fire pz4c>t34a")


def test_microarmour_fire_beyond_range_or_sighting():
    """Contract, Core rules: "Max range from weapon data"; Table: "maximum
    sighting by terrain density (open 40", mixed 20", closed 10")"."""
    state = microarmour("fire", ghq={"at": [10, 9]}, t34b={"at": [27, 9]}, pz4a={"at": [5, 5]},
                        t34a={"at": [29, 5]})
    assert "t34b is out of range of ghq (17\", range 15\")" in refused(state, "fire ghq>t34b")
    assert "t34a is 24\" from pz4a, beyond this turn's sighting of 20\"" in refused(state, "fire pz4a>t34a")


def test_microarmour_fire_beyond_sighting_from_higher_ground():
    """Contract, Table: "Higher ground: +5" sighting per level": in light rain with
    this turn's sighting 5", the Pz IV on the hill (level 1) sees 10" down: a T-34
    12" away is refused as beyond that sighting, the hill's 5" named."""
    d = microarmour("fire", pz4a={"at": [15, 14], "fired": False, "posture": "firing"},
                    t34a={"at": [27, 15]}).to_dict()
    d["conditions"] = dict(d["conditions"], weather="light_rain", sighting=5, sighting_turn=d["turn"])
    state = MICROARMOUR.state_from_dict(d)
    text = refused(state, "fire pz4a>t34a")
    assert "t34a is 12\" from pz4a, beyond its sighting of 10\" (this turn's 5\", +5\" a level above it)" in text


def test_microarmour_orders_run_out():
    """Contract, Core rules: "Movement orders: 2D6 + GHQ quality ... Each ordered
    group attempt costs an order"."""
    state = microarmour("movement", pz4c={"posture": "move"})
    d = state.to_dict()
    d["orders"] = [0, 0]
    text = refused(MICROARMOUR.state_from_dict(d), "order pz4c")
    assert "no movement orders are left this turn: try an independent move, `indep <stand>`" in text
    assert "pz4a is in firing posture" in refused(state, "indep pz4a")
