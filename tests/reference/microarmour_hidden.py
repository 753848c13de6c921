"""Hidden set-up, dummies, spotting, weather and night for the Micro Armour
reference model (tests/reference/microarmour.py mixes this in and calls these
hooks): written from RULES.md "Hidden set-up and spotting" and "Weather and
night", not from the engine. Full states only: here every marker's content is known."""
from __future__ import annotations

from fractions import Fraction

from ardsearch.games.microarmour import _data

CHARTS = _data.load_charts()
TERRAIN = CHARTS["terrain"]
TNAMES = [t["name"] for t in TERRAIN]
SPOT = CHARTS["spotting"]
# weather: sighting dice (count, sides) per weather name (RULES.md, Weather and night)
WEATHER_DICE = {"clear": None, "light_rain": (3, 6), "haze": (2, 8), "heavy_rain": (2, 6), "light_snow": (2, 6),
                "heavy_snow": (1, 6), "fog": (1, 6), "sandstorm": (1, 6),
                "haze_percent": "1d20%"}     # haze's alternative: the board's sighting less 1D20 percent
WEATHERS = tuple(WEATHER_DICE)
GROUNDS = ("normal", "snow", "deep_snow", "frozen", "extreme_heat")


def dice_sum(n, sides):
    out = {0: Fraction(1)}
    for _ in range(n):
        nxt = {}
        for v, p in out.items():
            for f in range(1, sides + 1):
                nxt[v + f] = nxt.get(v + f, 0) + p / sides
        out = nxt
    return out


class HiddenRules:
    # ------------------------------------------------------------ setup
    def init_hidden(self, weather="scenario", ground="scenario", night="scenario"):
        sc = self.sc
        self.weather = WEATHERS[sc["weather"]] if weather == "scenario" else weather
        self.ground = GROUNDS[sc["ground"]] if ground == "scenario" else ground
        self.night = sc["night"] if night == "scenario" else night == "night"
        self.sight = sc["sighting"]
        self.sight_turn = 0
        flags = {st["id"]: (st["hidden"], st["dummy"]) for p in range(2) for st in sc["stands"][p]}
        for s in self.stands:
            s["hidden"], s["dummy"] = flags[s["id"]]
            s["removed"] = False
            s["due"] = False       # spotted or shown: what it is comes next (a chance node)
        # flares (RULES.md, Weather and night): left per side, burning this turn, decided this turn;
        # the cohesion the night took from each side (a flare gives it back for its turn)
        self.flares, self.flare_lit, self.flare_decided, self.night_lost = [0, 0], [False, False], [False, False], [0, 0]
        if self.night:
            for p in range(2):
                self.night_lost[p] = min(sc["night_loss"][p], self.coh[p] - 5)
                self.coh[p] -= self.night_lost[p]
                self.flares[p] = sc["flares"][p]
        self.spot_update()

    # ------------------------------------------------------------ weather and ground
    def ground_ter(self, t):
        name = TNAMES[t]
        if self.ground in ("snow", "deep_snow") and name == "clear":
            return TNAMES.index("rough")          # snow: clear terrain is Rough 1
        if self.ground == "frozen" and name == "stream":
            return TNAMES.index("rough")          # extreme cold freezes water to Rough 1
        return t

    def weather_move_mod(self, s):
        # "extreme heat or cold gives +2 to dismounted personnel movement rolls": personnel
        # moving on foot, not on horseback (and cargo never rolls)
        if self.ground in ("frozen", "extreme_heat") and s["w"]["defence"] == "P" and s["w"]["move"] == "F" \
                and s["id"] not in self.mounted:
            return 2
        return 0

    def ground_cost(self, c):
        return 2 * c if self.ground == "deep_snow" else c     # deep snow doubles MP costs

    def sight_rolls(self):
        return WEATHER_DICE[self.weather] is not None or self.night

    def sight_due(self):
        return self.phase == "initiative" and self.sight_turn != self.turn and self.sight_rolls()

    def sight_chances(self):
        board = self.sc["sighting"]
        dice = WEATHER_DICE[self.weather]
        dist = {board: Fraction(1)} if dice is None else {}
        if dice == "1d20%":
            for r in range(1, 21):
                v = max(1, board * (100 - r) // 100)
                dist[v] = dist.get(v, 0) + Fraction(1, 20)
        elif dice is not None:
            for v, p in dice_sum(*dice).items():
                dist[min(v, board)] = dist.get(min(v, board), 0) + p
        if self.night:
            nm = SPOT["night_max"]
            out = {}
            for v, p in dist.items():
                for n in range(1, nm + 1):
                    out[min(v, n)] = out.get(min(v, n), 0) + p / nm
            dist = out
        return {f"sight:{v}": p for v, p in sorted(dist.items())}

    def sight_apply(self, move):
        self.sight = int(move.split(":")[1])
        self.sight_turn = self.turn

    # ------------------------------------------------------------ dummies and markers
    def is_stand(self, s):
        """Counts as a stand for break points: not a dummy, not removed."""
        return not s["dummy"] and not s["removed"]

    def holds_ground(self, s):
        """Holds the village at the end: shown (a marker holds nothing)."""
        return not s["hidden"]

    def fire_hidden_blocked(self, f, t):
        return f["hidden"] or t["hidden"]

    # ------------------------------------------------------------ showing markers
    def reveal_due(self):
        return next((s for s in self.stands if s["due"]), None)

    def show_moves(self, p):
        return [f"show {s['id']}" for s in self.stands if s["side"] == p and s["hidden"] and not s["due"]]

    def show(self, move):
        self.by_id[move.split()[1]]["due"] = True

    def shown_chances(self):
        s = self.reveal_due()
        return {"shown:" + ("dummy" if s["dummy"] else s["w"]["key"]): Fraction(1)}

    def shown_apply(self, move):
        s = self.reveal_due()
        s["due"] = False
        self.reveal(s)
        self.shell_reveal_done()

    # ------------------------------------------------------------ markers under fire support
    def shell_at(self, x, y):
        """The stand an impact or airstrike on (x, y) attacks: never one off the table."""
        for s in self.stands:
            if (s["alive"] and (s["x"], s["y"]) == (x, y) and s["carrier"] is None
                    and s["id"] not in self.offtable):
                return s
        return None

    def shell_reveal(self, s):
        """An impact or strike lands on an unspotted marker: it is shown first."""
        if s is not None and s["hidden"]:
            s["due"] = True

    def shell_reveal_done(self):
        """A dummy shown under the impact or strike in hand: on to the next attack."""
        if self.phase == "artillery" and self.art["step"] == "hit":
            b = self.cur_bat()
            x, y = self.marker_squares(b)[self.art["marker"]]
            if self.shell_at(x, y) is None and not self.find_hit(b, self.art["marker"]) \
                    and not self.art_bldg_from(b, 0):
                self.art_done()
        elif self.strike and self.strike["step"] == "crt" and self.air_target() is None:
            self.hits_from(self.strike["sq"])

    # ------------------------------------------------------------ sighting and spotting
    def sight_reach(self, ax, ay, bx, by):
        """The sighting distance from square (ax, ay) to (bx, by): the turn's sighting
        plus 5" (spotting.per_level) for each level the first square stands above the
        second (RULES.md, Fire / Hidden set-up and spotting; digest: "Units on higher
        ground gain 5" of sighting per level"). Fire, spotting and plots ask this."""
        up = SPOT["level"][self.ground_ter(self.ter_index(ax, ay))] \
            - SPOT["level"][self.ground_ter(self.ter_index(bx, by))]     # as built in play (bridges)
        return self.sight + (SPOT["per_level"] * up if up > 0 else 0)

    def spots(self, e, g):
        d = self.dist(e, g)
        if d <= 1:
            return True
        tg = self.ground_ter(self.ter_index(g["x"], g["y"]))        # as built in play (bridges)
        r = self.sight_reach(e["x"], e["y"], g["x"], g["y"])
        conceal = 0 if g["fired"] else SPOT["concealed"][tg]
        if conceal and conceal < r:
            r = conceal
        if d > r:
            return False
        from reference.microarmour import crossed
        return not any(self.blocking(cx, cy, True) for cx, cy in crossed(e["x"], e["y"], g["x"], g["y"]))

    def reveal(self, s):
        s["hidden"] = False
        if s["dummy"]:
            s.update(dummy=False, removed=True, alive=False, due=False)

    def spot_update(self):
        for g in self.stands:
            if g["hidden"] and not g["due"] and any(
                    self.spots(e, g) for e in self.stands
                    if e["side"] != g["side"] and e["alive"] and not e["dummy"]):
                g["due"] = True

    # ------------------------------------------------------------ schema
    def stand_hidden_dict(self, s):
        return {"hidden": s["hidden"], "dummy": s["dummy"], "spotted": s["due"]}

    def weather_dict(self):
        return {"weather": self.weather, "ground": self.ground, "night": self.night, "sighting": self.sight,
                "sighting_turn": self.sight_turn, "flares": list(self.flares), "flare": list(self.flare_lit),
                "flare_decided": list(self.flare_decided), "night_loss": list(self.night_lost)}

    # ------------------------------------------------------------ flares
    def flare_side(self):
        """The side deciding whether to fire a flare: at night, at the start of a turn
        (after the sighting roll, before initiative), German first, one with flares left."""
        if not self.night or self.phase != "initiative":
            return None
        return next((p for p in range(2) if self.flares[p] and not self.flare_decided[p]), None)

    def flare_apply(self, move):
        p = self.flare_side()
        self.flare_decided[p] = True
        if move == "flare":
            self.flares[p] -= 1
            self.flare_lit[p] = True
            self.coh[p] += self.night_lost[p]

    def flares_new_turn(self):
        for p in range(2):
            if self.flare_lit[p]:
                self.coh[p] -= self.night_lost[p]
        self.flare_lit, self.flare_decided = [False, False], [False, False]

    def hidden_from_dict(self, d):
        listed = {sd["id"]: sd for sd in d["stands"]}
        weapons = {w["key"]: w for w in _data.load_weapons()}
        for s in self.stands:
            sd = listed.get(s["id"])
            if sd is None:
                s.update(hidden=False, dummy=False, removed=True, alive=False, due=False)
            else:
                s.update(hidden=sd["hidden"], dummy=sd["dummy"], removed=False, w=weapons[sd["type"]],
                         due=sd["spotted"])
        self.coh = list(d["cohesion"])
        w = d["conditions"]
        self.weather, self.ground, self.night = w["weather"], w["ground"], w["night"]
        self.sight, self.sight_turn = w["sighting"], w["sighting_turn"]
        self.flares, self.flare_lit = list(w.get("flares", [0, 0])), list(w.get("flare", [False, False]))
        self.flare_decided = list(w.get("flare_decided", [False, False]))
        self.night_lost = list(w.get("night_loss", [0, 0]))
