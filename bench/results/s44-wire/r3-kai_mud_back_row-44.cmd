python -m bench.balance stosstruppen(scenario=kai_mud_back_row) --bot level-4 --pairs 64 --seed 44
