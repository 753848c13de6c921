"""A plain Python model of Stosstruppen, written from the rules contract
(shared/games/stosstruppen.md and the design choices in the game's RULES.md),
not from the engine, for differential tests.

It speaks only notation: legal() gives the legal moves as a set of strings,
chances() the outcomes as {notation: Fraction}, apply() takes a string. It
reads the same data files through the game's data loader (data, not rules).
Squares are (column, row) pairs, zero-based. Slow and simple on purpose.
"""
from __future__ import annotations

import heapq
import math
from fractions import Fraction

from ardsearch.games.stosstruppen import data

UNITS, SCENARIOS = data.load_all()
SCENARIO_BY_NAME = {s["name"]: s for s in SCENARIOS}
TERRAIN = data.TERRAIN_NAMES
PROTECTION = {"open": 4, "road": 4, "ford": 4, "marsh": 4, "woods": 5, "craters": 5,
              "buildings": 6, "wall": 6, "trench": 7, "bunker": 9}
OPEN = {"open", "road", "ford", "marsh"}
PHASE_OF = "mfar"
NEAR = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
HEADING = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}  # n e s w


WIRE = 2     # paths(): the layer of paths that entered wire (layer 1: a trench crossing)


def name(sq):
    return f"{chr(97 + sq[0])}{sq[1] + 1}"


def dist(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def morale_odds(need):
    return Fraction(max(0, min(6, 7 - need)), 6)


def die_beats(die, mod, value):
    """P(1d<die> + mod > value)."""
    return Fraction(sum(1 for f in range(1, die + 1) if f + mod > value), die)


def d3_sum(dist_, times):
    for _ in range(times):
        out = {}
        for v, p in dist_.items():
            for k in (1, 2, 3):
                out[v + k] = out.get(v + k, 0) + p / 3
        dist_ = out
    return dist_


class Board:
    def __init__(self, sc):
        self.w, self.h = sc["width"], sc["height"]
        self.terrain = {}
        for r in range(self.h):
            for c in range(self.w):
                self.terrain[(c, r)] = TERRAIN[sc["terrain"][r * 16 + c]]
        to_sq = lambda i: (i % 16, i // 16)  # noqa: E731
        self.hill = {to_sq(i) for i in sc["hill"]}
        self.wooded_hill = self._wooded_hills()
        self.wire = {to_sq(i) for i in sc["wire"]}
        self.objectives = {to_sq(i) for i in sc["objectives"]}
        self.aperture = {to_sq(i): sc["aperture"][i] for i in range(192) if sc["terrain"][i] == 8}
        self._los = {}

    def _wooded_hills(self):
        """Fire A: "No LOS may pass over a hill containing Woods or
        Buildings": every square of a hill (hill squares joined through the 8
        neighbours) that holds woods or buildings."""
        out, seen = set(), set()
        for start in self.hill:
            if start in seen:
                continue
            group, todo = set(), [start]
            while todo:
                sq = todo.pop()
                if sq in group:
                    continue
                group.add(sq)
                todo += [(sq[0] + dx, sq[1] + dy) for dx, dy in NEAR if (sq[0] + dx, sq[1] + dy) in self.hill]
            seen |= group
            if any(self.terrain[sq] in ("woods", "buildings") for sq in group):
                out |= group
        return out

    def on(self, sq):
        return 0 <= sq[0] < self.w and 0 <= sq[1] < self.h

    def los(self, a, b):
        key = (a, b) if a <= b else (b, a)
        if key not in self._los:
            self._los[key] = self._compute_los(*key)
        return self._los[key]

    def _compute_los(self, a, b):
        """Squares whose open interior the centre-to-centre segment crosses block:
        woods, buildings, a hill holding woods or buildings, or another hill
        unless an end is on a hill."""
        hill_end = a in self.hill or b in self.hill
        for cx in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            for cy in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                c = (cx, cy)
                if c in (a, b):
                    continue
                # the segment crosses the open square iff its line separates two corners
                sides = set()
                for ex in (-0.5, 0.5):
                    for ey in (-0.5, 0.5):
                        px, py = cx + ex - a[0], cy + ey - a[1]
                        cross = (b[0] - a[0]) * py - (b[1] - a[1]) * px
                        sides.add((cross > 0) - (cross < 0))
                if not (1 in sides and -1 in sides):
                    continue
                if self.terrain[c] in ("woods", "buildings"):
                    return False
                if c in self.wooded_hill or (c in self.hill and not hill_end):
                    return False
        return True


def in_arc(facing, a, b):
    hx, hy = HEADING[facing]
    dx, dy = b[0] - a[0], b[1] - a[1]
    forward = dx * hx + dy * hy
    side = abs(dx * hy - dy * hx)
    return forward >= 1 and 2 * side <= forward + 1


class State:
    def __init__(self, scenario="kaiserschlacht", turns=0):
        sc = SCENARIO_BY_NAME[scenario]
        self.sc = sc
        self.board = Board(sc)
        self.turns = turns or sc["turns"]
        self.turn = 1
        self.drawn = set()
        self.card = None          # (player, phase letter)
        self.winner = None
        self.units = []           # dicts; index = engine slot (16 per side)
        for p in range(2):
            army = sc["armies"][p]
            for k in range(16):
                if k < len(army["units"]):
                    t, sq, facing = army["units"][k]
                    self.units.append(dict(side=p, t=UNITS[t], sq=(sq % 16, sq // 16), status=0,
                                           spotted=False, moved=False, fired=False, acted=False,
                                           stuck=False, facing=facing, damaged=False, main_out=False,
                                           sec_out=False, immob=False, main_fired=False, sec_fired=False))
                else:
                    self.units.append(None)
        self.markers = []         # dicts per slot (4 per side)
        for p in range(2):
            kinds = sc["armies"][p]["markers"]
            for k in range(4):
                self.markers.append(dict(side=p, base=kinds[k], kind="stock", sq=None, armed=False)
                                    if k < len(kinds) else None)
        self.pending = None       # (kind, info dict)
        self.advance = None       # (unit index, square) while the winner decides
        self.spot()

    # ------------------------------------------------------------- helpers
    def alive(self, side=None):
        return [i for i, u in enumerate(self.units)
                if u and u["sq"] is not None and (side is None or u["side"] == side)]

    def at(self, sq):
        for i in self.alive():
            if self.units[i]["sq"] == sq:
                return i
        return None

    def demoralised(self, p):
        n = len(self.sc["armies"][p]["units"])
        return 2 * (n - len(self.alive(p))) >= n

    def pass_odds(self, p):
        return morale_odds(4 - self.sc["armies"][p]["morale"] + self.demoralised(p))

    def spot(self):
        for i in self.alive():
            u = self.units[i]
            if any(dist(u["sq"], self.units[j]["sq"]) <= 2 for j in self.alive(1 - u["side"])):
                u["spotted"] = True

    def kill(self, i):
        u = self.units[i]
        u["sq"] = None
        for k in ("status",):
            u[k] = 0
        for k in ("spotted", "moved", "fired", "acted", "stuck", "damaged", "main_out", "sec_out",
                  "immob", "main_fired", "sec_fired"):
            u[k] = False
        if u["side"] == self.sc["attacker"] and not self.alive(u["side"]):
            self.winner = 1 - u["side"]
            self.pending = None

    def label(self, i):
        u = self.units[i]
        return name(u["sq"]) if u["sq"] is not None else f"u{i}"

    # ------------------------------------------------------------- player to move
    def current_player(self):
        if self.winner is not None:
            return "terminal"
        if self.card is None or self.pending:
            return "chance"
        return self.card[0]

    player = current_player  # the name bench/reference_openspiel.py drives

    def returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    # ------------------------------------------------------------- movement
    def enterable(self, t, sq):
        ter = self.board.terrain[sq]
        return t["foot"] or ter not in ("buildings", "marsh", "bunker", "trench")

    def cost(self, t, a, b):
        tb = self.board.terrain[b]
        if tb in ("woods", "ford", "marsh") or (tb == "craters" and not t["foot"]):
            return 4
        return 2

    def paths(self, i, only=None):
        """{(square, layer): (cost, crossing key)}: the cheapest paths of unit i
        within its allowance. Layer 0 takes no test; layer WIRE (2) has entered
        wire (non-tanks; Obstacles A, a Morale test to pass); layer 1 has
        crossed one trench square (non-foot units; the crossing key y * 16 + x,
        the lowest of the cheapest; with `only`, the crossing may use that
        trench square alone). One test a move: no layer has both."""
        u = self.units[i]
        t = u["t"]
        b = self.board
        enemies = {self.units[j]["sq"] for j in self.alive(1 - u["side"])}

        def wired(sq):
            return sq in b.wire and not t["tank"]

        allow = 2 * t["move"]
        heap = [(0, -1, u["sq"], 0)]     # cost, crossing key (-1: none yet), square, layer
        seen = {}
        while heap:
            c, cr, sq, layer = heapq.heappop(heap)
            key = (sq, layer)
            if key in seen:
                continue
            seen[key] = (c, cr)
            for dx, dy in NEAR:
                nb = (sq[0] + dx, sq[1] + dy)
                if not b.on(nb) or nb in enemies:
                    continue
                if self.enterable(t, nb):
                    nc = c + self.cost(t, sq, nb)
                    to = WIRE if layer == 0 and wired(nb) else layer
                    if nc <= allow and (to == WIRE or not wired(nb)) and (nb, to) not in seen:
                        heapq.heappush(heap, (nc, cr, nb, to))
                elif (layer == 0 and not t["foot"] and b.terrain[nb] == "trench" and self.at(nb) is None
                        and not wired(nb) and only in (None, nb)):
                    for ex, ey in NEAR:
                        out = (nb[0] + ex, nb[1] + ey)
                        if (out == sq or not b.on(out) or out in enemies or not self.enterable(t, out)
                                or wired(out)):
                            continue
                        nc = c + 2 + self.cost(t, nb, out)
                        if nc <= allow and (out, 1) not in seen:
                            heapq.heappush(heap, (nc, nb[1] * 16 + nb[0], out, 1))
        return seen

    def crossing_square(self, i, dest):
        """Obstacles B: a failing non-foot unit "is immobilized there in that
        trench". Of the trench squares giving the cheapest crossing path to
        dest, the one nearest the straight line from the unit to dest, then
        the lowest square index."""
        u = self.units[i]
        costs = {}
        for m, terrain in self.board.terrain.items():
            if terrain == "trench" and (dest, 1) in (found := self.paths(i, only=m)):
                costs[m] = found[(dest, 1)][0]
        cheapest = min(costs.values())
        (sx, sy), (dx, dy) = u["sq"], dest
        return min((abs((m[0] - sx) * (dy - sy) - (m[1] - sy) * (dx - sx)), m[1] * 16 + m[0], m)
                   for m, c in costs.items() if c == cheapest)[2]

    def destinations(self, i):
        """{square: test}: the squares unit i may move to and the test the move
        takes: None (a path needs none), "wire" (a path through wire), or the
        trench square (x, y) of a crossing (crossing_square's). No test beats
        the wire, the wire beats a trench."""
        u = self.units[i]
        t = u["t"]
        b = self.board
        seen = self.paths(i)
        # roads: "All units starting and ending on roads double their movement";
        # a doubled move keeps its whole path on road squares, one step = half a square
        if b.terrain[u["sq"]] == "road":
            enemies = {self.units[j]["sq"] for j in self.alive(1 - u["side"])}
            allow = 2 * t["move"]
            steps = {(u["sq"], 0): 0}
            todo = [(u["sq"], 0)]
            while todo:
                sq, layer = todo.pop(0)
                if steps[(sq, layer)] == allow:
                    continue
                for dx, dy in NEAR:
                    nb = (sq[0] + dx, sq[1] + dy)
                    to = WIRE if layer == WIRE or (nb in b.wire and not t["tank"]) else 0
                    if (b.on(nb) and b.terrain[nb] == "road" and nb not in enemies
                            and (nb, to) not in steps):
                        steps[(nb, to)] = steps[(sq, layer)] + 1
                        todo.append((nb, to))
            for key, n in steps.items():
                seen.setdefault(key, (n, -1))
        order = {0: 0, WIRE: 1, 1: 2}
        best = {}
        for (sq, layer), (c, cr) in sorted(seen.items(), key=lambda kv: order[kv[0][1]]):
            if sq == u["sq"] or self.at(sq) is not None or sq in best:
                continue
            best[sq] = None if layer == 0 else "wire" if layer == WIRE else (cr % 16, cr // 16)
        return best

    def may_move(self, i):
        u = self.units[i]
        t = u["t"]
        if t["move"] == 0 or u["status"] or u["acted"] or u["stuck"] or u["immob"]:
            return False
        if t["star"] and u["fired"]:
            return False
        return t["foot"] or self.board.terrain[u["sq"]] != "trench"

    def near_hq(self, i):
        u = self.units[i]
        return any(self.units[j]["t"]["hq"] and dist(self.units[j]["sq"], u["sq"]) <= 3
                   for j in self.alive(u["side"]))

    def fall_back(self, i, away_from=None):
        """Assault B: "moved back 5cm from the enemy unit in question, if
        possible towards the own table edge, if not to any position not
        adjacent to a enemy unit". One square: first one row nearer the own
        edge and not next to the enemy in question (unit away_from, or every
        enemy next to i), else any square no enemy is next to, nearest the
        own edge; of equals, the step most nearly straight away from the
        enemy in question, then the lowest square index."""
        u = self.units[i]
        if u["stuck"] or u["immob"]:
            return
        t = u["t"]
        x, y = u["sq"]
        enemies = self.alive(1 - u["side"])
        foes = [j for j in enemies
                if j == away_from or (away_from is None and dist(self.units[j]["sq"], u["sq"]) == 1)]
        ax = sum(x - self.units[j]["sq"][0] for j in foes)
        ay = sum(y - self.units[j]["sq"][1] for j in foes)
        edge_of = (lambda row: row) if u["side"] == 0 else (lambda row: self.board.h - 1 - row)
        options = []
        for dx, dy in NEAR:
            sq = (x + dx, y + dy)
            if not self.board.on(sq) or self.at(sq) is not None or not self.enterable(t, sq):
                continue
            if sq in self.board.wire and not t["tank"]:
                continue
            edge = edge_of(sq[1])
            if edge < edge_of(y) and not any(dist(sq, self.units[j]["sq"]) == 1 for j in foes):
                tier = 0
            elif not any(dist(sq, self.units[j]["sq"]) == 1 for j in enemies):
                tier = 1
            else:
                continue
            away = float(dx * ax + dy * ay)
            if dx and dy:
                away = away / math.sqrt(2)
            options.append((tier, edge, -away, sq[1] * 16 + sq[0], sq))
        if options:
            u["sq"] = min(options)[4]
            u["spotted"] = True
            self.spot()

    def adjacent_enemies(self, i, sq, after=-1):
        """i's enemies next to square sq (where i arrived), in slot order after `after`."""
        u = self.units[i]
        return [j for j in self.alive(1 - u["side"]) if j > after and dist(self.units[j]["sq"], sq) == 1]

    def land(self, i, sq):
        u = self.units[i]
        if u["t"]["tank"]:
            dx, dy = sq[0] - u["sq"][0], sq[1] - u["sq"][1]
            if abs(dy) >= abs(dx):
                u["facing"] = 0 if dy > 0 else 2
            else:
                u["facing"] = 1 if dx > 0 else 3
        u["sq"] = sq
        u["moved"] = True
        u["spotted"] = True
        self.spot()
        self.pending = ("adjacent-mover", {"unit": i, "square": sq}) if self.adjacent_enemies(i, sq) else None

    def next_move_step(self, info):
        if info["hq"]:
            self.pending = ("hq-test", info)
        elif info["cross"]:
            self.pending = ("cross-test", info)
        else:
            self.land(info["unit"], info["dest"])

    # ------------------------------------------------------------- fire
    def weapon(self, i, j):
        u, t = self.units[i], self.units[i]["t"]
        armoured = self.units[j]["t"]["tank"]
        if t["main"] and not u["main_out"] and not u["main_fired"] and (t["main_at"] or not armoured):
            return "main"
        if t["secondary"] and not u["sec_out"] and not u["sec_fired"] and not armoured:
            return "secondary"
        return None

    def may_fire(self, i, j):
        u, v = self.units[i], self.units[j]
        t = u["t"]
        if u["status"] == 2:
            return False
        r = dist(u["sq"], v["sq"])
        if t["tank"]:
            if self.weapon(i, j) is None:
                return False
            if not t["all_round"] and not in_arc(u["facing"], u["sq"], v["sq"]):
                return False
        else:
            if u["fired"] or not t["fire"] or (t["star"] and u["moved"]):
                return False
            if v["t"]["tank"] and (not t["at"] or (t["at_no_long"] and r >= 8)):
                return False
            if self.board.terrain[u["sq"]] == "bunker" and not in_arc(
                    self.board.aperture[u["sq"]], u["sq"], v["sq"]):
                return False
        if self.board.terrain[v["sq"]] in ("woods", "buildings") and not v["spotted"]:
            return False
        return self.board.los(u["sq"], v["sq"])

    def attack_chances(self, j, p):
        v = self.units[j]
        out = {}
        if not v["t"]["tank"]:
            out["hit"] = p
        elif v["damaged"]:
            out["hit:kill"] = p
        else:
            names = ["hit:main", "hit:main", "hit:sec", "hit:sec", "hit:immob", "hit:kill"]
            for face in range(1, 7):
                k = names[min(face + v["t"]["table_bonus"], 6) - 1]
                out[k] = out.get(k, 0) + p / 6
        out["miss"] = 1 - p
        return {k: q for k, q in out.items() if q > 0}

    def strike(self, j, outcome, artillery):
        v = self.units[j]
        if outcome == "miss":
            return
        if outcome == "hit":
            if v["status"] and self.board.terrain[v["sq"]] in OPEN:
                self.kill(j)
            elif artillery:
                v["status"] = 2
            else:
                v["status"] = max(v["status"], 1)
        elif outcome == "hit:kill":
            self.kill(j)
        else:
            v["damaged"] = True
            v[{"hit:main": "main_out", "hit:sec": "sec_out", "hit:immob": "immob"}[outcome]] = True

    # ------------------------------------------------------------- markers
    def marker_test_from(self, start):
        p = self.card[0]
        for m in range(4 * p, 4 * p + 4):
            mk = self.markers[m]
            if m >= start and mk and mk["armed"]:
                self.pending = ("arrival", {"marker": m})
                return
        self.pending = None

    def blast_from(self, m, start):
        mk = self.markers[m]
        radius = 4 if mk["kind"] == "gas" else 2
        for i in self.alive():
            if i >= start and dist(self.units[i]["sq"], mk["sq"]) <= radius:
                self.pending = ("blast", {"marker": m, "unit": i})
                return
        self.markers[m] = dict(mk, kind="spent", sq=None, armed=False)
        self.marker_test_from(m + 1)

    # ------------------------------------------------------------- phases
    def end_turn(self):
        a = self.sc["attacker"]
        held = sum(1 for i in self.alive(a) if self.units[i]["sq"] in self.board.objectives)
        # the demoralisation win counts at the end of every turn, the last one too
        if self.demoralised(1 - a) and held >= 1:
            self.winner = a
        elif self.turn >= self.turns:
            self.winner = a if held >= self.sc["objectives_needed"] else 1 - a
        if self.winner is not None:
            return
        for u in self.units:
            if u:
                u.update(moved=False, fired=False, acted=False, main_fired=False, sec_fired=False)
        self.turn += 1
        self.drawn = set()

    def end_phase(self):
        p, ph = self.card
        if ph == "f":
            for mk in self.markers[4 * p:4 * p + 4]:
                if mk and mk["kind"] in ("barrage", "gas", "cas"):
                    mk["armed"] = True
        self.pending = None
        self.card = None
        if len(self.drawn) == 8:
            self.end_turn()

    def rally_from(self, start):
        p = self.card[0]
        for i in self.alive(p):
            if i >= start and self.units[i]["status"]:
                self.pending = ("rally", {"unit": i})
                return
        self.pending = None
        self.end_phase()

    # ------------------------------------------------------------- the interface
    def legal(self):
        if self.current_player() not in (0, 1):
            return set()
        if self.advance:
            return {"advance", "stay"}
        p, ph = self.card
        out = {"done"}
        mine, theirs = self.alive(p), self.alive(1 - p)
        if ph == "m":
            for i in mine:
                if self.may_move(i):
                    for sq in self.destinations(i):
                        out.add(f"{self.label(i)}-{name(sq)}")
        elif ph == "f":
            for i in mine:
                for j in theirs:
                    if self.may_fire(i, j):
                        out.add(f"{self.label(i)}x{self.label(j)}")
            squares = [(c, r) for c in range(self.board.w) for r in range(self.board.h)]
            stock = [mk for mk in self.markers[4 * p:4 * p + 4] if mk and mk["kind"] == "stock"]
            if any(mk["base"] == "barrage" for mk in stock):
                for sq in squares:
                    if any(self.board.los(self.units[i]["sq"], sq) for i in mine):
                        out.add(f"barrage {name(sq)}")
                        out.add(f"gas {name(sq)}")
            if any(mk["base"] == "cas" for mk in stock):
                out.update(f"cas {name(sq)}" for sq in squares)
        elif ph == "a":
            for i in mine:
                u = self.units[i]
                if not u["t"]["assault"] or not u["t"]["foot"] or u["status"] or u["acted"]:
                    continue
                for j in theirs:
                    # "in contact (adjacent square)", Chebyshev: any of the 8 neighbours
                    if dist(u["sq"], self.units[j]["sq"]) == 1:
                        out.add(f"{self.label(i)}@{self.label(j)}")
        elif ph == "r":
            if any(self.units[i]["status"] for i in mine):
                out.add("rally")
        return out

    def chances(self):
        if self.card is None and self.winner is None:
            left = [f"card:{'GB'[p]}{ph}" for p in range(2) for ph in PHASE_OF if (p, ph) not in self.drawn]
            return {c: Fraction(1, len(left)) for c in left}
        if not self.pending:
            return {}
        kind, info = self.pending
        if kind in ("hq-test", "cross-test", "adjacent-mover", "adjacent-enemy", "rally"):
            who = info["target"] if kind == "adjacent-enemy" else info["unit"]
            q = self.pass_odds(self.units[who]["side"])
            return {k: v for k, v in (("pass", q), ("fail", 1 - q)) if v > 0}
        if kind == "fire":
            i, j = info["unit"], info["target"]
            u, v = self.units[i], self.units[j]
            t = u["t"]
            if t["tank"]:
                die = t["main"] if info["weapon"] == "main" else t["secondary"]
            else:
                die = t["at"] if v["t"]["tank"] else t["fire"]
            r = dist(u["sq"], v["sq"])
            mod = 1 if r <= 2 else (-1 if r >= 8 else 0)
            ter = self.board.terrain[v["sq"]]
            mod += t["plunging"] and ter in ("trench", "craters")    # tanks too
            mod += t["direct"] and ter in ("buildings", "bunker")
            value = v["t"]["armour"] if v["t"]["tank"] else PROTECTION[ter]
            return self.attack_chances(j, die_beats(die, mod, value))
        if kind == "arrival":
            return {"arrive": Fraction(1, 3), "wait": Fraction(2, 3)}
        if kind == "aircraft":
            return {"fighter": Fraction(1, 2), "bomber": Fraction(1, 2)}
        if kind == "blast":
            mk, v = self.markers[info["marker"]], self.units[info["unit"]]
            die = {"barrage": 20, "gas": 10, "fighter": 8, "bomber": 12}[mk["kind"]]
            value = v["t"]["armour"] if v["t"]["tank"] else PROTECTION[self.board.terrain[v["sq"]]]
            return self.attack_chances(info["unit"], die_beats(die, 0, value))
        if kind == "assault":
            a, d = self.units[info["unit"]], self.units[info["target"]]
            att = d3_sum({f: Fraction(1, a["t"]["melee"]) for f in range(1, a["t"]["melee"] + 1)}, d["status"])
            n = d["t"]["melee"]
            dfd = {}
            for f in range(1, n + 1):
                v = (f + 1) // 2 if d["t"]["tank"] and (d["main_out"] or d["sec_out"]) else f
                dfd[v] = dfd.get(v, 0) + Fraction(1, n)
            ter = self.board.terrain[d["sq"]]
            if ter == "bunker" or (ter == "trench" and self.board.terrain[a["sq"]] != "trench"):
                dfd = d3_sum(dfd, 1)
            out = {"win": Fraction(0), "loss": Fraction(0), "tie": Fraction(0)}
            for x, px in att.items():
                for y, py in dfd.items():
                    out["win" if x > y else "loss" if x < y else "tie"] += px * py
            return {k: v for k, v in out.items() if v > 0}
        raise AssertionError(kind)

    def canonical(self, note):
        """The outcome a contract chance name means at this node (RULES.md,
        Notation: read, never written): `pass`/`fail` at an arrival test,
        `d6=<k>` at an arrival test (5-6 arrive), an aircraft roll (1-3
        fighter) or the anti-tank table of a penetration of an undamaged tank
        (+table_bonus). None for a `d<n>=<k>` that names nothing here; any
        other note unchanged."""
        kind = self.pending[0] if self.pending and self.winner is None else None
        if kind == "arrival" and note in ("pass", "fail"):
            return "arrive" if note == "pass" else "wait"
        if not (note.startswith("d") and "=" in note and note[1:].replace("=", "", 1).isdigit()):
            return note
        die, k = (int(x) for x in note[1:].split("="))
        if die != 6 or not 1 <= k <= 6:
            return None
        if kind == "arrival":
            return "arrive" if k >= 5 else "wait"
        if kind == "aircraft":
            return "fighter" if k <= 3 else "bomber"
        if kind in ("fire", "blast"):
            v = self.units[self.pending[1]["target" if kind == "fire" else "unit"]]
            if v["t"]["tank"] and not v["damaged"]:
                roll = min(k + v["t"]["table_bonus"], 6)
                return ["hit:main", "hit:main", "hit:sec", "hit:sec", "hit:immob", "hit:kill"][roll - 1]
        return None

    def apply(self, move):
        if self.current_player() == "chance":
            self._apply_chance(move)
            return
        p, ph = self.card
        if self.advance:
            i, sq = self.advance
            self.advance = None
            if move == "advance":
                self.units[i]["sq"] = sq
                self.units[i]["spotted"] = True
                self.spot()
            return
        if move == "done":
            self.end_phase()
        elif move == "rally":
            self.rally_from(0)
        elif move.replace(" ", ":").split(":")[0] in ("barrage", "gas", "cas"):
            kind, sqn = move.replace(" ", ":").split(":")
            sq = data.parse_square(sqn)
            base = "cas" if kind == "cas" else "barrage"
            mk = next(m for m in self.markers[4 * p:4 * p + 4] if m and m["kind"] == "stock" and m["base"] == base)
            mk.update(kind=kind, sq=sq)
        else:
            sep = next(ch for ch in move if ch in "-x@")
            left, right = move.split(sep)
            i = next(k for k in self.alive(p) if self.label(k) == left)
            u = self.units[i]
            if sep == "-":
                dest = data.parse_square(right)
                test = self.destinations(i)[dest]
                crossing = self.crossing_square(i, dest) if test not in (None, "wire") else None
                u["acted"] = True
                info = dict(unit=i, dest=dest, hq=not self.near_hq(i), crossing=crossing,
                            cross=test is not None)
                self.next_move_step(info)
            else:
                j = next(k for k in self.alive(1 - p) if self.label(k) == right)
                if sep == "x":
                    w = self.weapon(i, j) if u["t"]["tank"] else None
                    if w == "main":
                        u["main_fired"] = True
                    elif w == "secondary":
                        u["sec_fired"] = True
                    u.update(fired=True, acted=True, spotted=True)
                    self.pending = ("fire", dict(unit=i, target=j, weapon=w))
                else:
                    u["acted"] = True
                    self.pending = ("assault", dict(unit=i, target=j))

    def _apply_chance(self, move):
        if self.card is None:
            p, ph = "GB".index(move[5]), move[6]
            self.card = (p, ph)
            self.drawn.add((p, ph))
            for u in self.units:
                if u:
                    u["acted"] = False
            self.pending = None
            if ph == "f":
                self.marker_test_from(0)
            return
        kind, info = self.pending
        if kind == "hq-test":
            if move == "pass":
                info["hq"] = False
                self.next_move_step(info)
            else:
                self.pending = None
        elif kind == "cross-test":
            if move == "pass":
                info["cross"] = False
                self.next_move_step(info)
            elif info["crossing"] is not None:
                self.units[info["unit"]]["stuck"] = True
                self.land(info["unit"], info["crossing"])
            else:
                self.pending = None
        elif kind == "adjacent-mover":
            # contract: "the mover tests morale (failure: back 1 square ...); the
            # enemy unit then tests too": the enemies next to the square the mover
            # arrived on, whether it stayed there or fell back
            if move == "fail":
                self.fall_back(info["unit"])
            rest = self.adjacent_enemies(info["unit"], info["square"])
            self.pending = ("adjacent-enemy", dict(info, target=rest[0])) if rest else None
        elif kind == "adjacent-enemy":
            if move == "fail":
                self.fall_back(info["target"], info["unit"])
            rest = self.adjacent_enemies(info["unit"], info["square"], info["target"])
            self.pending = ("adjacent-enemy", dict(info, target=rest[0])) if rest else None
        elif kind == "fire":
            self.pending = None
            self.strike(info["target"], move, self.units[info["unit"]]["t"]["artillery"])
        elif kind == "arrival":
            m = info["marker"]
            if move == "wait":
                self.marker_test_from(m + 1)
            elif self.markers[m]["kind"] == "cas":
                self.markers[m]["armed"] = False
                self.pending = ("aircraft", info)
            else:
                self.markers[m]["armed"] = False
                self.blast_from(m, 0)
        elif kind == "aircraft":
            self.markers[info["marker"]]["kind"] = move
            self.blast_from(info["marker"], 0)
        elif kind == "blast":
            self.strike(info["unit"], move, True)
            if self.winner is None:
                self.blast_from(info["marker"], info["unit"] + 1)
        elif kind == "assault":
            self.pending = None
            i, j = info["unit"], info["target"]
            if move == "win":
                sq = self.units[j]["sq"]
                self.kill(j)
                if self.winner is None:
                    self.advance = (i, sq)
            elif move == "loss":
                self.kill(i)
        elif kind == "rally":
            if move == "pass":
                self.units[info["unit"]]["status"] -= 1
            self.rally_from(info["unit"] + 1)



MARKER_KINDS = {"barrage-stock": "stock", "cas-stock": "stock", "none": "spent"}


def from_dict(d) -> State:
    """A model state from the engine's structured state (RULES.md, Structured
    state), for hand-built position tests that check engine and model alike.
    Data translation only; a pending chance node is not supported."""
    if d["pending"]["kind"] != "none" or d["phase"] == "advance":
        raise ValueError("from_dict: only positions without a pending chance node or advance")
    m = State(d["scenario"], d["turns"])
    m.turn = d["turn"]
    m.drawn = {("GB".index(c[0]), c[1]) for c in d["drawn"]}
    m.card = ("GB".index(d["card"][0]), d["card"][1]) if d["card"] else None
    m.winner = {"german": 0, "british": 1}.get(d["winner"])
    for u in d["units"]:
        mu = m.units[u["slot"]]
        mu.update(sq=data.parse_square(u["square"]) if u["square"] else None,
                  status=("normal", "pinned", "suppressed").index(u["status"]),
                  spotted=u["spotted"], moved=u["moved"], fired=u["fired"], acted=u["acted"],
                  stuck=u["stuck"])
        if mu["t"]["tank"]:
            mu.update(facing="nesw".index(u["facing"]), damaged=u["damaged"], main_out=u["main_out"],
                      sec_out=u["secondary_out"], immob=u["immobilised"], main_fired=u["main_fired"],
                      sec_fired=u["secondary_fired"])
    for mk in d["markers"]:
        mm = m.markers[mk["slot"]]
        mm.update(kind=MARKER_KINDS.get(mk["kind"], mk["kind"]), armed=mk["armed"],
                  sq=data.parse_square(mk["square"]) if mk["square"] else None)
    return m


def new_model(game) -> State:
    """A fresh model state with the parameters of the ardsearch game `game`."""
    return State(game.params["scenario"], game.params["turns"])


def random_playout(game, rng) -> int:
    """One random game with the parameters of the ardsearch game `game` (bench/)."""
    from reference import play_random
    m = new_model(game)
    return play_random(m, m.current_player, m.chances, m.legal, rng)
