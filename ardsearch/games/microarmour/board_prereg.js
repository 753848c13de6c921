// Micro Armour in the browser: pre-registered target points (RULES.md
// "Indirect artillery", Pre-registered target points), drawn from the view's
// `artillery.prereg` only. Each point the view knows (the viewer's own, or the
// opponent's once a call on it landed) is a crosshair labelled `pre<n>` on the
// table; a line per side below the map lists them, `?` for an opponent's point
// not seen, `-` for one not recorded yet. So two truths whose hidden points
// differ draw the same opponent board. board.js calls these.

// The view's points by side: {german: [{at, shown}], soviet: [...]}.
export function preregOf(v) { return (v.artillery && v.artillery.prereg) || {}; }

// Every known point on the table, with `crosshair(g, at, side, label)` (board.js's plot mark).
export function drawPreregPoints(ctx, el, tip, onTable, crosshair) {
  for (const [side, pts] of Object.entries(preregOf(ctx.v))) {
    pts.forEach((p, i) => {
      if (!Array.isArray(p.at) || !onTable(ctx.T, p.at)) return;
      const g = el("g", { "data-prereg": `${side}:${i + 1}`, "pointer-events": "none", opacity: 0.8 }, ctx.svg);
      crosshair(g, p.at, side, `pre${i + 1}`);
      tip(g, `${side} pre-registered point ${i + 1} at ${p.at[0]},${p.at[1]}` +
             (p.shown ? " (seen by both: a call on it landed)" : " (hidden from the opponent)") +
             `: a battery calls it with \`plot he pre${i + 1}\`, landing next turn at -2`);
    });
  }
}

// One line a side with points: [side, icon, text] for board.js's support lines.
export function preregLines(v, name) {
  const text = (p) => (p.at === null ? "-" : p.at === "hidden" ? "?" : `${p.at.join(",")}${p.shown ? " (seen)" : ""}`);
  return Object.entries(preregOf(v)).filter(([, pts]) => pts.length)
    .map(([side, pts]) => [side, "gun", `pre-registered points (${name(side)}): ` +
      pts.map((p, i) => `pre${i + 1} ${text(p)}`).join(" · ")]);
}

// What a mission aims at as a person reads it: `pre1 (13,10)`, `pre1` while unseen, or `13,10`.
export function aimText(m) {
  if (m.prereg) return m.target ? `pre${m.prereg} (${m.target.join(",")})` : `pre${m.prereg}`;
  return m.target.join(",");
}
