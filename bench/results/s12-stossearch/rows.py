"""Markdown rows for bench/README.md from the s12 match files: python rows.py NAME..."""
import os, subprocess, sys, re
D = 'bench/results/s12-stossearch'
for name in sys.argv[1:]:
    out = subprocess.run([sys.executable, os.path.join(D, '..', 's10-stossearch', 'summ.py'), f'{D}/{name}.jsonl'], capture_output=True, text=True).stdout
    m = re.search(r'pairs (\d+) penta (\[.*?\]) Elo (\S+) \[(\S+), (\S+)\] German (\S+) British (\S+) score \S+ wilson (.*)', out)
    load = open(f'{D}/{name}.load').read().split('\n')
    t0, t1 = load[0][:5], (load[2][:5] if len(load) > 2 and load[2] else '')
    l0 = load[1].split('load average: ')[1].split(',')[0]
    l1 = load[3].split('load average: ')[1].split(',')[0] if len(load) > 3 and load[3] else ''
    spec = open(f'{D}/{name}.cmd').read().split("--bots '")[1].split("'")[0]
    print(f"| {spec} | {m[1]} | {m[2]} | {m[3]} [{m[4]}, {m[5]}] | {m[8]} | {m[6]} | {m[7]} | {t0}-{t1} | {l0}, {l1} | {name} |")
