"""One `go`: plans the budget, runs the search in the worker thread, prints
info lines while it runs and exactly one bestmove at the end.

The search itself (ardsearch._search.MCTS / Expectimax) runs in C++ with the
GIL released. `stop` reaches it at once through the job's StopSignal; a
ticker thread also repeats stop() while the signal is up (a stop that races
the search start is not lost) and prints an info line from progress() every
INFO_PERIOD_S. `go depth d` with MCTS is checked by the search itself after
every simulation (MCTS.search(depth=d)).

Each go searches afresh from its position with a fresh search object seeded
from the Seed option, so the same position, options and node budget always
give the same bestmove and node count (with Threads 1).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from .position import HIDDEN_TOKEN
from .strength import base_algorithm, level_settings, noisy_best
from .timeman import decision_budget_ms
from .words import to_word, word

INFO_PERIOD_S = 0.5
STOP_POLL_S = 0.005
DEFAULT_SIMULATIONS = 10000
DEFAULT_DEPTH = 3
# MCTS `go depth d` with no other limit also ends after this many simulations
# (docs/protocol.md): the end for a tree that never fills its memory.
DEPTH_SIMULATION_CAP = 1_000_000


class StopSignal(threading.Event):
    """A job's stop request: an Event, one byte that C code (perft) reads
    without the GIL, and hooks (a search's stop()) called when it is set."""

    def __init__(self):
        super().__init__()
        self.flag = bytearray(1)
        self._hooks: list = []
        self._hooks_lock = threading.Lock()

    def on_set(self, hook) -> None:
        """Calls hook() when the signal is set; at once if it already is."""
        with self._hooks_lock:
            if not self.is_set():
                self._hooks.append(hook)
                return
        hook()

    def set(self) -> None:
        self.flag[0] = 1
        with self._hooks_lock:
            super().set()
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            hook()


@dataclass
class GoLimits:
    nodes: int | None = None
    iterations: int | None = None
    movetime: int | None = None     # ms
    depth: int | None = None
    wtime: int | None = None        # ms left for player 0
    btime: int | None = None        # ms left for player 1
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    infinite: bool = False
    searchactions: list[int] = field(default_factory=list)
    mover: int = 0
    decisions_left: int = 30        # the mover's expected decisions with a choice still to come (clock play)
    latency_decisions: int | None = None  # all its expected decisions still to come, each paying MoveOverhead

    def clock_ms(self) -> tuple[int | None, int]:
        left = self.wtime if self.mover == 0 else self.btime
        inc = (self.winc if self.mover == 0 else self.binc) or 0
        return left, inc


@dataclass
class Budget:
    simulations: int | None = None  # MCTS simulations / expectimax nodes
    seconds: float | None = None
    depth: int | None = None
    infinite: bool = False


def choose_algorithm(game, settings: dict, preset) -> str:
    algo = settings.get("Algorithm", "auto")
    if algo == "auto" and preset is not None:
        algo = preset.get("algorithm", "auto")
    if algo == "auto":
        return "ismcts" if game.hidden_information else "mcts"
    return algo


def plan_budget(limits: GoLimits, settings: dict, preset, algorithm: str) -> Budget:
    if limits.infinite:
        # docs/protocol.md: `go infinite` searches until stop, whatever other
        # limits came with it (nodes, movetime, depth, the clock).
        return Budget(infinite=True)
    b = Budget(depth=limits.depth, infinite=limits.infinite)
    if limits.nodes is not None or limits.iterations is not None:
        b.simulations = max(1, limits.nodes if limits.nodes is not None else limits.iterations)
    if limits.movetime is not None:
        b.seconds = max(0.001, limits.movetime / 1000.0)
    left, inc = limits.clock_ms()
    if left is not None:
        ms = decision_budget_ms(left, inc, limits.movestogo, int(settings.get("MoveOverhead", 30)),
                                limits.decisions_left, limits.latency_decisions)
        b.seconds = ms / 1000.0 if b.seconds is None else min(b.seconds, ms / 1000.0)
    if b.infinite or b.simulations or b.seconds or b.depth:
        return _cap_depth_only(b, algorithm)
    # No limit given: the preset's budget, else a default one.
    if preset is not None and any(preset.get(k) for k in ("simulations", "nodes", "time_limit", "depth")):
        b.simulations = preset.get("simulations") or preset.get("nodes") or None
        b.seconds = preset.get("time_limit") or None
        b.depth = preset.get("depth") or None
    elif algorithm == "expectimax":
        b.depth = DEFAULT_DEPTH
    else:
        b.simulations = DEFAULT_SIMULATIONS
    return _cap_depth_only(b, algorithm)


def _cap_depth_only(b: Budget, algorithm: str) -> Budget:
    """MCTS with a depth and no other limit: DEPTH_SIMULATION_CAP as well."""
    if algorithm != "expectimax" and b.depth and not (b.simulations or b.seconds or b.infinite):
        b.simulations = DEPTH_SIMULATION_CAP
    return b


def load_preset(name: str, game) -> dict | None:
    """A roster preset as {"name", "algorithm", **its params}, or None."""
    if not name or name == "none":
        return None
    from .. import bots

    data, algorithm, params = bots._preset(name)
    return {"name": name, **params, "algorithm": algorithm}


def make_search(game, algorithm: str, settings: dict, preset, threads: int | None = None, shape=None):
    """The search object. MCTS searches with the preset's shape (exploration,
    rollouts, normalized UCB, ...) for this game, [games.<name>] table
    included; without a Preset option, with the shape of the preset named
    after the algorithm (`mcts` or `ismcts`): a bare engine plays as the
    presets and a bare MCTSBot do. An Exploration other than `auto` wins."""
    from .. import _search
    from ..bots import search_shape

    seed = int(settings.get("Seed", 0))
    memory = int(settings.get("Hash", 64))
    threads = int(settings.get("Threads", 1)) if threads is None else threads
    preset = preset or {}
    weights = preset_weights(game, preset)
    if algorithm == "expectimax":
        kwargs = {k: preset[k] for k in ("star2", "use_tt", "determinizations") if k in preset}
        return _search.Expectimax(game.capsule, seed=seed, tt_mb=memory, weights=weights, **kwargs)
    if shape is None:
        shape = search_shape(preset.get("name") or ("ismcts" if algorithm == "ismcts" else "mcts"), game)
    shape = dict(shape)
    if algorithm == "ismcts":  # a plain-MCTS preset's settings cannot apply (the C++ search refuses them)
        from ..bots import PLAIN_ONLY, SHAPE_FALLBACK
        shape.update({k: SHAPE_FALLBACK[k] for k in PLAIN_ONLY})
    else:  # and an ISMCTS-only one cannot apply in plain MCTS
        shape["belief"] = 0.0
    if settings.get("Exploration", "auto") != "auto":
        shape["exploration"] = float(settings["Exploration"])
    kwargs = {k: preset[k] for k in ("solver",) if k in preset}
    return _search.MCTS(game.capsule, seed=seed, threads=threads, max_memory_mb=float(memory),
                        ismcts=(algorithm == "ismcts"), weights=weights, **shape, **kwargs)


def preset_weights(game, preset) -> list | None:
    """A preset's own evaluation weights (its `weights` setting: "classic" or
    an eval.toml path), or None for the game's own."""
    from ..evaluation import resolve_weights
    w, _ = resolve_weights(game, (preset or {}).get("weights"), (preset or {}).get("name", "engine"))
    return None if w is None else w.tolist()


def reported_wp(game, preset, value: float, algorithm: str, player: int | None = None,
                game_round: int | None = None) -> float:
    """The win probability the protocol reports for a search's root value
    (for the side to move `player` in the round `game_round`): the calibration
    ([calibration.<algorithm>], by seat or by round if the file gives one per
    seat or per band of rounds) of the weights file the search
    plays with (the game's own unless the preset names another; none for
    "classic"), else (value + 1) / 2."""
    from ..evaluation import calibrated_wp, loaded, resolve_weights
    setting = (preset or {}).get("weights")
    w, own = resolve_weights(game, setting, (preset or {}).get("name", "engine"))
    if w is None:
        ev = loaded(game.name)
        table = ev.calibration if ev is not None else {}
    else:
        table = own.calibration if own is not None else {}
    return calibrated_wp(game.name, value, algorithm, table, player, game.params, game_round)


def run_search(search, algorithm: str, raw: bytes, budget: Budget, root_actions: list[int] | None = None,
               clock: str = "wall") -> dict:
    """Blocking search call (GIL released inside); an infinite search is a
    very long one that only stop() ends. root_actions (go searchactions)
    restricts the search itself to those root actions; None: all. clock:
    what the time budget counts, "wall" or "cpu" (the search threads' own
    CPU time; the Clock option)."""
    seconds = budget.seconds
    if budget.infinite:
        seconds, sims = 1e9, None
    else:
        sims = budget.simulations
    if algorithm == "expectimax":
        depth = budget.depth
        if budget.infinite and depth is None:
            depth = 64
        return search.search(raw, depth=depth, time_limit=seconds, nodes=sims, root_actions=root_actions,
                             clock=clock)
    if sims is None and seconds is None:
        sims = DEPTH_SIMULATION_CAP
    return search.search(raw, simulations=sims, time_limit=seconds, root_actions=root_actions,
                         depth=budget.depth or None, clock=clock)


def _node_counts(figures: dict, algorithm: str) -> tuple[int, int | None]:
    """(nodes, tree): MCTS counts simulations as nodes, as `go nodes` does,
    and reports the tree's size apart; expectimax counts visited nodes."""
    if algorithm == "expectimax":
        return int(figures.get("nodes") or 0), None
    return int(figures.get("simulations") or 0), int(figures.get("nodes") or 0)


def notation_line(state, actions) -> list[str]:
    """The actions as notation, applied on a copy of state (the mover's view).

    The line ends where it leaves what the mover can know: before the first
    event hidden from it (the search writes it as '?': a hidden chance
    outcome or an opponent's decision made out of sight), and before the
    first action the view refuses (a concrete event the mover cannot see,
    or one no position consistent with the view allows). Every action
    printed can then be played move by move on the mover's view."""
    out = []
    s = state.clone()
    for a in actions:
        try:
            text = s.action_to_string(a)
            if text == HIDDEN_TOKEN:
                break
            s.apply_action(a)
        except ValueError:
            break
        out.append(to_word(text))
    return out


class SearchJob:
    def __init__(self, game, state, limits: GoLimits, settings: dict, emit):
        self.game = game
        self.state = state          # the view (or full state) of the side to move
        self.limits = limits
        self.settings = settings
        self.emit = emit
        self.t0 = time.monotonic()

    def run(self, stop_event: threading.Event, final) -> None:
        legal = self.state.legal_actions()
        best = None
        try:
            best = self._search(stop_event, legal)
        except Exception as exc:  # the bestmove promise holds even if the search fails
            self.emit(f"info string search failed: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
        if best is None or best not in legal:
            best = (self.limits.searchactions or legal)[0]
        final(f"bestmove {word(self.state, best)}")

    def _search(self, stop_event, legal) -> int:
        if len(legal) == 1 and not self.limits.infinite:
            # One legal action: nothing to think about, keep the clock.
            self.emit(f"info depth 1 nodes 0 nps 0 time 0 wp {self._static_wp():.4f} "
                      f"pv {word(self.state, legal[0])}")
            return legal[0]
        preset = load_preset(str(self.settings.get("Preset", "none")), self.game)
        # A difficulty level (a level Preset, or LimitStrength with Elo):
        # its base preset's search with the level's cap and move noise.
        level, note = level_settings(self.game, self.settings, preset)
        if note:
            self.emit(f"info string {note}")
        if level is not None:
            preset = load_preset(level["base"], self.game)
        if preset is not None and preset["algorithm"] not in ("mcts", "ismcts", "expectimax"):
            best = self._play_simple_bot(preset)
            while self.limits.infinite and not stop_event.wait(INFO_PERIOD_S):
                self.emit(self.last_info)  # an infinite go answers only after stop
            return best
        book = self._book_move()
        if book is not None:
            # as the searching bots do (ardsearch.bots: GameSpec.book), with no search
            self.last_info = (f"info depth 1 nodes 0 nps 0 time 0 wp {self._static_wp():.4f} "
                              f"pv {word(self.state, book)}")
            self.emit("info string book move: the game's book (its RULES.md), not a search")
            self.emit(self.last_info)
            while self.limits.infinite and not stop_event.wait(INFO_PERIOD_S):
                self.emit(self.last_info)  # an infinite go answers only after stop
            return book
        algorithm = choose_algorithm(self.game, self.settings, preset)
        if level is not None:
            if self.settings.get("Algorithm", "auto") == "auto":
                algorithm = base_algorithm(self.game, preset)
            preset = {**preset, "simulations": level["simulations"] or preset.get("simulations"),
                      "time_limit": level["time_limit"]}
        budget = plan_budget(self.limits, self.settings, preset, algorithm)
        if level is not None and level["simulations"] and not budget.infinite:
            # the level's cap holds whatever the go allows (a weaker level
            # does not grow stronger with a longer clock)
            budget.simulations = min(budget.simulations or level["simulations"], level["simulations"])
        shape = None
        if level is not None and level.get("search") and algorithm in ("mcts", "ismcts"):
            # the level's own search settings for this game ([games.<name>] of its file) over its base's
            from ..bots import search_shape
            shape = search_shape(level["base"], self.game)
            shape.update({k: v for k, v in level["search"].items() if k in shape})
        search = make_search(self.game, algorithm, self.settings, preset, shape=shape)
        clock = self._clock()
        if budget.seconds is not None and clock == "wall":
            # Setting up (rebuilding the position, allocating tables) is part of the decision's time.
            budget.seconds = max(0.001, budget.seconds - (time.monotonic() - self.t0))
        if hasattr(stop_event, "on_set"):
            stop_event.on_set(search.stop)
        done = threading.Event()
        ticker = threading.Thread(target=self._tick, args=(search, algorithm, budget, stop_event, done, preset),
                                  daemon=True, name="ardsearch-ticker")
        ticker.start()
        try:
            if stop_event.is_set():
                # Stopped before the search began (a search clears earlier stop
                # requests when it starts): the smallest search still answers.
                budget = Budget(depth=1) if algorithm == "expectimax" else Budget(simulations=1)
            result = run_search(search, algorithm, self.state.raw(), budget, self.limits.searchactions or None,
                                clock)
        finally:
            done.set()
            ticker.join()
        best, lines = self._report(result, algorithm, preset)
        if level is not None and not budget.infinite:
            best = noisy_best(result, best, level, int(self.settings.get("Seed", 0)), self.state)
        for line in lines:
            self.emit(line)
        if budget.infinite:
            # UCI rule: an infinite search answers only after stop, even
            # when it has finished (a proven root); keep the info coming.
            while not stop_event.wait(INFO_PERIOD_S):
                self.emit(lines[0])
        return best

    def _clock(self) -> str:
        """What this search's time budget counts (the Clock option): "cpu"
        only for movetime and a preset's time limit; a go with a game clock
        (wtime/btime) counts wall time, the time that clock loses."""
        clock = str(self.settings.get("Clock", "wall"))
        if clock == "cpu" and self.limits.clock_ms()[0] is not None:
            return "wall"
        return clock

    def _book_move(self) -> int | None:
        """The game's book move here (GameSpec.book; Stand at Mortain's historical
        US setup), or None: none there, or `go searchactions` leaves it out."""
        book = self.game.spec.book
        move = book(self.state) if book is not None else None
        if move is None:
            return None
        action = self.state.string_to_action(move)
        if self.limits.searchactions and action not in self.limits.searchactions:
            return None
        return action

    def _play_simple_bot(self, preset) -> int:
        """Presets that do not search (random, greedy) answer through their bot."""
        from .. import bots

        bot = bots.load_bot(preset["name"], self.game, seed=int(self.settings.get("Seed", 0)))
        result = bot.analyze(self.state)
        best = result["best"]
        self.last_info = (f"info depth 1 nodes {int(result.get('nodes') or 0)} nps 0 time 0 "
                          f"wp {float(result.get('wp', 0.5)):.4f} pv {word(self.state, best)}")
        self.emit(self.last_info)
        return best

    def _round(self) -> int | None:
        """The round the position is in (a calibration by round reads it),
        read from the state once a job: the position does not change while
        it is searched, and the info ticks ask for it every period."""
        if not hasattr(self, "_game_round"):
            from ..evaluation import round_of
            self._game_round = round_of(self.state)
        return self._game_round

    def _static_wp(self) -> float:
        """A forced move's wp: the game's evaluation of the position (no search),
        through the calibration of the search that would have run, for the
        side to move (the evaluation is what such a search's values are made of)."""
        me = self.state.current_player()
        algorithm = choose_algorithm(self.game, self.settings, None)
        return reported_wp(self.game, None, float(self.state.evaluate(me)), algorithm, me,
                           self._round())

    def _tick(self, search, algorithm, budget: Budget, stop_event, done, preset=None) -> None:
        next_info = time.monotonic() + INFO_PERIOD_S
        while not done.wait(STOP_POLL_S):
            if stop_event.is_set():
                search.stop()
                continue
            now = time.monotonic()
            if now < next_info:
                continue
            next_info = now + INFO_PERIOD_S
            try:
                p = search.progress()
            except Exception:
                continue
            pv = notation_line(self.state, list(p.get("pv") or ([p["best"]] if p.get("best") is not None
                                                                 and p["best"] >= 0 else [])))
            depth = p.get("depth") if algorithm == "expectimax" else len(pv)
            nodes, tree = _node_counts(p, algorithm)
            t = float(p.get("time") or (now - self.t0))
            nps = p.get("nps") or (nodes / t if t > 0 else 0)
            wp = reported_wp(self.game, preset, float(p.get("value") or 0.0), algorithm,
                             self.state.current_player(), self._round())
            line = f"info depth {max(int(depth or 0), 0)} nodes {int(nodes)} nps {int(nps)} time {int(t * 1000)}"
            line += f" tree {tree}" if tree is not None else ""
            line += f" wp {min(1.0, max(0.0, wp)):.4f}"
            if pv:
                line += " pv " + " ".join(pv)
            self.emit(line)

    def _report(self, result: dict, algorithm: str, preset=None) -> tuple[int, list[str]]:
        """The best action (kept to searchactions) and the final info lines."""
        actions = list(result.get("actions") or [])
        values = list(result.get("values") or [])
        visits = list(result.get("visits") or [0] * len(actions))
        best = result.get("best")
        allowed = self.limits.searchactions
        if allowed and actions:
            # The search only looked at the allowed actions; this filter is a
            # safety net that keeps the answer to the set whatever it returns.
            pairs = [(visits[i], values[i], a) for i, a in enumerate(actions) if a in allowed]
            if pairs:
                key = (lambda t: (t[1], t[0])) if algorithm == "expectimax" else (lambda t: (t[0], t[1]))
                best = max(pairs, key=key)[2]
            else:
                best = allowed[0]
        pv_actions = list(result.get("pv") or [])
        if not pv_actions or pv_actions[0] != best:
            pv_actions = [best]
        pv = notation_line(self.state, pv_actions)
        value = result.get("value", 0.0)
        if best in actions and best != result.get("best"):
            value = values[actions.index(best)]
        wp = reported_wp(self.game, preset, float(value), algorithm, self.state.current_player(),
                         self._round())
        elapsed = float(result.get("time") or (time.monotonic() - self.t0))
        nodes, tree = _node_counts(result, algorithm)
        nps = result.get("nps") or (nodes / elapsed if elapsed > 0 else 0)
        depth = result.get("depth") if algorithm == "expectimax" else len(pv)
        line = (f"info depth {int(depth or 0)} nodes {nodes} nps {int(nps)} time {int(elapsed * 1000)}"
                + (f" tree {tree}" if tree is not None else "") + f" wp {min(1.0, max(0.0, float(wp))):.4f}")
        if pv:
            line += " pv " + " ".join(pv)
        lines = [line]
        multipv = int(self.settings.get("MultiPV", 1))
        if multipv > 1 and actions:
            order = sorted(range(len(actions)), key=lambda i: (-visits[i], -values[i])
                           if algorithm != "expectimax" else (-values[i], -visits[i]))
            shown = [i for i in order if not allowed or actions[i] in allowed][:multipv]
            for i in shown:
                lines.append(f"info action {word(self.state, actions[i])} visits {int(visits[i])} "
                             f"value {float(values[i]):.4f}")
        return best, lines
