"""Clash of the Ardennes: a plain pure-Python model of the rules.

Written only from the rules contract shared/games/ardennes.md (and the
rulebook), to check the Cython engine independently. Clarity over speed: every
rule is one small function that can be read next to the rules text.

Conventions (shared with the engine through the contract, not through code):
- player 0 = Allies, player 1 = Germans; roads 1..7; tiles 1..L from the
  Allied end;
- a line is a list of unit letters from its owner's starting block to the
  leading unit (the unit nearest the enemy);
- dense action numbers as listed under ACTION NUMBERS below.
"""
from __future__ import annotations

from fractions import Fraction

ALLIES, GERMANS = 0, 1
CHANCE, TERMINAL = -1, -4
SIDE_NAMES = ("allies", "germans")
NUM_ROADS = 7
START_AP = 4

# Unit letters in action order, their length in tiles and the stock of each.
UNITS = "MTPCSGYKR"
LENGTH = {"M": 1, "T": 3, "P": 2, "C": 2, "S": 2, "G": 5, "Y": 1, "K": 3, "R": 2}
FULL_STOCK = {"M": 5, "T": 7, "P": 6, "C": 2, "S": 1, "G": 1, "Y": 1, "K": 1, "R": 1}
SPECIALS = frozenset("GYKR")
TANKS = frozenset("TK")
INFANTRY = frozenset("PCSGR")  # the units a command tank may flank
# Infantry ranks: the mortar loses to every other infantry unit.
RANK = {"R": 0, "P": 1, "C": 2, "S": 3, "G": 4}

# Objective cards 1..8, each naming two roads.
OBJECTIVES = ((1, 7), (2, 6), (3, 5), (1, 4), (4, 7), (2, 5), (3, 6), (2, 7))

# ACTION NUMBERS
PLACE_BASE = 0      # U*7 + (r-1), U in UNITS order
FRONT_BASE = 63     # f<r>
RETREAT_BASE = 70   # x<r>
ATTACK_BASE = 77    # a<r>
FLANK_BASE = 84     # k<r>:<s>: 84 + 2*(r-1) + (0 if s == r-1 else 1)
MORTAR_BASE = 98    # m<r>
PASS = 105
FIRST_ALLIES, FIRST_GERMANS = 106, 107
OBJ_BASE = 108      # obj:<k>: 108 + (k-1)
NUM_ACTIONS = 116


# ---------------------------------------------------------------- strength
def equal(a: str, b: str) -> bool:
    """Same unit type, tank vs command tank, or (by construction) same rank."""
    return a == b or (a in TANKS and b in TANKS)


def beats(a: str, b: str) -> bool:
    """True if unit a is stronger than unit b in a clash."""
    if equal(a, b):
        return False
    if a == "Y":
        return True          # the spy beats every other unit
    if b == "Y":
        return False
    if a in TANKS:
        return b in INFANTRY  # tanks beat all infantry, lose to mines
    if a == "M":
        return b in TANKS     # mines beat tanks only
    # a is infantry (incl. general and mortar)
    if b == "M":
        return True           # every infantry unit beats the mine
    if b in TANKS:
        return False
    return RANK[a] > RANK[b]


# ---------------------------------------------------------------- notation
def action_to_string(action: int) -> str:
    if 0 <= action < FRONT_BASE:
        return f"{UNITS[action // 7]}{action % 7 + 1}"
    if action < RETREAT_BASE:
        return f"f{action - FRONT_BASE + 1}"
    if action < ATTACK_BASE:
        return f"x{action - RETREAT_BASE + 1}"
    if action < FLANK_BASE:
        return f"a{action - ATTACK_BASE + 1}"
    if action < MORTAR_BASE:
        r = (action - FLANK_BASE) // 2 + 1
        s = r - 1 if (action - FLANK_BASE) % 2 == 0 else r + 1
        return f"k{r}:{s}"
    if action < PASS:
        return f"m{action - MORTAR_BASE + 1}"
    if action == PASS:
        return "pass"
    if action == FIRST_ALLIES:
        return "first:A"
    if action == FIRST_GERMANS:
        return "first:G"
    if OBJ_BASE <= action < NUM_ACTIONS:
        return f"obj:{action - OBJ_BASE + 1}"
    raise ValueError(f"action {action} out of range 0..{NUM_ACTIONS - 1}")


def flank_action(r: int, s: int) -> int:
    return FLANK_BASE + 2 * (r - 1) + (0 if s == r - 1 else 1)


def string_to_action(text: str) -> int:
    for a in range(NUM_ACTIONS):
        try:
            if action_to_string(a) == text:
                return a
        except ValueError:
            pass
    raise ValueError(f"not a move: {text!r}")


# ---------------------------------------------------------------- state
class ArdennesState:
    """One game position. Mutable; clone() for a copy."""

    def __init__(self, variant="standard", road_length=16, max_rounds=80, first="random"):
        if variant not in ("standard", "basic"):
            raise ValueError(f"variant={variant!r}: expected standard or basic")
        if not 8 <= road_length <= 24:
            raise ValueError(f"road_length={road_length}: expected 8..24")
        if first not in ("random", "allies", "germans"):
            raise ValueError(f"first={first!r}: expected random, allies or germans")
        self.variant = variant
        self.L = road_length
        self.max_rounds = max_rounds
        # lines[r-1][p]: player p's line on road r, block -> leading unit
        self.lines = [[[], []] for _ in range(NUM_ROADS)]
        self.conquered = [None] * NUM_ROADS  # None, ALLIES or GERMANS
        self.stock = [self._initial_stock(), self._initial_stock()]
        self.objectives = [None, None]       # card numbers 1..8
        self.round = 1
        self.ap = START_AP
        self.winner = None                   # None, ALLIES, GERMANS or "draw"
        self.first_player = {"random": None, "allies": ALLIES, "germans": GERMANS}[first]
        self.to_move = None                  # the player on turn once play starts
        self.history = []

    def _initial_stock(self):
        stock = dict(FULL_STOCK)
        if self.variant == "basic":
            for u in SPECIALS:
                stock[u] = 0
        return stock

    def clone(self) -> "ArdennesState":
        c = ArdennesState.__new__(ArdennesState)
        c.__dict__.update(self.__dict__)
        c.lines = [[list(a), list(g)] for a, g in self.lines]
        c.conquered = list(self.conquered)
        c.stock = [dict(self.stock[0]), dict(self.stock[1])]
        c.objectives = list(self.objectives)
        c.history = list(self.history)
        return c

    # ------------------------------------------------------------ phase
    def is_terminal(self) -> bool:
        return self.winner is not None

    def is_chance_node(self) -> bool:
        return not self.is_terminal() and self.to_move is None

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.to_move is None:
            return CHANCE
        return self.to_move

    def returns(self):
        if self.winner in (ALLIES, GERMANS):
            return [1.0, -1.0] if self.winner == ALLIES else [-1.0, 1.0]
        return [0.0, 0.0]

    # ------------------------------------------------------------ chance
    def _drawing_player(self) -> int:
        """Whose objective card is drawn next (the starting player first)."""
        if self.objectives[self.first_player] is None:
            return self.first_player
        return 1 - self.first_player

    def chance_outcomes(self):
        """[(action, Fraction probability)] in increasing action order."""
        assert self.is_chance_node()
        if self.first_player is None:
            return [(FIRST_ALLIES, Fraction(1, 2)), (FIRST_GERMANS, Fraction(1, 2))]
        left = [k for k in range(1, 9) if k not in self.objectives]
        return [(OBJ_BASE + k - 1, Fraction(1, len(left))) for k in left]

    # ------------------------------------------------------------ geometry
    def line_tiles(self, r: int, p: int) -> int:
        return sum(LENGTH[u] for u in self.lines[r - 1][p])

    def free_tiles(self, r: int) -> int:
        return self.L - self.line_tiles(r, ALLIES) - self.line_tiles(r, GERMANS)

    def unit_spans(self, r: int, p: int):
        """[(first_tile, last_tile)] of p's units on road r, block -> lead."""
        spans = []
        edge = 0  # tiles used so far from p's block
        for u in self.lines[r - 1][p]:
            n = LENGTH[u]
            if p == ALLIES:
                spans.append((edge + 1, edge + n))
            else:
                spans.append((self.L - edge - n + 1, self.L - edge))
            edge += n
        return spans

    def leading_tile(self, r: int, p: int, index: int) -> int:
        """The tile of unit `index` nearest the enemy (where its arrows point from)."""
        lo, hi = self.unit_spans(r, p)[index]
        return hi if p == ALLIES else lo

    def unit_index_at(self, r: int, p: int, tile: int):
        for i, (lo, hi) in enumerate(self.unit_spans(r, p)):
            if lo <= tile <= hi:
                return i
        return None

    def specials_on_board(self, p: int) -> int:
        return sum(1 for pair in self.lines for u in pair[p] if u in SPECIALS)

    def find_unit(self, p: int, unit: str):
        """(road, index) of p's unit of this (unique) type on the board, or None."""
        for r in range(1, NUM_ROADS + 1):
            line = self.lines[r - 1][p]
            if unit in line:
                return r, line.index(unit)
        return None

    def is_blocked(self, r: int, p: int) -> bool:
        """p's leading unit touches the enemy's leading unit."""
        return (bool(self.lines[r - 1][p]) and bool(self.lines[r - 1][1 - p])
                and self.free_tiles(r) == 0)

    # ------------------------------------------------------------ attacks
    def can_clash(self, r: int, p: int) -> bool:
        own, enemy = self.lines[r - 1][p], self.lines[r - 1][1 - p]
        if not own or not enemy or self.free_tiles(r) != 0:
            return False
        return not beats(enemy[-1], own[-1])

    def flank_target(self, r: int, s: int, p: int):
        """Index of the enemy unit on road s that p's command tank on road r may flank, or None."""
        if not 1 <= s <= NUM_ROADS or self.conquered[s - 1] is not None:
            return None
        line = self.lines[r - 1][p]
        if "K" not in line:
            return None
        tile = self.leading_tile(r, p, line.index("K"))
        i = self.unit_index_at(s, 1 - p, tile)
        if i is None or self.lines[s - 1][1 - p][i] not in INFANTRY:
            return None
        return i

    def mortar_target_road(self, r: int, p: int) -> int:
        # Facing each other, each side's "left" is the other's right.
        return r - 2 if p == ALLIES else r + 2

    def mortar_target(self, r: int, p: int):
        """Index of the enemy private p's mortar on road r may shoot, or None."""
        line = self.lines[r - 1][p]
        if "R" not in line:
            return None
        s = self.mortar_target_road(r, p)
        if not 1 <= s <= NUM_ROADS or self.conquered[s - 1] is not None:
            return None
        tile = self.leading_tile(r, p, line.index("R"))
        i = self.unit_index_at(s, 1 - p, tile)
        if i is None or self.lines[s - 1][1 - p][i] != "P":
            return None
        return i

    def attack_actions(self, p: int):
        acts = []
        for r in range(1, NUM_ROADS + 1):
            if self.can_clash(r, p):
                acts.append(ATTACK_BASE + r - 1)
            for s in (r - 1, r + 1):
                if self.flank_target(r, s, p) is not None:
                    acts.append(flank_action(r, s))
            if self.mortar_target(r, p) is not None:
                acts.append(MORTAR_BASE + r - 1)
        return acts

    # ------------------------------------------------------------ moves
    def retreat_cost(self, r: int, p: int) -> int:
        return 3 if self.is_blocked(r, p) else 2

    def legal_actions(self):
        if self.is_terminal() or self.is_chance_node():
            return []
        p, ap = self.to_move, self.ap
        acts = []
        if ap >= 1:
            special_free = self.specials_on_board(p) == 0
            for ui, u in enumerate(UNITS):
                if self.stock[p][u] == 0 or (u in SPECIALS and not special_free):
                    continue
                for r in range(1, NUM_ROADS + 1):
                    if self.free_tiles(r) >= LENGTH[u]:
                        acts.append(PLACE_BASE + ui * 7 + r - 1)
        for r in range(1, NUM_ROADS + 1):
            line = self.lines[r - 1][p]
            if ap >= 2 and len(line) >= 2:
                acts.append(FRONT_BASE + r - 1)
            if line and self.conquered[r - 1] is None and ap >= self.retreat_cost(r, p):
                acts.append(RETREAT_BASE + r - 1)
        acts.extend(self.attack_actions(p))
        acts.append(PASS)
        return sorted(acts)

    # ------------------------------------------------------------ apply
    def apply(self, action: int, check: bool = True):
        """Plays one action or chance outcome; check=False skips the legality test."""
        if check:
            legal = ([a for a, _ in self.chance_outcomes()] if self.is_chance_node()
                     else self.legal_actions())
            if action not in legal:
                raise ValueError(f"illegal action {action} ({action_to_string(action)})")
        self.history.append(action)
        if self.is_chance_node():
            self._apply_chance(action)
            return
        p = self.to_move
        if action == PASS:
            self._end_turn()
            return
        if action < FRONT_BASE:
            self._place(p, UNITS[action // 7], action % 7 + 1)
        elif action < RETREAT_BASE:
            line = self.lines[action - FRONT_BASE][p]
            line.append(line.pop(0))  # the rearmost unit goes to the front
            self.ap -= 2
        elif action < ATTACK_BASE:
            r = action - RETREAT_BASE + 1
            self.ap -= self.retreat_cost(r, p)
            self.stock[p][self.lines[r - 1][p].pop()] += 1
        elif action < FLANK_BASE:
            self._clash(p, action - ATTACK_BASE + 1)
        elif action < MORTAR_BASE:
            r = (action - FLANK_BASE) // 2 + 1
            s = r - 1 if (action - FLANK_BASE) % 2 == 0 else r + 1
            self._remove_from(s, 1 - p, self.flank_target(r, s, p))
        else:
            r = action - MORTAR_BASE + 1
            self._remove_from(self.mortar_target_road(r, p), 1 - p, self.mortar_target(r, p))
        if self.winner is None and self.ap == 0 and not self.attack_actions(p):
            self._end_turn()

    def _apply_chance(self, action: int):
        if action in (FIRST_ALLIES, FIRST_GERMANS):
            self.first_player = ALLIES if action == FIRST_ALLIES else GERMANS
            return
        self.objectives[self._drawing_player()] = action - OBJ_BASE + 1
        if None not in self.objectives:
            self.to_move = self.first_player
            self.ap = START_AP
            self.round = 1

    def _place(self, p: int, unit: str, r: int):
        self.lines[r - 1][p].append(unit)
        self.stock[p][unit] -= 1
        self.ap -= 1
        if self.free_tiles(r) == 0 and not self.lines[r - 1][1 - p]:
            self.conquered[r - 1] = p
            self._check_conquest_win(p)

    def _check_conquest_win(self, p: int):
        mine = {r for r in range(1, NUM_ROADS + 1) if self.conquered[r - 1] == p}
        card = OBJECTIVES[self.objectives[p] - 1]
        if set(card) <= mine or len(mine) >= 3:
            self.winner = p

    def _clash(self, p: int, r: int):
        own, enemy = self.lines[r - 1][p], self.lines[r - 1][1 - p]
        attacker = own[-1]
        if equal(attacker, enemy[-1]):
            self.stock[p][own.pop()] += 1
            self.stock[1 - p][enemy.pop()] += 1
            return
        removed = 0
        while enemy and beats(attacker, enemy[-1]):
            if attacker == "Y" and removed == 2:
                break  # the spy takes at most two units
            self.stock[1 - p][enemy.pop()] += 1
            removed += 1

    def _remove_from(self, s: int, owner: int, index: int):
        """Remove owner's unit `index` on road s and every unit in front of it."""
        line = self.lines[s - 1][owner]
        while len(line) > index:
            self.stock[owner][line.pop()] += 1

    def _end_turn(self):
        p = self.to_move
        if p != self.first_player:  # the round is complete
            if self.round >= self.max_rounds:
                counts = [self.conquered.count(ALLIES), self.conquered.count(GERMANS)]
                if counts[0] == counts[1]:
                    self.winner = "draw"
                else:
                    self.winner = ALLIES if counts[0] > counts[1] else GERMANS
                return
            self.round += 1
        self.to_move = 1 - p
        self.ap = START_AP

    # ------------------------------------------------------------ structured state
    def to_dict(self, viewer=None) -> dict:
        """The structured state of the rules contract; viewer hides the opponent's card."""
        if self.is_terminal():
            to_move = "terminal"
        elif self.is_chance_node():
            to_move = "chance"
        else:
            to_move = SIDE_NAMES[self.to_move]
        objectives = list(self.objectives)
        if viewer is not None:
            objectives[1 - viewer] = None
        winner = None
        if self.winner is not None:
            winner = "draw" if self.winner == "draw" else SIDE_NAMES[self.winner]
        return {
            "game": "ardennes", "variant": self.variant, "road_length": self.L,
            "max_rounds": self.max_rounds, "round": self.round, "to_move": to_move,
            "ap": self.ap,
            "roads": [{"road": r, "allies": list(self.lines[r - 1][0]),
                       "germans": list(self.lines[r - 1][1]),
                       "conquered": None if self.conquered[r - 1] is None
                       else SIDE_NAMES[self.conquered[r - 1]]}
                      for r in range(1, NUM_ROADS + 1)],
            "stock": {SIDE_NAMES[p]: {u: self.stock[p][u] for u in UNITS} for p in (0, 1)},
            "objectives": {"allies": objectives[0], "germans": objectives[1]},
            "winner": winner,
        }

    @classmethod
    def from_dict(cls, d: dict, first: str = "allies") -> "ArdennesState":
        """A decision-point state from the structured dict.

        The schema does not carry who started the game; `first` (or a
        "first" key in d) says so, because it decides when a round ends.
        """
        first = d.get("first", first)
        s = cls(d.get("variant", "standard"), d["road_length"], d["max_rounds"], first)
        if d["to_move"] not in SIDE_NAMES:
            raise ValueError(f"to_move={d['to_move']!r}: expected allies or germans")
        s.to_move = SIDE_NAMES.index(d["to_move"])
        s.round, s.ap = d["round"], d["ap"]
        for road in d["roads"]:
            r = road["road"]
            s.lines[r - 1] = [list(road["allies"]), list(road["germans"])]
            c = road["conquered"]
            s.conquered[r - 1] = None if c is None else SIDE_NAMES.index(c)
        for p, name in enumerate(SIDE_NAMES):
            s.stock[p] = {u: d["stock"][name][u] for u in UNITS}
            s.objectives[p] = d["objectives"][name]
        w = d.get("winner")
        s.winner = None if w is None else ("draw" if w == "draw" else SIDE_NAMES.index(w))
        s.validate()
        return s

    def validate(self):
        for p in (0, 1):
            for u in UNITS:
                on_board = sum(pair[p].count(u) for pair in self.lines)
                if on_board + self.stock[p][u] != FULL_STOCK[u] and not (
                        self.variant == "basic" and u in SPECIALS and on_board + self.stock[p][u] == 0):
                    raise ValueError(f"{SIDE_NAMES[p]} {u}: {on_board} on board + "
                                     f"{self.stock[p][u]} in stock != {FULL_STOCK[u]}")
            if self.specials_on_board(p) > 1:
                raise ValueError(f"{SIDE_NAMES[p]} have two special units on the board")
        for r in range(1, NUM_ROADS + 1):
            if self.free_tiles(r) < 0:
                raise ValueError(f"road {r}: lines overlap")

    # ------------------------------------------------------------ text
    def __str__(self):
        rows = []
        for r in range(1, NUM_ROADS + 1):
            a = "|".join(u * LENGTH[u] for u in self.lines[r - 1][0])
            g = "|".join(u.lower() * LENGTH[u] for u in reversed(self.lines[r - 1][1]))
            mark = "" if self.conquered[r - 1] is None else f" conquered by {SIDE_NAMES[self.conquered[r - 1]]}"
            rows.append(f"{r}: {a}{'.' * self.free_tiles(r)}{g}{mark}")
        rows.append(f"round {self.round} to_move {self.to_move} ap {self.ap}")
        return "\n".join(rows)


class Ardennes:
    """The game: parameters and new states (same parameter names as the engine)."""

    def __init__(self, variant="standard", road_length=16, max_rounds=80, first="random"):
        self.params = dict(variant=variant, road_length=road_length,
                           max_rounds=max_rounds, first=first)
        ArdennesState(**self.params)  # validates

    def new_initial_state(self) -> ArdennesState:
        return ArdennesState(**self.params)

    def state_from_dict(self, d: dict, first: str = "allies") -> ArdennesState:
        return ArdennesState.from_dict(d, first)


def perft(state: ArdennesState, depth: int) -> int:
    """Leaves at `depth` plies (chance outcomes expanded; a terminal counts 1)."""
    if depth == 0 or state.is_terminal():
        return 1
    moves = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
             else state.legal_actions())
    if depth == 1:
        return len(moves)
    total = 0
    for a in moves:
        child = state.clone()
        child.apply(a, check=False)
        total += perft(child, depth - 1)
    return total



def random_playout(game, rng) -> int:
    """One random game with the parameters of the ardsearch game `game` (bench/)."""
    from reference import play_random
    s = Ardennes(**{k: v for k, v in game.params.items() if k != "victory_cards"}).new_initial_state()

    def player():
        return "terminal" if s.is_terminal() else "chance" if s.is_chance_node() else 0

    return play_random(s, player, lambda: dict(s.chance_outcomes()), s.legal_actions, rng)
