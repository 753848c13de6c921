bash -c cd /tmp/run38 && exec python -m bench.ladder stosstruppen --jobs 1 --rungs level-5 level-6 --pairs 3 --seed 39 --json /work/main/bench/results/s38-stoss-levels/ladder-6-s39.jsonl
