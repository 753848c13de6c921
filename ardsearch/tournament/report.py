"""The final tables as text, Markdown and a PNG plot."""
from __future__ import annotations

from ardsearch.tournament.standings import Standings


def elo_text(x) -> str:
    """An Elo figure as the reports print it (+N; a capped one as its string)."""
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return f"{round(x):+d}"


def _err(row) -> str:
    if row["minus"] is None:
        return "  -"
    return f"-{elo_text(row['minus']).lstrip('+')}/+{elo_text(row['plus']).lstrip('+')}"


def _rows(summary: dict) -> tuple[list[str], list[list[str]], list[str], list[list[str]]]:
    """(rating header, rating rows, crosstable header, crosstable rows)."""
    names = [r["name"] for r in summary["entrants"]]
    head = ["#", "entrant", "rating", "error", "games", "score", "W", "D", "L", "faults"]
    rows = []
    for i, r in enumerate(summary["entrants"], 1):
        faults = ", ".join(f"{k} {v}" for k, v in r["faults"].items()) or "-"
        score = f"{100 * r['score']:.1f}%" if r["score"] is not None else "-"
        rows.append([str(i), r["name"], elo_text(r["rating"]), _err(r), str(r["games"]), score,
                     str(r["wins"]), str(r["draws"]), str(r["losses"]), faults])
    cross_head = ["entrant"] + [n[:10] for n in names]
    cross = []
    table = summary["crosstable"]
    for a in names:
        row = [a]
        for b in names:
            if a == b:
                row.append("x")
            elif b in table[a] and table[a][b][1]:
                row.append(f"{table[a][b][0]:g}/{table[a][b][1]}")
            else:
                row.append("")
        cross.append(row)
    return head, rows, cross_head, cross


def _pairing_lines(summary: dict) -> list[str]:
    lines = []
    for p in summary["pairings"]:
        if not p["games"]:
            continue
        t = p["trinomial"]
        lines.append(
            f"{p['a']} vs {p['b']}: pentanomial {p['penta']} ({p['pairs']} pairs), "
            f"Elo {elo_text(p['elo'])} [{elo_text(p['elo_low'])}, {elo_text(p['elo_high'])}], LOS {100 * p['los']:.1f}%; "
            f"trinomial +{p['wins']} ={p['draws']} -{p['losses']}, Elo {elo_text(t['elo'])} "
            f"[{elo_text(t['elo_low'])}, {elo_text(t['elo_high'])}], LOS {100 * t['los']:.1f}%, "
            f"draws {100 * t['draw_ratio']:.1f}%")
    s = summary.get("sprt")
    if s:
        verdict = {"H1": f"H1 accepted (elo1={s['elo1']:g})", "H0": f"H0 accepted (elo0={s['elo0']:g})",
                   None: "no decision yet"}[s["decision"]]
        lines.append(f"SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} beta={s['beta']:g}: "
                     f"LLR {s['llr']:.2f} [{s['lower']:.2f}, {s['upper']:.2f}], {verdict}")
    return lines


def text_report(summary: dict) -> str:
    head, rows, cross_head, cross = _rows(summary)

    def grid(h, rs):
        widths = [max(len(x) for x in col) for col in zip(h, *rs)]
        return ["  ".join(x.rjust(w) if i != 1 or h is cross_head else x.ljust(w)
                          for i, (x, w) in enumerate(zip(r, widths))) for r in [h] + rs]

    out = [f"{summary['games']} games"] + grid(head, rows) + [""] + grid(cross_head, cross) + [""]
    out += _pairing_lines(summary)
    return "\n".join(out)


def markdown_report(summary: dict, title: str = "Tournament") -> str:
    head, rows, cross_head, cross = _rows(summary)

    def table(h, rs):
        return ["| " + " | ".join(h) + " |", "|" + "---|" * len(h)] + ["| " + " | ".join(r) + " |" for r in rs]

    out = [f"# {title}", "", f"{summary['games']} games.", "", "## Ratings", ""] + table(head, rows)
    out += ["", "## Crosstable (points/games, row against column)", ""] + table(cross_head, cross)
    out += ["", "## Pairings", ""] + [f"- {line}" for line in _pairing_lines(summary)]
    return "\n".join(out) + "\n"


def plot(summary: dict, standings: Standings, path) -> None:
    """Ratings with error bars, and each entrant's cumulative score over games."""
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'ardsearch[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = summary["entrants"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    ys = list(range(len(rows)))[::-1]
    errs = [[r["minus"] if isinstance(r["minus"], (int, float)) else 0 for r in rows],
            [r["plus"] if isinstance(r["plus"], (int, float)) else 0 for r in rows]]
    left.errorbar([r["rating"] for r in rows], ys, xerr=errs, fmt="o", capsize=4)
    left.set_yticks(ys, [r["name"] for r in rows])
    left.axvline(0, color="grey", lw=0.5)
    left.set_xlabel("rating (Elo, mean 0) with 95% error bars")
    per_entrant: dict[str, list[float]] = {}
    for _, name, pts in standings.timeline:
        series = per_entrant.setdefault(name, [])
        series.append((series[-1] * len(series) + pts) / (len(series) + 1) if series else pts)
    for name, series in per_entrant.items():
        right.plot(range(1, len(series) + 1), series, label=name)
    right.axhline(0.5, color="grey", lw=0.5)
    right.set_ylim(0, 1)
    right.set_xlabel("games played by the entrant")
    right.set_ylabel("score so far")
    right.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
