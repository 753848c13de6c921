import sys, time, ardsearch
from ardsearch.bots import MCTSBot
print(ardsearch.__file__, end=" ")
out = []
for game, sims in (("ardennes", 50000), ("mortain", 50000), ("stosstruppen", 2000)):
    g = ardsearch.load_game(game)
    s = g.new_initial_state() if hasattr(g, "new_initial_state") else g.initial_state()
    bot = ardsearch.load_bot("mcts", g, simulations=sims, seed=1, time_limit=100)
    import random as _r; _r.seed(1)
    while s.is_chance_node() if hasattr(s, "is_chance_node") else False: s.apply_random_chance()
    t = time.process_time(); bot.choose(s) if hasattr(bot, "choose") else bot.step(s); out.append(time.process_time() - t)
print(" ".join(f"{x:.2f}" for x in out))
