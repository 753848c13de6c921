"""Airstrikes for the Micro Armour reference model (tests/reference/
microarmour.py mixes this in): written from RULES.md "Airstrikes", not from
the engine. Full states only (no views): every plot is known here."""
from __future__ import annotations

import math
from fractions import Fraction

from ardsearch.games.microarmour import _data

COMPASS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
STEP = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1),
        "w": (-1, 0), "nw": (-1, 1)}
BOMB_RADIUS = _data.load_charts()["air"]["bomb_radius"]


class AirRules:
    # ------------------------------------------------------------ setup
    def init_air(self):
        self.planes = []
        for a in self.sc["aircraft"]:
            plane = dict(a)
            plane["left"] = a["ordnance"]
            plane["fasc_ok"] = False
            plane["plot"] = None
            if a["plot"] is not None:   # plotted before play, for its first bombing turn
                plane["plot"] = {"turn": a["arrive"] + 1, "at": list(a["plot"])}
            self.planes.append(plane)
        self.strike = None

    # ------------------------------------------------------------ who may
    def flies(self, i, turn):
        a = self.planes[i]
        return a["arrive"] <= turn <= a["arrive"] + a["turns"] - 1 and not self.broken(a["side"])  # airstrikes cancelled

    def may_bomb(self, i, turn):
        a = self.planes[i]
        return self.flies(i, turn) and turn >= a["arrive"] + 1 and a["left"] > 0 and a["bomb"] > 0

    def foes_left(self, i):
        return bool(self.live(1 - self.planes[i]["side"]))

    def strikes_now(self, i):
        a = self.planes[i]
        if not self.flies(i, self.turn) or not self.foes_left(i):
            return False
        if a["strafe"] > 0:
            return True
        decided = a["plot"] is not None and a["plot"]["turn"] == self.turn
        return self.may_bomb(i, self.turn) and (decided or a["fasc"])

    def plots_now(self, i):
        a = self.planes[i]
        return (self.turn < self.turns and self.may_bomb(i, self.turn + 1) and self.foes_left(i)
                and not (a["plot"] is not None and a["plot"]["turn"] == self.turn + 1))

    # ------------------------------------------------------------ sequencing
    def fresh_strike(self, i, step):
        self.strike = {"plane": i, "step": step, "kind": "strafe", "at": [0, 0], "aa": 0, "dir": "n", "sq": 0}

    def air_strikes_from(self, i0):
        for i in range(i0, len(self.planes)):
            if self.strikes_now(i):
                a = self.planes[i]
                self.fresh_strike(i, "fasc" if a["fasc"] and self.may_bomb(i, self.turn) else "choose")
                return
        for a in self.planes:           # plots for this turn not flown are lost
            if a["plot"] is not None and a["plot"]["turn"] == self.turn:
                a["plot"] = None
            a["fasc_ok"] = False
        self.strike = None

    def air_on_break(self, p):
        """Airstrikes cancelled from the break on: a strike of p's picked or under way is dropped."""
        st = self.strike
        if st is None or self.planes[st["plane"]]["side"] != p:
            return
        if st["step"] == "plot":
            if not self.air_plots_from(st["plane"]):
                self.joint_plot_air_done()
        else:
            self.air_strikes_from(st["plane"])

    def air_plots_from(self, i0):
        for i in range(i0, len(self.planes)):
            if self.plots_now(i):
                self.fresh_strike(i, "plot")
                return True
        self.strike = None
        return False

    # ------------------------------------------------------------ decisions
    def air_legal(self, n):
        i = self.strike["plane"]
        a = self.planes[i]
        if n == "air_plot":
            w, h = self.sc["width"], self.sc["height"]
            return [f"plot {x},{y}" for y in range(1, h, 3) for x in range(1, w, 3)] + ["pass"]
        out = []
        if a["strafe"] > 0:
            out += [f"strafe {s['id']}" for s in self.live(1 - a["side"])
                    if s["carrier"] is None and not s["hidden"] and s["id"] not in self.offtable]
        if self.may_bomb(i, self.turn):
            points = []
            p = a["plot"]
            if p is not None and p["turn"] == self.turn and p["at"] is not None:
                points.append(tuple(p["at"]))
            if a["fasc_ok"]:
                points += [(s["x"], s["y"]) for s in self.live(1 - a["side"])
                           if (s["x"], s["y"]) not in points and not s["hidden"] and s["id"] not in self.offtable]
            out += [f"bomb {x},{y}" for x, y in points]
        return out + ["pass"]

    # ------------------------------------------------------------ chance
    def aa_stands(self):
        a = self.planes[self.strike["plane"]]
        x, y = self.strike["at"]
        return [s for s in self.live(1 - a["side"])
                if s["w"]["aa"] and not s["hidden"] and s["id"] not in self.offtable and max(abs(s["x"] - x), abs(s["y"] - y)) <= s["w"]["range"]]

    def aa_total(self):
        q = 1 - self.planes[self.strike["plane"]]["side"]
        dist = {0: Fraction(1)}
        for s in self.aa_stands():
            bonus = 2 if s["w"]["aa"] <= 40 else 1
            ok = self.p_ok(self.coh_eff(q), self.sd_mod(s))     # a broken side: -5
            new = {}
            for m, pm in dist.items():
                new[m] = new.get(m, 0) + pm * (1 - ok)
                new[m + bonus] = new.get(m + bonus, 0) + pm * ok
            dist = new
        return {f"aa:{m}": p for m, p in sorted(dist.items()) if p > 0}

    def pattern(self):
        r = BOMB_RADIUS if self.strike["kind"] == "bomb" else 0
        x, y = self.strike["at"]
        return [(x + dx, y + dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)]

    def air_target(self):
        x, y = self.pattern()[self.strike["sq"]]
        return self.shell_at(x, y)

    def air_dv(self, t):
        dv = t["w"]["dv"]
        if t["w"]["defence"] == "A":
            return math.ceil(dv / 4) if t["w"]["open_top"] else math.ceil(dv / 2)
        if t["w"]["defence"] == "P" and t["posture"] != "firing":
            return math.ceil(dv / 2)
        return dv

    def air_chances(self, n):
        st = self.strike
        a = self.planes[st["plane"]]
        coh = self.coh[a["side"]]
        if n == "air_fasc":
            return self.okfail(self.p_ok(coh, 0))
        if n == "air_aa":
            return self.aa_total()
        if n in ("air_attack", "air_deviate"):
            return self.okfail(self.p_ok(coh, st["aa"]))
        if n == "air_direction":
            return {f"dir:{d}": Fraction(1, 8) for d in COMPASS}
        if n == "air_distance":
            top = 6 if st["kind"] == "bomb" else 3        # 1D6, or 1D6/2 rounded up
            return {f"dist:{k}": Fraction(1, top) for k in range(1, top + 1)}
        t = self.air_target()
        fp = a["bomb"] if st["kind"] == "bomb" else a["strafe"]
        cd = max(fp - self.air_dv(t), self.crt_min())
        return {f"crt:{k}": v for k, v in self.column(cd, self.tmods(t["x"], t["y"])[1] + self.ip_mods(t)[1]).items() if v > 0}

    @staticmethod
    def crt_min():
        return _data.load_charts()["crt"]["min_cd"]

    # ------------------------------------------------------------ apply
    def hits_from(self, k):
        pts = self.pattern()
        if k == 0:                          # unspotted markers under the strike are shown first
            for x, y in pts:
                if self.on_table(x, y):
                    self.shell_reveal(self.shell_at(x, y))
        for j in range(k, len(pts)):
            x, y = pts[j]
            if self.on_table(x, y) and self.shell_at(x, y) is not None:
                self.strike["sq"] = j
                self.strike["step"] = "crt"
                return
        self.air_buildings_from(0)

    def air_buildings_from(self, r):
        """A bomb attacks the intact building areas and light/medium positions
        under its pattern, after the stands (r = 2 x square + 0 its building
        area, + 1 its position)."""
        if self.strike["kind"] == "bomb":
            pts = self.pattern()
            fp = self.planes[self.strike["plane"]]["bomb"]
            for j in range(r, 2 * len(pts)):
                x, y = pts[j // 2]
                if self.shell_square(x, y, j % 2 == 1, fp):
                    self.strike["sq"] = j // 2
                    self.strike["step"] = "building"
                    return
        self.air_strikes_from(self.strike["plane"] + 1)

    def air_apply(self, n, move):
        st = self.strike
        i = st["plane"]
        a = self.planes[i]
        if n == "air_plot":
            at = None if move == "pass" else [int(v) for v in move.split()[1].split(",")]
            a["plot"] = {"turn": self.turn + 1, "at": at}
            if not self.air_plots_from(i + 1):
                self.joint_plot_air_done()
        elif n == "air_choose":
            if move == "pass":
                return self.air_strikes_from(i + 1)
            word, arg = move.split()
            if word == "strafe":
                t = self.by_id[arg]
                st["kind"], st["at"] = "strafe", [t["x"], t["y"]]
            else:
                st["kind"], st["at"] = "bomb", [int(v) for v in arg.split(",")]
                a["left"] -= 1
                if a["plot"] is not None and a["plot"]["turn"] == self.turn:
                    a["plot"] = None
            st["step"] = "aa" if self.aa_stands() else "attack"
        elif n == "air_fasc":
            a["fasc_ok"] = move == "c:ok"
            st["step"] = "choose"
        elif n == "air_aa":
            st["aa"] = int(move.split(":")[1])
            st["step"] = "attack"
        elif n == "air_attack":
            if move == "c:ok":
                st["step"] = "deviate"
            else:
                self.air_strikes_from(i + 1)
        elif n == "air_deviate":
            if move == "c:ok":
                self.hits_from(0)
            else:
                st["step"] = "direction"
        elif n == "air_direction":
            st["dir"] = move.split(":")[1]
            st["step"] = "distance"
        elif n == "air_distance":
            k = int(move.split(":")[1])
            dx, dy = STEP[st["dir"]]
            x, y = st["at"][0] + dx * k, st["at"][1] + dy * k
            if self.on_table(x, y):
                st["at"] = [x, y]
                self.hits_from(0)
            else:
                self.air_strikes_from(i + 1)
        else:   # air_crt
            self.hit(self.air_target(), move.split(":")[1])
            self.hits_from(st["sq"] + 1)

    # ------------------------------------------------------------ schema
    def air_dict(self):
        planes = []
        for i, a in enumerate(self.planes):
            planes.append({"id": a["id"], "side": self.side_key(a["side"]), "name": a["name"],
                           "arrive": a["arrive"], "turns": a["turns"], "strafe": a["strafe"], "bomb": a["bomb"],
                           "fasc": a["fasc"], "present": self.flies(i, self.turn), "ordnance": a["left"],
                           "fasc_ok": a["fasc_ok"],
                           "plot": None if a["plot"] is None else {"turn": a["plot"]["turn"], "at": a["plot"]["at"]}})
        st = self.strike
        strike = None
        if st is not None:
            strike = {"step": st["step"], "aircraft": self.planes[st["plane"]]["id"], "kind": st["kind"],
                      "at": list(st["at"]), "aa": st["aa"], "direction": st["dir"], "square": st["sq"]}
        return {"aircraft": planes, "strike": strike}

    def air_from_dict(self, d):
        for pd in d["aircraft"]:
            a = next(a for a in self.planes if a["id"] == pd["id"])
            a["left"], a["fasc_ok"] = pd["ordnance"], pd["fasc_ok"]
            a["plot"] = None if pd["plot"] is None else {"turn": pd["plot"]["turn"], "at": pd["plot"]["at"]}
        st = d["strike"]
        self.strike = None
        if st is not None:
            self.strike = {"plane": [a["id"] for a in self.planes].index(st["aircraft"]), "step": st["step"],
                           "kind": st["kind"], "at": list(st["at"]), "aa": st["aa"], "dir": st["direction"],
                           "sq": st["square"]}
