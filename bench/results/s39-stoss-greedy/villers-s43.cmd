python -m ardsearch tournament stosstruppen(scenario=villers) --bots mcts greedy --games 12 --seed 43 --clock cpu --concurrency 1 --out bench/results/s39-stoss-greedy/villers-s43.jsonl
