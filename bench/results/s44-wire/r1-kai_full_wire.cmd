python -m bench.balance stosstruppen(scenario=kai_full_wire) --bot level-4 --pairs 64 --seed 41 --progress
