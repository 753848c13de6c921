"""The reference model's special stand types (RULES.md, "Special stand types"),
written from the rules: horse cavalry mounting and dismounting, per-type terrain
costs (bicycle, ski and mountain troops, boats), flame-throwing vehicles. A
mixin of reference.microarmour.Ref (small hooks there call into it)."""
from __future__ import annotations

from fractions import Fraction

from ardsearch.games.microarmour import _data

CHARTS = _data.load_charts()
TERRAIN = CHARTS["terrain"]
CLASS = "WTFA"
DIRS = _data.DIRS
VEC = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1),
       "w": (-1, 0), "nw": (-1, 1)}
FIRE_KINDS = ("standard", "opportunity", "covering")   # the flame check follows these, not close combat


class UnitRules:
    def init_units(self):
        self.mounted = {st["id"] for p in range(2) for st in self.sc["stands"][p]
                        if st["mounted"] and st["id"] in self.by_id}
        self.flame = None             # {"target", "by", "step": "roll" | "retreat"}
        # entry from the table edge (deployment=edges only): the entering side's stands on its edge column
        self.offtable = set()
        if self.deployment == "edges":
            for p, sd in enumerate(self.sc["sides"]):
                edge_x = 0 if sd["edge"] == "west" else self.sc["width"] - 1
                self.offtable |= {st["id"] for st in self.sc["stands"][p]
                                  if sd["entry"] and st["x"] == edge_x and st["id"] in self.by_id}

    # ------------------------------------------------------------ entry from the table edge
    def enter(self, m):
        """A movement roll passed: an off-table stand's first inch is onto its entry square;
        its cargo (stands whose carrier it is) enters with it."""
        if m["id"] in self.offtable:
            self.offtable.discard(m["id"])
            self.offtable -= {s["id"] for s in self.stands if s["carrier"] == m["id"]}
            m["mp"] = max(0, m["mp"] - self.cost(m, m["x"], m["y"]))
            m["steps"] = 1

    # ------------------------------------------------------------ movement
    def class_cost(self, s, tr):
        """Half-MP per inch of terrain index tr for stand s: its type's own cost, else its class's."""
        own = s["w"]["terrain_cost"].get(TERRAIN[tr]["name"])
        return TERRAIN[tr]["cost"][CLASS.index(s["w"]["move"])] if own is None else own

    def allowance(self, s):
        mp = s["w"]["mounted_mp"] if s["id"] in self.mounted else s["w"]["mp"]
        return 2 * mp if s["posture"] == "move" else 2 * (mp // 2)

    def mount_moves(self, m):
        """Before its first step, with its whole allowance: a cavalry mover may mount or dismount."""
        if m["w"]["mounted_mp"] and m["steps"] == 0 and m["mp"] == self.allowance(m):
            return ["dismount" if m["id"] in self.mounted else "mount"]
        return []

    def mount(self, m):
        self.mounted ^= {m["id"]}
        m["mp"] = max(0, self.allowance(m) - 2 * m["w"]["mount_cost"])

    # ------------------------------------------------------------ flame
    def flame_hit(self, f, t, kind, res):
        if f["w"]["flame"] and res != "-" and t["alive"] and self.flame is None and kind in FIRE_KINDS:
            self.flame = {"target": t["id"], "by": f["id"], "step": "roll"}

    def flame_retreats(self):
        t, a = self.by_id[self.flame["target"]], self.by_id[self.flame["by"]]
        out = []
        for d in DIRS:
            x, y = t["x"] + VEC[d][0], t["y"] + VEC[d][1]
            if (self.on_table(x, y) and self.cost(t, x, y) != 0 and self.at(x, y, skip=t) is None
                    and max(abs(x - a["x"]), abs(y - a["y"])) > self.dist(t, a)):
                out.append(f"retreat {d}")
        return out

    def flame_chances(self):
        t = self.by_id[self.flame["target"]]
        return self.okfail(self.p_ok(self.coh_eff(t["side"]), self.sd_mod(t)))

    def flame_apply(self, n, move):
        t = self.by_id[self.flame["target"]]
        if n == "flame_roll":
            if move == "c:ok":
                self.flame = None
            elif self.flame_retreats():
                self.flame["step"] = "retreat"
            else:
                self.flame = None
                self.kill(t)              # it cannot fall back: it surrenders
            return
        d = move.split()[1]
        t["x"] += VEC[d][0]
        t["y"] += VEC[d][1]
        self.flame = None

    # ------------------------------------------------------------ structured state
    def units_dict(self):
        return {"mounted": [s["id"] for s in self.stands if s["id"] in self.mounted],
                "flame": None if self.flame is None else dict(self.flame),
                "offtable": [s["id"] for s in self.stands if s["id"] in self.offtable],
                "group": self.group_dict()}

    def units_from_dict(self, u):
        self.mounted = set(u["mounted"])
        self.flame = None if u["flame"] is None else dict(u["flame"])
        self.offtable = set(u["offtable"])
        self.group_from_dict(u["group"])

    @staticmethod
    def type_special(w):
        return {"special": [c for c in ("cavalry", "boat", "flame") if w[c]]
                + (["terrain_cost"] if w["terrain_cost"] else []), "mounted_mp": w["mounted_mp"]}


class GroupRules:
    """Movement groups (RULES.md, Movement groups): a scenario's [[group]] tables,
    posture marked per group, one base 1D20 per group attempt."""

    def init_groups(self):
        side_keys = [sd["key"] for sd in self.sc["sides"]]
        self.group_defs = {}          # id -> (side, [stand ids])
        for p in range(2):
            ids = [st["id"] for st in self.sc["stands"][p]]
            for grp in self.sc["groups"][p]:
                self.group_defs[grp["id"]] = (p, [ids[l] for l in grp["stands"]])
        self.group = None             # {"id", "step": roll|moving, "ordered", "attempting", "to_move"}
        del side_keys

    def members(self, gid):
        p, ids = self.group_defs[gid]
        return [s for s in self.stands if s["id"] in ids]

    def markable(self, gid):
        return [s for s in self.members(gid) if s["alive"] and s["posture"] == "firing" and s["w"]["mp"] > 0]

    def group_movers(self, gid, indep):
        return [s for s in self.members(gid) if s["alive"] and s["posture"] != "firing" and not s["moved"]
                and s["w"]["mp"] > 0 and not (indep and s["indep"]) and not self.busy(s)]

    def groups_posture_moves(self, p):
        out = []
        for gid, (side, _) in self.group_defs.items():
            if side == p and len(self.markable(gid)) >= 2:
                out += [f"gposture {gid} move", f"gposture {gid} firemove"]
        return out

    def groups_move_moves(self, p):
        out = []
        ghq = self.ghq[p] is not None and self.by_id[self.ghq[p]]["alive"]
        for gid, (side, _) in self.group_defs.items():
            if side == p and self.orders[p] > 0 and ghq and len(self.group_movers(gid, False)) >= 2:
                out.append(f"gorder {gid}")
        for gid, (side, _) in self.group_defs.items():
            if side == p and len(self.group_movers(gid, True)) >= 2:
                out.append(f"gindep {gid}")
        return out

    def group_apply_move(self, word, gid):
        p = self.group_defs[gid][0]
        if word == "gposture":
            return
        if word == "gorder":
            self.orders[p] -= 1
            att = self.group_movers(gid, False)
        else:
            self.orders[p] = 0
            att = self.group_movers(gid, True)
            for s in att:
                s["indep"] = True
        self.group = {"id": gid, "step": "roll", "ordered": word == "gorder",
                      "attempting": [s["id"] for s in att], "to_move": []}

    def group_mark(self, gid, post):
        for s in self.markable(gid):
            s["posture"] = post
        self.alternate()

    def roll_effect(self, r):
        g = self.group
        p = self.group_defs[g["id"]][0]
        if g["ordered"] and r == 20 and self.conflicting_orders:
            return ("n20", ())
        ncmd = sum(1 for i in g["attempting"] if self.command(self.by_id[i]))
        passed = tuple(i for i in g["attempting"]
                       if r + self.sd_mod(self.by_id[i]) + (0 if g["ordered"] or self.by_id[i]["w"]["recon"] else 3)
                       - 2 * ncmd + self.weather_move_mod(self.by_id[i]) <= self.coh[p])
        if g["ordered"] and r == 1 and passed and self.intuitive_action:
            return ("n1", passed)
        return ("", passed)

    def group_chances(self):
        out, last = {}, None
        key = None
        for r in range(1, 21):
            e = self.roll_effect(r)
            if key is None or e != last:
                key = f"g:{r}"
                out[key] = Fraction(0)
            out[key] += Fraction(1, 20)
            last = e
        return out

    def group_roll(self, move):
        g = self.group
        p = self.group_defs[g["id"]][0]
        special, passed = self.roll_effect(int(move.split(":")[1]))
        if special == "n20":
            self.orders[p] = 0
        elif special == "n1":
            self.orders[p] += 1
        g["to_move"] = [s["id"] for s in self.stands if s["id"] in passed]
        g["step"] = "moving"
        if not self.group_next():
            self.group = None
            self.active = p
            self.alternate()

    def group_next(self):
        g = self.group
        while g["to_move"]:
            m = self.by_id[g["to_move"].pop(0)]
            if not (m["alive"] and m["posture"] != "firing" and not m["moved"] and m["w"]["mp"] > 0 and not self.busy(m)):
                continue
            self.mover = {"id": m["id"], "step": "step", "ordered": g["ordered"], "stopped": False,
                          "of_firers": [], "target": None, "dir": "n"}
            m["steps"] = 0
            m["mp"] = self.allowance(m)
            self.enter(m)
            self.active = m["side"]
            return True
        return False

    def group_continue(self):
        """end_move: True if the group's next stand takes over."""
        if self.group is None or self.group["step"] != "moving":
            return False
        if self.group_next():
            return True
        self.group = None
        return False

    def group_dict(self):
        if self.group is None:
            return None
        g = self.group
        order = [s["id"] for s in self.stands]
        return {"id": g["id"], "step": g["step"], "ordered": g["ordered"],
                "attempting": sorted(g["attempting"], key=order.index),
                "to_move": sorted(g["to_move"], key=order.index)}

    def group_from_dict(self, g):
        self.group = None if g is None else {"id": g["id"], "step": g["step"], "ordered": g["ordered"],
                                             "attempting": list(g["attempting"]), "to_move": list(g["to_move"])}
