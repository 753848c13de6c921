import json, random, sys
import ardsearch
g = ardsearch.load_game("stosstruppen(scenario=kaiserschlacht)")
out = []
for seed in (1, 2):
    bot = ardsearch.MCTSBot(g, simulations=150, seed=seed, ismcts=False)
    s = g.new_initial_state(); rng = random.Random(seed)
    for _ in range(6):
        while s.is_chance_node(): s.apply_action(s.chance_outcomes()[0][0])
        if s.is_terminal(): break
        r = bot.analyze(s); out.append((r["move"], sorted(r["visits"].items())))
        s.apply_action(r["best"])
print(ardsearch.__file__, __import__("hashlib").md5(json.dumps(out).encode()).hexdigest(), len(out))
