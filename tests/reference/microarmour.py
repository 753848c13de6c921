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
try:
    from .microarmour_air import AirRules
    from .microarmour_drop import DropRules
    from .microarmour_artillery import ArtilleryMixin
    from .microarmour_obstacles import ObstacleRules
    from .microarmour_engineering import EngineeringRules
    from .microarmour_units import GroupRules, UnitRules
    from .microarmour_transport import TransportRules
    from .microarmour_hidden import HiddenRules
except ImportError:       # imported as a top-level module (tests put tests/ on sys.path)
    from reference.microarmour_air import AirRules
    from reference.microarmour_drop import DropRules
    from reference.microarmour_artillery import ArtilleryMixin
    from reference.microarmour_obstacles import ObstacleRules
    from reference.microarmour_engineering import EngineeringRules
    from reference.microarmour_units import GroupRules, UnitRules
    from reference.microarmour_transport import TransportRules
    from reference.microarmour_hidden import HiddenRules
try:
    from .microarmour_hidden import WEATHERS, GROUNDS  # noqa: F401  (the differential test's parameters)
except ImportError:
    from reference.microarmour_hidden import WEATHERS, GROUNDS  # noqa: F401

CHARTS = _data.load_charts()
WEAPONS = _data.load_weapons()
SCENARIOS = {name: _data.load_scenario(name, CHARTS, WEAPONS) for name in _data.scenario_names()}
SC = SCENARIOS["introductory"]
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
COMMAND = CHARTS["command"]
COMMAND_ROLLS = ("ghq_quality", "hq_replacement", "appoint", "rising_check")
# weapons extras and buildings (RULES.md, "Weapons extras", "Buildings")
BUILDING_CLASSES = ("light", "medium", "heavy")
BLD = CHARTS["building"]
AMMO = CHARTS["ammunition"]
WEAPON_BY_KEY = {w["key"]: w for w in WEAPONS}
DF_OPTIONS = ("special_ap", "heat", "big_gun_he", "depletion", "support")


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


def stand_list(sc, support=False):
    out = []
    for p in range(2):
        for st in sc["stands"][p]:
            if st.get("support") and not support:
                continue          # the support stands are in play only with support=true
            out.append({"id": st["id"], "side": p, "w": WEAPONS[st["type"]], "x": st["x"], "y": st["y"],
                        "facing": DIRS[st["facing"]]})
    return out


class Ref(AirRules, DropRules, ArtilleryMixin, ObstacleRules, EngineeringRules, UnitRules, GroupRules, TransportRules,
          HiddenRules):
    SIDES = SIDES

    def __init__(self, turns=None, determination=35, cohesion=None, quality=None, deployment="edges",
                 hot_shot=False, low_ammo=False, intuitive_action=False, conflicting_orders=False,
                 scenario="introductory", special_ap=False, heat=False, big_gun_he=False,
                 depletion=True, support=False, tank_riders=False,
                 weather="scenario", ground="scenario", night="scenario", jump="scenario"):
        self.scenario = scenario
        self.deployment = deployment
        self.sc = SC = SCENARIOS[scenario]
        # the scenario's building areas (RULES.md, Buildings): square -> (class, class with support)
        self.buildings = [(x, y) for x, y, _, _ in SC["buildings"]]
        self.building_class = {(x, y): (BUILDING_CLASSES[c0], BUILDING_CLASSES[c1])
                               for x, y, c0, c1 in SC["buildings"]}
        self.turns = turns or SC["turns"]
        self.det = determination
        self.coh = list(cohesion or [SC["sides"][0]["cohesion"], SC["sides"][1]["cohesion"]])
        self.qual = list(quality or [SC["sides"][0]["quality"], SC["sides"][1]["quality"]])
        self.opt = {"special_ap": special_ap, "heat": heat, "big_gun_he": big_gun_he, "depletion": depletion,
                    "support": support}
        self.bld = {xy: {"hits": 0, "fire": 0} for xy in self.buildings}
        self.bld_roll = None        # (x, y, firepower, modifier) of a building roll that is due
        self.bld_roll_position = False   # that roll is against the improved position there (artillery, bombs)
        self.stands = []
        for s in stand_list(SC, support):
            shift = deployment == "close" and not s["w"]["boat"]      # a boat stays on its water
            east = self.sc["sides"][s["side"]]["edge"] == "west"       # from its own edge toward the enemy's
            x = s["x"] + (9 if shift and east else 0) - (9 if shift and not east else 0)
            self.stands.append({"id": s["id"], "side": s["side"], "w": s["w"], "x": x, "y": s["y"],
                                "facing": s["facing"], "alive": True, "S": False, "D": False,
                                "fired": False, "moved": False, "indep": False, "ofsuf": False,
                                "wreck": False, "posture": "firing", "mp": 0, "steps": 0,
                                "low": False, "shot_by": set(), "hq": s["w"]["role"] == "hq",
                                "special_used": False, "depleted": False, "heat_fired": 0})
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
        self.intuitive_action = intuitive_action
        self.conflicting_orders = conflicting_orders
        self.ghq_quality = list(self.qual)       # a replacement GHQ rolls its own
        self.hq_lost = [0, 0]
        self.rising = [0, 0]
        self.broken_turn = [None, None]
        self.due = {k: [False, False] for k in COMMAND_ROLLS}
        self.end_cause = None
        self.init_air()
        self.art_init(self.sc)               # batteries, pre-registered points (microarmour_artillery.py)
        self.init_obstacles()
        self.init_engineering()              # microarmour_engineering.py
        self.init_units()
        self.init_groups()
        self.init_transport(tank_riders)
        self.init_drop(jump)                 # microarmour_drop.py: the landing group waits
        self.init_hidden(weather, ground, night)     # microarmour_hidden.py

    @staticmethod
    def side_key(p):
        return SIDES[p]

    # ------------------------------------------------------------ geometry
    def live(self, side=None):
        return [s for s in self.stands if s["alive"] and (side is None or s["side"] == side)]

    def at(self, x, y, skip=None):
        for s in self.stands:
            if s["alive"] and s is not skip and (s["x"], s["y"]) == (x, y) and s["carrier"] is None:
                return s
        return None

    def on_table(self, x, y):
        return 0 <= x < self.sc["width"] and 0 <= y < self.sc["height"]

    def wrecks(self, x, y):
        return sum(1 for s in self.stands if s["wreck"] and (s["x"], s["y"]) == (x, y))

    def ter(self, x, y):
        return TERRAIN[self.ground_ter(self.ter_index(x, y))]         # snow and frost (microarmour_hidden.py)

    def ter_index(self, x, y):
        """The map's terrain index of (x, y), a bridge where one was built in play
        (microarmour_engineering.py)."""
        return self.built(x, y, self.sc["grid"][y][x]) if self.tchanges else self.sc["grid"][y][x]

    # ------------------------------------------------------------ buildings
    def bclass(self, x, y):
        return self.building_class[(x, y)][1 if self.opt["support"] else 0]

    def rubble(self, x, y):
        return (x, y) in self.bld and self.bld[(x, y)]["hits"] >= BLD[self.bclass(x, y)]["rubble_after"]

    def burning(self, x, y):
        return (x, y) in self.bld and self.bld[(x, y)]["fire"] > 0

    def tmods(self, x, y):
        t = self.ter(x, y)
        coh, crt = t["cohesion"], t["crt"]
        if (x, y) in self.bld:
            c = BLD["rubble"] if self.rubble(x, y) else BLD[self.bclass(x, y)]
            coh, crt = c["cohesion"], c["crt"]
        w = self.wrecks(x, y)
        if w == 1:
            coh += CHARTS["wreck"]["one_cohesion"]
            crt += CHARTS["wreck"]["one_crt"]
        elif w >= 2:
            coh += CHARTS["wreck"]["two_cohesion"]
            crt += CHARTS["wreck"]["two_crt"]
        return coh, crt

    def cost(self, s, x, y):
        return self.ground_cost(self.dry_cost(s, x, y))             # deep snow (microarmour_hidden.py)

    def dry_cost(self, s, x, y):
        c = CLASS.index(s["w"]["move"])
        base = BLD["rubble"]["cost"][c] if self.rubble(x, y) else self.class_cost(s, self.ground_ter(self.ter_index(x, y)))
        if base == 0:
            return 0
        w = self.wrecks_in_way(x, y)
        if w == 0:
            return self.obstacle_cost(s, x, y, base)
        wreck = CHARTS["wreck"]["one_cost" if w == 1 else "two_cost"][c]
        t = self.ter(x, y)
        if TERRAIN[t["under"]] is not t:
            # a wreck on a road: the underlying terrain's cost or the wreck's, the mover's choice
            under = self.class_cost(s, t["under"])
            return self.obstacle_cost(s, x, y, wreck if under == 0 else min(under, wreck))
        return self.obstacle_cost(s, x, y, max(base, wreck))

    @staticmethod
    def dist(a, b):
        return max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]))

    def blocks_terrain(self, x, y):
        if self.burning(x, y):
            return True           # a burning building's smoke
        if self.rubble(x, y):
            return BLD["rubble"]["blocks_los"]
        return self.ter(x, y)["blocks_los"]

    def blocking(self, x, y, personnel_target):
        if self.blocks_terrain(x, y) or self.under_marker(x, y):
            return True
        o = self.at(x, y)
        return (o is not None and not o["hidden"] and o["id"] not in self.offtable
                and (o["w"]["defence"] != "P" or personnel_target))

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
        if t["w"]["defence"] == "P" and (t["posture"] != "firing" or t["id"] in self.mounted):
            dv = math.ceil(dv / 2)
        return dv

    def weapon(self, f, t):
        """'R': printed values only in the Firing Arc (135 degrees about the
        facing), else the infantry HQ's."""
        w = f["w"]
        if w["restricted"] is None:
            return w
        ang = math.degrees(math.atan2(t["x"] - f["x"], t["y"] - f["y"])) % 360
        face = DIRS.index(f["facing"]) * 45
        if min((ang - face) % 360, (face - ang) % 360) < 67.5:
            return w
        return WEAPON_BY_KEY[w["restricted"]]

    def firepower(self, f, t, kind="standard"):
        """(firepower, ammunition used: None, 'special', 'heat' or 'depl')."""
        w = self.weapon(f, t)
        if t["w"]["defence"] != "A":
            fp = w["he"]
            if (kind == "assault" and w["cavalry"] and (t["x"], t["y"]) not in self.bld
                    and self.position_of(t) is None):     # "not vs buildings or improved positions"
                fp *= 2
            return fp, None
        fp, use = w["ap"], None
        if w is f["w"]:
            if w["depletion"] and self.opt["depletion"]:
                if f["depleted"]:
                    fp = 0
                else:
                    use = "depl"
            elif w["special_ap"] and self.opt["special_ap"] and not f["special_used"]:
                fp, use = fp * AMMO["special_ap_pct"] // 100, "special"
            elif w["heat_rounds"] and self.opt["heat"] and f["heat_fired"] < w["heat_rounds"] and w["heat_ap"] > fp:
                fp, use = w["heat_ap"], "heat"
        if w["big_gun"] and self.opt["big_gun_he"] and w["he"] > fp and self.dist(f, t) <= AMMO["big_gun_range"]:
            fp, use = w["he"], None
        return fp, use

    def cd(self, f, t, kind="standard"):
        return self.firepower(f, t, kind)[0] - self.defence(f, t, kind)

    def artillery(self, f, t, kind):
        return kind not in ("assault_defence", "assault") and self.weapon(f, t)["artillery"]

    def cd_ok(self, f, t, kind):
        """Below CD -3 no effect, unless it is artillery."""
        return self.cd(f, t, kind) >= CHARTS["crt"]["min_cd"] or self.artillery(f, t, kind)

    def range_mod(self, d, bands=None, step=5):
        bands = bands or CHARTS["range"]
        for top, mod in bands:
            if d <= top:
                return mod
        top, mod = bands[-1]
        return mod + math.ceil((d - top) / step)

    def fire_range_mod(self, f, t, d):
        w = self.weapon(f, t)
        if w["artillery"]:
            return 0              # artillery ignores range modifiers
        if w["dual_purpose"]:
            return self.range_mod(d, CHARTS["range_dp"], CHARTS["range_dp_step"])
        return self.range_mod(d)

    def may_fire(self, f, t, kind):
        if not f["alive"] or not t["alive"] or f["side"] == t["side"] or f["fired"]:
            return False
        if f["id"] in self.mounted:
            return False          # cavalry fights dismounted
        if f["id"] in self.offtable or t["id"] in self.offtable:
            return False          # not on the table yet
        if self.carried(f) or self.carried(t):
            return False          # cargo cannot fire, and fire at it is fire at its carrier
        if self.fire_hidden_blocked(f, t):
            return False          # dummies never fire; unspotted markers cannot be attacked
        if (f["low"] or self.broken(f["side"])) and t["id"] not in f["shot_by"]:
            return False          # low on ammunition or broken: only back at stands that fired at it
        if kind == "overrun_fire":
            return (self.mover is not None and f["id"] == self.mover.get("target") and t["id"] == self.mover["id"]
                    and f["posture"] != "move" and self.cd_ok(f, t, kind))
        if kind == "covering" and f["posture"] != "firing":
            return False
        if kind != "covering" and f["posture"] == "move":
            return False
        d = self.dist(f, t)
        if d > self.weapon(f, t)["range"] or d > self.sight_reach(f["x"], f["y"], t["x"], t["y"]):
            return False
        if not self.cd_ok(f, t, kind):
            return False
        touching = [e for e in self.live(1 - f["side"]) if abs(e["x"] - f["x"]) + abs(e["y"] - f["y"]) == 1]
        if touching and t not in touching:
            return False          # engaged along a base edge: only the enemies it touches
        return self.los(f, t)

    def broken(self, p):
        return self.cards[p]["broken"]

    def coh_eff(self, p):
        """Cohesion for every roll but movement: 5 lower for a broken formation."""
        return self.coh[p] - (COMMAND["broken_cohesion"] if self.broken(p) else 0)

    def command(self, s):
        return s["hq"] or self.ghq[s["side"]] == s["id"]

    def toward_edge(self, s, x):
        return x < s["x"] if self.sc["sides"][s["side"]]["edge"] == "west" else x > s["x"]

    def sd_mod(self, s):
        return (4 if s["S"] else 0) + (3 if s["D"] else 0)

    def recovery_mod(self, s):
        """The recovery roll's modifiers: own S/D, -1 adjacent to a friendly
        non-suppressed HQ/GHQ (RULES.md, Marker removal)."""
        good_hq = any(h is not s and self.command(h) and not h["S"] and self.dist(h, s) <= 1
                      for h in self.live(s["side"]))
        return self.sd_mod(s) - (1 if good_hq else 0)

    def p_ok(self, coh, mod):
        return Fraction(max(0, min(20, coh - mod)), 20)

    def tofire_mod(self, f, t, kind):
        if kind in ("assault_defence", "assault"):
            return self.sd_mod(f)
        m = self.sd_mod(f) + (3 if f["posture"] == "firemove" else 0) + (3 if kind == "covering" else 0)
        m += 3 * self.under_marker(f["x"], f["y"]) + 3 * self.under_marker(t["x"], t["y"])  # smoke / impact
        if not t["fired"] and self.dist(f, t) > 1:
            m += self.tmods(t["x"], t["y"])[0] + self.ip_mods(t)[0]
        if self.burning(t["x"], t["y"]) or self.burning(f["x"], f["y"]):
            m += BLD["burning_mod"]   # fire into or out of smoke
        return m

    def crt_dist(self, f, t, kind="standard", hot=False):
        """{notation: probability}: `crt:<r>`, or `crt:<r>:out` where the
        unmodified roll used up special AP ammunition or a D# stand's AP."""
        c = CHARTS["crt"]
        fp, use = self.firepower(f, t, kind)
        cd = max(min(fp - self.defence(f, t, kind), c["max_cd"]), c["min_cd"])
        if hot:
            cd = min(cd + 2, c["max_cd"])
        if kind in ("assault_defence", "assault"):
            mod = -3 - (3 if f["w"]["engineer"] else 0)
        elif kind == "overrun_fire":
            mod = self.fire_range_mod(f, t, 0) + self.tmods(t["x"], t["y"])[1] + self.ip_mods(t)[1]
        else:
            mod = self.fire_range_mod(f, t, self.dist(f, t)) + self.tmods(t["x"], t["y"])[1] + self.ip_mods(t)[1]
        w = self.weapon(f, t)
        sup = kind not in ("assault_defence", "assault") and (w["mmg"] or w["light_mortar"] or w["artillery"])
        thr = w["depletion"] if use == "depl" else AMMO["special_ap_used_at"] if use == "special" else 0
        out = {}
        for roll, p in D2.items():
            r = roll + mod
            res = "E" if r <= cd + c["e"] else "D" if r <= cd + c["d"] else "(S)" if r <= cd + c["ss"] \
                else "S" if r <= cd + c["s"] else "S" if sup else "-"
            key = f"crt:{res}" + (":out" if roll <= thr else "")
            out[key] = out.get(key, 0) + p
        return out

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
            self.position_hit(t)
            self.kill(t)
        elif res == "D" or (res == "(S)" and t["S"]):
            if t["D"]:
                self.kill(t)
            else:
                t["D"] = True
        elif res in ("S", "(S)"):
            t["S"] = True
        self.share(t, res)

    def kill(self, s):
        s["alive"] = False
        if self.ghq[s["side"]] == s["id"]:
            self.ghq[s["side"]] = None
        if s["hq"]:
            s["hq"] = False
            self.hq_lost[s["side"]] += 1
            self.hq_delay_killed(s)          # microarmour_drop.py: a paratroop HQ's post waits 1D8/2 turns
        s["S"] = s["D"] = False
        if s["w"]["defence"] == "A":
            s["wreck"] = True
        if not self.broken(s["side"]):
            self.cards[s["side"]]["pending"] += {"ghq": 3, "hq": 2}.get(s["w"]["role"], 1)
        self.cargo_dies(s)

    def bp_units(self, p):
        n = 0
        for s in self.stands:
            if s["side"] == p and self.is_stand(s):
                n += {"ghq": 3, "hq": 2}.get(s["w"]["role"], 1 if s["w"]["ap"] + s["w"]["he"] else 0)
        return n

    def broken_by(self, p, total):
        return Fraction(total) > Fraction(self.bp_units(p) * self.det * 7, 100)

    # ------------------------------------------------------------ whose node
    def node(self):
        if self.phase == "over":
            return "over"
        if self.reveal_due():
            return "shown"
        for p in range(2):
            if self.cards[p]["pending"]:
                return ("card", p)
        for p in range(2):
            if self.cards[p]["due"]:
                return ("brk", p)
        if self.bld_roll is not None:
            return "building"
        if self.flame is not None:
            return "flame_" + self.flame["step"]
        if self.attack and self.attack["step"] in ("tofire", "crt"):
            return self.attack["step"]
        if self.attack:
            return "declare"
        if self.strike:
            return "air_" + self.strike["step"]
        if self.drop_step:
            return "drop_" + self.drop_step  # microarmour_drop.py
        if self.phase == "movement" and self.mover:
            return "mv_" + self.mover["step"]
        if self.phase == "artillery":
            return "artillery"
        if self.phase == "recovery" and self.rec_next is None and self.breacher is not None:
            return "mine_attack" if self.mine_attack is not None else "breach"
        if self.phase == "movement" and self.group is not None and self.group["step"] == "roll":
            return "group_roll"
        if self.prereg_side() is not None:
            return "prereg"                  # microarmour_artillery.py: before turn 1
        if self.sight_due():
            return "sight"
        if self.flare_side() is not None:
            return "flare"                   # microarmour_hidden.py
        if self.phase == "recovery" and self.rec_next is None:
            if self.hq_delay == "roll":
                return "drop_hq_delay"       # microarmour_drop.py: a lost paratroop HQ's delay, first
            if any(self.due["ghq_quality"]):
                return "ghq_quality"
            if any(self.replace_due):
                return "replace"
            for k in ("appoint", "hq_replacement", "rising_check"):
                if any(self.due[k]):
                    return k
        return self.phase

    def current(self):
        n = self.node()
        if n == "over":
            return "terminal"
        if isinstance(n, tuple) or n in ("tofire", "crt", "building", "initiative", "sight", "shown", "orders", "mv_roll", "mv_stopcheck",
                                         "recovery", "replace", "mv_passcheck", "mv_overrun_defender_roll",
                                         "ghq_quality", "hq_replacement", "rising_check",
                                         "mv_overrun_hit", "mv_overrun_roll", "mv_overrun_counter",
                                         "artillery", "mv_artillery",
                                         "mv_minefield", "breach", "mine_attack", "mv_reveal",
                                         "mv_load_roll", "mv_artillery_retreat"):
            return "chance"
        if n in ("air_choose", "air_plot"):
            return SIDES[self.planes[self.strike["plane"]]["side"]]
        if n in ("flame_roll", "group_roll"):
            return "chance"
        if n == "flame_retreat":
            return SIDES[self.by_id[self.flame["target"]]["side"]]
        if n.startswith("air_"):
            return "chance"
        if n == "drop_plot":
            return SIDES[self.drop_def["side"]]
        if n == "prereg":
            return SIDES[self.prereg_side()]
        if n.startswith("drop_"):
            return "chance"
        if n == "plot":
            return SIDES[self.cur_bat()["side"]]
        if n == "declare":
            return SIDES[self.attack["side"]]
        if n == "lead":
            return SIDES[self.init_side]
        if n == "flare":
            return SIDES[self.flare_side()]
        if n == "appoint":
            return SIDES[self.due["appoint"].index(True)]
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
        if n in ("air_choose", "air_plot"):
            return self.air_legal(n)
        if n == "drop_plot":
            return self.drop_legal()
        if n == "prereg":
            return self.prereg_legal()
        if n == "plot":
            return self.plot_legal()
        if n == "flame_retreat":
            return self.flame_retreats()
        if n == "lead":
            return ["lead", "follow"]
        if n == "flare":
            return ["pass", "flare"]
        if n == "appoint":
            p = self.due["appoint"].index(True)
            return [f"appoint {s['id']}" for s in self.live(p) if not self.command(s)]
        if n == "posture":
            out = self.show_moves(p) + ["pass"]
            for s in self.live(p):
                if s["posture"] == "firing" and s["w"]["mp"] > 0 and not self.carried(s) and not s["hidden"]:
                    out += [f"posture {s['id']} move", f"posture {s['id']} firemove"]
            return out + self.groups_posture_moves(p)
        if n == "fire":
            return self.show_moves(p) + [f"fire {f['id']}>{t['id']}" for f in self.live(p) for t in self.enemies(p)
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
            out = self.show_moves(p) + ["pass"]
            ghq = self.ghq[p] is not None and self.by_id[self.ghq[p]]["alive"]
            cands = [s for s in self.live(p) if s["posture"] != "firing" and not s["moved"] and s["w"]["mp"] > 0
                     and not self.carried(s) and not s["hidden"] and not self.busy(s)]
            if self.orders[p] > 0 and ghq:
                out += [f"order {s['id']}" for s in cands]
            out += [f"indep {s['id']}" for s in cands if not s["indep"]]
            return out + self.groups_move_moves(p) + self.transport_legal(n, p)
        if n == "mv_step":
            m = self.by_id[self.mover["id"]]
            out = [f"step {d}" for d in DIRS if self.step_cost(m, d) is not None and not self.must_stop(m)]
            if self.at(m["x"], m["y"], skip=m) is None:
                out += [f"stop {d}" for d in DIRS]
            out += [f"assault {t['id']}" for t in self.live(1 - m["side"]) if self.may_assault(m, t)]
            out += [f"overrun {t['id']}" for t in self.live(1 - m["side"])
                    if self.overrun_cost(m, t) is not None and not self.must_stop(m)]
            return out + self.mount_moves(m) + self.transport_legal(n, p)
        if n == "mv_retreat":
            return [f"retreat {d}" for d in DIRS if self.retreat_ok(d)]
        if n == "mv_overrun_fire":
            t = self.by_id[self.mover["target"]]
            m = self.by_id[self.mover["id"]]
            return ([f"fire {t['id']}>{m['id']}"] if self.may_fire(t, m, "overrun_fire") else []) + ["pass"]
        return []

    def may_assault(self, m, t):
        return (m["w"]["defence"] == "P" and m["posture"] == "move" and not self.broken(m["side"]) and m["mp"] >= 2
                and self.dist(m, t) == 1 and t["id"] not in self.offtable and not self.carried(t)
                and self.at(m["x"], m["y"], skip=m) is None and self.cd(m, t, "assault") >= CHARTS["crt"]["min_cd"])

    @staticmethod
    def beyond(m, t):
        """Where an overrunner finishes: over the target, the next square in line."""
        return 2 * t["x"] - m["x"], 2 * t["y"] - m["y"]

    def overrun_cost(self, m, t):
        if (m["w"]["defence"] != "A" or t["w"]["defence"] == "A" or self.dist(m, t) != 1 or self.broken(m["side"])
                or t["id"] in self.offtable or self.carried(t)
                or self.at(m["x"], m["y"], skip=m) is not None or self.blocks_terrain(t["x"], t["y"])):
            return None
        bx, by = self.beyond(m, t)
        if not self.on_table(bx, by) or self.at(bx, by, skip=m) is not None:
            return None
        c, cb = self.cost(m, t["x"], t["y"]), self.cost(m, bx, by)
        if c == 0 or cb == 0 or m["mp"] == 0:
            return None
        c += cb
        if c > m["mp"]:
            if m["steps"] > 0:
                return None
            c = m["mp"]
        return c

    def retreat_ok(self, d):
        t = self.by_id[self.mover["target"]]
        a = self.by_id[self.mover["id"]]
        x, y = t["x"] + VEC[d][0], t["y"] + VEC[d][1]
        if not (self.on_table(x, y)) or self.cost(t, x, y) == 0:
            return False
        if self.at(x, y, skip=t) is not None:
            return False
        return max(abs(x - a["x"]), abs(y - a["y"])) > self.dist(t, a)

    def step_cost(self, m, d):
        x, y = m["x"] + VEC[d][0], m["y"] + VEC[d][1]
        if not (self.on_table(x, y)) or self.mine_blocks_entry(m, x, y):
            return None
        if self.broken(m["side"]) and not self.toward_edge(m, x):
            return None           # a broken formation moves only toward its own edge
        c = self.cost(m, x, y)
        if c == 0:
            return None
        if c > m["mp"]:
            if m["steps"] > 0 or m["mp"] == 0:
                return None
            c = m["mp"]
        o = self.at(x, y, skip=m)
        if o is not None and o["id"] in self.offtable:
            return None           # a stand waiting to enter holds its entry square
        if o is not None:
            if o["side"] != m["side"] and not self.brushes(m, o) and not (
                    m["w"]["defence"] == "A" and o["w"]["defence"] == "A" and self.at(m["x"], m["y"], skip=m) is None):
                return None
            left = m["mp"] - c
            for e in DIRS:
                ex, ey = x + VEC[e][0], y + VEC[e][1]
                if self.on_table(ex, ey) and self.at(ex, ey, skip=m) is None:
                    west = self.sc["sides"][m["side"]]["edge"] == "west"
                    if self.broken(m["side"]) and not (ex < x if west else ex > x):
                        continue      # a broken stand steps off toward its own edge too
                    ce = self.cost(m, ex, ey)
                    if 0 < ce <= left:
                        return c
            return None
        return c

    # ------------------------------------------------------------ chance
    def chances(self):
        n = self.node()
        if isinstance(n, str) and n.startswith("air_"):
            return self.air_chances(n)
        if isinstance(n, str) and n.startswith("drop_"):
            return self.drop_chances()
        if n in ("artillery", "mv_artillery", "mv_artillery_retreat"):
            return self.art_chances(n)
        if n == "flame_roll":
            return self.flame_chances()
        if n == "group_roll":
            return self.group_chances()
        if n == "sight":
            return self.sight_chances()
        if n == "shown":
            return self.shown_chances()
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
                return self.okfail(self.p_ok(self.coh_eff(a["side"]), mod))
            return self.naturals(self.coh_eff(a["side"]), mod, self.hot_shot, self.low_ammo)
        if n == "crt":
            a = self.attack
            d = self.crt_dist(self.by_id[a["firers"][a["current"]]], self.by_id[a["target"]], a["kind"], a["hot"])
            return {k: p for k, p in d.items() if p > 0}
        if n in ("mv_minefield", "mine_attack"):
            return self.mine_chances()
        if n == "breach":
            return self.breach_chances()
        if n == "mv_reveal":
            return self.reveal_chances()
        if n == "building":
            x, y, fp, mod = self.bld_roll
            c = CHARTS["crt"]
            dv = self.position_dv(x, y) if self.bld_roll_position else BLD[self.bclass(x, y)]["dv"]
            cd = max(min(fp - dv, c["max_cd"]), c["min_cd"])
            pe = self.column(cd, mod).get("E", 0)
            return {k: p for k, p in (("crt:-", 1 - pe), ("crt:E", pe)) if p > 0}
        if n == "mv_passcheck":
            m = self.by_id[self.mover["id"]]
            return self.okfail(self.p_ok(self.coh[m["side"]], self.sd_mod(m) + 3))
        if n == "mv_overrun_defender_roll":
            t = self.by_id[self.mover["target"]]
            return self.okfail(self.p_ok(self.coh_eff(t["side"]), self.sd_mod(t)))
        if n == "mv_overrun_hit":
            return {f"crt:{r}": p for r, p in self.column(5, 0).items() if p > 0}
        if n == "mv_overrun_roll":
            m, t = self.by_id[self.mover["id"]], self.by_id[self.mover["target"]]
            extra = 3 if t["w"]["defence"] == "P" and t["w"]["ap"] >= 2 else 0
            return self.okfail(self.p_ok(self.coh_eff(m["side"]), self.sd_mod(m) + extra))
        if n == "mv_overrun_counter":
            t = self.by_id[self.mover["target"]]
            return {f"crt:{r}": p for r, p in self.column(3 if t["w"]["ap"] >= 5 else 2, 0).items() if p > 0}
        if n == "replace":
            p = 0 if self.replace_due[0] else 1
            hq = next(s for s in self.live(p) if s["hq"])
            return self.okfail(self.p_ok(self.coh_eff(p), self.sc["sides"][p]["replace_mod"] + self.sd_mod(hq)))
        if n == "ghq_quality":
            out, lo = {}, 0
            for top, q in zip(COMMAND["ghq_quality_at"], COMMAND["ghq_quality"]):
                key = f"quality:{q:+d}" if q else "quality:0"
                out[key] = out.get(key, 0) + Fraction(top - lo, 20)
                lo = top
            return out
        if n == "hq_replacement":
            p = self.due["hq_replacement"].index(True)
            return self.okfail(self.p_ok(self.coh_eff(p), self.sc["sides"][p]["replace_mod"]))
        if n == "rising_check":
            p = self.due["rising_check"].index(True)
            return self.okfail(self.p_ok(self.coh[p], COMMAND["rising_step"] * (self.rising[p] + 1)))
        if n == "initiative":
            g = s = 0
            for a in range(1, 7):
                for b in range(1, 7):
                    if a + self.coh_eff(0) > b + self.coh_eff(1):
                        g += 1
                    elif a + self.coh_eff(0) < b + self.coh_eff(1):
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
                k = self.orders_table(roll + self.ghq_quality[side])
                out[f"orders:{k}"] = out.get(f"orders:{k}", 0) + p
            return out
        if n == "mv_roll":
            m = self.by_id[self.mover["id"]]
            mod = self.sd_mod(m) + (0 if self.mover["ordered"] or m["w"]["recon"] else 3) \
                - (2 if self.command(m) else 0) + self.leave_mod(m) + self.weather_move_mod(m)
            if self.mover["ordered"] and (self.intuitive_action or self.conflicting_orders):
                return self.naturals(self.coh[m["side"]], mod, self.intuitive_action, self.conflicting_orders)
            return self.okfail(self.p_ok(self.coh[m["side"]], mod))
        if n == "mv_load_roll":
            return self.load_chances()
        if n == "mv_stopcheck":
            m = self.by_id[self.mover["id"]]
            return self.okfail(self.p_ok(self.coh[m["side"]], self.sd_mod(m)))
        if n == "recovery":
            s = self.by_id[self.rec_next]
            mod = self.recovery_mod(s)
            ok = sum(1 for r in range(2, 20) if r + mod <= self.coh_eff(s["side"]))
            out = {"c:n1": Fraction(1, 20), "c:n20": Fraction(1, 20)}
            if ok:
                out["c:ok"] = Fraction(ok, 20)
            if ok < 18:
                out["c:fail"] = Fraction(18 - ok, 20)
            return out
        return {}

    @staticmethod
    def naturals(coh, mod, n1, n20):
        """A roll where natural rolls matter: a passing natural 1 is c:n1 (if n1), a natural
        20 is c:n20, a failure (if n20)."""
        out = {}
        for r in range(1, 21):
            passed = r + mod <= coh
            if r == 20 and n20:
                key = "c:n20"
            elif r == 1 and n1 and passed:
                key = "c:n1"
            else:
                key = "c:ok" if passed else "c:fail"
            out[key] = out.get(key, 0) + Fraction(1, 20)
        return out

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
        self.apply_move(move)
        self.spot_update()           # microarmour_hidden.py

    def apply_move(self, move):
        n = self.node()
        if n == "over":
            raise ValueError("game over")
        if self.current() == "chance":
            assert move in self.chances(), (move, self.chances())
            if isinstance(n, str) and n.startswith("air_"):
                return self.air_apply(n, move)
            if isinstance(n, str) and n.startswith("drop_"):
                return self.drop_apply(n, move)
            if n == "flame_roll":
                return self.flame_apply(n, move)
            if n == "group_roll":
                return self.group_roll(move)
            return self.apply_chance(n, move)
        assert move in self.legal(), (move, self.legal())
        if n.startswith("air_"):
            return self.air_apply(n, move)
        if n == "drop_plot":
            return self.drop_apply(n, move)
        if n == "prereg":
            return self.prereg_apply(move)
        if n == "plot":
            return self.plot_apply(move)
        if n == "flare":
            return self.flare_apply(move)
        if n == "flame_retreat":
            return self.flame_apply(n, move)
        if move in ("mount", "dismount"):
            return self.mount(self.by_id[self.mover["id"]])
        if move.startswith("gposture "):
            _, gid, post = move.split()
            return self.group_mark(gid, post)
        if move.split()[0] in ("gorder", "gindep"):
            return self.group_apply_move(*move.split())
        if move.startswith("show "):
            return self.show(move)
        p = self.active
        if n == "appoint":
            p = self.due["appoint"].index(True)
            self.due["appoint"][p] = False
            self.by_id[move.split()[1]]["hq"] = True
            self.hq_lost[p] -= 1
            self.command_done()
            return
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
        if word in ("load", "unload"):
            self.transport_apply(n, word, rest)
            return
        m = self.by_id[self.mover["id"]]
        if word == "step":
            o = self.at(m["x"] + VEC[rest][0], m["y"] + VEC[rest][1], skip=m)
            if o is not None and o["side"] != m["side"] and not self.brushes(m, o):
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
            self.carry(t)
            if not self.retreat_hits(0):      # impact markers where it retreats to
                self.close_done()
            return
        if word in ("assault", "overrun"):
            t = self.by_id[rest]
            self.mover["target"] = rest
            t["moved"] = True                     # pinned
            if word == "assault":
                self.mover["step"] = "close"
                if t["posture"] == "firing" and t["id"] not in self.mounted and self.cd(t, m, "assault_defence") >= CHARTS["crt"]["min_cd"]:
                    self.start(t["side"], "assault_defence", t, m)
                else:
                    self.start(m["side"], "assault", m, t)
                return
            m["mp"] -= self.overrun_cost(m, t)
            # the overrunner passes over the target and finishes beyond it, adjacent
            m["facing"] = DIRS[[VEC[d] for d in DIRS].index((t["x"] - m["x"], t["y"] - m["y"]))]
            m["x"], m["y"] = self.beyond(m, t)
            self.carry(m)
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
        self.carry(m)
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
        if n in ("artillery", "mv_artillery", "mv_artillery_retreat"):
            return self.art_apply_chance(n, move)
        if n == "sight":
            return self.sight_apply(move)
        if n == "shown":
            return self.shown_apply(move)
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
                    self.broken_turn[p] = self.turn
                    self.air_on_break(p)
                    if self.cards[1 - p]["broken"]:
                        self.end_cause = "both_broken"
                        self.finish()
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
            f = self.by_id[a["firers"][a["current"]]]
            fp, use = self.firepower(f, t, a["kind"])
            if use == "heat":
                f["heat_fired"] += 1
            elif use == "special" and move.endswith(":out"):
                f["special_used"] = True
            elif use == "depl" and move.endswith(":out"):
                f["depleted"] = True
            if a["kind"] == "assault":
                if res == "D" or (res == "(S)" and t["S"]):
                    a["hit"] = 2
            elif res in ("S", "(S)", "D"):
                a["hit"] = 1
            xy = (t["x"], t["y"])
            if self.artillery(f, t, a["kind"]) and xy in self.bld and not self.rubble(*xy):
                # artillery attacks the building area its target stands in
                self.bld_roll = (xy[0], xy[1], min(self.weapon(f, t)["he"], 30), 0)
            self.hit(t, res)
            self.flame_hit(f, t, a["kind"], res)
            a["hot"] = False
            if self.bld_roll is None:
                a["current"] += 1
                self.next_firer()
            return
        if n == "building":
            x, y, _, _ = self.bld_roll
            self.bld_roll = None
            nxt = 2 if self.bld_roll_position else 1     # the square's position next, or the next square
            if self.bld_roll_position:
                self.bld_roll_position = False
                if move == "crt:E":
                    self.position_shelled(x, y)
            elif move == "crt:E":
                self.bld[(x, y)]["hits"] += 1
                self.bld[(x, y)]["fire"] = BLD["burn_turns"]
            if self.strike and self.strike["step"] == "building":
                return self.air_buildings_from(2 * self.strike["sq"] + nxt)   # a bomb's next area or position
            if self.phase == "artillery" and self.art["step"] == "building":
                return self.art_building_done(nxt)                            # an impact's next one
            a = self.attack
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
            if move == "c:n1":
                self.orders[m["side"]] += 1          # Intuitive Action: the order is not spent
            elif move == "c:n20":
                self.orders[m["side"]] = 0           # Conflicting Orders: the orders left are lost
            if move in ("c:ok", "c:n1"):
                self.mover["step"] = "step"
                m["steps"] = 0
                m["mp"] = self.allowance(m)
                m["mp"] -= min(m["mp"], self.loaded_cost(m))     # it took personnel aboard this turn
                if m["id"] not in self.offtable:
                    self.mine_leave(m)
                self.enter(m)
            else:
                self.mover = None
                self.active = m["side"]
                self.alternate()
            return
        if n in ("mv_minefield", "mine_attack"):
            return self.mine_apply(move)
        if n == "breach":
            return self.breach_apply(move)
        if n == "mv_reveal":
            return self.reveal_apply(move)
        if n == "mv_load_roll":
            self.load_result(move)
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
                hq = next(s for s in self.live(p) if s["hq"])
                self.ghq[p] = hq["id"]
                hq["hq"] = False                      # its HQ post is empty now
                self.hq_lost[p] += 1
                self.due["ghq_quality"][p] = True
                if self.hq_replacement_possible(p):
                    self.due["hq_replacement"][p] = True
            self.command_done()
            return
        if n == "ghq_quality":
            p = self.due["ghq_quality"].index(True)
            self.due["ghq_quality"][p] = False
            self.ghq_quality[p] = int(move.split(":")[1])
            self.command_done()
            return
        if n == "hq_replacement":
            p = self.due["hq_replacement"].index(True)
            self.due["hq_replacement"][p] = False
            if move == "c:ok":
                self.due["appoint"][p] = True
            self.command_done()
            return
        if n == "rising_check":
            p = self.due["rising_check"].index(True)
            self.due["rising_check"][p] = False
            if move == "c:ok":
                self.rising[p] += 1
            else:
                self.end_cause = "rising_check"       # the enemy stops fighting: the battle is over
                self.phase = "over"
                self.winner = p
                return
            self.command_done()
            return
        if n == "mv_stopcheck":
            if move != "c:ok":
                self.mover["stopped"] = True
            self.after_opportunity()
            return
        if n == "recovery":
            s = self.by_id[self.rec_next]
            if move == "c:n1":
                # "a modified success removes S; only a natural 1 removes D" (contract):
                # D goes on any natural 1, S only if 1 + the modifiers is a success too
                if 1 + self.recovery_mod(s) <= self.coh_eff(s["side"]):
                    s["S"] = False
                s["D"] = False
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
        elif kind == "opportunity" and hit and self.by_id[self.mover["id"]]["alive"]:
            self.mover["step"] = "stopcheck"
        else:
            # covering fire: every unfired firing-posture stand may answer, even when the
            # opportunity fire eliminated the mover ("Opportunity fire in turn triggers covering fire")
            self.after_opportunity()

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
        if self.mover["stopped"] or not self.by_id[self.mover["id"]]["alive"]:
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
        if self.group_continue():
            return
        self.alternate()

    def next_phase(self):
        self.passed = [False, False]
        self.active = self.first
        if self.phase == "posture":
            self.phase = "fire"
            self.phase = "fire"
            if self.bats:
                self.art_start()             # the artillery fire, then the air strikes
            else:
                self.air_strikes_from(0)
        elif self.phase == "fire":
            if self.drop_plot_due():         # microarmour_drop.py: the drop zone first
                self.phase = "plot"
                self.drop_step = "plot"
            elif self.air_plots_from(0):       # the joint plot: air bomb plots, then artillery plots
                self.phase = "plot"
            else:
                self.joint_plot_air_done()
        elif self.phase == "movement":
            self.offtable = set()      # the stands still off the table are placed on their entry squares
            self.phase = "recovery"
            self.positions_marker_removal()
            self.next_recovery(0)

    def joint_plot_air_done(self):
        """The joint plot's air bomb plots are made: the artillery plots, or the orders."""
        if self.bats:
            self.plot_start()
        else:
            self.to_orders()

    def to_orders(self):
        self.phase = "orders"
        self.orders_rolled = 0
        self.orders_without_ghq()

    def orders_without_ghq(self):
        while self.phase == "orders":
            if self.orders_rolled >= 2:
                self.phase = "movement"
                self.active, self.passed = self.first, [False, False]
                for s in self.stands:
                    s["ofsuf"] = False
                self.half_loads_complete()     # microarmour_transport.py: two-turn loads begun last turn
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
        if self.breach_from(0):
            return
        self.recovery_done()

    def recovery_done(self):
        for p in range(2):
            lost = self.ghq[p] is None or not self.by_id[self.ghq[p]]["alive"]
            self.replace_due[p] = (lost and self.coh_eff(p) > 12 and any(s["hq"] for s in self.live(p)))
            self.due["hq_replacement"][p] = self.hq_replacement_possible(p)
            self.due["rising_check"][p] = self.broken(1 - p) and not self.broken(p)
        self.command_done()

    def hq_replacement_possible(self, p):
        return (self.hq_lost[p] > self.hq_posts_held(p) and self.coh_eff(p) > 12
                and any(not self.command(s) for s in self.live(p)))

    def command_done(self):
        """The marker removal phase ends when no GHQ, HQ or rising roll is left."""
        if (self.phase != "over" and not any(self.replace_due) and not any(any(v) for v in self.due.values())
                and self.hq_delay != "roll"):
            self.end_of_turn()

    def finish(self):
        """The end: with one side broken the other wins; else the village decides."""
        self.phase = "over"
        broken = [self.broken(p) for p in range(2)]
        if broken[0] != broken[1]:
            self.winner = 1 if broken[0] else 0
            return
        held = [sum(1 for s in self.live(p) if self.holds_ground(s) and self.sc["grid"][s["y"]][s["x"]] == VILLAGE) for p in range(2)]
        self.winner = 0 if held[0] > held[1] else 1 if held[1] > held[0] else "draw"

    def end_of_turn(self):
        self.markers_age()
        self.hq_delay_turn_end()                  # microarmour_drop.py: a lost paratroop HQ's delay counts down
        if self.turn >= self.turns:
            self.end_cause = "last_turn"
            self.finish()
            return
        self.turn += 1
        for b in self.bld.values():
            b["fire"] = max(0, b["fire"] - 1)     # fires burn down
        self.flares_new_turn()                    # microarmour_hidden.py: last turn's flares burn out
        self.phase = "initiative"
        self.passed = [False, False]
        self.orders_rolled = 0
        self.orders = [0, 0]
        for s in self.stands:
            s.update(fired=False, moved=False, indep=False, ofsuf=False, posture="firing", mp=0, steps=0,
                     shot_by=set(), loaded=False)
        self.drop_turn_begin()                    # microarmour_drop.py: the drop turn opens with the landings

    # ------------------------------------------------------------ results and schema
    def returns(self):
        if self.phase != "over" or self.winner == "draw" or self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def to_dict(self):
        stands = []
        for s in self.stands:
            if s["removed"]:
                continue          # a spotted dummy is gone
            stands.append({"id": s["id"], "side": SIDES[s["side"]], "type": s["w"]["key"], **self.stand_hidden_dict(s),
                           "at": [s["x"], s["y"]], "facing": s["facing"], "posture": s["posture"],
                           "mp": s["mp"], "steps": s["steps"], "alive": s["alive"], "suppressed": s["S"],
                           "disorganized": s["D"], "fired": s["fired"], "moved": s["moved"],
                           "indep_tried": s["indep"], "opportunity_suffered": s["ofsuf"], "wreck": s["wreck"],
                           "low_ammo": s["low"], "hq": s["hq"],
                           "fired_at_by": [e["id"] for e in self.stands if e["id"] in s["shot_by"]],
                           "special_ap_used": s["special_used"], "depleted": s["depleted"],
                           "heat_fired": s["heat_fired"], "carried_by": s["carrier"],
                           "loaded_this_turn": s["loaded"], "loading_onto": s["half"]})
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
                               "break_check_due": c["due"], "broken": c["broken"],
                               "broken_turn": self.broken_turn[p], "total": sum(c["hand"]),
                               "deck": deck}
        winner = None
        if self.phase == "over":
            winner = "draw" if self.winner == "draw" else SIDES[self.winner]
        return {"game": "microarmour", "scenario": self.scenario, "turns": self.turns, "determination": self.det,
                "cohesion": list(self.coh), "quality": list(self.qual), "viewer": None,
                "turn": self.turn, "phase": self.phase, "to_move": self.current(),
                "initiative": SIDES[self.init_side], "first": SIDES[self.first], "active": SIDES[self.active],
                "passed": list(self.passed), "orders_rolled": self.orders_rolled, "orders": list(self.orders),
                "attack": attack, "mover": mover, "tank_riders": self.tank_riders, "loading_into": self.tr_to,
                "recovery_next": self.rec_next,
                "replacement_due": list(self.replace_due), "ghq": list(self.ghq), "hot_shot": self.hot_shot,
                "low_ammo": self.low_ammo, "intuitive_action": self.intuitive_action,
                "conflicting_orders": self.conflicting_orders,
                "ghq_quality": list(self.ghq_quality), "hq_lost": list(self.hq_lost),
                "rising_checks": list(self.rising),
                "command_due": {k: list(v) for k, v in self.due.items()}, "end_cause": self.end_cause,
                **dict(self.opt),
                "buildings": [{"at": [x, y], "class": self.bclass(x, y), "hits": self.bld[(x, y)]["hits"],
                               "burning": self.bld[(x, y)]["fire"], "rubble": self.rubble(x, y)}
                              for x, y in self.buildings],
                "building_roll": None if self.bld_roll is None or self.bld_roll_position else
                {"at": list(self.bld_roll[:2]), "firepower": self.bld_roll[2], "modifier": self.bld_roll[3]},
                **self.obstacles_dict(),
                **self.engineering_dict(),
                "cards": cards,
                "winner": winner, "stands": stands,
                "air": self.air_dict(), **self.drop_dict(), "conditions": self.weather_dict(), "artillery": self.art_dict(),
                "units": self.units_dict(),
                "table": {"title": self.sc["title"], "width": self.sc["width"], "height": self.sc["height"],
                          "rows": ["".join(TERRAIN[t]["char"] for t in self.sc["grid"][y])
                                   for y in range(self.sc["height"])],
                          "terrain": {t["char"]: t["name"] for t in TERRAIN}},
                "types": {s["w"]["key"]: {**{f: s["w"][f] for f in ("name", "ap", "he", "dv", "defence",
                                                                     "range", "mp", "role")},
                                          **self.type_special(s["w"])}
                          for s in self.stands if not s["removed"]}}

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
        c.flares, c.flare_lit = list(self.flares), list(self.flare_lit)
        c.flare_decided, c.night_lost = list(self.flare_decided), list(self.night_lost)
        c.ghq = list(self.ghq)
        c.replace_due = list(self.replace_due)
        c.ghq_quality, c.hq_lost, c.rising = list(self.ghq_quality), list(self.hq_lost), list(self.rising)
        c.broken_turn = list(self.broken_turn)
        c.due = {k: list(v) for k, v in self.due.items()}
        c.planes = copy.deepcopy(self.planes)
        c.strike = copy.deepcopy(self.strike)
        c.bld = copy.deepcopy(self.bld)
        c.opt = dict(self.opt)
        c.bats = copy.deepcopy(self.bats)
        c.pre, c.pre_shown = copy.deepcopy(self.pre), copy.deepcopy(self.pre_shown)
        c.art = dict(self.art)
        c.positions = copy.deepcopy(self.positions)
        c.mines = copy.deepcopy(self.mines)
        c.cleared = set(self.cleared)
        c.tchanges = copy.deepcopy(self.tchanges)
        c.mounted = set(self.mounted)
        c.offtable = set(self.offtable)
        c.group = copy.deepcopy(self.group)
        self.drop_clone_into(c)
        c.flame = copy.deepcopy(self.flame)
        return c


def from_dict(d):
    """A Ref from the engine's structured state (a full state, not a view)."""
    r = Ref(turns=d["turns"], determination=d["determination"], cohesion=d["cohesion"], quality=d["quality"],
            hot_shot=d["hot_shot"], low_ammo=d["low_ammo"], intuitive_action=d["intuitive_action"],
            conflicting_orders=d["conflicting_orders"], scenario=d["scenario"], tank_riders=d["tank_riders"],
            **{k: d[k] for k in DF_OPTIONS})
    r.air_from_dict(d["air"])
    r.drop_from_dict(d)
    r.obstacles_from_dict(d)
    r.engineering_from_dict(d)
    r.units_from_dict(d["units"])
    r.hidden_from_dict(d)
    r.ghq = list(d["ghq"])
    r.replace_due = list(d["replacement_due"])
    r.ghq_quality, r.hq_lost, r.rising = list(d["ghq_quality"]), list(d["hq_lost"]), list(d["rising_checks"])
    r.due = {k: list(v) for k, v in d["command_due"].items()}
    r.end_cause = d["end_cause"]
    r.broken_turn = [d["cards"][side]["broken_turn"] for side in SIDES]
    for sd in d["stands"]:
        s = r.by_id[sd["id"]]
        s.update(x=sd["at"][0], y=sd["at"][1], facing=sd["facing"], posture=sd["posture"], mp=sd["mp"],
                 steps=sd["steps"], alive=sd["alive"], S=sd["suppressed"], D=sd["disorganized"],
                 fired=sd["fired"], moved=sd["moved"], indep=sd["indep_tried"], ofsuf=sd["opportunity_suffered"],
                 wreck=sd["wreck"], low=sd["low_ammo"], shot_by=set(sd["fired_at_by"]), hq=sd["hq"],
                 special_used=sd["special_ap_used"], depleted=sd["depleted"], heat_fired=sd["heat_fired"],
                 carrier=sd["carried_by"], loaded=sd["loaded_this_turn"], half=sd.get("loading_onto"))
    r.tr_to = d["loading_into"]
    for b in d["buildings"]:
        r.bld[tuple(b["at"])] = {"hits": b["hits"], "fire": b["burning"]}
    if d["building_roll"] is not None:
        b = d["building_roll"]
        r.bld_roll = (b["at"][0], b["at"][1], b["firepower"], b["modifier"])
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
               low_ammo=p.get("low_ammo", False), intuitive_action=p.get("intuitive_action", False),
               conflicting_orders=p.get("conflicting_orders", False),
               scenario=p.get("scenario", "introductory"), tank_riders=p.get("tank_riders", False),
               **{k: p.get(k, k == "depletion") for k in DF_OPTIONS},
               **{k: p.get(k, "scenario") for k in ("weather", "ground", "night")})


def random_playout(game, rng) -> int:
    """One random game with the parameters of the ardsearch game `game` (bench/)."""
    from reference import play_random
    m = new_model(game)
    return play_random(m, m.current, m.chances, m.legal, rng)
