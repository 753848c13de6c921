"""A plain Python model of Micro Armour: The Game - WWII (issue one), written
from the rules (shared/games/microarmour.md and ardsearch/games/microarmour/
RULES.md) and not from the engine, for differential tests.

It speaks only notation: legal() gives the legal moves as strings, chances()
the outcomes as {notation: Fraction}, apply() takes a string, to_dict() gives
the structured state in the engine's schema (RULES.md) so the two can be
compared field by field. It reads the game's data files with the package's
TOML loader (data, not rules). Slow and simple on purpose.
"""
from __future__ import annotations

import copy
import functools
import math
from fractions import Fraction

from ardsearch.games.microarmour import _data
from reference.microarmour_artillery import ArtilleryMixin, load as load_scenario

CHARTS = _data.load_charts()
WEAPONS = _data.load_weapons()
SC = _data.load_scenario("introductory", CHARTS, WEAPONS)
SIDES = tuple(s["key"] for s in SC["sides"])
DIRS = _data.DIRS
VEC = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1),
       "w": (-1, 0), "nw": (-1, 1)}
TERRAIN = CHARTS["terrain"]
VILLAGE = next(i for i, t in enumerate(TERRAIN) if t["name"] == "buildings")
CLASS = "WTFA"
CARD_VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] * 4 + [10] * 12   # ace..10, J Q K count 10
CRT_RESULTS = ["-", "S", "(S)", "D", "E"]
ORDER_OF_PHASES = ["initiative", "lead", "posture", "fire", "orders", "movement", "recovery", "over"]


def two_d6():
    return {a + b: Fraction(sum(1 for x in range(1, 7) for y in range(1, 7) if x + y == a + b), 36)
            for a in range(1, 7) for b in range(1, 7)}


D2 = two_d6()


@functools.lru_cache(maxsize=None)
def crossed(ax, ay, bx, by):
    """The squares strictly between two squares that the centre-to-centre
    segment passes through (exact, with fractions): between consecutive
    grid-line crossings the segment lies in one square; where it crosses a
    corner exactly, the two squares beside the corner count too (ambiguous
    LOS favours the defender)."""
    x0, y0 = Fraction(2 * ax + 1, 2), Fraction(2 * ay + 1, 2)
    dx, dy = bx - ax, by - ay
    ts = {Fraction(0), Fraction(1)}
    xs_cross, ys_cross = set(), set()
    for k in range(min(ax, bx) + 1, max(ax, bx) + 1):
        t = (k - x0) / dx
        ts.add(t)
        xs_cross.add(t)
    for k in range(min(ay, by) + 1, max(ay, by) + 1):
        t = (k - y0) / dy
        ts.add(t)
        ys_cross.add(t)
    ts = sorted(ts)
    cells = set()
    for lo, hi in zip(ts, ts[1:]):
        mid = (lo + hi) / 2
        cells.add((math.floor(x0 + mid * dx), math.floor(y0 + mid * dy)))
    for t in xs_cross & ys_cross:
        cx, cy = x0 + t * dx, y0 + t * dy          # a grid corner
        sx, sy = (1 if dx > 0 else -1), (1 if dy > 0 else -1)
        bx0, by0 = int(cx) - (1 if sx > 0 else 0), int(cy) - (1 if sy > 0 else 0)
        cells.add((bx0 + sx, by0))
        cells.add((bx0, by0 + sy))
    cells.discard((ax, ay))
    cells.discard((bx, by))
    return tuple(sorted(cells))


def stand_list():
    out = []
    for p in range(2):
        for st in SC["stands"][p]:
            out.append({"id": st["id"], "side": p, "w": WEAPONS[st["type"]], "x": st["x"], "y": st["y"],
                        "facing": DIRS[st["facing"]]})
    return out


class Ref(ArtilleryMixin):
    SC = SC
    SIDES = SIDES

    def __init__(self, turns=None, determination=35, cohesion=None, quality=None, deployment="edges",
                 hot_shot=False, low_ammo=False, scenario="introductory"):
        self.turns = turns or SC["turns"]
        self.det = determination
        self.coh = list(cohesion or [SC["sides"][0]["cohesion"], SC["sides"][1]["cohesion"]])
        self.qual = list(quality or [SC["sides"][0]["quality"], SC["sides"][1]["quality"]])
        self.stands = []
        for s in stand_list():
            x = s["x"] + (9 if deployment == "close" and s["side"] == 0 else 0) \
                - (9 if deployment == "close" and s["side"] == 1 else 0)
            self.stands.append({"id": s["id"], "side": s["side"], "w": s["w"], "x": x, "y": s["y"],
                                "facing": s["facing"], "alive": True, "S": False, "D": False,
                                "fired": False, "moved": False, "indep": False, "ofsuf": False,
                                "wreck": False, "posture": "firing", "mp": 0, "steps": 0,
                                "low": False, "shot_by": set()})
        self.by_id = {s["id"]: s for s in self.stands}
        self.turn = 1
        self.phase = "initiative"
        self.init_side = 0
        self.first = 0
        self.active = 0
        self.passed = [False, False]
        self.orders_rolled = 0
        self.orders = [0, 0]
        self.attack = None          # dict: side kind target firers(list of ids) step current hit
        self.mover = None           # dict: id step ordered stopped of_firers
        self.rec_next = None
        self.cards = [{"drawn": 0, "checked": 0, "pending": 0, "due": False, "broken": False,
                       "hand": []} for _ in range(2)]
        self.winner = None
        self.hot_shot = hot_shot
        self.low_ammo = low_ammo
        self.ghq = [next(s["id"] for s in self.stands if s["side"] == p and s["w"]["role"] == "ghq")
                    for p in range(2)]
        self.replace_due = [False, False]
        sc = load_scenario(scenario)
        sc["name"] = scenario
        self.title = sc["title"]
        self.art_init(sc)

    # ------------------------------------------------------------ geometry
    def live(self, side=None):
        return [s for s in self.stands if s["alive"] and (side is None or s["side"] == side)]

    def at(self, x, y, skip=None):
        for s in self.stands:
            if s["alive"] and s is not skip and (s["x"], s["y"]) == (x, y):
                return s
        return None

    def wrecks(self, x, y):
        return sum(1 for s in self.stands if s["wreck"] and (s["x"], s["y"]) == (x, y))

    def ter(self, x, y):
        return TERRAIN[SC["grid"][y][x]]

    def tmods(self, x, y):
        t = self.ter(x, y)
        coh, crt = t["cohesion"], t["crt"]
        w = self.wrecks(x, y)
        if w == 1:
            coh += CHARTS["wreck"]["one_cohesion"]
            crt += CHARTS["wreck"]["one_crt"]
        elif w >= 2:
            coh += CHARTS["wreck"]["two_cohesion"]
            crt += CHARTS["wreck"]["two_crt"]
        return coh, crt

    def cost(self, s, x, y):
        c = CLASS.index(s["w"]["move"])
        base = self.ter(x, y)["cost"][c]
        if base == 0:
            return 0
        w = self.wrecks(x, y)
        if w == 1:
            return max(base, CHARTS["wreck"]["one_cost"][c])
        if w >= 2:
            return max(base, CHARTS["wreck"]["two_cost"][c])
        return base

    @staticmethod
    def dist(a, b):
        return max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]))

    def blocking(self, x, y, personnel_target):
        if self.ter(x, y)["blocks_los"] or self.under_marker(x, y):
            return True
        o = self.at(x, y)
        return o is not None and (o["w"]["defence"] != "P" or personnel_target)

    def los(self, a, b):
        return self.los_xy(a["x"], a["y"], b["x"], b["y"], b["w"]["defence"] == "P")

    def los_xy(self, ax, ay, bx, by, pers):
        return not any(self.blocking(cx, cy, pers) for cx, cy in crossed(ax, ay, bx, by))

    # ------------------------------------------------------------ fire
    def arc_front(self, firer, target):
        ang = math.degrees(math.atan2(firer["x"] - target["x"], firer["y"] - target["y"])) % 360
        face = DIRS.index(target["facing"]) * 45
        diff = min((ang - face) % 360, (face - ang) % 360)
        return diff < 67.5

    CLOSE = ("assault_defence", "assault", "overrun_fire")

    def defence(self, f, t, kind="standard"):
        dv = t["w"]["dv"]
        if t["w"]["defence"] == "A" and (kind in self.CLOSE or not self.arc_front(f, t)):
            dv = math.ceil(dv / 2)
        if t["w"]["defence"] == "P" and t["posture"] != "firing":
            dv = math.ceil(dv / 2)
        return dv

    def cd(self, f, t, kind="standard"):
        fp = f["w"]["ap"] if t["w"]["defence"] == "A" else f["w"]["he"]
        if kind == "assault" and f["w"]["cavalry"] and t["w"]["defence"] != "A":
            fp *= 2
        return fp - self.defence(f, t, kind)

    def range_mod(self, d):
        for top, mod in CHARTS["range"]:
            if d <= top:
                return mod
        top, mod = CHARTS["range"][-1]
        return mod + math.ceil((d - top) / 5)

    def may_fire(self, f, t, kind):
        if not f["alive"] or not t["alive"] or f["side"] == t["side"] or f["fired"]:
            return False
        if f["low"] and t["id"] not in f["shot_by"]:
            return False          # low on ammunition: only back at stands that fired at it
        if kind == "overrun_fire":
            return (self.mover is not None and f["id"] == self.mover.get("target") and t["id"] == self.mover["id"]
                    and f["posture"] != "move" and self.cd(f, t, kind) >= CHARTS["crt"]["min_cd"])
        if kind == "covering" and f["posture"] != "firing":
            return False
        if kind != "covering" and f["posture"] == "move":
            return False
        d = self.dist(f, t)
        if d > f["w"]["range"] or d > SC["sighting"]:
            return False
        if self.cd(f, t) < CHARTS["crt"]["min_cd"]:
            return False
        touching = [e for e in self.live(1 - f["side"]) if abs(e["x"] - f["x"]) + abs(e["y"] - f["y"]) == 1]
        if touching and t not in touching:
            return False          # engaged along a base edge: only the enemies it touches
        return self.los(f, t)

    def sd_mod(self, s):
        return (4 if s["S"] else 0) + (3 if s["D"] else 0)

    def p_ok(self, coh, mod):
        return Fraction(max(0, min(20, coh - mod)), 20)

    def tofire_mod(self, f, t, kind):
        if kind in ("assault_defence", "assault"):
            return self.sd_mod(f)
        m = self.sd_mod(f) + (3 if f["posture"] == "firemove" else 0) + (3 if kind == "covering" else 0)
        m += 3 * self.under_marker(f["x"], f["y"]) + 3 * self.under_marker(t["x"], t["y"])  # smoke / impact
        if not t["fired"] and self.dist(f, t) > 1:
            m += self.tmods(t["x"], t["y"])[0]
        return m

    def crt_dist(self, f, t, kind="standard", hot=False):
        c = CHARTS["crt"]
        cd = min(self.cd(f, t, kind), c["max_cd"])
        if hot:
            cd = min(cd + 2, c["max_cd"])
        if kind in ("assault_defence", "assault"):
            mod = -3 - (3 if f["w"]["engineer"] else 0)
        elif kind == "overrun_fire":
            mod = self.range_mod(0) + self.tmods(t["x"], t["y"])[1]
        else:
            mod = self.range_mod(self.dist(f, t)) + self.tmods(t["x"], t["y"])[1]
        return self.column(cd, mod)

    @staticmethod
    def column(cd, mod):
        c = CHARTS["crt"]
        cd = min(cd, c["max_cd"])
        out = {}
        for roll, p in D2.items():
            r = roll + mod
            res = "E" if r <= cd + c["e"] else "D" if r <= cd + c["d"] else "(S)" if r <= cd + c["ss"] \
                else "S" if r <= cd + c["s"] else "-"
            out[res] = out.get(res, 0) + p
        return out

    def hit(self, t, res):
        if res == "E":
            self.kill(t)
        elif res == "D" or (res == "(S)" and t["S"]):
            if t["D"]:
                self.kill(t)
            else:
                t["D"] = True
        elif res in ("S", "(S)"):
            t["S"] = True

    def kill(self, s):
        s["alive"] = False
        if self.ghq[s["side"]] == s["id"]:
            self.ghq[s["side"]] = None
        s["S"] = s["D"] = False
        if s["w"]["defence"] == "A":
            s["wreck"] = True
        self.cards[s["side"]]["pending"] += {"ghq": 3, "hq": 2}.get(s["w"]["role"], 1)

    def bp_units(self, p):
        n = 0
        for s in self.stands:
            if s["side"] == p:
                n += {"ghq": 3, "hq": 2}.get(s["w"]["role"], 1 if s["w"]["ap"] + s["w"]["he"] else 0)
        return n

    def broken_by(self, p, total):
        return Fraction(total) > Fraction(self.bp_units(p) * self.det * 7, 100)

    # ------------------------------------------------------------ whose node
    def node(self):
        if self.phase == "over":
            return "over"
        for p in range(2):
            if self.cards[p]["pending"]:
                return ("card", p)
        for p in range(2):
            if self.cards[p]["due"]:
                return ("brk", p)
        if self.attack and self.attack["step"] in ("tofire", "crt"):
            return self.attack["step"]
        if self.attack:
            return "declare"
        if self.phase == "movement" and self.mover:
            return "mv_" + self.mover["step"]
        if self.phase == "artillery":
            return "artillery"
        if self.phase == "recovery" and self.rec_next is None:
            return "replace"
        return self.phase

    def current(self):
        n = self.node()
        if n == "over":
            return "terminal"
        if isinstance(n, tuple) or n in ("tofire", "crt", "initiative", "orders", "mv_roll", "mv_stopcheck",
                                         "recovery", "replace", "mv_passcheck", "mv_overrun_defender_roll",
                                         "mv_overrun_hit", "mv_overrun_roll", "mv_overrun_counter",
                                         "artillery", "mv_artillery"):
            return "chance"
        if n == "plot":
            return SIDES[self.cur_bat()["side"]]
        if n == "declare":
            return SIDES[self.attack["side"]]
        if n == "lead":
            return SIDES[self.init_side]
        return SIDES[self.active]

    def player(self):
        """current() with the sides numbered 0 and 1 (bench/reference_openspiel.py)."""
        who = self.current()
        return who if who in ("chance", "terminal") else SIDES.index(who)

    # ------------------------------------------------------------ legal moves
    def enemies(self, p):
        return [s for s in self.stands if s["side"] != p]

    def legal(self):
        n = self.node()
        p = self.active
        if n == "plot":
            return self.plot_legal()
        if n == "lead":
            return ["lead", "follow"]
        if n == "posture":
            out = ["pass"]
            for s in self.live(p):
                if s["posture"] == "firing" and s["w"]["mp"] > 0:
                    out += [f"posture {s['id']} move", f"posture {s['id']} firemove"]
            return out
        if n == "fire":
            return [f"fire {f['id']}>{t['id']}" for f in self.live(p) for t in self.enemies(p)
                    if self.may_fire(f, t, "standard")] + ["pass"]
        if n == "declare":
            a = self.attack
            t = self.by_id[a["target"]]
            return [f"fire {f['id']}>{t['id']}" for f in self.live(a["side"])
                    if f["id"] not in a["firers"] and self.may_fire(f, t, a["kind"])] + ["go"]
        if n == "mv_opportunity":
            m = self.by_id[self.mover["id"]]
            return [f"fire {f['id']}>{m['id']}" for f in self.live(p) if self.may_fire(f, m, "opportunity")] + ["pass"]
        if n == "mv_covering":
            targets = [self.by_id[i] for i in self.mover["of_firers"]]
            return [f"fire {f['id']}>{t['id']}" for f in self.live(p) for t in targets
                    if self.may_fire(f, t, "covering")] + ["pass"]
        if n == "movement":
            out = ["pass"]
            ghq = self.ghq[p] is not None and self.by_id[self.ghq[p]]["alive"]
            cands = [s for s in self.live(p) if s["posture"] != "firing" and not s["moved"] and s["w"]["mp"] > 0]
            if self.orders[p] > 0 and ghq:
                out += [f"order {s['id']}" for s in cands]
            out += [f"indep {s['id']}" for s in cands if not s["indep"]]
            return out
        if n == "mv_step":
            m = self.by_id[self.mover["id"]]
            out = [f"step {d}" for d in DIRS if self.step_cost(m, d) is not None]
            if self.at(m["x"], m["y"], skip=m) is None:
                out += [f"stop {d}" for d in DIRS]
            out += [f"assault {t['id']}" for t in self.live(1 - m["side"]) if self.may_assault(m, t)]
            out += [f"overrun {t['id']}" for t in self.live(1 - m["side"]) if self.overrun_cost(m, t) is not None]
            return out
        if n == "mv_retreat":
            return [f"retreat {d}" for d in DIRS if self.retreat_ok(d)]
        if n == "mv_overrun_fire":
            t = self.by_id[self.mover["target"]]
            m = self.by_id[self.mover["id"]]
            return ([f"fire {t['id']}>{m['id']}"] if self.may_fire(t, m, "overrun_fire") else []) + ["pass"]
        return []

    def may_assault(self, m, t):
        return (m["w"]["defence"] == "P" and m["posture"] == "move" and m["mp"] > 0 and self.dist(m, t) == 1
                and self.at(m["x"], m["y"], skip=m) is None and self.cd(m, t, "assault") >= CHARTS["crt"]["min_cd"])

    def overrun_cost(self, m, t):
        if (m["w"]["defence"] != "A" or t["w"]["defence"] == "A" or self.dist(m, t) != 1
                or self.at(m["x"], m["y"], skip=m) is not None or self.ter(t["x"], t["y"])["blocks_los"]):
            return None
        c = self.cost(m, t["x"], t["y"])
        if c == 0 or m["mp"] == 0:
            return None
        if c > m["mp"]:
            if m["steps"] > 0:
                return None
            c = m["mp"]
        return c

    def retreat_ok(self, d):
        t = self.by_id[self.mover["target"]]
        a = self.by_id[self.mover["id"]]
        x, y = t["x"] + VEC[d][0], t["y"] + VEC[d][1]
        if not (0 <= x < SC["width"] and 0 <= y < SC["height"]) or self.cost(t, x, y) == 0:
            return False
        if self.at(x, y, skip=t) is not None:
            return False
        return max(abs(x - a["x"]), abs(y - a["y"])) > self.dist(t, a)

    def step_cost(self, m, d):
        x, y = m["x"] + VEC[d][0], m["y"] + VEC[d][1]
        if not (0 <= x < SC["width"] and 0 <= y < SC["height"]):
            return None
        c = self.cost(m, x, y)
        if c == 0:
            return None
        if c > m["mp"]:
            if m["steps"] > 0 or m["mp"] == 0:
                return None
            c = m["mp"]
        o = self.at(x, y, skip=m)
        if o is not None:
            if o["side"] != m["side"] and not (m["w"]["defence"] == "A" and o["w"]["defence"] == "A"
                                               and self.at(m["x"], m["y"], skip=m) is None):
                return None
            left = m["mp"] - c
            for e in DIRS:
                ex, ey = x + VEC[e][0], y + VEC[e][1]
                if 0 <= ex < SC["width"] and 0 <= ey < SC["height"] and self.at(ex, ey, skip=m) is None:
                    ce = self.cost(m, ex, ey)
                    if 0 < ce <= left:
                        return c
            return None
        return c

    # ------------------------------------------------------------ chance
    def chances(self):
        n = self.node()
        if n in ("artillery", "mv_artillery"):
            return self.art_chances(n)
        if isinstance(n, tuple) and n[0] == "card":
            hand = self.cards[n[1]]["hand"]
            deck = list(CARD_VALUES)
            for v in hand:
                deck.remove(v)
            return {f"card:{v}": Fraction(deck.count(v), len(deck)) for v in sorted(set(deck))}
        if isinstance(n, tuple) and n[0] == "brk":
            p = n[1]
            return {"brk:yes" if self.broken_by(p, sum(self.cards[p]["hand"])) else "brk:no": Fraction(1)}
        if n == "tofire":
            a = self.attack
            f = self.by_id[a["firers"][a["current"]]]
            mod = self.tofire_mod(f, self.by_id[a["target"]], a["kind"])
            if not self.hot_shot and not self.low_ammo:
                return self.okfail(self.p_ok(self.coh[a["side"]], mod))
            out = {}
            for r in range(1, 21):
                passed = r + mod <= self.coh[a["side"]]
                if r == 20 and self.low_ammo:
                    key = "c:n20"         # natural 20: fails, low on ammunition
                elif r == 1 and self.hot_shot and passed:
                    key = "c:n1"
                else:
                    key = "c:ok" if passed else "c:fail"
                out[key] = out.get(key, 0) + Fraction(1, 20)
            return out
        if n == "crt":
            a = self.attack
            d = self.crt_dist(self.by_id[a["firers"][a["current"]]], self.by_id[a["target"]], a["kind"], a["hot"])
            return {f"crt:{r}": p for r, p in d.items() if p > 0}
        if n == "mv_passcheck":
            m = self.by_id[self.mover["id"]]
            return self.okfail(self.p_ok(self.coh[m["side"]], self.sd_mod(m) + 3))
        if n == "mv_overrun_defender_roll":
            t = self.by_id[self.mover["target"]]
            return self.okfail(self.p_ok(self.coh[t["side"]], self.sd_mod(t)))
        if n == "mv_overrun_hit":
            return {f"crt:{r}": p for r, p in self.column(5, 0).items() if p > 0}
        if n == "mv_overrun_roll":
            m, t = self.by_id[self.mover["id"]], self.by_id[self.mover["target"]]
            extra = 3 if t["w"]["defence"] == "P" and t["w"]["ap"] >= 2 else 0
            return self.okfail(self.p_ok(self.coh[m["side"]], self.sd_mod(m) + extra))
        if n == "mv_overrun_counter":
            t = self.by_id[self.mover["target"]]
            return {f"crt:{r}": p for r, p in self.column(3 if t["w"]["ap"] >= 5 else 2, 0).items() if p > 0}
        if n == "replace":
            p = 0 if self.replace_due[0] else 1
            hq = next(s for s in self.live(p) if s["w"]["role"] == "hq")
            return self.okfail(self.p_ok(self.coh[p], SC["sides"][p]["replace_mod"] + self.sd_mod(hq)))
        if n == "initiative":
            g = s = 0
            for a in range(1, 7):
                for b in range(1, 7):
                    if a + self.coh[0] > b + self.coh[1]:
                        g += 1
                    elif a + self.coh[0] < b + self.coh[1]:
                        s += 1
            out = {}
            if g:
                out["init:G"] = Fraction(g, g + s)
            if s:
                out["init:S"] = Fraction(s, g + s)
            return out
        if n == "orders":
            side = self.first if self.orders_rolled == 0 else 1 - self.first
            out = {}
            for roll, p in D2.items():
                k = self.orders_table(roll + self.qual[side])
                out[f"orders:{k}"] = out.get(f"orders:{k}", 0) + p
            return out
        if n == "mv_roll":
            m = self.by_id[self.mover["id"]]
            mod = self.sd_mod(m) + (0 if self.mover["ordered"] or m["w"]["recon"] else 3) \
                - (2 if m["w"]["role"] != "unit" else 0)
            return self.okfail(self.p_ok(self.coh[m["side"]], mod))
        if n == "mv_stopcheck":
            m = self.by_id[self.mover["id"]]
            return self.okfail(self.p_ok(self.coh[m["side"]], self.sd_mod(m)))
        if n == "recovery":
            s = self.by_id[self.rec_next]
            mod = self.sd_mod(s)
            if any(h is not s and h["w"]["role"] != "unit" and not h["S"] and self.dist(h, s) <= 1
                   for h in self.live(s["side"])):
                mod -= 1
            ok = sum(1 for r in range(2, 20) if r + mod <= self.coh[s["side"]])
            out = {"c:n1": Fraction(1, 20), "c:n20": Fraction(1, 20)}
            if ok:
                out["c:ok"] = Fraction(ok, 20)
            if ok < 18:
                out["c:fail"] = Fraction(18 - ok, 20)
            return out
        return {}

    @staticmethod
    def okfail(p):
        out = {}
        if p > 0:
            out["c:ok"] = p
        if p < 1:
            out["c:fail"] = 1 - p
        return out

    @staticmethod
    def orders_table(r):
        for top, k in zip(CHARTS["orders_at"], CHARTS["orders_n"]):
            if r <= top:
                return k
        return CHARTS["orders_max"]

    # ------------------------------------------------------------ apply
    def apply(self, move):
        n = self.node()
        if n == "over":
            raise ValueError("game over")
        if self.current() == "chance":
            assert move in self.chances(), (move, self.chances())
            return self.apply_chance(n, move)
        assert move in self.legal(), (move, self.legal())
        if n == "plot":
            return self.plot_apply(move)
        p = self.active
        if n == "lead":
            self.first = self.init_side if move == "lead" else 1 - self.init_side
            self.phase, self.active, self.passed = "posture", self.first, [False, False]
            return
        if move == "pass":
            if n == "mv_overrun_fire":
                self.mover["step"] = "overrun_defender_roll"
            elif n == "mv_opportunity":
                self.mover["step"] = "step"
                self.active = self.by_id[self.mover["id"]]["side"]
            elif n == "mv_covering":
                self.resume_mover()
            else:
                self.passed[p] = True
                if all(self.passed):
                    self.next_phase()
                else:
                    self.active = 1 - p
            return
        if move == "go":
            a = self.attack
            if a["kind"] == "opportunity":
                self.mover["of_firers"] = list(a["firers"])
                self.by_id[self.mover["id"]]["ofsuf"] = True
            a["firers"].sort(key=lambda i: self.stands.index(self.by_id[i]))
            a["current"] = 0
            self.next_firer()
            return
        word, _, rest = move.partition(" ")
        if word == "fire":
            fid, tid = rest.split(">")
            if self.attack is None:
                kind = {"fire": "standard", "mv_opportunity": "opportunity", "mv_covering": "covering",
                        "mv_overrun_fire": "overrun_fire"}[n]
                self.attack = {"side": p, "kind": kind, "target": tid, "firers": [], "step": "declare",
                               "current": 0, "hit": 0, "hot": False}
            self.attack["firers"].append(fid)
            return
        if word == "posture":
            sid, post = rest.split()
            self.by_id[sid]["posture"] = post
            self.alternate()
            return
        if word in ("order", "indep"):
            s = self.by_id[rest]
            if word == "order":
                self.orders[p] -= 1
            else:
                self.orders[p] = 0
                s["indep"] = True
            self.mover = {"id": rest, "step": "roll", "ordered": word == "order", "stopped": False,
                          "of_firers": [], "target": None, "dir": "n"}
            return
        m = self.by_id[self.mover["id"]]
        if word == "step":
            o = self.at(m["x"] + VEC[rest][0], m["y"] + VEC[rest][1], skip=m)
            if o is not None and o["side"] != m["side"]:
                self.mover["step"] = "passcheck"
                self.mover["dir"] = rest
                return
            self.step(m, rest)
            return
        if word == "stop":
            m["facing"] = rest
            self.end_move()
            return
        if word == "retreat":
            t = self.by_id[self.mover["target"]]
            t["x"] += VEC[rest][0]
            t["y"] += VEC[rest][1]
            self.close_done()
            return
        if word in ("assault", "overrun"):
            t = self.by_id[rest]
            self.mover["target"] = rest
            t["moved"] = True                     # pinned
            if word == "assault":
                self.mover["step"] = "close"
                if t["posture"] == "firing" and self.cd(t, m, "assault_defence") >= CHARTS["crt"]["min_cd"]:
                    self.start(t["side"], "assault_defence", t, m)
                else:
                    self.start(m["side"], "assault", m, t)
                return
            m["mp"] -= self.overrun_cost(m, t)
            if self.may_fire(t, m, "overrun_fire"):
                self.mover["step"] = "overrun_fire"
                self.active = t["side"]
            else:
                self.mover["step"] = "overrun_defender_roll"
            return
        raise ValueError(move)

    def start(self, side, kind, firer, target):
        self.attack = {"side": side, "kind": kind, "target": target["id"], "firers": [firer["id"]],
                       "step": "declare", "current": 0, "hit": 0, "hot": False}
        self.next_firer()

    def close_done(self):
        self.mover["target"] = None
        self.end_move()

    def step(self, m, rest):
        """One inch; opportunity fire may follow where the mover could halt."""
        m["mp"] -= self.step_cost(m, rest)
        m["x"] += VEC[rest][0]
        m["y"] += VEC[rest][1]
        m["facing"] = rest
        m["steps"] += 1
        self.mover["step"] = "step"
        if self.move_hits(0):          # impact markers on the new square attack it first
            return
        self.after_step_fire(m)

    def after_step_fire(self, m):
        foe = 1 - m["side"]
        if (not m["ofsuf"] and self.at(m["x"], m["y"], skip=m) is None
                and any(self.may_fire(f, m, "opportunity") for f in self.live(foe))):
            self.mover["step"] = "opportunity"
            self.active = foe

    def apply_chance(self, n, move):
        if n in ("artillery", "mv_artillery"):
            return self.art_apply_chance(n, move)
        if isinstance(n, tuple):
            kind, p = n
            c = self.cards[p]
            if kind == "card":
                c["hand"].append(int(move.split(":")[1]))
                c["drawn"] += 1
                c["pending"] -= 1
                if c["pending"] == 0:
                    c["due"] = True
            else:
                c["due"] = False
                if move == "brk:yes":
                    c["broken"] = True
                    self.phase = "over"
                    self.winner = 1 - p
                else:
                    c["checked"] = c["drawn"]
            return
        if n == "tofire":
            a = self.attack
            f = self.by_id[a["firers"][a["current"]]]
            if a["kind"] not in ("assault_defence", "assault"):
                f["fired"] = True
                self.by_id[a["target"]]["shot_by"].add(f["id"])
            if move == "c:n20":
                f["low"] = True
            if move in ("c:ok", "c:n1"):
                a["step"] = "crt"
                a["hot"] = move == "c:n1"
            else:
                a["current"] += 1
                self.next_firer()
            return
        if n == "crt":
            a = self.attack
            res = move.split(":")[1]
            t = self.by_id[a["target"]]
            if a["kind"] == "assault":
                if res == "D" or (res == "(S)" and t["S"]):
                    a["hit"] = 2
            elif res in ("S", "(S)", "D"):
                a["hit"] = 1
            self.hit(t, res)
            a["hot"] = False
            a["current"] += 1
            self.next_firer()
            return
        if n == "initiative":
            self.init_side = 0 if move == "init:G" else 1
            self.phase = "lead"
            return
        if n == "orders":
            side = self.first if self.orders_rolled == 0 else 1 - self.first
            self.orders[side] = int(move.split(":")[1])
            self.orders_rolled += 1
            self.orders_without_ghq()
            return
        if n == "mv_roll":
            m = self.by_id[self.mover["id"]]
            if move == "c:ok":
                self.mover["step"] = "step"
                m["steps"] = 0
                m["mp"] = 2 * m["w"]["mp"] if m["posture"] == "move" else 2 * (m["w"]["mp"] // 2)
            else:
                self.mover = None
                self.active = m["side"]
                self.alternate()
            return
        if n == "mv_passcheck":
            m = self.by_id[self.mover["id"]]
            if move == "c:ok":
                self.step(m, self.mover["dir"])
            else:
                self.end_move()
            return
        if n == "mv_overrun_defender_roll":
            self.mover["step"] = "overrun_roll" if move == "c:ok" else "overrun_hit"
            return
        if n == "mv_overrun_hit":
            t = self.by_id[self.mover["target"]]
            self.hit(t, move.split(":")[1])
            if t["alive"]:
                self.mover["step"] = "overrun_roll"
            else:
                self.close_done()
            return
        if n == "mv_overrun_roll":
            if move == "c:ok":
                self.close_done()
            else:
                self.mover["step"] = "overrun_counter"
            return
        if n == "mv_overrun_counter":
            self.hit(self.by_id[self.mover["id"]], move.split(":")[1])
            self.close_done()
            return
        if n == "replace":
            p = 0 if self.replace_due[0] else 1
            self.replace_due[p] = False
            if move == "c:ok":
                self.ghq[p] = next(s for s in self.live(p) if s["w"]["role"] == "hq")["id"]
            if not any(self.replace_due):
                self.end_of_turn()
            return
        if n == "mv_stopcheck":
            if move != "c:ok":
                self.mover["stopped"] = True
            self.after_opportunity()
            return
        if n == "recovery":
            s = self.by_id[self.rec_next]
            if move == "c:n1":
                s["S"] = s["D"] = False
            elif move == "c:ok":
                s["S"] = False
            elif move == "c:n20":
                self.hit(s, "(S)")
            self.next_recovery(self.stands.index(s) + 1)

    # ------------------------------------------------------------ flow
    def alternate(self):
        q = 1 - self.active
        if not self.passed[q]:
            self.active = q
        elif self.passed[self.active]:
            self.next_phase()

    def next_firer(self):
        a = self.attack
        t = self.by_id[a["target"]]
        while t["alive"] and a["current"] < len(a["firers"]):
            if self.by_id[a["firers"][a["current"]]]["alive"]:
                a["step"] = "tofire"
                return
            a["current"] += 1
        kind, hit = a["kind"], a["hit"]
        self.attack = None
        if kind == "standard":
            self.alternate()
        elif kind in self.CLOSE:
            self.finish_close(kind, hit)
        elif not self.by_id[self.mover["id"]]["alive"]:
            self.end_move()
        elif kind == "opportunity":
            if hit:
                self.mover["step"] = "stopcheck"
            else:
                self.after_opportunity()
        else:
            self.resume_mover()

    def finish_close(self, kind, hit):
        m, t = self.by_id[self.mover["id"]], self.by_id[self.mover["target"]]
        if kind == "assault_defence":
            if m["alive"] and t["alive"]:
                self.start(m["side"], "assault", m, t)
            else:
                self.close_done()
        elif kind == "assault":
            if hit == 2 and t["alive"] and m["alive"]:
                if any(self.retreat_ok(d) for d in DIRS):
                    self.mover["step"] = "retreat"
                    self.active = t["side"]
                    return
                self.kill(t)
            self.close_done()
        else:
            if m["alive"] and t["alive"]:
                self.mover["step"] = "overrun_defender_roll"
            else:
                self.close_done()

    def after_opportunity(self):
        m = self.by_id[self.mover["id"]]
        targets = [self.by_id[i] for i in self.mover["of_firers"]]
        if any(self.may_fire(f, t, "covering") for f in self.live(m["side"]) for t in targets):
            self.mover["step"] = "covering"
            self.active = m["side"]
        else:
            self.resume_mover()

    def resume_mover(self):
        if self.mover["stopped"]:
            self.end_move()
        else:
            self.mover["step"] = "step"
            self.active = self.by_id[self.mover["id"]]["side"]

    def end_move(self):
        m = self.by_id[self.mover["id"]]
        if m["alive"]:
            m["moved"] = True
            m["mp"] = 0
        self.mover = None
        self.active = m["side"]
        self.alternate()

    def next_phase(self):
        self.passed = [False, False]
        self.active = self.first
        if self.phase == "posture":
            self.phase = "fire"
            if self.bats:
                self.art_start()
        elif self.phase == "fire":
            if self.bats:
                return self.plot_start()
            self.phase = "orders"
            self.orders_rolled = 0
            self.orders_without_ghq()
        elif self.phase == "movement":
            self.phase = "recovery"
            self.next_recovery(0)

    def orders_without_ghq(self):
        while self.phase == "orders":
            if self.orders_rolled >= 2:
                self.phase = "movement"
                self.active, self.passed = self.first, [False, False]
                for s in self.stands:
                    s["ofsuf"] = False
                return
            side = self.first if self.orders_rolled == 0 else 1 - self.first
            if self.ghq[side] is not None and self.by_id[self.ghq[side]]["alive"]:
                return
            self.orders[side] = 0
            self.orders_rolled += 1

    def next_recovery(self, start):
        for s in self.stands[start:]:
            if s["alive"] and (s["S"] or s["D"]):
                self.rec_next = s["id"]
                return
        self.rec_next = None
        for p in range(2):
            lost = self.ghq[p] is None or not self.by_id[self.ghq[p]]["alive"]
            self.replace_due[p] = (lost and self.coh[p] > 12
                                   and any(s["w"]["role"] == "hq" for s in self.live(p)))
        if not any(self.replace_due):
            self.end_of_turn()

    def end_of_turn(self):
        self.markers_age()
        if self.turn >= self.turns:
            held = [sum(1 for s in self.live(p) if SC["grid"][s["y"]][s["x"]] == VILLAGE) for p in range(2)]
            self.phase = "over"
            self.winner = 0 if held[0] > held[1] else 1 if held[1] > held[0] else "draw"
            return
        self.turn += 1
        self.phase = "initiative"
        self.passed = [False, False]
        self.orders_rolled = 0
        self.orders = [0, 0]
        for s in self.stands:
            s.update(fired=False, moved=False, indep=False, ofsuf=False, posture="firing", mp=0, steps=0,
                     shot_by=set())

    # ------------------------------------------------------------ results and schema
    def returns(self):
        if self.phase != "over" or self.winner == "draw" or self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def to_dict(self):
        stands = []
        for s in self.stands:
            stands.append({"id": s["id"], "side": SIDES[s["side"]], "type": s["w"]["key"],
                           "at": [s["x"], s["y"]], "facing": s["facing"], "posture": s["posture"],
                           "mp": s["mp"], "steps": s["steps"], "alive": s["alive"], "suppressed": s["S"],
                           "disorganized": s["D"], "fired": s["fired"], "moved": s["moved"],
                           "indep_tried": s["indep"], "opportunity_suffered": s["ofsuf"], "wreck": s["wreck"],
                           "low_ammo": s["low"],
                           "fired_at_by": [e["id"] for e in self.stands if e["id"] in s["shot_by"]]})
        attack = None
        if self.attack:
            a = self.attack
            order = sorted(a["firers"], key=lambda i: self.stands.index(self.by_id[i]))
            cur = 0
            if a["step"] in ("tofire", "crt"):
                cur = [s["id"] for s in self.stands if s["side"] == a["side"]].index(a["firers"][a["current"]])
            attack = {"side": SIDES[a["side"]], "kind": a["kind"], "target": a["target"], "firers": order,
                      "step": a["step"], "current": cur, "hit": a["hit"], "hot_shot": a["hot"]}
        mover = None
        if self.mover:
            mv = self.mover
            of = sorted(mv["of_firers"], key=lambda i: self.stands.index(self.by_id[i]))
            mover = {"id": mv["id"], "step": mv["step"], "ordered": mv["ordered"], "stopped": mv["stopped"],
                     "pass_dir": mv["dir"], "close_target": mv["target"], "opportunity_firers": of}
        cards = {}
        for p in range(2):
            c = self.cards[p]
            deck = [0] * 10
            for v in CARD_VALUES:
                deck[v - 1] += 1
            for v in c["hand"]:
                deck[v - 1] -= 1
            cards[SIDES[p]] = {"drawn": c["drawn"], "checked": c["checked"], "pending": c["pending"],
                               "break_check_due": c["due"], "broken": c["broken"], "total": sum(c["hand"]),
                               "deck": deck}
        winner = None
        if self.phase == "over":
            winner = "draw" if self.winner == "draw" else SIDES[self.winner]
        return {"game": "microarmour", "turns": self.turns, "determination": self.det,
                "cohesion": list(self.coh), "quality": list(self.qual), "viewer": None,
                "turn": self.turn, "phase": self.phase, "to_move": self.current(),
                "initiative": SIDES[self.init_side], "first": SIDES[self.first], "active": SIDES[self.active],
                "passed": list(self.passed), "orders_rolled": self.orders_rolled, "orders": list(self.orders),
                "attack": attack, "mover": mover, "recovery_next": self.rec_next,
                "replacement_due": list(self.replace_due), "ghq": list(self.ghq), "hot_shot": self.hot_shot,
                "low_ammo": self.low_ammo,
                "cards": cards,
                "winner": winner, "stands": stands,
                "scenario": self.scenario, "artillery": self.art_dict(),
                "table": {"title": self.title, "width": SC["width"], "height": SC["height"],
                          "rows": ["".join(TERRAIN[t]["char"] for t in SC["grid"][y])
                                   for y in range(SC["height"])],
                          "terrain": {t["char"]: t["name"] for t in TERRAIN}},
                "types": {s["w"]["key"]: {f: s["w"][f] for f in ("name", "ap", "he", "dv", "defence",
                                                                  "range", "mp", "role")}
                          for s in self.stands}}

    def clone(self):
        c = copy.copy(self)
        c.stands = copy.deepcopy(self.stands)
        c.by_id = {s["id"]: s for s in c.stands}
        c.attack = copy.deepcopy(self.attack)
        c.mover = copy.deepcopy(self.mover)
        c.cards = copy.deepcopy(self.cards)
        c.passed = list(self.passed)
        c.orders = list(self.orders)
        c.coh = list(self.coh)
        c.ghq = list(self.ghq)
        c.replace_due = list(self.replace_due)
        c.bats = copy.deepcopy(self.bats)
        c.art = dict(self.art)
        return c


def from_dict(d):
    """A Ref from the engine's structured state (a full state, not a view)."""
    r = Ref(turns=d["turns"], determination=d["determination"], cohesion=d["cohesion"], quality=d["quality"],
            hot_shot=d["hot_shot"], low_ammo=d["low_ammo"], scenario=d.get("scenario", "introductory"))
    r.ghq = list(d["ghq"])
    r.replace_due = list(d["replacement_due"])
    for sd in d["stands"]:
        s = r.by_id[sd["id"]]
        s.update(x=sd["at"][0], y=sd["at"][1], facing=sd["facing"], posture=sd["posture"], mp=sd["mp"],
                 steps=sd["steps"], alive=sd["alive"], S=sd["suppressed"], D=sd["disorganized"],
                 fired=sd["fired"], moved=sd["moved"], indep=sd["indep_tried"], ofsuf=sd["opportunity_suffered"],
                 wreck=sd["wreck"], low=sd["low_ammo"], shot_by=set(sd["fired_at_by"]))
    r.turn, r.phase = d["turn"], d["phase"]
    r.init_side, r.first, r.active = (SIDES.index(d[k]) for k in ("initiative", "first", "active"))
    r.passed, r.orders_rolled, r.orders = list(d["passed"]), d["orders_rolled"], list(d["orders"])
    if d["attack"]:
        a = d["attack"]
        side = SIDES.index(a["side"])
        firers = list(a["firers"])
        ids = [s["id"] for s in r.stands if s["side"] == side]
        cur = 0
        if a["step"] in ("tofire", "crt"):
            cur = firers.index(ids[a["current"]])
        r.attack = {"side": side, "kind": a["kind"], "target": a["target"], "firers": firers,
                    "step": a["step"], "current": cur, "hit": a["hit"], "hot": a["hot_shot"]}
    if d["mover"]:
        m = d["mover"]
        r.mover = {"id": m["id"], "step": m["step"], "ordered": m["ordered"], "stopped": m["stopped"],
                   "of_firers": list(m["opportunity_firers"]), "target": m["close_target"], "dir": m["pass_dir"]}
    r.rec_next = d["recovery_next"]
    for p, side in enumerate(SIDES):
        c = d["cards"][side]
        hand = []
        for v in range(10):
            full = sum(1 for x in CARD_VALUES if x == v + 1)
            hand += [v + 1] * (full - c["deck"][v])
        r.cards[p] = {"drawn": c["drawn"], "checked": c["checked"], "pending": c["pending"],
                      "due": c["break_check_due"], "broken": c["broken"], "hand": hand}
    if d["winner"] is not None:
        r.winner = "draw" if d["winner"] == "draw" else SIDES.index(d["winner"])
    r.art_from_dict(d.get("artillery"))
    return r



def new_model(game) -> Ref:
    """A fresh model state with the parameters of the ardsearch game `game`."""
    p = game.params
    return Ref(turns=p.get("turns"), determination=p.get("determination", 35),
               cohesion=[p.get("german_cohesion", 15), p.get("soviet_cohesion", 12)],
               quality=[p.get("german_quality", 1), p.get("soviet_quality", 0)],
               deployment=p.get("deployment", "edges"), hot_shot=p.get("hot_shot", False),
               low_ammo=p.get("low_ammo", False), scenario=p.get("scenario", "introductory"))


def random_playout(game, rng) -> int:
    """One random game with the parameters of the ardsearch game `game` (bench/)."""
    from reference import play_random
    m = new_model(game)
    return play_random(m, m.current, m.chances, m.legal, rng)
