"""The reference model's indirect artillery and smoke (RULES.md, Indirect
artillery), written from the rules, not from the engine: a mixin for
reference.microarmour.Ref. Missions are dicts in the to_dict schema
({kind, target, prereg}); moves and outcomes are notation strings.
"""
from __future__ import annotations

from fractions import Fraction

from ardsearch.games.microarmour import _data

CHARTS = _data.load_charts()
WEAPONS = _data.load_weapons()
ART = CHARTS["artillery"]
GRID = ART["plot_grid"]
STATES = ("none", "held", "plotted", "hidden", "active")
STEPS = ("reveal", "arrive", "deviate", "scatter", "hit", "building", "show_point")
DIRS = _data.DIRS
VEC = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1),
       "w": (-1, 0), "nw": (-1, 1)}


def load(name):
    return _data.load_scenario(name, CHARTS, WEAPONS)


class ArtilleryMixin:
    """Needs from the host: SC (scenario dict), stands, by_id, live(), at(),
    los_xy(), tmods(), hit(), coh, turn, turns, first, phase, cards, mover,
    end_move(), after_step_fire(), p_ok(), okfail(), column()."""

    def art_init(self, sc):
        self.bats = []
        for p in range(2):
            for l, b in enumerate(sc["batteries"][p]):
                self.bats.append({"slot": p * 4 + l, "id": b["id"], "side": p, "he": b["he"],
                                  "sections": b["sections"], "open": b["open"],
                                  "observer": sc["stands"][p][b["observer"]]["id"], "barrage": b["barrage"],
                                  "duration": b["duration"], "smoke_left": b["smoke"], "state": "none",
                                  "mission": None, "plot_turn": 0, "lands": None, "at": None, "left": 0,
                                  "doubled": False, "last": None,
                                  "stand": None if b["stand"] is None else sc["stands"][p][b["stand"]]["id"]})
        # pre-registered points: as many as the scenario lists, recorded in play before turn 1
        # (the German side's first), each [x, y] once recorded; seen by both once a call lands
        self.pre = [[None] * len(sc["sides"][p]["prereg"]) for p in range(2)]
        self.pre_shown = [[False] * len(sc["sides"][p]["prereg"]) for p in range(2)]
        self.delay = [sc["sides"][p]["delay"] for p in range(2)]
        self.art = {"seq": 0, "step": "reveal", "marker": 0}

    # ------------------------------------------------------------ targets
    def cells(self):
        """Aiming squares of the plot cells: the centre of each GRID x GRID
        cell, clipped to the table."""
        out = []
        for cy in range(0, self.sc["height"], GRID):
            for cx in range(0, self.sc["width"], GRID):
                out.append([min(cx + GRID // 2, self.sc["width"] - 1), min(cy + GRID // 2, self.sc["height"] - 1)])
        return out

    def aim(self, b, m):
        if m["prereg"]:
            return list(self.pre[b["side"]][m["prereg"] - 1])
        return list(m["target"])

    # ------------------------------------------------------------ pre-registered points
    def prereg_side(self):
        """Before turn 1: the side with a point still to record (the Germans first)."""
        if self.turn != 1 or self.phase != "initiative":
            return None
        for p in range(2):
            if None in self.pre[p]:
                return p
        return None

    def prereg_legal(self):
        p = self.prereg_side()
        return [f"prereg {x},{y}" for x, y in self.cells() if [x, y] not in self.pre[p]]

    def prereg_apply(self, move):
        p = self.prereg_side()
        x, y = (int(v) for v in move.split(" ")[1].split(","))
        self.pre[p][self.pre[p].index(None)] = [x, y]

    def prereg_dict(self):
        return {self.SIDES[p]: [{"at": None if pt is None else list(pt), "shown": shown}
                                for pt, shown in zip(self.pre[p], self.pre_shown[p])] for p in range(2)}

    @staticmethod
    def code_text(m):
        where = f"pre{m['prereg']}" if m["prereg"] else f"{m['target'][0]},{m['target'][1]}"
        return f"{m['kind']} {where}"

    def parse_code(self, b, text):
        kind, where = text.split(" ")
        if where.startswith("pre"):
            n = int(where[3:])
            return {"kind": kind, "target": list(self.pre[b["side"]][n - 1]), "prereg": n}
        x, y = (int(v) for v in where.split(","))
        return {"kind": kind, "target": [x, y], "prereg": None}

    def all_codes(self, b):
        out = []
        for kind in ("he", "smoke"):
            out += [{"kind": kind, "target": c, "prereg": None} for c in self.cells()]
            out += [{"kind": kind, "target": list(pt), "prereg": i + 1} for i, pt in enumerate(self.pre[b["side"]])
                    if pt is not None]
        return out

    # ------------------------------------------------------------ markers
    def marker_squares(self, b):
        x, y = b["at"]
        offs = [0, 1, -1][:b["sections"]] if b["open"] else [0] * b["sections"]
        return [(x + o, y) for o in offs]

    def under_marker(self, x, y):
        return any((x, y) in self.marker_squares(b) for b in self.bats if b["state"] == "active")

    def order(self):
        """This turn's battery order: the first player's batteries, then the other's."""
        return sorted(self.bats, key=lambda b: (b["side"] != self.first, b["slot"]))

    def cur_bat(self):
        return self.order()[self.art["seq"]]

    # ------------------------------------------------------------ the artillery fire phase
    def art_start(self):
        self.phase = "artillery"
        self.art.update(seq=0, step="reveal", marker=0)
        self.art_next()

    def art_next(self):
        order = self.order()
        while self.art["seq"] < len(order):
            b = order[self.art["seq"]]
            if b["state"] == "active":
                if self.find_hit(b, 0) or self.art_bldg_from(b, 0):
                    return
            elif b["state"] != "none":
                self.art.update(step="reveal", marker=0)
                return
            self.art["seq"] += 1
        self.art.update(seq=0, step="reveal", marker=0)
        self.phase = "fire"
        self.passed = [False, False]
        self.active = self.first
        self.air_strikes_from(0)            # the air strikes come after the artillery fire

    def find_hit(self, b, k):
        if b["mission"]["kind"] != "he":
            return False
        sq = self.marker_squares(b)
        if k == 0:                          # unspotted markers under the impacts are shown first
            for x, y in sq:
                if 0 <= x < self.sc["width"]:
                    self.shell_reveal(self.shell_at(x, y))
        while k < len(sq):
            x, y = sq[k]
            if 0 <= x < self.sc["width"] and self.shell_at(x, y) is not None:
                self.art.update(step="hit", marker=k)
                return True
            k += 1
        return False

    def art_bldg_from(self, b, r):
        """After the stands, from r (2 x marker + 0 its building area, + 1 its
        improved position): the next intact building area or light/medium
        position under a high-explosive marker is attacked (firepower with the
        barrage's columns)."""
        if b["mission"]["kind"] != "he":
            return False
        fp = b["he"] + (ART["barrage_columns"] if b["barrage"] else 0)
        sq = self.marker_squares(b)
        for j in range(r, 2 * len(sq)):
            x, y = sq[j // 2]
            if self.shell_square(x, y, j % 2 == 1, fp):
                self.art.update(step="building", marker=j // 2)
                return True
        return False

    def art_building_done(self, nxt):
        if not self.art_bldg_from(self.cur_bat(), 2 * self.art["marker"] + nxt):
            self.art_done()

    def art_done(self):
        self.art["seq"] += 1
        self.art.update(step="reveal", marker=0)
        self.art_next()

    def art_attack(self, b, t):
        cd = max(CHARTS["crt"]["min_cd"], min(CHARTS["crt"]["max_cd"], b["he"] - self.air_dv(t)))
        if b["barrage"]:
            cd += ART["barrage_columns"]
        dist = self.column(cd, self.tmods(t["x"], t["y"])[1] + self.ip_mods(t)[1])
        dist = dict(dist)
        dist["S"] = dist.get("S", 0) + dist.pop("-", 0)       # artillery: No Effect becomes S
        return {f"crt:{r}": p for r, p in dist.items() if p > 0}

    def art_roll_mod(self, b, deviate):
        m = ART["prereg_mod"] if b["mission"]["prereg"] else 0
        if deviate and b["last"] == b["mission"]:
            m += ART["adjusted_mod"]
        return m

    def art_chances(self, n):
        if n in ("mv_artillery", "mv_artillery_retreat"):
            b = self.bats_by_slot(self.art["marker"] // 3)
            who = self.mover["id"] if n == "mv_artillery" else self.mover["target"]
            return self.art_attack(b, self.by_id[who])
        b = self.cur_bat()
        st = self.art["step"]
        if st == "reveal":
            if self.gone(b):
                return {"land:none": Fraction(1)}
            if b["state"] == "plotted" and b["lands"] == self.turn:
                return {"land:" + self.code_text(b["mission"]): Fraction(1)}
            return {"land:none": Fraction(1)}
        if st == "show_point":              # the call's point, seen by both as it lands
            x, y = self.pre[b["side"]][b["mission"]["prereg"] - 1]
            return {f"prereg {x},{y}": Fraction(1)}
        coh = self.coh_eff(b["side"])       # a broken formation's -5
        if st == "arrive":
            return self.okfail(self.p_ok(coh, self.art_roll_mod(b, False)))
        if st == "deviate":
            mod = self.art_roll_mod(b, True)
            ok = sum(1 for r in range(1, 20) if r + mod <= coh)
            out = {"c:n20": Fraction(1, 20)}
            if ok:
                out["c:ok"] = Fraction(ok, 20)
            if ok < 19:
                out["c:fail"] = Fraction(19 - ok, 20)
            return out
        if st == "scatter":
            out = {}
            for d in DIRS:
                for roll in range(1, 9):
                    inches = (roll + 1) // 2 * (2 if b["doubled"] else 1)
                    key = f"dev:{d}{inches}"
                    out[key] = out.get(key, 0) + Fraction(1, 64)
            return out
        x, y = self.marker_squares(b)[self.art["marker"]]
        return self.art_attack(b, self.shell_at(x, y))

    def bats_by_slot(self, slot):
        return next(b for b in self.bats if b["slot"] == slot)

    def land(self, b, x, y):
        b.update(state="active", at=[x, y], doubled=False, lands=None, last=dict(b["mission"]))
        if b["mission"]["kind"] == "smoke":
            b["left"] = ART["smoke_turns"]
            b["smoke_left"] = max(0, b["smoke_left"] - 1)
        else:
            b["left"] = b["duration"]
        if not self.find_hit(b, 0) and not self.art_bldg_from(b, 0):
            self.art_done()

    def lost(self, b):
        b.update(state="none", doubled=False, mission=None, lands=None)
        self.art_done()

    def art_apply_chance(self, n, move):
        if n == "mv_artillery":
            self.hit(self.by_id[self.mover["id"]], move.split(":")[1])
            self.move_hits(self.art["marker"] + 1)
            return
        if n == "mv_artillery_retreat":
            self.hit(self.by_id[self.mover["target"]], move.split(":")[1])
            if not self.retreat_hits(self.art["marker"] + 1):
                self.close_done()
            return
        b = self.cur_bat()
        st = self.art["step"]
        if st == "reveal":
            if move == "land:none":
                if self.gone(b):
                    b.update(state="none", mission=None, lands=None)
                elif b["state"] == "held" and self.turn >= b["plot_turn"] + self.delay[b["side"]]:
                    b["state"] = "none"
                self.art_done()
            else:
                b["mission"] = self.parse_code(b, move[5:])
                b["state"] = "plotted"
                b["lands"] = self.turn
                n = b["mission"]["prereg"]
                self.art["step"] = "show_point" if n and not self.pre_shown[b["side"]][n - 1] else "arrive"
        elif st == "show_point":
            self.pre_shown[b["side"]][b["mission"]["prereg"] - 1] = True
            self.art["step"] = "arrive"
        elif st == "arrive":
            if move == "c:ok":
                self.art["step"] = "deviate"
            else:
                self.lost(b)
        elif st == "deviate":
            if move == "c:ok":
                self.land(b, *self.aim(b, b["mission"]))
            else:
                b["doubled"] = move == "c:n20"
                self.art["step"] = "scatter"
        elif st == "scatter":
            d = move[4:].rstrip("0123456789")
            inches = int(move[4 + len(d):])
            x, y = self.aim(b, b["mission"])
            x, y = x + VEC[d][0] * inches, y + VEC[d][1] * inches
            if 0 <= x < self.sc["width"] and 0 <= y < self.sc["height"]:
                self.land(b, x, y)
            else:
                self.lost(b)
        else:
            x, y = self.marker_squares(b)[self.art["marker"]]
            self.hit(self.shell_at(x, y), move.split(":")[1])
            if not self.find_hit(b, self.art["marker"] + 1) and not self.art_bldg_from(b, 0):
                self.art_done()

    # ------------------------------------------------------------ moving into an impact area
    def move_hits(self, i):
        """The mover is attacked by every high-explosive marker on its square
        (in battery, then section order), from marker index i."""
        m = self.by_id[self.mover["id"]]
        if m["alive"]:
            for b in sorted(self.bats, key=lambda b: b["slot"]):
                if b["state"] != "active" or b["mission"]["kind"] != "he":
                    continue
                for k, (x, y) in enumerate(self.marker_squares(b)):
                    idx = b["slot"] * 3 + k
                    if idx >= i and (x, y) == (m["x"], m["y"]):
                        self.art["marker"] = idx
                        self.mover["step"] = "artillery"
                        return True
        self.art["marker"] = 0
        if i == 0:
            return False
        if not m["alive"]:
            self.end_move()
            return True
        self.mover["step"] = "step"
        self.after_step_fire(m)
        return True

    def marker_on(self, s, i):
        """Index (battery slot x 3 + section, from i) of the next high-explosive marker on s's square."""
        for b in sorted(self.bats, key=lambda b: b["slot"]):
            if b["state"] != "active" or b["mission"]["kind"] != "he":
                continue
            for k, (x, y) in enumerate(self.marker_squares(b)):
                if b["slot"] * 3 + k >= i and (x, y) == (s["x"], s["y"]):
                    return b["slot"] * 3 + k
        return None

    def retreat_hits(self, i):
        """A close-assaulted stand that retreated into an impact area is
        attacked by each high-explosive marker there; then the assault is over."""
        t = self.by_id[self.mover["target"]]
        idx = self.marker_on(t, i) if t["alive"] else None
        if idx is not None:
            self.art["marker"] = idx
            self.mover["step"] = "artillery_retreat"
            return True
        self.art["marker"] = 0
        return False

    # ------------------------------------------------------------ the joint plot phase
    def may_plot_side(self, p):
        return not self.cards[p]["broken"]

    def gone(self, b):
        """An on-board battery whose stand is lost."""
        return b["stand"] is not None and not self.by_id[b["stand"]]["alive"]

    def decides(self, b):
        return b["state"] != "active" and self.may_plot_side(b["side"]) and not self.gone(b)

    def plot_start(self):
        self.phase = "plot"
        self.art["seq"] = 0
        self.plot_next()

    def plot_next(self):
        order = self.order()
        while self.art["seq"] < len(order):
            if self.decides(order[self.art["seq"]]):
                return
            self.art["seq"] += 1
        self.art["seq"] = 0
        self.to_orders()

    def plotters(self, b):
        return [s for s in self.live(b["side"])
                if (s["id"] == b["observer"] or self.command(s)) and s["id"] not in self.offtable]

    def plot_legal(self):
        b = self.cur_bat()
        out = ["hold"]
        if b["state"] not in ("none", "held"):
            return out
        for m in self.all_codes(b):
            if m["kind"] == "smoke" and b["smoke_left"] == 0:
                continue
            if m["prereg"]:
                ok = bool(self.plotters(b))
            else:
                x, y = m["target"]
                ok = any(max(abs(s["x"] - x), abs(s["y"] - y)) <= self.sight_reach(s["x"], s["y"], x, y)   # +5" a level
                         and self.los_xy(s["x"], s["y"], x, y, False) for s in self.plotters(b))
            if ok:
                out.append("plot " + self.code_text(m))
        return out

    def plot_apply(self, move):
        b = self.cur_bat()
        if move == "hold":
            if b["state"] == "none":
                b["state"] = "held"
        else:
            m = self.parse_code(b, move[5:])
            b.update(state="plotted", mission=m,
                     lands=self.turn + (1 if m["prereg"] else self.delay[b["side"]]))
        b["plot_turn"] = self.turn
        self.art["seq"] += 1
        self.plot_next()

    def markers_age(self):
        for b in self.bats:
            if b["state"] == "active":
                if b["left"] > 1:
                    b["left"] -= 1
                else:
                    b.update(state="none", mission=None, at=None, left=0)

    # ------------------------------------------------------------ schema
    def art_dict(self):
        if not self.bats:
            return None
        bats = []
        for b in sorted(self.bats, key=lambda b: b["slot"]):
            shown = b["state"] in ("plotted", "active")
            bats.append({"id": b["id"], "side": self.SIDES[b["side"]], "smoke_left": b["smoke_left"],
                         "state": b["state"], "plot_turn": b["plot_turn"],
                         "last": dict(b["last"]) if b["last"] else None,
                         "mission": dict(b["mission"]) if shown else None,
                         "lands": b["lands"] if b["state"] == "plotted" else None,
                         "markers": [[x, y] for x, y in self.marker_squares(b) if 0 <= x < self.sc["width"]]
                         if b["state"] == "active" else [],
                         "turns_left": b["left"] if b["state"] == "active" else 0,
                         "doubled": b["doubled"]})
        air_plot = self.strike is not None and self.strike["step"] == "plot"     # no battery in hand yet
        cur = self.cur_bat()["id"] if self.phase in ("artillery", "plot") and not air_plot else None
        return {"batteries": bats, "current": cur, "step": self.art["step"], "marker": self.art["marker"],
                "prereg": self.prereg_dict()}

    def art_from_dict(self, a):
        if a is None:
            return
        for p in range(2):
            for i, pt in enumerate(a["prereg"][self.SIDES[p]]):
                self.pre[p][i] = None if pt["at"] is None else list(pt["at"])
                self.pre_shown[p][i] = pt["shown"]
        for d in a["batteries"]:
            b = next(x for x in self.bats if x["id"] == d["id"])
            b.update(smoke_left=d["smoke_left"], state=d["state"], plot_turn=d["plot_turn"],
                     last=dict(d["last"]) if d["last"] else None,
                     mission=dict(d["mission"]) if d["mission"] else None, lands=d["lands"],
                     at=list(d["markers"][0]) if d["markers"] else None, left=d["turns_left"],
                     doubled=d["doubled"])
            if b["state"] == "active" and b["open"] and b["sections"] > 1 and d["markers"][0] != d["markers"][0]:
                pass
        self.art["step"] = a["step"]
        self.art["marker"] = a["marker"]
        if a["current"] is not None:
            self.art["seq"] = [b["id"] for b in self.order()].index(a["current"])
