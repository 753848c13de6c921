python -m ardsearch tournament stosstruppen(scenario=villers) --bots mcts greedy --games 20 --seed 41 --clock cpu --concurrency 1 --out bench/results/s39-stoss-greedy/villers-s41.jsonl
