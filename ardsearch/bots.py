"""Bots: objects that choose moves.

Every bot has the same small interface:

    bot.step(state) -> action        # the move to play (an int); ValueError at a chance or terminal state
    bot.play(state) -> (action, dict|None)  # the move and the analysis of the one search behind it
    bot.analyze(state) -> dict       # the search behind it: best, move, visits, values, pv (notation),
                                     # nodes (MCTS: simulations, as in the protocol; tree_nodes: the
                                     # tree's size), nps, time, wp (win probability of the side to move), ...
    bot.name                         # the preset or class name
    bot.reset()                      # forget the search tree: a new game
    bot.stop()                       # ask a running search to finish (from another thread)

Bots are deterministic given their seed (with time limits the amount of
search depends on the machine; use simulation or depth budgets for exact
reproduction). In games with hidden information a bot only ever searches the
view of the side to move (``state.view(player)``): it never reads what that
player cannot see.

The searching bots (MCTS, ISMCTS, expectimax and the levels built on them)
first ask the game's book (``GameSpec.book``): where it names a move (Stand
at Mortain's US setup phase: the scenario's historical setup, which their
evaluation cannot tell from any other), they play it without searching and
their analysis says ``"book": True``. Random and greedy play have no book.

``load_bot(preset, game, **overrides)`` builds a bot from the roster (the
TOML files in ``bots/``, installed as ``ardsearch.roster``); ``list_bots()``
names the presets.
"""
from __future__ import annotations

import inspect
import math
import numbers
import operator
import random
import tomllib
from importlib import resources
from pathlib import Path

from ardsearch import _search

__all__ = ["Bot", "RandomBot", "HeuristicBot", "MCTSBot", "ISMCTSBot", "ExpectimaxBot",
           "load_bot", "list_bots", "preset_description"]


def _check_decision(state, who):
    if state.is_terminal():
        raise ValueError(f"{who}: the game is over, there is no move to choose")
    if state.is_chance_node():
        raise ValueError(f"{who}: this is a chance node; apply a chance outcome first "
                         "(state.apply_random_chance() or state.apply_action(outcome))")


def _book_analysis(bot, view, search):
    """The move the game's book plays in `view` (GameSpec.book), as the
    analysis a search gives, marked "book"; None when the book has none there.
    The searching bots look here first: the book holds positions their
    evaluation cannot tell apart."""
    book = bot.game.spec.book
    move = book(view) if book is not None else None
    if move is None:
        return None
    action = view.string_to_action(move)
    info = bot._basic(view, action, [action])
    info["value"] = value = float(view.evaluate(view.current_player()))
    info["wp"] = bot.win_probability(value, search, view)
    info["book"] = True
    info["clock"] = bot.clock
    return info


# ---------------------------------------------------------------- settings
#
# Every bot setting is checked where the bot is built, before any search, and
# a bad one is named with its value and what it takes (a command line's
# `--set simulations=abc` reaches here as the text 'abc').

_MASK64 = (1 << 64) - 1


def _bad(owner, key, value, what):
    return ValueError(f"bot {owner!r}: setting {key}={value!r} is not valid: expected {what}")


def _integer(owner, key, value, low=None, high=None, what=None):
    if what is None:
        what = ("an integer" if low is None and high is None
                else f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}")
    v = value
    if isinstance(v, str):
        try:
            v = int(v.strip())
        except ValueError:
            raise _bad(owner, key, value, what) from None
    elif isinstance(v, float) and v.is_integer():
        v = int(v)
    elif not isinstance(v, (bool, int)):
        try:
            v = operator.index(v)        # numpy integers and the like
        except TypeError:
            raise _bad(owner, key, value, what) from None
    if isinstance(v, bool) or not isinstance(v, int):
        raise _bad(owner, key, value, what)
    if (low is not None and v < low) or (high is not None and v > high):
        raise _bad(owner, key, value, what)
    return v


def _number(owner, key, value, low=None, high=None, low_open=False, what=None):
    if what is None:
        what = ("a number" if low is None else
                f"a number from {low:g} to {high:g}" if high is not None else
                f"a number {'>' if low_open else '>='} {low:g}")
    v = value
    if isinstance(v, str):
        try:
            v = float(v.strip())
        except ValueError:
            raise _bad(owner, key, value, what) from None
    if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
        raise _bad(owner, key, value, what)
    v = float(v)
    if low is not None and (v < low or (low_open and v == low)):
        raise _bad(owner, key, value, what)
    if high is not None and v > high:
        raise _bad(owner, key, value, what)
    return v


def _flag(owner, key, value, allow_none=False):
    what = "true or false" + (" (or none: the game decides)" if allow_none else "")
    if value is None and allow_none:
        return None
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return bool(value)
    raise _bad(owner, key, value, what)


# What a time_limit counts (the C++ searches' `clock`): wall time, or the
# searching thread's own CPU time, so that equal-time matches stay equal on a
# loaded machine (other processes' time slices are not charged to a search).
CLOCKS = ("wall", "cpu")


def _clock(owner, value):
    v = value.strip().lower() if isinstance(value, str) else value
    if v not in CLOCKS:
        raise _bad(owner, "clock", value, "wall (time_limit counts wall time) or cpu (the searching "
                                          "thread's own CPU time)")
    return v


def _off_or(value):
    """None, 0 and false switch an optional limit off."""
    return value is None or (not isinstance(value, str) and value == 0)


def _as_game(game):
    """A Game, or a game name / "name(key=value,...)" text loaded as one."""
    from ardsearch._core import Game
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        import ardsearch
        return ardsearch.load_game(game)
    shown = repr(game)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise ValueError(f"a bot needs a game: a Game from ardsearch.load_game() or a game name such as "
                     f"'ardennes' or 'ardennes(road_length=12)', got {type(game).__name__} {shown}")



class _Weighted:
    """A bot's `weights` setting: None/"default" (the game's own evaluate()),
    "classic" (the game's hand-set evaluation, one-hot on its first feature)
    or the path of an eval.toml for this game. Also maps root values to the
    win probability the bot reports (the [calibration] of whichever weights
    file the bot plays with, if it has one, for the side to move; see
    ardsearch.evaluation)."""

    def _set_weights(self, weights):
        from ardsearch import evaluation
        self.weights_setting = weights
        self._weights, own_file = evaluation.resolve_weights(self.game, weights, self.name)
        if self._weights is None:
            ev = evaluation.loaded(self.game.name)
            self._calibration = ev.calibration if ev is not None else {}
        else:
            self._calibration = own_file.calibration if own_file is not None else {}

    @property
    def weights(self):
        """The weights this bot's evaluation uses (None: the game's own table)."""
        return None if self._weights is None else self._weights.copy()

    def _weights_arg(self):
        return None if self._weights is None else self._weights.tolist()

    def win_probability(self, value, search, state):
        """`value` (the root value for the side to move in `state`) as the
        probability the bot reports: the calibration reads the side to move
        when it is by seat and the round when it is by round."""
        from ardsearch import evaluation
        return evaluation.calibrated_wp(self.game.name, value, search, self._calibration,
                                        state.current_player(), self.game.params,
                                        evaluation.round_of(state))


class Bot:
    """Base class: the common interface and the hidden-information discipline."""

    def __init__(self, game, seed=0, name=None):
        self.name = name or type(self).__name__
        self.game = _as_game(game)
        self.seed = _integer(self.name, "seed", seed)

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r} seed={self.seed}>"

    def searched_state(self, state):
        """What the bot may look at: the side to move's view in hidden-information
        games (a view given by the caller is used as it is), else the state."""
        if state.game.name != self.game.name:
            raise ValueError(f"{self.name}: state is from game {state.game.name!r}, "
                             f"this bot plays {self.game.name!r}")
        if self.game.hidden_information and state.viewer() < 0:
            return state.view(state.current_player())
        return state

    def step(self, state):
        """The action to play in `state` (a decision state)."""
        return self.play(state)[0]

    def play(self, state):
        """The action to play and the analysis of the one search that chose
        it (None when there was nothing to search): what a front end shows
        beside the move, without searching twice."""
        info = self.analyze(state)
        return info["best"], info

    def analyze(self, state):  # pragma: no cover - every bot overrides it
        raise NotImplementedError

    def reset(self):
        """Forget everything about the current game."""

    def stop(self):
        """Ask a running search to finish soon (no-op for bots that do not search)."""

    def progress(self):
        """Live figures of a running search (empty for bots that do not search)."""
        return {}

    def _basic(self, state, best, moves):
        return {"best": best, "move": state.action_to_string(best), "actions": moves,
                "visits": {}, "values": {}, "pv": [state.action_to_string(best)],
                "pv_actions": [best], "nodes": 0, "nps": 0.0, "time": 0.0, "value": 0.0,
                "wp": 0.5, "proven": None}


class _SeededBot(Bot):
    """A bot whose only state is a Python RNG, restarted from the seed by reset()."""

    def __init__(self, game, seed=0, name=None):
        super().__init__(game, seed, name)
        self._rng = random.Random(self.seed)

    def reset(self):
        self._rng = random.Random(self.seed)


class RandomBot(_SeededBot):
    """Uniformly random legal moves (seeded)."""

    def analyze(self, state):
        _check_decision(state, self.name)
        view = self.searched_state(state)
        moves = view.legal_actions()
        return self._basic(view, self._rng.choice(moves), moves)


class HeuristicBot(_SeededBot, _Weighted):
    """One-ply greedy: tries each legal move on a copy of its view and keeps
    the one the game's evaluate() likes best for the mover (a won game beats
    any evaluation, a lost one is worse than any); ties broken at random.
    weights: None (the game's evaluation), "classic" or an eval.toml path."""

    def __init__(self, game, seed=0, weights=None, name=None):
        super().__init__(game, seed, name)
        self._set_weights(weights)

    def analyze(self, state):
        _check_decision(state, self.name)
        view = self.searched_state(state)
        me = view.current_player()
        moves = view.legal_actions()
        scores = []
        for a in moves:
            child = view.clone()
            child.apply_action(a)
            scores.append(2.0 * child.returns()[me] if child.is_terminal()
                          else child.evaluate(me, self._weights))
        top = max(scores)
        best = self._rng.choice([a for a, s in zip(moves, scores) if s >= top - 1e-12])
        out = self._basic(view, best, moves)
        out["values"] = {view.action_to_string(a): s for a, s in zip(moves, scores)}
        out["value"] = max(-1.0, min(1.0, top))
        out["wp"] = self.win_probability(out["value"], "greedy", view)
        out["nodes"] = len(moves)
        return out


class MCTSBot(Bot, _Weighted):
    """Monte Carlo tree search (ardsearch._search.MCTS).

    simulations: total simulations per move (0 or None: no cap, use time_limit);
    time_limit: seconds per move (None: none); the search stops at whichever
    comes first. threads: root-parallel trees. rollout_depth: random plies
    before scoring with evaluate() (-1: play out; short rollouts cut by the
    game's heuristic are much stronger than full random playouts in Ardennes). solver: MCTS-Solver (perfect
    information only). ismcts: None picks information-set MCTS for games with
    hidden information. normalize: UCB on each node's children's values
    rescaled to [0, 1]. minimax_weight: implicit minimax backups, UCB exploits
    (1-w)*mean + w*minimax of evaluate(). eval_children: every new child is
    scored with evaluate() when its parent is expanded; an unvisited child
    competes in UCB as one virtual visit of that score (heuristic move
    ordering and first-play urgency) and counts in the implicit minimax.
    final_lcb: 0 plays the most visited root move; k > 0 the root move with
    the highest mean - k / sqrt(visits) (for flat evaluations, where UCB
    spreads visits almost evenly). rollout_sample: the rollout policy, 0
    uniform random moves, k > 0 the best by evaluate() of k sampled legal
    moves (-1: of all), with rollout_epsilon the chance of a random move
    instead. widening: progressive widening ordered by evaluate() (plain
    MCTS only; 0 off): every new node scores its children, orders them best
    first and lets selection visit only the first
    max(1, ceil(widening * visits^widening_exponent)), so the search starts
    as the one-ply greedy line at every node and widens with visits.
    opponent_widening (with widening; -1 off): widening's coefficient at
    the other player's nodes; 0 admits only the opponent's one-ply best
    move there, so the tree answers a greedy opponent (an opponent model).
    root_margin: a one-ply guard (0 off; needs widening or eval_children):
    root moves evaluated more than root_margin below the best one are
    neither searched nor played. rollout_turn_end: rollouts go on until a
    decision of another player than the leaf's mover, then evaluate()
    (rollout_depth 0: no other cap); rollout_extra_runs (with rollout_turn_end):
    further runs of decisions played before scoring (1: the opponent's
    answer too). chance_expectation (plain MCTS only): a move that leaves a
    chance node is valued by the probability-weighted mean of its visited
    outcomes, which are visited in proportion to their probabilities
    (stratified, not sampled). rollout_stop_prefix: a rollout also ends at a
    chance node whose sampled outcome's notation starts with it ("" off;
    Stosstruppen "card:": at the end of the mover's phase, before the next
    card). stop_weights: None (off) or the path of an eval.toml whose
    [weights] score the rollouts that end at rollout_stop_prefix (a value
    fitted on the positions where a phase ends). common_random (plain MCTS,
    off by default): the n-th simulations of all root moves draw the same
    random numbers for their chance outcomes. prior_visits (plain MCTS, 0
    off; needs widening or eval_children): a child's evaluate() after its
    move counts as that many virtual visits of that value, in what UCB
    exploits and in the root move played (the searched move with the best
    blend; huge: the one-ply choice), so the search leaves the one-ply order
    only when its simulations outweigh it. prior_drift (with prior_visits):
    the prior is shifted by each node's measured drift, the visit-weighted
    mean of (result - evaluate()) over its children, onto the scale of
    results scored later in the turn. tree_depth (0: no limit): the tree
    grows at most this many moves below the root and simulations roll out
    from there; 1 is flat Monte Carlo over the root moves (with
    rollout_sample=-1 and rollout_extra_runs=1: the rollout algorithm over
    greedy play). belief (ISMCTS only; 0 off): each search draws
    belief_samples (256) determinizations of the view, weighs each by
    exp(belief * the opponent's evaluate() of it), and every simulation
    plays in one drawn by weight, so hidden facts under which the
    opponent's play looks good are taken as likelier (Ardennes: its
    Objective card read from the roads it builds on).
    weights: None (the game's evaluate()),
    "classic" (its hand-set evaluation) or the path of an eval.toml.
    clock: what time_limit counts, "wall" (wall time, the default) or "cpu"
    (each search thread's own CPU time: equal-time matches on a loaded
    machine); the analysis reports it as `clock`, beside `cpu_time`.
    The tree is kept between moves when the new position
    follows from the last searched one.
    Search-shape settings left out (exploration, rollout_depth, normalize,
    minimax_weight, eval_children, final_lcb, rollout_sample, rollout_epsilon, widening,
    widening_exponent, opponent_widening, root_margin, rollout_turn_end, rollout_extra_runs,
    chance_expectation, rollout_stop_prefix, prior_visits, prior_drift, tree_depth, belief,
    belief_samples) are the
    game's `mcts` preset's
    (ISMCTSBot: `ismcts`), so a bare bot plays as well as the preset does."""

    # The search-shape settings a bare bot takes from the game's preset, so that
    # MCTSBot(game), `ardsearch engine` and the preset agree on good play.
    PRESET = "mcts"

    def __init__(self, game, simulations=20000, time_limit=None, threads=1, seed=0,
                 exploration=None, rollout_depth=None, solver=True, max_memory_mb=512,
                 ismcts=None, reuse_tree=True, normalize=None, minimax_weight=None,
                 eval_children=None, final_lcb=None, weights=None, name=None,
                 rollout_sample=None, rollout_epsilon=None, widening=None, widening_exponent=None,
                 root_margin=None, rollout_turn_end=None, clock="wall", rollout_extra_runs=None,
                 chance_expectation=None, rollout_stop_prefix=None, stop_weights=None,
                 common_random=False, prior_visits=None, prior_drift=None, tree_depth=None,
                 belief=None, belief_samples=None, opponent_widening=None):
        super().__init__(game, seed, name)
        self._set_weights(weights)
        from ardsearch import evaluation
        # stop_weights: the value of a rollout that ends at rollout_stop_prefix
        # (an eval.toml's [weights]; None off). Its calibration is not used:
        # the bot reports its root value through `weights`' calibration.
        self.stop_weights_setting = stop_weights
        stop_w, _ = evaluation.resolve_weights(self.game, stop_weights, self.name)
        shape = search_shape(self.PRESET, self.game)
        who = self.name
        self.clock = _clock(who, clock)
        self.simulations = (None if _off_or(simulations) else
                            _integer(who, "simulations", simulations, 0,
                                     what="an integer >= 0 (0 or none: no cap, use time_limit)"))
        self.time_limit = (None if _off_or(time_limit) else
                           _number(who, "time_limit", time_limit, 0.0, low_open=True,
                                   what="seconds > 0 (0 or none: no time limit)"))
        if self.simulations is None and self.time_limit is None:
            raise ValueError(f"{self.name}: give simulations and/or time_limit")
        self.reuse_tree = _flag(who, "reuse_tree", reuse_tree)
        pick = lambda key, given: shape[key] if given is None else given  # noqa: E731
        self.shape = {
            "exploration": _number(who, "exploration", pick("exploration", exploration), 0.0),
            "rollout_depth": _integer(who, "rollout_depth", pick("rollout_depth", rollout_depth), -1,
                                      what="an integer >= 0, or -1 (play to the end)"),
            "normalize": _flag(who, "normalize", pick("normalize", normalize)),
            "minimax_weight": _number(who, "minimax_weight", pick("minimax_weight", minimax_weight), 0.0, 1.0),
            "eval_children": _flag(who, "eval_children", pick("eval_children", eval_children)),
            "final_lcb": _number(who, "final_lcb", pick("final_lcb", final_lcb), 0.0),
            "rollout_sample": _integer(who, "rollout_sample", pick("rollout_sample", rollout_sample), -1,
                                       what="an integer: 0 (random rollouts), k > 0 moves scored "
                                            "by evaluate(), or -1 (all legal moves)"),
            "rollout_epsilon": _number(who, "rollout_epsilon", pick("rollout_epsilon", rollout_epsilon), 0.0, 1.0),
            "widening": _number(who, "widening", pick("widening", widening), 0.0),
            "widening_exponent": _number(who, "widening_exponent", pick("widening_exponent", widening_exponent),
                                         0.0, 1.0, low_open=True, what="a number > 0 and <= 1"),
            "opponent_widening": _opponent_widening(who, pick("opponent_widening", opponent_widening)),
            "root_margin": _number(who, "root_margin", pick("root_margin", root_margin), 0.0),
            "rollout_turn_end": _flag(who, "rollout_turn_end", pick("rollout_turn_end", rollout_turn_end)),
            "rollout_extra_runs": _integer(who, "rollout_extra_runs", pick("rollout_extra_runs", rollout_extra_runs), 0,
                                           what="an integer >= 0 (runs played after the mover's; needs "
                                                "rollout_turn_end)"),
            "chance_expectation": _flag(who, "chance_expectation", pick("chance_expectation", chance_expectation)),
            "rollout_stop_prefix": _prefix(who, pick("rollout_stop_prefix", rollout_stop_prefix)),
            "prior_visits": _number(who, "prior_visits", pick("prior_visits", prior_visits), 0.0,
                                    what="a number >= 0 (virtual visits of the one-ply value; 0: off)"),
            "prior_drift": _flag(who, "prior_drift", pick("prior_drift", prior_drift)),
            "tree_depth": _integer(who, "tree_depth", pick("tree_depth", tree_depth), 0,
                                   what="an integer >= 0 (0: no limit; 1: flat Monte Carlo over the root moves)"),
            "belief": _number(who, "belief", pick("belief", belief), 0.0,
                              what="a number >= 0 (how strongly the opponent's evaluation weighs a "
                                   "determinization; 0: off)"),
            "belief_samples": _integer(who, "belief_samples", pick("belief_samples", belief_samples), 1, 4096),
        }
        ismcts = _flag(who, "ismcts", ismcts, allow_none=True)
        if ismcts is True:  # a plain-MCTS preset setting cannot apply: back to off unless the caller gave it
            given = {"widening": widening, "root_margin": root_margin, "rollout_turn_end": rollout_turn_end,
                     "rollout_extra_runs": rollout_extra_runs, "chance_expectation": chance_expectation,
                     "prior_visits": prior_visits, "prior_drift": prior_drift,
                     "opponent_widening": opponent_widening}
            self.shape.update({k: SHAPE_FALLBACK[k] for k in PLAIN_ONLY if given[k] is None})
        elif ismcts is False and belief is None:  # an ISMCTS-only preset setting: off in plain MCTS
            self.shape["belief"] = SHAPE_FALLBACK["belief"]
        self._mcts = _search.MCTS(self.game.capsule, seed=self.seed & _MASK64,
                                  threads=_integer(who, "threads", threads, 1, 256),
                                  solver=_flag(who, "solver", solver),
                                  max_memory_mb=_number(who, "max_memory_mb", max_memory_mb, 1.0),
                                  ismcts=ismcts, weights=self._weights_arg(),
                                  stop_weights=None if stop_w is None else stop_w.tolist(),
                                  common_random=_flag(who, "common_random", common_random), **self.shape)
        self._last_history = None

    @property
    def ismcts(self):
        return self._mcts.ismcts

    def reset(self):
        self._mcts.reset()
        self._last_history = None

    def stop(self):
        self._mcts.stop()

    def progress(self):
        return self._mcts.progress()

    def play(self, state):
        _check_decision(state, self.name)
        moves = self.searched_state(state).legal_actions()
        if len(moves) == 1:  # nothing to think about
            return moves[0], None
        info = self.analyze(state)
        return info["best"], info

    def analyze(self, state):
        _check_decision(state, self.name)
        view = self.searched_state(state)
        book = _book_analysis(self, view, "ismcts" if self.ismcts else "mcts")
        if book is not None:
            return book
        history = view.history()
        played = None
        last = self._last_history
        if self.reuse_tree and last is not None and history[:len(last)] == last:
            played = history[len(last):]
        r = self._mcts.search(view.raw(), simulations=self.simulations,
                              time_limit=self.time_limit, played=played, clock=_clock(self.name, self.clock))
        self._last_history = history
        notes = [view.action_to_string(a) for a in r["actions"]]
        out = dict(r)
        out["move"] = r["best_notation"]
        out["actions"] = r["actions"]
        out["visits"] = dict(zip(notes, r["visits"]))
        out["values"] = dict(zip(notes, r["values"]))
        out["proven_values"] = dict(zip(notes, r["proven_values"]))
        out["pv_actions"] = r["pv"]
        out["pv"] = r["pv_notation"]
        # `nodes` counts simulations, as the protocol's `go nodes` and `info nodes`
        # do (Lc0's convention); the tree's size is `tree_nodes`
        out["tree_nodes"] = r["nodes"]
        out["nodes"] = r["simulations"]
        out["wp"] = self.win_probability(r["value"], "ismcts" if self.ismcts else "mcts", view)
        return out


class ISMCTSBot(MCTSBot):
    """Single-observer information-set MCTS: MCTSBot with ismcts forced on
    (each simulation plays in a fresh determinization of the bot's view)."""

    PRESET = "ismcts"

    def __init__(self, game, simulations=20000, time_limit=None, threads=1, seed=0,
                 exploration=None, rollout_depth=None, max_memory_mb=512, reuse_tree=True,
                 normalize=None, minimax_weight=None, eval_children=None, final_lcb=None,
                 weights=None, name=None, rollout_sample=None, rollout_epsilon=None, widening=None,
                 widening_exponent=None, root_margin=None, rollout_turn_end=None, clock="wall",
                 rollout_extra_runs=None, chance_expectation=None, rollout_stop_prefix=None,
                 stop_weights=None, belief=None, belief_samples=None):
        super().__init__(game, simulations=simulations, time_limit=time_limit, threads=threads,
                         seed=seed, exploration=exploration, rollout_depth=rollout_depth,
                         solver=False, max_memory_mb=max_memory_mb, ismcts=True,
                         reuse_tree=reuse_tree, normalize=normalize,
                         minimax_weight=minimax_weight, eval_children=eval_children,
                         final_lcb=final_lcb, weights=weights, name=name,
                         rollout_sample=rollout_sample, rollout_epsilon=rollout_epsilon,
                         widening=widening, widening_exponent=widening_exponent, root_margin=root_margin,
                         rollout_turn_end=rollout_turn_end, clock=clock,
                         rollout_extra_runs=rollout_extra_runs, chance_expectation=chance_expectation,
                         rollout_stop_prefix=rollout_stop_prefix, stop_weights=stop_weights,
                         belief=belief, belief_samples=belief_samples)


class ExpectimaxBot(Bot, _Weighted):
    """Iterative-deepening expectimax with Star2 pruning and a transposition
    table (ardsearch._search.Expectimax). depth: fixed depth (None: deepen
    until time_limit or nodes). In hidden-information games the C++ side
    averages over `determinizations` samples of the bot's view. weights:
    None (the game's evaluate()), "classic" or the path of an eval.toml.
    clock: what time_limit counts, "wall" (the default) or "cpu" (the
    search thread's own CPU time)."""

    def __init__(self, game, depth=None, time_limit=1.0, seed=0, determinizations=8, tt_mb=64,
                 star2=True, use_tt=True, nodes=None, weights=None, name=None, clock="wall"):
        super().__init__(game, seed, name)
        self._set_weights(weights)
        who = self.name
        self.clock = _clock(who, clock)
        self.depth = (None if _off_or(depth) else
                      _integer(who, "depth", depth, 1, 64, what="an integer from 1 to 64 (0 or none: "
                               "deepen until time_limit or nodes)"))
        self.time_limit = (None if _off_or(time_limit) else
                           _number(who, "time_limit", time_limit, 0.0, low_open=True,
                                   what="seconds > 0 (0 or none: no time limit)"))
        self.nodes = (None if _off_or(nodes) else
                      _integer(who, "nodes", nodes, 1, what="an integer >= 1 (0 or none: no node limit)"))
        if self.depth is None and self.time_limit is None and self.nodes is None:
            raise ValueError(f"{self.name}: give depth, time_limit and/or nodes")
        self._args = dict(seed=self.seed & _MASK64, tt_mb=_integer(who, "tt_mb", tt_mb, 1, 65536),
                          star2=_flag(who, "star2", star2), use_tt=_flag(who, "use_tt", use_tt),
                          determinizations=_integer(who, "determinizations", determinizations, 1, 4096),
                          weights=self._weights_arg())
        self._ex = _search.Expectimax(self.game.capsule, **self._args)

    def reset(self):
        self._ex = _search.Expectimax(self.game.capsule, **self._args)

    def stop(self):
        self._ex.stop()

    def progress(self):
        return self._ex.progress()

    def analyze(self, state):
        _check_decision(state, self.name)
        view = self.searched_state(state)
        book = _book_analysis(self, view, "expectimax")
        if book is not None:
            return book
        r = self._ex.search(view.raw(), depth=self.depth, time_limit=self.time_limit,
                            nodes=self.nodes, clock=_clock(self.name, self.clock))
        notes = [view.action_to_string(a) for a in r["actions"]]
        pv, walk = [], view.clone()
        for a in r["pv"]:
            try:
                text = walk.action_to_string(a)
                walk.apply_action(a)
            except ValueError:
                break
            pv.append(text)
        out = dict(r)
        out["move"] = view.action_to_string(r["best"])
        out["values"] = dict(zip(notes, r["values"]))
        out["visits"] = {}
        out["pv_actions"] = r["pv"]
        out["pv"] = pv
        out["wp"] = self.win_probability(r["value"], "expectimax", view)
        out.setdefault("proven", None)
        return out


# ---------------------------------------------------------------- the roster

_ALGORITHMS = {
    "random": RandomBot,
    "greedy": HeuristicBot,
    "mcts": MCTSBot,
    "ismcts": ISMCTSBot,
    "expectimax": ExpectimaxBot,
    # difficulty levels (ardsearch/levels.py): LevelBot, imported when first
    # used, since that module builds on this one
    "level": None,
}


def _algorithm_class(algorithm):
    if algorithm == "level":
        from ardsearch.levels import LevelBot
        return LevelBot
    return _ALGORITHMS[algorithm]


def _roster_files():
    """Preset name -> TOML text. In a source checkout (a pyproject.toml beside
    the package) the repository's bots/ folder next to the package: an
    editable install elsewhere maps ardsearch.roster to its own checkout's
    bots/, which is not the roster this code came with. Otherwise the
    installed ardsearch.roster package."""
    found = {}
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "bots").is_dir():
        for path in sorted((root / "bots").glob("*.toml")):
            found[path.stem] = path.read_text(encoding="utf-8")
        if found:
            return found
    try:
        entries = resources.files("ardsearch.roster")
        for entry in entries.iterdir():
            if entry.name.endswith(".toml"):
                found[entry.name[:-5]] = entry.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    return found


def _preset(name):
    files = _roster_files()
    if name not in files:
        raise ValueError(f"unknown bot preset {name!r} (available: {', '.join(sorted(files))})")
    try:
        data = tomllib.loads(files[name])
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"bot preset {name!r}: bad TOML ({e})") from None
    algorithm = data.get("algorithm")
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"bot preset {name!r}: algorithm {algorithm!r} is not one of "
                         f"{', '.join(sorted(_ALGORITHMS))}")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise ValueError(f"bot preset {name!r}: [params] must be a table")
    return data, algorithm, params


# Settings the C++ search takes in plain MCTS only (it refuses them with ismcts).
PLAIN_ONLY = ("widening", "root_margin", "rollout_turn_end", "rollout_extra_runs", "chance_expectation",
              "prior_visits", "prior_drift", "opponent_widening")

# What a search bot uses for a setting that neither its caller nor any preset gives.
SHAPE_FALLBACK = {"exploration": 1.4, "rollout_depth": 10, "normalize": False,
                  "minimax_weight": 0.0, "eval_children": False, "final_lcb": 0.0,
                  "rollout_sample": 0, "rollout_epsilon": 0.0, "widening": 0.0, "widening_exponent": 0.5,
                  "root_margin": 0.0, "rollout_turn_end": False, "rollout_extra_runs": 0,
                  "chance_expectation": False, "rollout_stop_prefix": "", "prior_visits": 0.0,
                  "prior_drift": False, "tree_depth": 0, "belief": 0.0, "belief_samples": 256,
                  "opponent_widening": -1.0}


def _opponent_widening(who, value):
    """opponent_widening: -1 (off: the opponent's nodes widen as the bot's
    own) or a coefficient >= 0 (0: only the opponent's one-ply best move)."""
    what = "-1 (off) or a number >= 0 (0: the opponent plays its one-ply best move)"
    v = _number(who, "opponent_widening", value, -1.0, what=what)
    if -1.0 < v < 0.0:
        raise _bad(who, "opponent_widening", value, what)
    return v


def _prefix(who, value):
    """rollout_stop_prefix: the start of a chance outcome's notation, or "" (off)."""
    if not isinstance(value, str) or len(value) > 15:
        raise ValueError(f"{who}: rollout_stop_prefix must be text of at most 15 characters, the start of a "
                         f"chance outcome's notation (e.g. card:), or empty (off); got {value!r}")
    return value


def search_shape(preset, game) -> dict:
    """The search-shape settings (exploration, rollouts, ...; not the budget)
    of `preset` for `game`, its [games.<name>] table included: the defaults of
    a bare MCTSBot (preset "mcts") or ISMCTSBot ("ismcts")."""
    try:
        data, _, params = _preset(preset)
    except ValueError:          # a roster without that preset (a custom one): plain defaults
        return dict(SHAPE_FALLBACK)
    per_game = data.get("games", {}).get(game.name, {})
    merged = {**params, **(per_game if isinstance(per_game, dict) else {})}
    return {k: merged.get(k, v) for k, v in SHAPE_FALLBACK.items()}


def list_bots():
    """The names of the bot presets, sorted."""
    return sorted(_roster_files())


def preset_description(name):
    """The one-line description of a preset (ValueError for an unknown one)."""
    data, _, _ = _preset(name)
    return str(data.get("description", ""))


def load_bot(preset, game, **overrides):
    """A bot from the roster preset `preset` for `game` (a Game, or a game name
    such as "ardennes" or "ardennes(road_length=12)"); keyword overrides
    replace the preset's parameters (seed=..., simulations=..., ...).
    Unknown presets and unknown parameters raise ValueError naming the valid
    ones; a bad value raises ValueError naming the setting, the value and what
    it takes."""
    data, algorithm, params = _preset(preset)
    game = _as_game(game)
    cls = _algorithm_class(algorithm)
    # an optional [games.<name>] table tunes the preset for one game
    per_game = data.get("games", {}).get(game.name, {})
    if not isinstance(per_game, dict):
        raise ValueError(f"bot preset {preset!r}: [games.{game.name}] must be a table")
    params = {**params, **per_game}
    signature = inspect.signature(cls.__init__).parameters
    valid = [p for p, v in signature.items() if p not in ("self", "game", "name")
             and v.kind is not inspect.Parameter.VAR_KEYWORD]
    # a class taking **settings (a level) passes the rest to its base preset, which checks them
    passes_on = any(v.kind is inspect.Parameter.VAR_KEYWORD for v in signature.values())
    for key in list(params) + list(overrides):
        if key not in valid and not passes_on:
            where = "override" if key in overrides else f"parameter in preset {preset!r}"
            raise ValueError(f"unknown {where} {key!r} for a {algorithm} bot "
                             f"(valid: {', '.join(valid)})")
    merged = {**params, **overrides}
    bot = cls(game, name=data.get("name", preset), **merged)
    bot.settings = {"preset": preset, **merged}    # what a game record says about this player
    return bot
