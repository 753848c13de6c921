"""Paratroop drops for the Micro Armour reference model (tests/reference/
microarmour.py mixes this in): written from RULES.md "Paratroops", not from the
engine. Full states only: the drop zone is always known here. Gliders (their
scatter dice, the roll forward) and the lost paratroop HQ's delay are here too."""
from __future__ import annotations

from fractions import Fraction

from ardsearch.games.microarmour import _data

TERRAIN = _data.load_charts()["terrain"]

COMPASS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
STEP = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1),
        "w": (-1, 0), "nw": (-1, 1)}
JUMPS = ("on_target", "hot", "glider", "glider_snafu")
GLIDERS = ("glider", "glider_snafu")  # RULES.md: the glider tables' jump conditions
NIGHT_MOD = 2                       # RULES.md: a night drop adds 2 to the arrival roll


def _dice(jump):
    """The scatter distance in inches: 'On Target' ceil(1D8 / 2), 'Hot Combat Jump' 4D6,
    the glider tables 2D8 and 'SNAFU' 2D8 + 4."""
    out = {}
    if jump == "on_target":
        for a in range(1, 9):
            out[(a + 1) // 2] = out.get((a + 1) // 2, 0) + Fraction(1, 8)
        return out
    if jump in GLIDERS:
        add = 4 if jump == "glider_snafu" else 0
        for a in range(1, 9):
            for b in range(1, 9):
                out[a + b + add] = out.get(a + b + add, 0) + Fraction(1, 64)
        return out
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                for d in range(1, 7):
                    out[a + b + c + d] = out.get(a + b + c + d, 0) + Fraction(1, 1296)
    return out


class DropRules:
    # ------------------------------------------------------------ setup
    def init_drop(self, jump="scenario"):
        dr = self.sc.get("drop")
        self.drop_def = dr
        self.drop_wait = []
        self.drop_zone = None
        self.drop_step = None
        self.drop_cur = None
        self.drop_die = None         # the scatter cohesion roll: "ot" passed (the 'On Target' die), "jump" failed (the jump's die)
        self.drop_dir = "n"
        self.drop_jump = "on_target"
        self.drop_hq = None          # the landing group's HQ (at most one)
        self.hq_delay = 0            # its lost post: 0, turns left 1..4, or "roll" (the delay roll due)
        if dr is None:
            return
        self.drop_jump = JUMPS[dr["jump"]] if jump == "scenario" else jump
        ids = [self.sc["stands"][dr["side"]][l]["id"] for l in sorted(dr["stands"])]
        group = [self.by_id[i] for i in ids]
        for s in group:
            s["alive"] = False       # waiting in the aircraft
            if s["w"]["role"] == "hq":
                self.drop_hq = s["id"]
                s["hq"] = False      # its post is held from its landing
        if dr["turn"] <= self.turns:
            self.drop_wait = [s["id"] for s in group]

    def drop_blocks(self):
        """Legal drop zones: centres of 3" blocks whose map square is clear, row by row."""
        w, h = self.sc["width"], self.sc["height"]
        return [(x, y) for y in range(1, h, 3) for x in range(1, w, 3)
                if TERRAIN[self.sc["grid"][y][x]]["name"] == "clear"]

    # ------------------------------------------------------------ flow hooks
    def drop_plot_due(self):
        return (self.drop_def is not None and self.drop_wait and self.turn + 1 == self.drop_def["turn"]
                and self.drop_zone is None)

    def drop_turn_begin(self):
        if self.drop_wait and self.turn == self.drop_def["turn"] and self.drop_zone is not None:
            self.drop_step = "reveal"        # a public event: the zone is seen

    def drop_next(self):
        self.drop_dir = "n"
        self.drop_die = None
        if self.drop_wait:
            self.drop_cur = self.drop_wait[0]
            self.drop_step = "arrive"
        else:
            self.drop_cur = None
            self.drop_step = None
            self.drop_zone = None

    # ------------------------------------------------------------ legal and chance
    def drop_legal(self):
        return [f"drop {x},{y}" for x, y in self.drop_blocks()]

    def drop_chances(self):
        p = self.drop_def["side"]
        st = "hq_delay" if self.node() == "drop_hq_delay" else self.drop_step
        if st == "reveal":
            return {"drop {},{}".format(*self.drop_zone): Fraction(1)}
        if st == "arrive":
            mod = self.drop_def["modifier"] + (NIGHT_MOD if self.night else 0)
            lost = Fraction(min(20, max(0, mod + 1)), 20)       # 1D20 + mod >= 20
            return self.okfail(1 - lost)
        if st in ("cohesion", "landing"):
            return self.okfail(self.p_ok(self.coh_eff(p), 0))
        if st == "direction":
            return {f"dir:{d}": Fraction(1, 8) for d in COMPASS}
        if st == "roll":                     # RULES.md: a glider rolls forward 1D8/2 inches
            return {f"glide:{k}": v for k, v in sorted(_dice("on_target").items())}
        if st == "hq_delay":                 # RULES.md: 1D8/2 turns before the post may be filled
            return {f"hq_delay:{k}": v for k, v in sorted(_dice("on_target").items())}
        return {f"scatter:{k}": v for k, v in sorted(_dice("on_target" if self.drop_die == "ot" else self.drop_jump).items())}

    # ------------------------------------------------------------ apply
    def drop_apply(self, n, move):
        if n == "drop_hq_delay":
            self.hq_delay = int(move.split(":")[1])
            self.command_done()
            return
        if n == "drop_plot":
            x, y = move.split()[1].split(",")
            self.drop_zone = [int(x), int(y)]
            self.drop_step = None
            if self.air_plots_from(0):       # the air bomb plots, then the artillery plots
                self.phase = "plot"
            else:
                self.joint_plot_air_done()
            return
        if n == "drop_reveal":
            self.drop_cur = self.drop_wait[0]
            self.drop_step = "arrive"
            return
        s = self.by_id[self.drop_cur]
        st = self.drop_step
        if st == "arrive":
            if move == "c:fail":             # removed on 20+
                self.drop_lost(s)
            else:
                self.drop_step = "cohesion"
        elif st == "cohesion":
            self.drop_die = "ot" if move == "c:ok" else "jump"   # the engine records which roll, not which die
            self.drop_step = "direction"
        elif st == "direction":
            self.drop_dir = move.split(":")[1]
            self.drop_step = "distance"
        elif st == "distance":
            self.drop_land(s, int(move.split(":")[1]))
        elif st == "roll":
            self.glide(s, int(move.split(":")[1]))
        elif st == "landing":
            if move == "c:fail":
                self.bad_landing(s)
            self.drop_next()

    def bad_landing(self, s):
        if self.ter(s["x"], s["y"])["name"] == "clear":
            s["S"] = True
        else:
            s["D"] = True

    def glide(self, s, inches):
        """An inch at a time toward the enemy's edge; a square off the table, not open
        ground (clear, or a road over clear), impassable or holding a live stand stops it
        before: a crash, a failed landing."""
        dx = 1 if self.sc["sides"][self.drop_def["side"]]["edge"] == "west" else -1
        for _ in range(inches):
            x, y = s["x"] + dx, s["y"]
            if not (0 <= x < self.sc["width"] and TERRAIN[self.ter(x, y)["under"]]["name"] == "clear" and self.cost(s, x, y) > 0
                    and self.at(x, y, s) is None):
                self.bad_landing(s)
                self.drop_next()
                return
            s["x"] = x
        self.drop_step = "landing"

    def drop_lost(self, s):
        """Never lands: the group's HQ so lost is a lost paratroop HQ (RULES.md)."""
        self.drop_wait.remove(s["id"])
        if s["id"] == self.drop_hq:
            self.hq_lost[s["side"]] += 1
            self.hq_delay = "roll"
        self.drop_next()

    # ------------------------------------------------------------ the paratroop HQ delay
    def hq_delay_killed(self, s):
        """kill(): s held an HQ post."""
        if s["id"] == self.drop_hq:
            self.hq_delay = "roll"

    def hq_posts_held(self, p):
        return 1 if self.hq_delay and self.drop_def is not None and p == self.drop_def["side"] else 0

    def hq_delay_turn_end(self):
        if self.hq_delay not in (0, "roll"):
            self.hq_delay -= 1

    def drop_free(self, s, x, y):
        return (0 <= x < self.sc["width"] and 0 <= y < self.sc["height"] and self.at(x, y, s) is None
                and self.cost(s, x, y) > 0)

    def drop_land(self, s, inches):
        dx, dy = STEP[self.drop_dir]
        x = min(max(self.drop_zone[0] + dx * inches, 0), self.sc["width"] - 1)
        y = min(max(self.drop_zone[1] + dy * inches, 0), self.sc["height"] - 1)
        spot = (x, y) if self.drop_free(s, x, y) else None
        r = 1
        while spot is None and r < 40:
            ring = [(x + ex, y + ey) for ey in range(-r, r + 1) for ex in range(-r, r + 1)
                    if max(abs(ex), abs(ey)) == r]
            spot = next((q for q in ring if self.drop_free(s, *q)), None)
            r += 1
        if spot is None:
            self.drop_step = None
            self.drop_lost(s)
            return
        self.drop_wait.remove(s["id"])
        # its facing is the scenario's (unchanged while it waited)
        s.update(alive=True, x=spot[0], y=spot[1], posture="firing", S=False, D=False)
        if s["id"] == self.drop_hq:
            s["hq"] = True                   # the paratroop HQ takes its post as it lands
        self.drop_step = "roll" if self.drop_jump in GLIDERS else "landing"

    # ------------------------------------------------------------ schema
    def drop_dict(self):
        if self.drop_def is None:
            return {}
        dr = self.drop_def
        steps = {None: "none", "plot": "plot", "arrive": "arrive", "cohesion": "cohesion",
                 "direction": "direction", "landing": "landing", "reveal": "reveal", "roll": "roll"}
        step = steps.get(self.drop_step) or ("distance_on_target" if self.drop_die == "ot"
                                             else "distance_jump")
        direction = self.drop_dir
        if self.drop_step == "direction":
            direction = "distance_on_target" if self.drop_die == "ot" else "distance_jump"
        return {"drop": {"side": self.side_key(dr["side"]), "turn": dr["turn"], "jump": self.drop_jump,
                         "modifier": dr["modifier"], "group": [self.sc["stands"][dr["side"]][l]["id"] for l in sorted(dr["stands"])],
                         "waiting": list(self.drop_wait), "zone": None if self.drop_zone is None else list(self.drop_zone),
                         "step": step, "stand": self.drop_cur, "direction": direction, "hq": self.drop_hq,
                         "hq_delay": self.hq_delay}}

    def drop_from_dict(self, d):
        dr = d.get("drop")
        if dr is None or self.drop_def is None:
            return
        self.drop_wait = list(dr["waiting"])
        self.drop_zone = None if dr["zone"] is None else list(dr["zone"])
        self.drop_jump = dr["jump"]
        self.hq_delay = dr.get("hq_delay", 0)
        st = dr["step"]
        self.drop_die = None
        if st in ("distance_on_target", "distance_jump"):
            self.drop_die = "ot" if st == "distance_on_target" else "jump"
            st = "distance"
        self.drop_step = None if st == "none" else st
        self.drop_cur = dr["stand"]
        self.drop_dir = dr["direction"]
        if self.drop_step == "direction":
            self.drop_die = "ot" if dr["direction"] == "distance_on_target" else "jump"
            self.drop_dir = "n"

    def drop_clone_into(self, c):
        c.drop_wait = list(self.drop_wait)
        c.drop_zone = None if self.drop_zone is None else list(self.drop_zone)
