"""How much of a searched move's value is chance noise (issue 15: "no game
where search is no better than one ply").

    python -m bench.run_noise 'stosstruppen(scenario=villers)' --games 2 --every 9 --top 3 --rollouts 60

Plays `--games` greedy self-play games (seeded, bench.root_probe.positions),
keeps every `--every`-th decision with a choice and, for the `--top` moves
greedy rates best one ply deep, measures:

- the one-ply value (what greedy plays by: evaluate() after the move, which
  at a chance node is already the expectation over its outcomes);
- the spread of the move's own chance node: when the move leaves a chance
  node (a shot's dice, a morale test, a card draw), the standard deviation
  of evaluate() over its outcomes, weighted by their probabilities: the
  noise one tree sample through that node carries and one ply does not;
- the rollout values MCTS's leaf gets with the `mcts` preset's
  rollout_turn_end rollouts (the mover's run completed by the best of
  `--sample` sampled moves, -1 all of them; dice and cards sampled; scored
  with evaluate() at the other player's first decision): mean and standard
  deviation over `--rollouts` rollouts.

The summary prints the medians and the samples a move's mean needs to be
told from a sibling's `--gap` apart (two means, 95%: 2 (1.96 sd / gap)^2),
against the one-ply gap between greedy's best two moves."""
from __future__ import annotations

import math
import random
import statistics

import ardsearch
from bench.root_probe import one_ply, position_args, positions


def chance_spread(state, me):
    """Probability-weighted SD of evaluate() over a chance node's outcomes (0: no chance node)."""
    if not state.is_chance_node():
        return 0.0
    vals = []
    for a, p in state.chance_outcomes():
        c = state.clone()
        c.apply_action(a)
        vals.append((p, c.returns()[me] if c.is_terminal() else c.evaluate(me)))
    m = sum(p * v for p, v in vals)
    return math.sqrt(max(0.0, sum(p * (v - m) ** 2 for p, v in vals)))


def policy_move(state, k, rng):
    """The rollout policy of the shared search: best of k sampled moves (-1: all)."""
    moves = state.legal_actions()
    if len(moves) == 1:
        return moves[0]
    me = state.current_player()
    pool = moves if k < 0 or k >= len(moves) else rng.sample(moves, k)
    if k < 0:
        pool = list(pool)
        rng.shuffle(pool)
    best, best_v = pool[0], -math.inf
    for a in pool:
        c = state.clone()
        c.apply_action(a)
        v = 2.0 * c.returns()[me] if c.is_terminal() else c.evaluate(me)
        if v > best_v:
            best, best_v = a, v
    return best


def rollout(state, mover, k, rng, stop_at=None):
    """rollout_turn_end: play on until the other player's first decision, then
    evaluate(); with `stop_at`, also at a chance node whose first outcome's
    notation starts with it (Stosstruppen's card draw: "card:")."""
    s = state.clone()
    while not s.is_terminal():
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            if stop_at and (stop_at == "any" or s.action_to_string(acts[0]).startswith(stop_at)):
                return s.evaluate(mover)
            s.apply_action(rng.choices(acts, probs)[0])
            continue
        if s.current_player() != mover:
            return s.evaluate(mover)
        s.apply_action(policy_move(s, k, rng))
    return s.returns()[mover]


def main(argv=None):
    ap = position_args(__doc__, games=2, every=9)
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--rollouts", type=int, default=60)
    ap.add_argument("--sample", type=int, default=8, help="rollout policy: best of k sampled moves (-1: all)")
    ap.add_argument("--gap", type=float, default=0.01)
    ap.add_argument("--stop-at", default=None,
                    help="also end a rollout at a chance node whose outcomes' notation starts with this "
                         "(e.g. card: ends the mover's run before the next card is drawn; any: at every chance node)")
    args = ap.parse_args(argv)
    game = ardsearch.load_game(args.game)
    rng = random.Random(args.seed)
    kept = positions(game, args.games, args.every, args.seed)
    sds, spreads, gaps, drifts = [], [], [], []
    for i, s in enumerate(kept):
        me = s.current_player()
        values = one_ply(s)
        ranked = sorted(values, key=lambda a: -values[a])[: args.top]
        if len(ranked) > 1:
            gaps.append(values[ranked[0]] - values[ranked[1]])
        line = []
        for a in ranked:
            c = s.clone()
            c.apply_action(a)
            spread = chance_spread(c, me)
            if spread > 0:
                spreads.append(spread)
            vals = [rollout(c, me, args.sample, rng, args.stop_at) for _ in range(args.rollouts)]
            m, sd = statistics.fmean(vals), statistics.pstdev(vals)
            sds.append(sd)
            drifts.append(m - values[a])
            line.append(f"{s.action_to_string(a)} 1ply {values[a]:+.3f} chance-sd {spread:.3f} "
                        f"rollout {m:+.3f}±{sd:.3f}")
        print(f"[{i}] p{me} {len(values)} moves: " + "; ".join(line), flush=True)
    med = statistics.median
    sd = med(sds) if sds else 0.0
    print(f"{args.game} sample={args.sample} stop_at={args.stop_at}: {len(kept)} positions; median one-ply gap best-second "
          f"{med(gaps) if gaps else 0:.4f} (share of gaps < {args.gap}: "
          f"{sum(g < args.gap for g in gaps)}/{len(gaps)}); "
          f"median rollout sd {sd:.3f}; median chance-node sd {med(spreads) if spreads else 0:.3f} "
          f"over {len(spreads)} moves leaving a chance node; median drift (rollout mean - one ply) "
          f"{med(drifts) if drifts else 0:+.3f}; samples a move's mean needs to be told from a sibling "
          f"{args.gap} apart: {2 * (1.96 * sd / args.gap) ** 2:.0f}")


if __name__ == "__main__":
    main()
