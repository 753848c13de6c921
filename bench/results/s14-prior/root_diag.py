import random, ardsearch
from ardsearch import _search
g = ardsearch.load_game("stosstruppen(scenario=kaiserschlacht)")
shape = ardsearch.MCTSBot(g, simulations=1, ismcts=False).shape
def decision(seed, plies):
    rng = random.Random(seed); s = g.new_initial_state(); d = 0
    while True:
        while s.is_chance_node(): s.apply_action(s.chance_outcomes()[0][0])
        if d >= plies or s.is_terminal(): return s
        s.apply_action(rng.choice(s.legal_actions())); d += 1
for seed, plies in ((4, 0), (4, 5), (4, 11), (6, 2)):
    s = decision(seed, plies)
    for k, dr in ((0, False), (50, True)):
        m = _search.MCTS(g.capsule, seed=1, **{**shape, "prior_visits": k, "prior_drift": dr})
        r = m.search(s.raw(), simulations=1000)
        ev = {e["action"]: e["eval"] for e in m.edges([])}
        rows = sorted([(n, v, ev[a], a) for a, n, v in zip(r["actions"], r["visits"], r["values"]) if n], reverse=True)
        drift = sum(n*(v-e) for n, v, e, a in rows)/sum(n for n, *_ in rows)
        top = max(ev.values())
        print(seed, plies, "k", k, "best_eval-top %.4f" % (ev[r["best"]] - top), "drift %.4f" % drift,
              " ".join("%d:%.3f/%.3f" % (n, v, e) for n, v, e, a in rows[:6]))
