"""The Micro Armour reference model's engineering tasks that change the table:
bridging a stream square and filling an AT ditch square (RULES.md "Engineering:
bridges and AT ditches"), written from the rules as a mixin of Ref, as
microarmour_obstacles.py is. Slow and simple on purpose.

Digest *Engineering*: "Each task needs a set number of successful cohesion rolls,
made in the Marker Removal Phase while the stand stays in place ... AT ditches take
2 (dozer) or 4 (engineers), bridges 2 (bridging tank) or 4 (engineers with
materials)". The rolls are the engineering rolls of microarmour_obstacles.py (after
a stand's minefield breach and its wreck clearing)."""
from __future__ import annotations

from ardsearch.games.microarmour import _data

ENG = _data.load_charts()["engineering"]
TERRAIN_NAMES = [t["name"] for t in _data.load_charts()["terrain"]]
DELTA = {"n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1), "s": (0, -1), "sw": (-1, -1), "w": (-1, 0),
         "nw": (-1, 1)}
MAX_CHANGES = 8


class EngineeringRules:
    def init_engineering(self):
        self.tchanges = []          # squares worked on, in the order work began: {x, y, succ, done}

    def built(self, x, y, t):
        """Terrain index t of (x, y), a bridge where one was built."""
        for c in self.tchanges:
            if (c["x"], c["y"]) == (x, y) and c["done"] and self.task_of(x, y) == "bridge":
                return TERRAIN_NAMES.index("bridge")
        return t

    def filled(self, x, y):
        return any((c["x"], c["y"]) == (x, y) and c["done"] and self.task_of(x, y) == "ditch"
                   for c in self.tchanges)

    def task_of(self, x, y):
        """A ditch square is filled; a stream square of the map is bridged."""
        if (x, y) in self.ditches:
            return "ditch"
        if TERRAIN_NAMES[self.sc["grid"][y][x]] == "stream":
            return "bridge"
        return None

    @staticmethod
    def task_need(s, task):
        w = s["w"]
        needs = ([n for n, ok in ((ENG["ditch_dozer"], w["dozer"]), (ENG["ditch_engineer"], w["engineer"])) if ok]
                 if task == "ditch" else
                 [n for n, ok in ((ENG["bridge_tank"], w["bridging"]), (ENG["bridge_materials"], w["materials"]))
                  if ok])
        return min(needs) if needs else 0

    def change_at(self, x, y):
        return next((c for c in self.tchanges if (c["x"], c["y"]) == (x, y)), None)

    def terrain_task(self, s):
        """The square s works on (the one it faces), or None."""
        if (not s["alive"] or s["moved"] or s.get("carrier") is not None or s["id"] in self.offtable
                or s["hidden"]):
            return None
        f = s["facing"] if isinstance(s["facing"], str) else _data.DIRS[s["facing"]]
        x, y = s["x"] + DELTA[f][0], s["y"] + DELTA[f][1]
        if not self.on_table(x, y):
            return None
        task = self.task_of(x, y)
        if task is None or not self.task_need(s, task):
            return None
        c = self.change_at(x, y)
        if c is not None and c["done"]:
            return None
        if task == "bridge" and self.at(x, y) is not None:
            return None
        if c is None and len(self.tchanges) >= MAX_CHANGES:
            return None
        return x, y

    def terrain_task_success(self, s):
        x, y = self.terrain_task(s)
        c = self.change_at(x, y)
        if c is None:
            c = {"x": x, "y": y, "succ": 0, "done": False}
            self.tchanges.append(c)
        c["succ"] += 1
        c["done"] = c["succ"] >= self.task_need(s, self.task_of(x, y))

    def engineering_dict(self):
        return {"terrain_changes": [{"at": [c["x"], c["y"]], "task": self.task_of(c["x"], c["y"]),
                                     "successes": c["succ"], "done": c["done"]} for c in self.tchanges]}

    def engineering_from_dict(self, d):
        self.tchanges = [{"x": c["at"][0], "y": c["at"][1], "succ": c["successes"], "done": c["done"]}
                         for c in d.get("terrain_changes", [])]
