"""A plain Python model of Stand at Mortain, written from the rules contract
(shared/games/mortain.md) and not from the engine, for differential tests.

It speaks only notation: legal() gives the legal moves as strings, chances()
the card outcomes as {notation: probability}, apply() takes a string. It
reads the same scenario file (map, units, historical setup) with tomllib.
Slow and simple on purpose.
"""
from __future__ import annotations

import functools
import os
import tomllib
from fractions import Fraction

SCENARIO = os.path.join(os.path.dirname(__file__), "..", "..", "ardsearch", "games", "mortain",
                        "scenarios", "mortain.toml")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
CARDS = [r + c for r in RANKS for c in "br"] + ["joker"]


def load_scenario(path=SCENARIO):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    letters = {t["letter"]: t for t in doc["terrain"].values()}
    terrain = {}
    for r, line in enumerate(doc["map"]["rows"], start=1):
        for c, letter in enumerate(line.split(), start=1):
            terrain[(c, r)] = letters[letter]
    german = [u for u in doc["unit"] if u["side"] == "german"]
    us = [u for u in doc["unit"] if u["side"] == "us"]
    return doc["scenario"], terrain, german + us, doc["setup"]["historical"]


SC, TERRAIN, UNITS, HISTORICAL = load_scenario()
ORDER = [u["id"] for u in UNITS]                 # unit order used for fire notation
BY_ID = {u["id"]: u for u in UNITS}
TIGER = next(u["id"] for u in UNITS if u.get("tiger"))


def side(uid):
    return 0 if BY_ID[uid]["side"] == "german" else 1


def name(hx):
    return f"{hx[0]:02d}{hx[1]:02d}"


def parse_hex(text):
    return (int(text[:2]), int(text[2:]))


# ------------------------------------------------------------- geometry ----
def to_cube(hx):
    # Column c (1-based); odd columns sit half a hex higher than even ones.
    c, r = hx
    q = c - 1
    row0 = r - 1
    z = row0 - (q - (q % 2)) // 2
    return (q, -q - z, z)


def from_cube(x, y, z):
    q, row0 = x, z + (x - (x % 2)) // 2
    return (q + 1, row0 + 1)


def distance(a, b):
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def on_board(hx):
    return 1 <= hx[0] <= 13 and 1 <= hx[1] <= 9


@functools.lru_cache(maxsize=None)
def neighbours(hx):
    return sorted(h for h in TERRAIN if distance(h, hx) == 1)


def cube_round(x, y, z):
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return from_cube(int(rx), int(ry), int(rz))


def line_of_sight(a, b):
    """Fire may enter a blocking hex but not pass through one; a line along an
    edge (the two nudged lines differ) is blocked if either side blocks."""
    n = distance(a, b)
    A, B = to_cube(a), to_cube(b)
    for eps in (1e-6, -1e-6):
        nudge = (eps, 2 * eps, -3 * eps)
        for i in range(1, n):
            t = i / n
            p = [A[k] + nudge[k] + (B[k] - A[k]) * t for k in range(3)]
            h = cube_round(*p)
            if h in TERRAIN and h not in (a, b) and TERRAIN[h]["blocks_los"]:
                return False
    return True


@functools.lru_cache(maxsize=None)
def can_hit_from(f, t):
    reach = 3 if TERRAIN[f]["hill"] else 2
    return distance(f, t) <= reach and line_of_sight(f, t)


# ---------------------------------------------------------------- model ----
class Mortain:
    def __init__(self, setup="free", strike_terrain="errata"):
        self.variant = strike_terrain == "variant"
        self.free_setup = setup == "free"
        self.at = {u: "reserve" for u in ORDER}
        self.reduced = set()
        if not self.free_setup:
            for uid, h in HISTORICAL.items():
                self.at[uid] = parse_hex(h)
        self.to_place = [u["id"] for u in UNITS if u["side"] == "us" and not u.get("reinforcement")] \
            if self.free_setup else []
        self.turn = 1
        self.winner = None
        self.new_deck()
        self.card = None
        self.attack = None          # dict(firers=[..], target=id, kind='ground'|'air'|'oba')
        self.waiting = "draw"       # draw | act | combat | redraw | setup | over
        if self.to_place:
            self.waiting = "setup"

    def new_deck(self):
        self.deck = {c: 2 for c in CARDS}
        self.deck["joker"] = 1
        self.had_card = set()       # sides that have had an activation card this turn
        self.air_done = False
        self.interdicted = None

    # ------------------------------------------------------------ queries
    def exits(self):
        return sum(1 for u in ORDER if self.at[u] == "exited")

    def player(self):
        if self.waiting == "over":
            return "terminal"
        if self.waiting in ("draw", "combat"):
            return "chance"
        if self.waiting == "setup":
            return 1
        return self.active

    def cards_left(self):
        return sum(self.deck.values())

    def chances(self):
        total = self.cards_left()
        return {c: Fraction(n, total) for c, n in self.deck.items() if n}

    def units_in(self, hx):
        return [u for u in ORDER if self.at[u] == hx]

    def room_for(self, uid, hx):
        """Stacking: 2 friendly units a hex (the Tiger free), never with the enemy."""
        here = self.units_in(hx)
        if any(side(u) != side(uid) for u in here):
            return False
        return uid == TIGER or sum(1 for u in here if u != TIGER) < 2

    def returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    # ------------------------------------------------------------- legal
    def legal(self):
        w = self.waiting
        if w == "setup":
            # C: the US player places each non-CC unit, stacking limits apply; no
            # order is fixed, so any unit still to place may go next
            return sorted(f"setup {uid} {name(h)}" for uid in self.to_place for h in TERRAIN
                          if h[0] != SC["us_setup_forbidden_column"] and self.room_for(uid, h))
        if w == "redraw":
            return ["miss", "redraw"] if self.cards_left() else ["miss"]
        if w != "act":
            return []
        moves = ["pass"]
        rank = self.card[:-1]
        face = rank in ("J", "Q", "K")
        mine = [u for u in ORDER if side(u) == self.active]
        if self.active == 1 and self.fresh and not self.air_done:
            german_on_map = [u for u in ORDER if side(u) == 0 and isinstance(self.at[u], tuple)]
            if rank in ("A", "3", "5", "7", "9", "J"):
                moves += [f"airi {name(h)}" for h in {self.at[u] for u in german_on_map}]
                if self.cards_left():
                    moves += [f"air {u}" for u in german_on_map]
            elif self.cards_left():
                moves += [f"oba {u}" for u in german_on_map]
        if face and self.fresh:
            # C: "J, Q, K = one unit or one stack": `stack <hex>` names a stack; one unit
            # (a reserve unit entering, or one on the map) acts directly, its act ends the card
            moves += [f"stack {name(h)}" for h in {self.at[u] for u in mine if isinstance(self.at[u], tuple)}]
        # who may act now
        if face and self.fresh:
            actors = mine
        elif face:
            actors = [u for u in mine if u in self.stack]
        else:
            actors = mine
        for u in actors:
            if self.at[u] == "reserve":
                moves += self.entries(u)
            elif isinstance(self.at[u], tuple):
                moves += self.steps(u, u)
                if side(u) == 0 and u != TIGER and self.at[TIGER] == self.at[u]:
                    moves += self.steps(u, f"{u}+{TIGER}")
        if self.cards_left():
            moves += self.fires(mine, face)
        return sorted(set(moves))

    def entries(self, u):
        if side(u) == 0:
            col = SC["german_entry_column"]
        elif BY_ID[u].get("reinforcement") and self.turn >= SC["us_reinforcement_turn"]:
            col = SC["us_entry_column"]
        else:
            return []
        return [f"{u}-{name((col, r))}" for r in range(1, 10) if self.room_for(u, (col, r))]

    def steps(self, u, label):
        here = self.at[u]
        out = [f"{label}-{name(h)}" for h in neighbours(here) if self.room_for(u, h)]
        if side(u) == 0 and here[0] == SC["exit_column"]:
            out.append(f"{label}-exit")
        return out

    def cost(self, group):
        """Activations a group spends on a number card; the Tiger rides free with a unit in its hex."""
        if len(group) == 2 and TIGER in group and self.at[group[0]] == self.at[group[1]]:
            return 1
        return len(group)

    def may_act_together(self, group, face):
        if not face:
            return self.cost(group) <= self.left
        if self.fresh:
            # one unit, the Tiger joining it free in its hex; two others are a stack
            return self.cost(group) == 1
        if all(u in self.stack for u in group):
            return True
        if len(group) == 2 and TIGER in group:
            other = group[0] if group[1] == TIGER else group[1]
            return other in self.stack and self.at[other] == self.at[TIGER]
        return False

    def fires(self, mine, face):
        on_map = [u for u in mine if isinstance(self.at[u], tuple)]
        targets = [u for u in ORDER if side(u) != self.active and isinstance(self.at[u], tuple)]
        groups = [[u] for u in on_map]
        groups += [[a, b] for i, a in enumerate(on_map) for b in on_map[i + 1:]]
        out = []
        for g in groups:
            if not self.may_act_together(g, face):
                continue
            for t in targets:
                if all(can_hit_from(self.at[f], self.at[t]) for f in g):
                    out.append("+".join(g) + "x" + t)
        return out

    # ------------------------------------------------------------- apply
    def apply(self, move):
        w = self.waiting
        if w == "draw":
            return self.draw_for_activation(move)
        if w == "combat":
            return self.draw_for_combat(move)
        if w == "setup":
            _, uid, h = move.split()
            if uid not in self.to_place:
                raise ValueError(f"{uid} is not a US unit still to place")
            self.at[uid] = parse_hex(h)
            self.to_place.remove(uid)
            if not self.to_place:
                self.waiting = "draw"
            return
        if w == "redraw":
            if move == "redraw":
                self.waiting = "combat"
            else:
                self.attack = None
                self.after_action()
            return
        # acting on a card
        rank = self.card[:-1]
        face = rank in ("J", "Q", "K")
        if move == "pass":
            return self.card_finished()
        word = move.split()[0]
        if word == "stack":
            h = parse_hex(move.split()[1])
            self.stack = {u for u in self.units_in(h)}
            self.fresh = False
            return
        if word == "airi":
            self.air_done = True
            self.interdicted = parse_hex(move.split()[1])
            return self.card_finished()
        if word in ("air", "oba"):
            self.air_done = True
            self.attack = dict(kind=word, firers=[], target=move.split()[1])
            self.left, self.stack, self.fresh = 0, set(), False
            self.waiting = "combat"
            return
        if "x" in move and not move.endswith("-exit"):
            firers, target = move.split("x")
            group = firers.split("+")
            self.spend(group, face)
            self.attack = dict(kind="ground", firers=group, target=target)
            self.waiting = "combat"
            return
        who, dest = move.rsplit("-", 1)
        group = who.split("+")
        if face and self.fresh:
            self.left, self.stack, self.fresh = 0, set(), False      # one unit (the Tiger riding) moves
        else:
            self.spend(group, face)
        for u in group:
            self.at[u] = "exited" if dest == "exit" else parse_hex(dest)
            if dest == "exit" and face:
                self.stack.discard(u)       # off the map: no activation left to use
        self.after_action()

    def spend(self, group, face):
        """Called before the group moves. C: "when a German unit in its hex is activated, the
        Tiger may activate with it for free": riding along uses only the partner's activation,
        on a face card too (the Tiger keeps its own turn in the stack)."""
        if face:
            if len(group) == 2 and TIGER in group and self.at[group[0]] == self.at[group[1]]:
                self.stack.discard(group[0] if group[1] == TIGER else group[1])
            else:
                self.stack -= set(group)
        else:
            self.left -= self.cost(group)
        self.fresh = False

    def card_finished(self):
        self.card = None
        if self.cards_left() == 0:
            self.end_of_turn()
        else:
            self.waiting = "draw"

    def after_action(self):
        if self.decided():
            return
        face = self.card[:-1] in ("J", "Q", "K")
        done = (not self.fresh and not self.stack) if face else self.left == 0
        if done:
            self.card_finished()
        else:
            self.waiting = "act"

    def decided(self):
        if all(self.at[u] == "dead" for u in ORDER if side(u) == 1):
            self.finish(0)
            return True
        if not any(self.at[u] == "reserve" or isinstance(self.at[u], tuple) for u in ORDER if side(u) == 0):
            self.finish(0 if self.exits() >= SC["exits_to_win"] else 1)
            return True
        return False

    def finish(self, winner):
        self.winner = winner
        self.waiting = "over"

    def end_of_turn(self):
        self.attack = None
        self.card = None
        if self.exits() >= SC["exits_to_win"]:
            return self.finish(0)
        if self.turn == SC["turns"]:
            return self.finish(1)
        self.turn += 1
        self.new_deck()
        self.waiting = "draw"

    def joker(self):
        """True if the joker ends the turn; otherwise it is set aside."""
        if self.had_card == {0, 1}:
            self.end_of_turn()
            return True
        self.deck["joker"] = 0
        if self.cards_left() == 0:
            self.end_of_turn()
            return True
        return False

    def draw_for_activation(self, card):
        if card == "joker":
            self.joker()
            return
        self.deck[card] -= 1
        self.card = card
        self.active = 0 if card.endswith("b") else 1
        self.had_card.add(self.active)
        rank = card[:-1]
        self.fresh = True
        self.stack = set()
        self.left = 0 if rank in ("J", "Q", "K") else (RANKS.index(rank) + 2) // 2
        self.waiting = "act"

    def draw_for_combat(self, card):
        if card == "joker":
            self.joker()
            return
        self.deck[card] -= 1
        rank = card[:-1]
        if rank in ("J", "Q", "K"):
            self.waiting = "redraw"
            return
        self.resolve(RANKS.index(rank) + 1)

    def resolve(self, number):
        a = self.attack
        t = a["target"]
        th = self.at[t]
        anti = "AT" if BY_ID[t]["kind"] == "tank" else "AI"
        col = 0 if anti == "AT" else 1
        value = number
        if a["kind"] == "ground":
            strength = sum(BY_ID[f]["reduced" if f in self.reduced else "full"][col] for f in a["firers"])
            if all(distance(self.at[f], th) == 1 for f in a["firers"]):
                value -= 1
            if TIGER in a["firers"] and anti == "AT":
                value -= 1
            value += TERRAIN[th]["modifier"]
            if self.interdicted and any(side(f) == 0 and distance(self.at[f], self.interdicted) <= 1
                                        for f in a["firers"]):
                value += 1
        else:
            strength = 4 if a["kind"] == "air" else 3
            if self.variant:
                german_adjacent = any(side(u) == 0 and isinstance(self.at[u], tuple)
                                      and distance(self.at[u], th) == 1 for u in ORDER)
                if not german_adjacent:
                    value += TERRAIN[th]["modifier"]
        if value <= strength:
            if t in self.reduced:
                self.reduced.discard(t)
                self.at[t] = "dead"
                if self.card and self.card[:-1] in ("J", "Q", "K"):
                    self.stack.discard(t)
            else:
                self.reduced.add(t)
        self.attack = None
        self.after_action()



def random_playout(game, rng) -> int:
    """One random game with the parameters of the ardsearch game `game` (bench/)."""
    from reference import play_random
    m = Mortain(game.params["setup"], game.params["strike_terrain"])
    return play_random(m, m.player, m.chances, m.legal, rng)
