#!/bin/bash
# After the last match: the seed-stability probe of the preset and of common_random (bench/search_stability.py).
cd /work/wt-stossearch3
D=bench/results/s12-stossearch
touch $D/STOP
while [ "$(wc -l < $D/k-pre1000-s8.load 2>/dev/null)" != "4" ]; do sleep 5; done
for sc in villers kaiserschlacht; do
  for cfg in '{}' '{"common_random": true}'; do
    tag=$( [ "$cfg" = '{}' ] && echo pre || echo crn )
    { date -u +%H:%M:%S; uptime; } > $D/stab-$sc-$tag.load
    echo "nice -n 5 python -m bench.search_stability 'stosstruppen(scenario=$sc)' --games 2 --every 9 --seeds 4 --sims 1000 --mcts '$cfg'" > $D/stab-$sc-$tag.cmd
    nice -n 5 /work/main/.venv/bin/python -m bench.search_stability "stosstruppen(scenario=$sc)" --games 2 --every 9 --seeds 4 --sims 1000 --mcts "$cfg" > $D/stab-$sc-$tag.txt 2>&1
    { date -u +%H:%M:%S; uptime; } >> $D/stab-$sc-$tag.load
  done
done
