python -m ardsearch tournament stosstruppen(scenario=kaiserschlacht) --bots mcts:nodes=1000 greedy --games 16 --seed 54 --clock cpu --concurrency 1 --out bench/results/s41-greedy/k-s54.jsonl
