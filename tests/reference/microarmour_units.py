"""The reference model's special stand types (RULES.md, "Special stand types"),
written from the rules: horse cavalry mounting and dismounting, per-type terrain
costs (bicycle, ski and mountain troops, boats), flame-throwing vehicles. A
mixin of reference.microarmour.Ref (small hooks there call into it)."""
from __future__ import annotations

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
        """A movement roll passed: an off-table stand's first inch is onto its entry square."""
        if m["id"] in self.offtable:
            self.offtable.discard(m["id"])
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
                "offtable": [s["id"] for s in self.stands if s["id"] in self.offtable]}

    def units_from_dict(self, u):
        self.mounted = set(u["mounted"])
        self.flame = None if u["flame"] is None else dict(u["flame"])
        self.offtable = set(u["offtable"])

    @staticmethod
    def type_special(w):
        return {"special": [c for c in ("cavalry", "boat", "flame") if w[c]]
                + (["terrain_cost"] if w["terrain_cost"] else []), "mounted_mp": w["mounted_mp"]}
