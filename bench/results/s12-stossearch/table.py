"""Prints the README table rows for the session-10 runs (pooled rows: several files)."""
import subprocess, sys, os
D = os.path.dirname(os.path.abspath(__file__))
rows = [
 ("villers", "the preset, `nodes=1000`, seed 7 (baseline on the session-9 rules)", ["v-pre1000-s7"]),
 ("villers", "the preset, `nodes=1000`, seed 8", ["v-pre1000-s8"]),
 ("villers", "the preset, seeds 7 and 8 pooled", ["v-pre1000-s7", "v-pre1000-s8"]),
 ("villers", "`rollout_stop_prefix=card:,root_margin=0.03`", ["v-stop03-s7"]),
 ("villers", "`rollout_stop_prefix=card:,root_margin=0.05`", ["v-stop05-s7"]),
 ("villers", "`rollout_stop_prefix=card:,root_margin=0.1`", ["v-stop10-s7"]),
 ("villers", "`rollout_stop_prefix=card:,root_margin=0.03,chance_expectation=true`", ["v-stop03ce-s7"]),
 ("villers", "`rollout_stop_prefix=card:,root_margin=0.03`, `nodes=3000`", ["v-stop03n3k-s7"]),
 ("villers", "the preset, `nodes=3000`", ["v-pre3000-s7"]),
 ("villers", "the three `rollout_stop_prefix` margins at 1,000 pooled (30 pairs, seed 7 three times)", ["v-stop03-s7", "v-stop05-s7", "v-stop10-s7"]),
 ("kaiserschlacht", "`rollout_stop_prefix=card:,root_margin=0.03`", ["k-stop03-s7"]),
 ("kaiserschlacht", "`rollout_stop_prefix=card:,root_margin=0.05`", ["k-stop05-s7"]),
 ("kaiserschlacht", "`rollout_stop_prefix=card:,root_margin=0.1`", ["k-stop10-s7"]),
 ("kaiserschlacht", "`rollout_stop_prefix=card:,root_margin=0.03,chance_expectation=true`", ["k-stop03ce-s7"]),
 ("kaiserschlacht", "the same, seed 8", ["k-stop03ce-s8"]),
 ("kaiserschlacht", "the same, seeds 7 and 8 pooled", ["k-stop03ce-s7", "k-stop03ce-s8"]),
 ("kaiserschlacht", "the same, `nodes=3000`, seed 7", ["k-stop03cen3k-s7"]),
]
def load(n):
    try:
        L = [l.split()[0] for l in open(f"{D}/{n}.load")]
        return L
    except OSError:
        return []
for scen, desc, files in rows:
    paths = [f"{D}/{f}.jsonl" for f in files]
    if not all(os.path.exists(p) for p in paths): continue
    out = subprocess.run([sys.executable, f"{D}/summ.py", *paths], capture_output=True, text=True).stdout.split()
    # pairs N penta [a, b, c, d, e] Elo X [lo, hi] German g British b score s
    s = " ".join(out)
    pairs = out[1]; penta = s[s.index('['):s.index(']')+1]
    elo = s.split('Elo ')[1].split(' German')[0]
    wil = s.split('wilson ')[1]
    ger = s.split('German ')[1].split()[0]; bri = s.split('British ')[1].split()[0]
    seed = "" if len(files) > 1 else ""
    L = load(files[0]) if len(files) == 1 else []
    utc = f"{L[0][:5]}-{L[2][:5]}" if len(L) >= 3 else (f"{L[0][:5]}- (partial)" if L else "")
    ld = ""
    if len(files) == 1:
        txt = open(f"{D}/{files[0]}.load").read().split('load average: ')
        ld = ", ".join(t.split(',')[0] for t in txt[1:])
    f = files[0] if len(files) == 1 else ""
    print(f"| {scen} | {desc} | {pairs} | {penta} | {elo} | {wil} | {ger} | {bri} | {utc} | {ld} | {f} |")
