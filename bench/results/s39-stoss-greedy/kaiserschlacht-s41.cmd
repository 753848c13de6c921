python -m ardsearch tournament stosstruppen(scenario=kaiserschlacht) --bots mcts greedy --games 20 --seed 41 --clock cpu --concurrency 1 --out bench/results/s39-stoss-greedy/kaiserschlacht-s41.jsonl
