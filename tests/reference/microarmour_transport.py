"""Transport for the plain Python Micro Armour model (tests/reference/microarmour.py),
written from RULES.md "Transport" and the rulebook digest, not from the engine:

"A vehicle can carry one equipment stand and any number of personnel up to its cargo
capacity. Loading needs both stands touching in movement posture and a cohesion roll,
and costs 50% MP for personnel or all MP for weapons ... Dismounting needs no roll.
Cargo shares the carrier's defence and combat results and cannot fire."
"Armoured vehicles brush aside enemy transports."

Stands carry three more fields: "carrier" (the id of the vehicle carrying it, or None),
"loaded" (a vehicle that took personnel aboard this turn) and "half" (the vehicle a stand
is half-loaded onto: "loads over 10 points take two turns"; RULES.md, two-turn loads).
"""
from __future__ import annotations

DIRS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
VEC = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1),
       "w": (-1, 0), "nw": (-1, 1)}


class TransportRules:
    def init_transport(self, tank_riders):
        self.tank_riders = tank_riders
        self.tr_to = None                        # the vehicle a loading roll is for
        ids = {}
        for p in range(2):
            ids[p] = [st["id"] for st in self.sc["stands"][p]]
        for p in range(2):
            for st in self.sc["stands"][p]:
                if st["id"] not in self.by_id:
                    continue
                s = self.by_id[st["id"]]
                cb = st.get("carried_by")
                s["carrier"] = ids[p][cb] if cb is not None and ids[p][cb] in self.by_id else None
                s["loaded"] = False
                s["half"] = None
        for s in self.stands:
            if s["carrier"] is not None:
                v = self.by_id[s["carrier"]]
                s["x"], s["y"], s["facing"] = v["x"], v["y"], v["facing"]

    # ------------------------------------------------------------ who carries what
    @staticmethod
    def carried(s):
        return s["carrier"] is not None

    @staticmethod
    def equipment(s):
        """A weapons stand: unarmoured, moved on foot (a towed gun)."""
        return s["w"]["defence"] == "U" and s["w"]["move"] == "F"

    @staticmethod
    def vehicle(s):
        return s["w"]["move"] != "F"

    def capacity(self, v):
        """Personnel stands v carries: its cargo value, or one tank-rider stand on a
        tracked armoured vehicle without one (optional rule)."""
        if v["w"]["cargo"]:
            return v["w"]["cargo"]
        return 1 if self.tank_riders and v["w"]["defence"] == "A" and v["w"]["move"] == "T" else 0

    def cargo_of(self, v):
        return [s for s in self.stands if s["alive"] and s["carrier"] == v["id"]]

    def room(self, v, c):
        load = self.cargo_of(v)
        if self.equipment(c):
            return v["w"]["cargo"] > 0 and not any(self.equipment(s) for s in load)
        if c["w"]["defence"] != "P":
            return False
        return sum(1 for s in load if not self.equipment(s)) < self.capacity(v)

    @staticmethod
    def half_mp(s):
        """50% of the movement allowance, rounded up, in half-MP."""
        return 2 * ((s["w"]["mp"] + 1) // 2)

    def may_load(self, c, v):
        if v is c or v["side"] != c["side"] or not v["alive"] or self.carried(v) or self.carried(c):
            return False
        if self.busy(v) or self.busy(c):
            return False          # a vehicle held for a two-turn load takes no other load
        if v["id"] in self.offtable:
            return False          # a vehicle not entered yet: nobody climbs aboard
        if c["posture"] != "move" or v["posture"] != "move" or v["moved"]:
            return False
        if not self.vehicle(v) or self.vehicle(c) or self.dist(c, v) != 1 or not self.room(v, c):
            return False
        if self.at(c["x"], c["y"], skip=c) is not None:
            return False
        if self.on_enemy_marker(c) or self.on_enemy_marker(v):
            return False          # RULES.md "Transport and minefields": no boarding in a minefield
        if self.equipment(c):
            return c["steps"] == 0 and c["mp"] >= 2 * c["w"]["mp"]
        return c["mp"] >= self.half_mp(c)

    def may_unload(self, c, d):
        if c["carrier"] is None or not c["alive"] or c["moved"] or c["id"] in self.offtable:
            return False          # cargo of a vehicle not entered yet stays aboard
        v = self.by_id[c["carrier"]]
        if self.on_enemy_marker(v):
            return False          # it leaves the field with its carrier, by the carrier's +3 roll
        x, y = v["x"] + VEC[d][0], v["y"] + VEC[d][1]
        return self.on_table(x, y) and self.cost(c, x, y) > 0 and self.at(x, y, skip=c) is None

    def on_enemy_marker(self, s):
        """s stands on a minefield marker of its enemy that is still on the table: it
        may leave only by the +3 roll (digest), not by boarding or dismounting."""
        return self.mine_at(s["x"], s["y"], s["side"]) is not None

    def brushes(self, m, o):
        """Armour brushes aside an enemy transport (a vehicle with a cargo capacity)."""
        return (m["w"]["defence"] == "A" and self.vehicle(m) and o["side"] != m["side"]
                and o["w"]["cargo"] > 0)

    def carry(self, v):
        for s in self.stands:
            if s["carrier"] == v["id"]:
                s["x"], s["y"], s["facing"] = v["x"], v["y"], v["facing"]

    # ------------------------------------------------------------ two-turn loads
    # "loads over 10 points take two turns" (RULES.md, Transport): the stand waits half-loaded
    # on its own square, its carrier held; both are aboard as next turn's movement phase opens
    # if still alive, touching and in movement posture; any S, (S), D or E on either ends it.
    def busy(self, s):
        return s["half"] is not None or any(c["half"] == s["id"] for c in self.stands)

    def half_off(self, s):
        s["half"] = None
        for c in self.stands:
            if c["half"] == s["id"]:
                c["half"] = None

    def half_loads_complete(self):
        for c in self.stands:
            if c["half"] is None:
                continue
            v = self.by_id[c["half"]]
            c["half"] = None
            if (c["alive"] and v["alive"] and not self.carried(c) and self.dist(c, v) == 1
                    and c["posture"] == "move" and v["posture"] == "move" and self.room(v, c)):
                c["carrier"] = v["id"]
                self.carry(v)
                c["moved"] = True
                if self.equipment(c):
                    v["moved"] = True
                else:
                    v["loaded"] = True

    # ------------------------------------------------------------ fate
    def cargo_dies(self, s):
        """Called when s is eliminated: it leaves its carrier; its cargo dies with it."""
        self.half_off(s)
        s["carrier"] = None
        s["loaded"] = False
        for c in self.stands:
            if c["carrier"] == s["id"]:
                c["carrier"] = None
                if c["alive"]:
                    self.kill(c)

    def share(self, t, res):
        """A result on a live carrier lands on each of its cargo too."""
        if res in ("S", "(S)", "D") and t["alive"]:
            self.half_off(t)      # a result on either stand breaks a two-turn load off
            for c in self.stands:
                if c["carrier"] == t["id"] and c["alive"]:
                    self.hit(c, res)

    # ------------------------------------------------------------ moves
    def transport_legal(self, n, p):
        out = []
        m = self.by_id[self.mover["id"]] if n == "mv_step" else None
        if m is not None and (m["w"]["defence"] == "P" or self.equipment(m)):
            out += [f"load {v['id']}" for v in self.stands if v["side"] == p and self.may_load(m, v)]
        if m is not None and self.at(m["x"], m["y"], skip=m) is not None:
            return out            # a carrier passing through a square drops nobody there
        for c in self.stands:
            if c["side"] != p or c["carrier"] is None or (m is not None and c["carrier"] != m["id"]):
                continue
            out += [f"unload {c['id']} {d}" for d in DIRS if self.may_unload(c, d)]
        return out

    def transport_apply(self, n, word, rest):
        if word == "load":
            self.tr_to = rest
            self.mover["step"] = "load_roll"
            return
        cid, d = rest.split()
        c = self.by_id[cid]
        v = self.by_id[c["carrier"]]
        c["carrier"] = None
        c["x"], c["y"], c["facing"] = v["x"] + VEC[d][0], v["y"] + VEC[d][1], d
        c.update(posture="move", moved=True, mp=0, steps=0)
        if n == "movement":
            self.alternate()

    def load_chances(self):
        m = self.by_id[self.mover["id"]]
        return self.okfail(self.p_ok(self.coh_eff(m["side"]), self.sd_mod(m)))

    def load_result(self, move):
        c, v = self.by_id[self.mover["id"]], self.by_id[self.tr_to]
        self.tr_to = None
        if move == "c:ok" and v["alive"] and c["alive"]:
            if c["w"]["two_turn_load"]:
                c["half"] = v["id"]          # a load over 10 points: aboard next turn
            else:
                c["carrier"] = v["id"]
                self.carry(v)
            if self.equipment(c):
                v["moved"] = True            # a weapon costs all MP
            else:
                v["loaded"] = True
        self.end_move()

    def loaded_cost(self, m):
        return self.half_mp(m) if m["loaded"] else 0
