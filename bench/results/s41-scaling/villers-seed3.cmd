python -m bench.scaling stosstruppen(scenario=villers) --rate 5158 --times 0.01 0.03 0.1 0.3 1 --pairs 10 10 10 8 --seed 3 --results bench/results/s41-scaling/scaling-villers-seed3.jsonl
