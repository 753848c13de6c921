"""Undaunted: Normandy: an independent pure-Python model of the rules.

Written from shared/games/undaunted.md and the engine's RULES.md (notation and
design choices), not from the C engine: plain dicts, Counters and sets, moves
as notation strings. The differential test plays seeded random games through
both and compares legal moves, chance distributions and the structured state.

The rules model works on full states. PublicBelief follows a game from the
public events only and keeps, for each army, the exact distribution of its
hand (and hidden first bid) given them, as a table of every possible hand:
the slow, obvious reading of RULES.md "Hidden information", against which
the engine's views, chance probabilities on views and determinize() are
checked.
"""
from __future__ import annotations

import copy
from collections import Counter, deque

CARDS = ("fog", "mortar", "mg", "sniper", "rifA", "rifB", "rifC", "scoutA", "scoutB", "scoutC",
         "sl_A", "sl_B", "sl_C", "guide", "psgt")
UNITS = CARDS[1:10]
RIFLEMEN = ("rifA", "rifB", "rifC")
SCOUTS = ("scoutA", "scoutB", "scoutC")
LEADERS = ("sl_A", "sl_B", "sl_C")
INITIATIVE = {"fog": 1, "mortar": 2, "mg": 3, "sniper": 4, "guide": 8, "psgt": 9,
              **{c: 5 for c in RIFLEMEN}, **{c: 6 for c in SCOUTS}, **{c: 7 for c in LEADERS}}
DEFENCE = {"mortar": 3, "mg": 4, "sniper": 5, **{c: 4 for c in RIFLEMEN}, **{c: 5 for c in SCOUTS}}
ATTACK_DICE = {"mg": 2, "sniper": 3, **{c: 1 for c in RIFLEMEN}, **{c: 1 for c in SCOUTS}}
BOLSTER = {"sl_A": (2, "A"), "sl_B": (2, "B"), "sl_C": (2, "C"), "guide": (1, None), "psgt": (3, None)}
ZONES = ("deck", "hand", "discard", "play", "supply", "removed")
ORDER = {c: i for i, c in enumerate(CARDS)}
MAX_PLAYS = 60          # design choice: a turn ends after 60 card plays
ARMIES = ("us", "germans")  # army 0, army 1; the structured state names the winner by these


def group(card):
    """Combat group letter of a card, or None."""
    if card in RIFLEMEN or card in SCOUTS or card in LEADERS:
        return card[-1]
    return None


def hit_probability(dice, defence):
    faces = sum(1 for f in range(10) if f == 0 or f >= defence)
    return 1.0 - (1.0 - faces / 10.0) ** dice


class Undaunted:
    """A full game state; build it from the engine's structured state (to_dict)."""

    def __init__(self, d):
        self.tiles = [t["name"] for t in d["tiles"]]
        self.cover = {t["name"]: t["cover"] for t in d["tiles"]}
        self.objective = {t["name"]: t["objective"] for t in d["tiles"]}
        self.adj = {t["name"]: set(t["adjacent"]) for t in d["tiles"]}
        self.max_rounds = d["max_rounds"]
        self.phase = d["phase"]
        self.to_move = d["to_move"]
        self.initiative = d["initiative"]
        self.turn_index = d["turn_index"]
        self.turn_plays = d["turn_plays"]
        self.round = d["round"]
        self.draws_pending = d["draws_pending"]
        self.bolster = copy.deepcopy(d["bolster"])
        self.roll = copy.deepcopy(d["roll"])
        self.queue = [tuple(x) for x in d["explode_queue"]]
        self.winner = None if d["winner"] is None else ARMIES.index(d["winner"])
        self.end_reason = d["end_reason"]
        self.armies = []
        for a in d["armies"]:
            army = {z: Counter(a[z]) for z in ZONES}
            army["tokens"] = {u: [t["tile"], t["suppressed"]] for u, t in a["tokens"].items()}
            army["scouted"] = set(a["scouted"])
            army["controlled"] = set(a["controlled"])
            for k in ("spawn", "target", "goal", "goal_points", "bid"):
                army[k] = a[k]
            self.armies.append(army)

    # ------------------------------------------------------------ geometry
    def distance(self, a, b):
        seen, todo = {a: 0}, deque([a])
        while todo:
            t = todo.popleft()
            if t == b:
                return seen[t]
            for n in self.adj[t]:
                if n not in seen:
                    seen[n] = seen[t] + 1
                    todo.append(n)
        return 99

    def where(self, a, unit):
        tok = self.armies[a]["tokens"].get(unit)
        return tok[0] if tok else self.armies[a]["spawn"]

    def ready(self, a, unit):
        tok = self.armies[a]["tokens"].get(unit)
        return not (tok and tok[1])

    def marked(self, a, tile):
        return tile in self.armies[a]["scouted"] or tile in self.armies[a]["controlled"]

    def points(self, a):
        return sum(self.objective[t] for t in self.armies[a]["controlled"])

    def defence(self, army, unit, from_tile, explode):
        tile = self.armies[army]["tokens"][unit][0]
        cover = self.cover[tile]
        if cover == "hill":
            cover = 1 if explode or (from_tile != tile and self.cover[from_tile] == "hill") else 3
        dist = 0 if explode else self.distance(from_tile, tile)
        return DEFENCE[unit] + cover + dist

    # ------------------------------------------------------------ moves
    def current_player(self):
        if self.phase == "over":
            return "terminal"
        if self.phase in ("deal", "reveal", "roll", "command_draw", "leftover"):
            return "chance"
        return self.to_move

    def legal(self):
        a = self.to_move
        me = self.armies[a]
        if self.phase in ("bid1", "bid2"):
            return sorted(f"bid:{c}" for c in me["hand"] if me["hand"][c])
        if self.phase == "bolster":
            lo = ORDER[self.bolster["min"]]
            g = self.bolster["group"] or None
            picks = [f"bolster:{c}" for c in CARDS[lo:] if me["supply"][c] and (g is None or group(c) == g)]
            return sorted(picks + ["bolster:stop"])
        if self.phase != "turn":
            return []
        return sorted(self.turn_moves(a))

    def turn_moves(self, a):
        me, op = self.armies[a], self.armies[1 - a]
        out = ["end"]
        if self.turn_plays >= MAX_PLAYS:
            return out
        enemies = [u for u in op["tokens"]]
        for c in CARDS:
            if not me["hand"][c]:
                continue
            if c != "fog":
                out.append(f"{c}:shelter")
            if c in UNITS and not self.ready(a, c):
                out.append(f"{c}:rally")
                continue
            pos = self.where(a, c) if c in UNITS else None
            if c in ("mortar", "mg") or c in RIFLEMEN:
                out += [f"{c}:move:{t}" for t in self.adj[pos] if self.marked(a, t)]
            if c == "sniper":
                out += [f"sniper:sneak:{t}" for t in self.adj[pos]]
            if c in ATTACK_DICE:
                out += [f"{c}:attack:{u}" for u in enemies]
            if c == "mg":
                out += [f"mg:suppress:{u}" for u in enemies]
            if c == "mortar":
                if "mortar" in me["tokens"] and me["target"] is not None:
                    out.append("mortar:explode")
                out += [f"mortar:aim:{t}" for t in self.tiles if self.distance(pos, t) >= 3]
            if c in RIFLEMEN:
                if pos not in me["controlled"] and all(t[0] != pos for t in op["tokens"].values()):
                    out.append(f"{c}:control")
            if c in SCOUTS:
                if op["supply"]["fog"]:
                    out.append(f"{c}:conceal")
                if me["hand"]["fog"]:
                    out.append(f"{c}:recon")
                for t1 in self.adj[pos]:
                    out.append(f"{c}:scout:{t1}")
                    out += [f"{c}:scout:{t1},{t2}" for t2 in self.adj[t1]]
            if c == "psgt":
                drawable = sum(me["deck"].values()) + sum(me["discard"].values())
                out += [f"psgt:command:{n}" for n in (1, 2) if n <= drawable]
            if c in LEADERS:
                out += [f"{c}:inspire:{k}" for k in CARDS if me["play"][k] and group(k) == c[-1]
                        and k not in LEADERS]
            if c == "guide":
                for u, (t, sup) in me["tokens"].items():
                    if not sup:
                        out += [f"guide:advance:{u},{n}" for n in self.adj[t] if self.marked(a, n)]
            if c in BOLSTER:
                g = BOLSTER[c][1]
                if any(me["supply"][k] and (g is None or group(k) == g) for k in CARDS):
                    out.append(f"{c}:bolster")
        return out

    def chance(self):
        a = self.to_move
        me = self.armies[a]
        if self.phase in ("deal", "command_draw"):
            total = sum(me["deck"].values())
            return {f"draw:{c}": n / total for c, n in me["deck"].items() if n}
        if self.phase == "reveal":
            return {f"reveal:{self.armies[self.initiative]['bid']}": 1.0}
        if self.phase == "leftover":
            c = min((c for c in me["hand"] if me["hand"][c]), key=ORDER.get)
            return {f"reveal:{c}": 1.0}
        if self.phase == "roll":
            r = self.roll
            q = hit_probability(r["dice"], r["defence"])
            if r["kind"] == "suppress":
                hit = "hit"
            else:
                tgt = self.armies[r["army"]]
                u = r["unit"]
                hit = "hit:" + ("hand" if tgt["hand"][u] else "discard" if tgt["discard"][u]
                                else "deck" if tgt["deck"][u] else "token")
            out = {hit: q}
            if q < 1.0:
                out["miss"] = 1.0 - q
            return out
        return {}

    # ------------------------------------------------------------ applying
    def apply(self, move):
        if self.phase in ("deal", "command_draw"):
            c = move.split(":")[1]
            me = self.armies[self.to_move]
            me["deck"][c] -= 1
            me["hand"][c] += 1
            self.draws_pending -= 1
            self.settle_draws()
        elif self.phase in ("bid1", "bid2"):
            c = move.split(":")[1]
            me = self.armies[self.to_move]
            me["hand"][c] -= 1
            me["bid"] = c
            if self.phase == "bid1":
                self.second_bid()
            else:
                self.after_bids()
        elif self.phase == "reveal":
            self.resolve_bids()
        elif self.phase == "leftover":
            c = move.split(":")[1]
            me = self.armies[self.to_move]
            me["hand"][c] -= 1
            me["discard"][c] += 1
            if not +me["hand"]:
                self.end_turn()
        elif self.phase == "roll":
            self.resolve_roll(move)
        elif self.phase == "bolster":
            self.bolster_pick(move)
        elif self.phase == "turn":
            self.play(move)
        for army in self.armies:
            for z in ZONES:
                army[z] = +army[z]

    def settle_draws(self):
        while True:
            if self.draws_pending:
                me = self.armies[self.to_move]
                if not +me["deck"]:
                    me["deck"] += me["discard"]          # the play area stays out
                    me["discard"] = Counter()
                if +me["deck"]:
                    return
                self.draws_pending = 0
            if self.phase == "deal" and self.to_move == 0:
                self.to_move, self.draws_pending = 1, 4
                continue
            if self.phase == "deal":
                self.phase, self.to_move = "bid1", self.initiative
                if not +self.armies[self.to_move]["hand"]:
                    self.second_bid()
            else:
                self.phase = "turn"
            return

    def second_bid(self):
        self.phase, self.to_move = "bid2", 1 - self.initiative
        if not +self.armies[self.to_move]["hand"]:
            self.after_bids()

    def after_bids(self):
        if self.armies[self.initiative]["bid"] is not None:
            self.phase, self.to_move = "reveal", self.initiative
        else:
            self.resolve_bids()

    def resolve_bids(self):
        h, o = self.initiative, 1 - self.initiative
        value = [INITIATIVE.get(self.armies[p]["bid"], 0) for p in (0, 1)]
        if value[o] > value[h]:
            self.initiative = o
        for army in self.armies:
            if army["bid"] is not None:
                army["discard"][army["bid"]] += 1
            army["bid"] = None
        self.phase, self.turn_index, self.to_move = "turn", 0, self.initiative

    def end_turn(self):
        self.turn_plays = 0
        if self.turn_index == 0:
            self.turn_index, self.to_move, self.phase = 1, 1 - self.initiative, "turn"
            return
        self.round += 1
        self.turn_index = 0
        if self.round > self.max_rounds:
            self.round = self.max_rounds
            self.finish_on_points("max_rounds")
            return
        self.phase, self.to_move, self.draws_pending = "deal", 0, 4
        self.settle_draws()

    def play(self, move):
        a = self.to_move
        me, op = self.armies[a], self.armies[1 - a]
        if move == "end":
            me["discard"] += me["play"]
            me["play"] = Counter()
            if +me["hand"]:
                self.phase = "leftover"
            else:
                self.end_turn()
            return
        self.turn_plays += 1
        parts = move.split(":")
        card, verb = parts[0], parts[1]
        arg = parts[2] if len(parts) > 2 else None
        me["hand"][card] -= 1
        if verb == "shelter":
            me["supply"][card] += 1
            return
        me["play"][card] += 1
        if card in UNITS and card not in me["tokens"]:
            me["tokens"][card] = [me["spawn"], False]
        if verb == "rally":
            me["tokens"][card][1] = False
        elif verb in ("move", "sneak"):
            me["tokens"][card][0] = arg
            if card == "mortar":
                me["target"] = None
        elif verb == "advance":
            unit, tile = arg.split(",")
            me["tokens"][unit][0] = tile
            if unit == "mortar":
                me["target"] = None
        elif verb in ("attack", "suppress"):
            frm = me["tokens"][card][0]
            dice = 4 if verb == "suppress" else ATTACK_DICE[card]
            self.phase = "roll"
            self.roll = {"army": 1 - a, "unit": arg, "kind": "suppress" if verb == "suppress" else "casualty",
                         "dice": dice, "defence": min(60, self.defence(1 - a, arg, frm, False))}
        elif verb == "explode":
            self.queue = [(k, u) for k in (0, 1) for u in UNITS
                          if u in self.armies[k]["tokens"] and self.armies[k]["tokens"][u][0] == me["target"]]
            self.next_explode()
        elif verb == "aim":
            me["target"] = arg
        elif verb == "control":
            t = me["tokens"][card][0]
            me["controlled"].add(t)
            me["scouted"].discard(t)
            if t in op["controlled"]:
                op["controlled"].discard(t)
                op["scouted"].add(t)
            self.check_end()
        elif verb == "conceal":
            op["supply"]["fog"] -= 1
            op["discard"]["fog"] += 1
        elif verb == "recon":
            me["hand"]["fog"] -= 1
            me["removed"]["fog"] += 1
            self.phase, self.draws_pending = "command_draw", 1
            self.settle_draws()
        elif verb == "command":
            self.phase, self.draws_pending = "command_draw", int(arg)
            self.settle_draws()
        elif verb == "inspire":
            me["play"][arg] -= 1
            me["hand"][arg] += 1
        elif verb == "bolster":
            x, g = BOLSTER[card]
            self.phase = "bolster"
            self.bolster = {"left": x, "group": g or "", "min": "fog"}
        elif verb == "scout":
            for t in arg.split(","):
                if not self.marked(a, t):
                    me["scouted"].add(t)
                    if me["supply"]["fog"]:
                        me["supply"]["fog"] -= 1
                        me["discard"]["fog"] += 1
                me["tokens"][card][0] = t

    def bolster_pick(self, move):
        me = self.armies[self.to_move]
        c = move.split(":")[1]
        if c == "stop":
            self.bolster["left"] = 0
        else:
            me["supply"][c] -= 1
            me["discard"][c] += 1
            self.bolster["left"] -= 1
            self.bolster["min"] = c
            g = self.bolster["group"] or None
            if not any(me["supply"][k] and (g is None or group(k) == g) for k in CARDS[ORDER[c]:]):
                self.bolster["left"] = 0
        if self.bolster["left"] == 0:
            self.bolster = None
            self.phase = "turn"

    def next_explode(self):
        if not self.queue:
            self.phase, self.roll = "turn", None
            return
        k, u = self.queue.pop(0)
        t = self.armies[k]["tokens"][u][0]
        self.phase = "roll"
        self.roll = {"army": k, "unit": u, "kind": "casualty", "dice": 1,
                     "defence": self.defence(k, u, t, True)}

    def resolve_roll(self, move):
        r = self.roll
        tgt = self.armies[r["army"]]
        u = r["unit"]
        if move == "hit":
            tgt["tokens"][u][1] = True
        elif move.startswith("hit:"):
            zone = move[4:]
            if zone == "token":
                del tgt["tokens"][u]
                if u == "mortar":
                    tgt["target"] = None
            else:
                tgt[zone][u] -= 1
                tgt["removed"][u] += 1
        self.roll = None
        self.next_explode()
        self.check_end()

    # ------------------------------------------------------------ the end
    def rifle_on_board(self, a):
        return any(r in self.armies[a]["tokens"] for r in RIFLEMEN)

    def irremediable(self, a):
        army = self.armies[a]
        if army["goal"] != "capture":
            return False
        if sum(self.objective.values()) < army["goal_points"]:
            return True
        cards = any(army[z][r] for z in ("deck", "hand", "discard", "play", "supply") for r in RIFLEMEN)
        cards = cards or army["bid"] in RIFLEMEN
        return not cards and self.points(a) < army["goal_points"]

    # the names bench/reference_openspiel.py drives
    player = current_player
    chances = chance

    def returns(self):
        if self.phase != "over":
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def finish(self, winner, reason):
        self.phase, self.winner, self.end_reason = "over", winner, reason

    def finish_on_points(self, reason):
        p0, p1 = self.points(0), self.points(1)
        self.finish(0 if p0 > p1 else 1 if p1 > p0 else self.initiative, reason)

    def check_end(self):
        if self.phase == "over":
            return
        order = (self.to_move, 1 - self.to_move)
        for p in order:
            army = self.armies[p]
            if army["goal"] == "capture" and self.points(p) >= army["goal_points"]:
                return self.finish(p, "objectives")
            if army["goal"] == "immobilize" and not self.rifle_on_board(1 - p):
                return self.finish(p, "immobilized")
        for p in order:     # before both immobilized: that applies only when "no one has won"
            if self.irremediable(p):
                o = 1 - p
                if self.armies[o]["goal"] == "immobilize" or self.points(o) > self.points(p):
                    return self.finish(o, "irremediable")
        if all(not self.rifle_on_board(p) or self.irremediable(p) for p in (0, 1)):
            return self.finish_on_points("both_immobilized")

    # ------------------------------------------------------------ comparison
    def summary(self):
        """The fields the differential test compares with the engine's to_dict."""
        return {
            "phase": self.phase, "to_move": self.to_move, "initiative": self.initiative,
            "turn_index": self.turn_index, "turn_plays": self.turn_plays, "round": self.round,
            "winner": None if self.winner is None else ARMIES[self.winner],
            "end_reason": self.end_reason,
            "armies": [{
                **{z: dict(+a[z]) for z in ZONES},
                "tokens": {u: {"tile": t, "suppressed": s} for u, (t, s) in a["tokens"].items()},
                "scouted": sorted(a["scouted"]), "controlled": sorted(a["controlled"]),
                "target": a["target"], "bid": a["bid"],
                "points": self.points(i),
            } for i, a in enumerate(self.armies)],
        }


def engine_summary(d):
    """The same fields from the engine's structured state."""
    return {
        **{k: d[k] for k in ("phase", "to_move", "initiative", "turn_index", "turn_plays", "round", "winner", "end_reason")},
        "armies": [{
            **{z: a[z] for z in ZONES},
            "tokens": a["tokens"], "scouted": sorted(a["scouted"]), "controlled": sorted(a["controlled"]),
            "target": a["target"], "bid": a["bid"], "points": a["points"],
        } for a in d["armies"]],
    }



def new_model(game) -> Undaunted:
    """A fresh model state of the ardsearch game `game`: the scenario (board,
    decks, spawn tiles) is read from the engine's initial structured state,
    everything after that is this model's own."""
    return Undaunted(game.new_initial_state().to_dict())


def random_playout(game, rng) -> int:
    """One random game set up from the ardsearch game `game`'s initial
    structured state (bench/)."""
    from reference import play_random
    m = new_model(game)
    return play_random(m, m.current_player, m.chance, m.legal, rng)


# ---------------------------------------------------------------- public knowledge of the hands
def _with(hand, i, k):
    h = list(hand)
    h[i] += k
    return tuple(h)


class PublicBelief:
    """For each army, {(hand, hidden bid): weight} over every hand (a tuple of
    counts in CARDS order, known cards included) and hidden first bid (a card
    index or None) that fits every public event so far. A hidden draw weighs
    each hand by the cards the deck had of the drawn type (every physical card
    equally likely); a choice weighs nothing: each legal one counts once, so a
    card played, bid, revealed or taken as a casualty only rules out the
    hands that could not have done it. Call update(model, move) before
    model.apply(move); start from a state whose hands everyone knows (the
    start of a game)."""

    def __init__(self, model):
        self.dist = [{(tuple(a["hand"][c] for c in CARDS), None): 1.0} for a in model.armies]

    @staticmethod
    def pool(model, a):
        """Army a's deck and hand together (and its unrevealed first bid): public."""
        army = model.armies[a]
        p = [army["deck"][c] + army["hand"][c] for c in CARDS]
        if army["bid"] is not None and model.phase in ("bid2", "reveal") and a == model.initiative:
            p[ORDER[army["bid"]]] += 1
        return p

    def _keep(self, a, test):
        self.dist[a] = {k: w for k, w in self.dist[a].items() if test(*k)}

    def _remove(self, a, card):
        i = ORDER[card]
        self.dist[a] = {(_with(h, i, -1), b): w for (h, b), w in self.dist[a].items() if h[i] > 0}

    def update(self, model, move):
        ph, a = model.phase, model.to_move
        if ph in ("deal", "command_draw"):
            pool, new = self.pool(model, a), {}
            for (h, b), w in self.dist[a].items():
                for i in range(len(CARDS)):
                    if pool[i] > h[i]:
                        key = (_with(h, i, 1), b)
                        new[key] = new.get(key, 0.0) + w * (pool[i] - h[i])
            self.dist[a] = new
        elif ph == "bid1":
            new = {}
            for (h, b), w in self.dist[a].items():
                for i in range(len(CARDS)):
                    if h[i]:
                        key = (_with(h, i, -1), i)
                        new[key] = new.get(key, 0.0) + w
            self.dist[a] = new
        elif ph == "bid2":
            self._remove(a, move.split(":")[1])
        elif ph == "reveal":
            i = ORDER[move.split(":")[1]]
            self.dist[a] = {(h, None): w for (h, b), w in self.dist[a].items() if b == i}
        elif ph == "leftover":
            i = ORDER[move.split(":")[1]]
            self._keep(a, lambda h, b: h[i] > 0 and not any(h[:i]))
            self._remove(a, CARDS[i])
        elif ph == "roll" and model.roll["kind"] == "casualty" and move != "miss":
            r, i = model.roll["army"], ORDER[model.roll["unit"]]
            if move == "hit:hand":
                self._remove(r, model.roll["unit"])
            else:
                self._keep(r, lambda h, b: h[i] == 0)
        elif ph == "turn" and move != "end":
            card, verb, *rest = move.split(":")
            self._remove(a, card)
            if verb == "recon":
                self._remove(a, "fog")
            elif verb == "inspire":
                i = ORDER[rest[0]]
                self.dist[a] = {(_with(h, i, 1), b): w for (h, b), w in self.dist[a].items()}

    def posterior(self, a):
        total = sum(self.dist[a].values())
        return {k: w / total for k, w in self.dist[a].items()}

    def view_chance(self, model, viewer):
        """The chance node's outcomes as `viewer` knows them: the full state's
        rule applied to every hand the opponent may hold, by its weight."""
        o = 1 - viewer
        post = self.posterior(o)
        ph = model.phase
        if ph in ("deal", "command_draw") and model.to_move == o:
            pool, out = self.pool(model, o), {}
            size = sum(model.armies[o]["deck"].values())
            for (h, b), w in post.items():
                for i, c in enumerate(CARDS):
                    if pool[i] > h[i]:
                        out[f"draw:{c}"] = out.get(f"draw:{c}", 0.0) + w * (pool[i] - h[i]) / size
            return out
        if ph == "reveal" and model.initiative == o:
            out = {}
            for (h, b), w in post.items():
                out[f"reveal:{CARDS[b]}"] = out.get(f"reveal:{CARDS[b]}", 0.0) + w
            return out
        if ph == "leftover" and model.to_move == o:
            out = {}
            for (h, b), w in post.items():
                c = CARDS[min(i for i in range(len(CARDS)) if h[i])]
                out[f"reveal:{c}"] = out.get(f"reveal:{c}", 0.0) + w
            return out
        if ph == "roll" and model.roll["kind"] == "casualty" and model.roll["army"] == o:
            u, army = model.roll["unit"], model.armies[o]
            q = hit_probability(model.roll["dice"], model.roll["defence"])
            held = sum(w for (h, b), w in post.items() if h[ORDER[u]])
            out = {}
            if q < 1.0:
                out["miss"] = 1.0 - q
            if held > 0:
                out["hit:hand"] = q * held
            if held < 1.0 - 1e-12:
                zone = "discard" if army["discard"][u] else "deck" if self.pool(model, o)[ORDER[u]] else "token"
                out[f"hit:{zone}"] = q * (1.0 - held)
            return out
        return model.chance()
