python -m bench.scaling stosstruppen(scenario=villers) --rate 5158 --times 0.01 0.03 0.1 0.3 1 --pairs 10 10 10 8 --seed 1 --results bench/results/s40-scaling/scaling-villers.jsonl
