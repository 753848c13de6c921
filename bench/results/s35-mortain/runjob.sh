#!/bin/bash
# runjob.sh KIND ARGS: one job of PLAN.md; start/end time and load and the command in KIND-ARGS.log
cd /work/main
R=bench/results/s35-mortain
case $1 in
  scaling) N=scaling-mortain; CMD=(python -m bench.scaling mortain --rate 58746 --times 0.01 0.03 0.1 0.3 1 --pairs 10 10 8 6 --seed 1 --results $R/scaling-mortain.jsonl) ;;
  scaling2) N=scaling-mortain-seed2; CMD=(python -m bench.scaling mortain --rate 58746 --times 0.01 0.03 0.1 0.3 1 --pairs 10 10 8 6 --seed 2 --results $R/scaling-mortain-seed2.jsonl) ;;
  mortain) N=mortain-l5-seed$2; CMD=(python -m bench.balance_log $R/$N.jsonl mortain --bot level-5 --pairs 8 --seed $2) ;;
  ma) N=ma-l4-$2-seed$3; CMD=(python -m bench.balance_log $R/$N.jsonl "microarmour(scenario=$2)" --bot level-4 --pairs 4 --seed $3) ;;
esac
{ echo "start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "cmd: ${CMD[*]}"
  nice -n 5 .venv/bin/"${CMD[@]}" > $R/$N.out 2> $R/$N.err
  echo "rc $?"
  echo "end $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"; } >> $R/$N.log 2>&1
