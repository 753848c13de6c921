python -m ardsearch tournament stosstruppen --games 16 --seed 102 --concurrency 1 --quiet --bots c1=level-1:root_margin=1.0 random --out bench/results/s38-stoss-levels/explore/s1.jsonl
