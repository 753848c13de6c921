nice -n 5 python -m bench.search_stability 'stosstruppen(scenario=kaiserschlacht)' --games 2 --every 9 --seeds 4 --sims 1000 --mcts '{}'
