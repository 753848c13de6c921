"""The Micro Armour reference model's improved positions, wire, anti-tank
ditches and minefields (RULES.md "Improved positions", "Wire and anti-tank
ditches", "Minefields"), written from the rules as a mixin of Ref, as
microarmour_air.py is. Slow and simple on purpose."""
from __future__ import annotations

from fractions import Fraction

from ardsearch.games.microarmour import _data

CHARTS = _data.load_charts()
IP = CHARTS["position"]
OBST = CHARTS["obstacle"]
MINES = CHARTS["minefield"]
IP_CLASSES = ("light", "medium", "heavy")
MF_KINDS = ("dummy", "hasty", "standard", "concentrated")
CLASS = "WTFA"


class ObstacleRules:
    def init_obstacles(self):
        sc = self.sc
        self.positions = [{"x": p["x"], "y": p["y"], "side": p["side"], "class": IP_CLASSES[p["class"]],
                           "facing": p["facing"], "hits": 0, "gone": False} for p in sc["positions"]]
        self.wire = set(sc["wire"])
        self.ditches = set(sc["ditch"])
        self.mines = [{"x": m["x"], "y": m["y"], "side": m["side"], "kind": MF_KINDS[m["kind"]],
                       "shown": False, "gone": False, "breach": 0} for m in sc["minefields"]]
        self.mine_attack = None        # index of the field attacking the mover (or the breaching stand)
        self.breacher = None           # id of the stand whose engineering roll is due (breach or wreck)
        self.cleared = set()           # ids of wrecks cleared off the road

    # ------------------------------------------------------------ improved positions
    def position_of(self, s):
        """The position s benefits from: its side's, still there, on its square,
        and s faces the way it was dug for."""
        for p in self.positions:
            if (not p["gone"] and (p["x"], p["y"]) == (s["x"], s["y"]) and p["side"] == s["side"]
                    and self.dirs_index(s["facing"]) == p["facing"]):
                return p
        return None

    @staticmethod
    def dirs_index(f):
        return f if isinstance(f, int) else _data.DIRS.index(f)

    def ip_mods(self, s):
        p = self.position_of(s)
        return (0, 0) if p is None else (IP[p["class"]]["cohesion"], IP[p["class"]]["crt"])

    def position_hit(self, s):
        """An E on s counts against its side's position on its square."""
        for p in self.positions:
            if not p["gone"] and (p["x"], p["y"]) == (s["x"], s["y"]) and p["side"] == s["side"]:
                need = IP[p["class"]]["e_to_destroy"]
                if need:
                    p["hits"] += 1
                    p["gone"] = p["hits"] >= need

    # ------------------------------------------------------------ artillery and bombs on positions
    def shellable(self, x, y):
        """The light or medium position still on (x, y), or None (heavy ones
        are never attacked: IP dv 0)."""
        for p in self.positions:
            if (p["x"], p["y"]) == (x, y) and not p["gone"] and IP[p["class"]]["dv"] > 0:
                return p
        return None

    def position_dv(self, x, y):
        return IP[self.shellable(x, y)["class"]]["dv"]

    def shell_square(self, x, y, position, fp):
        """An impact marker or bomb on (x, y): the roll against the building
        area there (position False) or the position there (True), if any."""
        if position:
            if self.shellable(x, y) is None:
                return False
        elif (x, y) not in self.bld or self.rubble(x, y):
            return False
        self.bld_roll = (x, y, min(fp, 30), 0)
        self.bld_roll_position = position
        return True

    def position_shelled(self, x, y):
        """An E from an impact or a bomb: a medium position counts it (gone at
        two), a light one goes (design)."""
        p = self.shellable(x, y)
        need = IP[p["class"]]["e_to_destroy"]
        if need == 0:
            p["gone"] = True
            return
        p["hits"] += 1
        p["gone"] = p["hits"] >= need

    def positions_marker_removal(self):
        for p in self.positions:
            if not p["gone"] and IP[p["class"]]["vanish_empty"] and not any(
                    (s["x"], s["y"]) == (p["x"], p["y"]) for s in self.live(p["side"])):
                p["gone"] = True

    # ------------------------------------------------------------ wire and ditches
    def obstacle_cost(self, s, x, y, base):
        if base == 0:
            return 0
        c = CLASS.index(s["w"]["move"])
        for squares, costs in ((self.wire, OBST["wire"]), (self.ditches, OBST["ditch"])):
            if (x, y) in squares and not (squares is self.ditches and self.filled(x, y)):   # filled in play
                if costs[c] == 0:
                    return 0
                base = max(base, costs[c])
        return base

    # ------------------------------------------------------------ minefields
    def mine_at(self, x, y, side):
        """The marker still on (x, y) laid by side's enemy, or None."""
        for i, m in enumerate(self.mines):
            if (m["x"], m["y"]) == (x, y) and not m["gone"] and m["side"] != side:
                return i
        return None

    def mine_blocks_entry(self, m, x, y):
        return self.mine_at(x, y, m["side"]) is not None and self.at(x, y, skip=m) is not None

    def must_stop(self, m):
        return m["steps"] > 0 and self.mine_at(m["x"], m["y"], m["side"]) is not None

    def leave_mod(self, m):
        return MINES["leave_mod"] if self.mine_at(m["x"], m["y"], m["side"]) is not None else 0

    def mine_leave(self, m):
        """The mover passed its roll to leave a marker: reveal it."""
        i = self.mine_at(m["x"], m["y"], m["side"])
        if i is None:
            return
        self.mine_attack = i
        self.mover["step"] = "minefield" if self.mines[i]["shown"] else "reveal"

    def reveal_chances(self):
        return {f"mine:{self.mines[self.mine_attack]['kind']}": Fraction(1)}

    def reveal_apply(self, move):
        f = self.mines[self.mine_attack]
        f["kind"] = move.split(":")[1]
        if f["kind"] == "dummy":
            f["gone"] = True
            self.mine_attack = None
            self.mover["step"] = "step"
        else:
            f["shown"] = True
            self.mover["step"] = "minefield"

    def mine_chances(self):
        col = MINES["column"][MF_KINDS.index(self.mines[self.mine_attack]["kind"])]
        return {f"crt:{r}": p for r, p in self.column(col, 0).items() if p > 0}

    # ------------------------------------------------------------ breaching
    @staticmethod
    def breach_need(s, kind):
        k = MF_KINDS.index(kind)
        needs = [n for n, ok in ((MINES["breach_engineer"][k], s["w"]["engineer"]),
                                 (MINES["breach_vehicle"][k], s["w"]["mine_clearing"])) if ok]
        return min(needs) if needs else 0

    def breach_field(self, s):
        """The revealed enemy field s (engineers or a mine-clearing vehicle that
        did not move this turn) may breach, or None."""
        if not s["alive"] or s["moved"] or s.get("carrier") is not None:
            return None           # cargo does no engineering work aboard its carrier (design)
        i = self.mine_at(s["x"], s["y"], s["side"])
        if i is None or not self.mines[i]["shown"] or not self.breach_need(s, self.mines[i]["kind"]):
            return None
        return i

    # ------------------------------------------------------------ wrecks on roads
    def on_road(self, x, y):
        t = self.ter(x, y)
        return self.terrain_list()[t["under"]]["name"] != t["name"]

    @staticmethod
    def terrain_list():
        return CHARTS["terrain"]

    def wrecks_in_way(self, x, y):
        road = self.on_road(x, y)
        return sum(1 for s in self.stands if s["wreck"] and (s["x"], s["y"]) == (x, y)
                   and not (road and s["id"] in self.cleared))

    def wreck_task(self, s):
        return (s["alive"] and not s["moved"] and s["w"]["wreck_clearing"] and self.on_road(s["x"], s["y"])
                and self.wrecks_in_way(s["x"], s["y"]) > 0)

    def breach_from(self, start):
        """The next engineering roll from stand index start: True if one is due."""
        for s in self.stands[start:]:
            if self.breach_field(s) is not None or self.wreck_task(s) or self.terrain_task(s) is not None:
                self.breacher = s["id"]
                return True
        self.breacher = None
        return False

    def breach_chances(self):
        s = self.by_id[self.breacher]
        if self.breach_field(s) is None:
            return self.okfail(self.p_ok(self.coh_eff(s["side"]), self.sd_mod(s)))
        c = min(self.coh_eff(s["side"]) - self.sd_mod(s), 19)
        ok = max(c - 1, 0)
        out = {"c:n1": Fraction(1, 20), "c:n20": Fraction(1, 20)}
        if ok:
            out["c:ok"] = Fraction(ok, 20)
        if ok < 18:
            out["c:fail"] = Fraction(18 - ok, 20)
        return out

    def breach_continue(self, s):
        if not self.breach_from(self.stands.index(s) + 1):
            self.recovery_done()

    def breach_apply(self, move):
        s = self.by_id[self.breacher]
        i = self.breach_field(s)
        if i is None:
            if move == "c:ok" and self.wreck_task(s):
                self.cleared |= {w["id"] for w in self.stands if w["wreck"] and (w["x"], w["y"]) == (s["x"], s["y"])}
            elif move == "c:ok":
                self.terrain_task_success(s)     # a bridge or a ditch (microarmour_engineering.py)
            self.breach_continue(s)
            return
        f = self.mines[i]
        if move == "c:n20":
            self.mine_attack = i
            return
        if move == "c:ok":
            f["breach"] += 1
        if move == "c:n1" or f["breach"] >= self.breach_need(s, f["kind"]):
            f["shown"], f["gone"], f["breach"] = False, True, 0
        self.breach_continue(s)

    def mine_apply(self, move):
        if self.breacher is not None:
            s = self.by_id[self.breacher]
            self.hit(s, move.split(":")[1])
            self.mine_attack = None
            self.breach_continue(s)
            return
        m = self.by_id[self.mover["id"]]
        res = move.split(":")[1]
        self.hit(m, res)
        self.mine_attack = None
        if res == "-" and m["alive"]:
            self.mover["step"] = "step"
        else:
            self.end_move()

    # ------------------------------------------------------------ schema
    def obstacles_dict(self):
        sides = self.side_key
        return {
            "positions": [{"at": [p["x"], p["y"]], "side": sides(p["side"]), "class": p["class"],
                           "facing": _data.DIRS[p["facing"]], "hits": p["hits"], "destroyed": p["gone"]}
                          for p in self.positions],
            "wire": [[x, y] for y in range(self.sc["height"]) for x in range(self.sc["width"]) if (x, y) in self.wire],
            "ditches": [[x, y] for y in range(self.sc["height"]) for x in range(self.sc["width"])
                        if (x, y) in self.ditches],
            "minefields": [{"at": [m["x"], m["y"]], "side": sides(m["side"]), "kind": m["kind"],
                            "revealed": m["shown"] or m["gone"], "removed": m["gone"], "breach": m["breach"]}
                           for m in self.mines],
            "minefield_attack": None if self.mine_attack is None else [self.mines[self.mine_attack]["x"],
                                                                       self.mines[self.mine_attack]["y"]],
            "engineering_roll": self.breacher,
            "wrecks_cleared": [s["id"] for s in self.stands if s["id"] in self.cleared],
            "position_roll": None if self.bld_roll is None or not self.bld_roll_position else
            {"at": list(self.bld_roll[:2]), "firepower": self.bld_roll[2], "modifier": self.bld_roll[3]},
        }

    def obstacles_from_dict(self, d):
        for p, pd in zip(self.positions, d["positions"]):
            p["hits"], p["gone"] = pd["hits"], pd["destroyed"]
        for m, md in zip(self.mines, d["minefields"]):
            m["kind"], m["shown"], m["gone"] = md["kind"], md["revealed"] and not md["removed"], md["removed"]
            m["breach"] = md["breach"]
        self.breacher = d["engineering_roll"]
        self.cleared = set(d["wrecks_cleared"])
        pr = d.get("position_roll")
        if pr is not None:
            self.bld_roll = (pr["at"][0], pr["at"][1], pr["firepower"], pr["modifier"])
            self.bld_roll_position = True
        a = d["minefield_attack"]
        self.mine_attack = None if a is None else next(i for i, m in enumerate(self.mines)
                                                        if [m["x"], m["y"]] == a)


_ = Fraction   # probabilities come from Ref.column (Fractions)
