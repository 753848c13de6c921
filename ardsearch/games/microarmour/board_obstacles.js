// Micro Armour in the browser: the obstacles of issue 12 on the table
// (RULES.md, Improved positions, Wire and anti-tank ditches, Minefields),
// drawn from the view only: improved positions (class, facing, destroyed),
// wire, AT ditches and minefield markers (the viewer's own with their kind,
// the opponent's unrevealed ones as an unknown marker, a revealed real field
// marked M), breaching progress, the minefield attack and the engineering
// roll in progress, bridges built and ditches filled in play. board.js calls these; each returns nothing it needs back
// but the key entries.
//
// Everything under a stand is drawn so that its edge shows in the margin
// around the counter (a stand stopped in a minefield or dug into a position
// still shows it); the stand's tooltip names what is on its square
// (obstacleNotes).

import { el } from "/static/board-kit.js";

// Class looks: light sand, medium brown, heavy concrete (the class also
// reads as a letter in the empty square and in the tooltip).
const POSITION = { light: { stroke: "#bfa24a", letter: "L", mods: "+3/+3" },
                   medium: { stroke: "#9a6a33", letter: "M", mods: "+5/+5" },
                   heavy: { stroke: "#4e4a45", letter: "H", mods: "+7/+7" } };
const EDGES = { n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0] };
const DIRS = { n: [0, 1], ne: [1, 1], e: [1, 0], se: [1, -1], s: [0, -1], sw: [-1, -1], w: [-1, 0], nw: [-1, 1] };
// Minefield markers: what the viewer may know of one (its `kind` in the view).
const MINE = {
  unknown: { stroke: "#e08a00", fill: "#ffe08a", mark: "!", words: "minefield marker (the opponent's: real or dummy, unknown)" },
  dummy: { stroke: "#8d8d8d", fill: "#eeeeee", mark: "d", words: "dummy minefield (own, or the full state)" },
  hasty: { stroke: "#e08a00", fill: "#ffd54f", mark: "h", words: "hasty" },
  standard: { stroke: "#e08a00", fill: "#ffd54f", mark: "s", words: "standard" },
  concentrated: { stroke: "#e08a00", fill: "#ffd54f", mark: "c", words: "concentrated" },
};
const REVEALED = { stroke: "#b71c1c", fill: "#e53935", mark: "M" };
const sq = (at) => `${at[0]},${at[1]}`;
const name = (ctx, s) => (ctx.SIDE[s] ? ctx.SIDE[s].name : s);
const tip = (node, text) => { el("title", {}, node, text); return node; };

// Engineering tasks (RULES.md, Engineering: bridges and AT ditches): the squares
// changed in play (the view's terrain_changes). A built bridge is drawn as the
// map's bridges (board.js asks builtBridges); a filled ditch as levelled earth.
const done = (v, task) => new Set((v.terrain_changes || []).filter((c) => c.done && c.task === task).map((c) => sq(c.at)));
export function builtBridges(v) { return done(v, "bridge"); }

// Under the stands: positions, wire, ditches, minefield markers.
export function drawObstacles(ctx) {
  const layer = el("g", { "data-layer": "obstacles" }, ctx.svg);
  const filled = done(ctx.v, "ditch");
  for (const at of ctx.v.ditches || []) {
    if (filled.has(sq(at))) filledDitch(ctx, el("g", { "data-filled-ditch": sq(at) }, layer), at, true);
    else ditch(ctx, el("g", { "data-ditch": sq(at) }, layer), at, true);
  }
  for (const at of ctx.v.wire || []) wire(ctx, el("g", { "data-wire": sq(at) }, layer), at, true);
  for (const p of ctx.v.positions || []) position(ctx, layer, p);
  for (const m of ctx.v.minefields || []) if (!m.removed) minefield(ctx, layer, m);
}

function ditch(ctx, g, at, tooltip) {
  const X = ctx.px(at[0]), Y = ctx.py(at[1]), C = ctx.cell;
  el("rect", { x: X, y: Y + C * 0.3, width: C, height: C * 0.4, fill: "#7a5230" }, g);
  for (let i = 0; i < 4; i++) {        // the spoil teeth along both banks
    const x = X + 2 + i * C / 4;
    el("path", { d: `M${x} ${Y + C * 0.3}l${C / 8} -4l${C / 8} 4M${x} ${Y + C * 0.7}l${C / 8} 4l${C / 8} -4`, fill: "#b08a5a" }, g);
  }
  if (tooltip) tip(g, `anti-tank ditch at ${sq(at)}: W T A impassable, F 2 MP`);
}

function filledDitch(ctx, g, at, tooltip) {
  const X = ctx.px(at[0]), Y = ctx.py(at[1]), C = ctx.cell;
  el("rect", { x: X, y: Y + C * 0.3, width: C, height: C * 0.4, fill: "#c8b48a", stroke: "#9a845a", "stroke-width": 1,
               "stroke-dasharray": "3 2" }, g);
  if (tooltip) tip(g, `anti-tank ditch at ${sq(at)}, filled in play: no obstacle (its terrain's cost)`);
}

function wire(ctx, g, at, tooltip) {
  const X = ctx.px(at[0]), Y = ctx.py(at[1]), C = ctx.cell;
  let d = `M${X + 1} ${Y + C / 2}`;
  for (let i = 0; i < 5; i++) d += `l${C / 10} -${C / 6}l${C / 10} ${C / 3}l0 -${C / 6}`;   // a coil of crosses
  el("path", { d, fill: "none", stroke: "#222", "stroke-width": 1.4 }, g);
  el("path", { d: `M${X + 1} ${Y + 2}H${X + C - 1}M${X + 1} ${Y + C - 2}H${X + C - 1}`, stroke: "#222",
               "stroke-width": 1.4, "stroke-dasharray": "2 2" }, g);
  if (tooltip) tip(g, `wire at ${sq(at)}: MP per inch W impassable, T 1, F 3, A 2`);
}

// An improved position: sandbags along the square's edges except its rear
// (the edges facing the way it was dug, and the flanks of a straight
// facing), in its class's colour; a destroyed one is dashed grey with a cross.
function position(ctx, layer, p) {
  const look = POSITION[p.class] || POSITION.light;
  const g = el("g", { "data-position": sq(p.at), "data-class": p.class, "data-destroyed": p.destroyed ? "1" : "0" }, layer);
  // a 5px band straddling the square's edge: 3px of it show around a counter on it
  const X = ctx.px(p.at[0]), Y = ctx.py(p.at[1]), C = ctx.cell, w = 5, i = 0.5;
  const [fx, fy] = DIRS[p.facing] || [0, 1];
  const diagonal = fx !== 0 && fy !== 0;
  const seg = { n: `M${X + i} ${Y + i}H${X + C - i}`, s: `M${X + i} ${Y + C - i}H${X + C - i}`,
                e: `M${X + C - i} ${Y + i}V${Y + C - i}`, w: `M${X + i} ${Y + i}V${Y + C - i}` };
  let d = "";
  for (const [e, [ex, ey]] of Object.entries(EDGES)) {
    const dot = ex * fx + ey * fy;
    if (dot > 0 || (!diagonal && dot === 0)) d += seg[e];
  }
  el("path", { d, fill: "none", stroke: p.destroyed ? "#9e9e9e" : look.stroke, "stroke-width": w,
               "stroke-dasharray": p.destroyed ? "3 4" : "6 1.5" }, g);          // sandbags
  el("text", { x: X + C / 2, y: Y + C / 2 + 4, "font-size": 11, "text-anchor": "middle", "font-weight": 700,
               fill: p.destroyed ? "#9e9e9e" : look.stroke }, g, look.letter);
  if (p.destroyed) el("path", { d: `M${X + 8} ${Y + 8}L${X + C - 8} ${Y + C - 8}M${X + C - 8} ${Y + 8}L${X + 8} ${Y + C - 8}`, stroke: "#9e9e9e", "stroke-width": 1.5 }, g);
  tip(g, positionWords(ctx, p));
}

function positionWords(ctx, p) {
  const look = POSITION[p.class] || POSITION.light;
  return `${name(ctx, p.side)} ${p.class} improved position at ${sq(p.at)}, dug facing ${p.facing}` +
         (p.destroyed ? ": destroyed" : `: ${look.mods} to fire at its side's stand facing ${p.facing}` +
          (p.hits ? `, ${p.hits} E result${p.hits > 1 ? "s" : ""} taken` : ""));
}

// A minefield marker: a dashed frame on the square's edge (shows around a
// stand stopped on it) and a warning triangle with its mark.
function minefield(ctx, layer, m) {
  const look = m.revealed ? REVEALED : MINE[m.kind] || MINE.unknown;
  const own = m.kind !== "unknown";
  const g = el("g", { "data-minefield": sq(m.at), "data-kind": m.revealed ? "revealed" : own ? (m.kind === "dummy" ? "dummy" : "real") : "unknown",
                      "data-side": m.side }, layer);
  const X = ctx.px(m.at[0]), Y = ctx.py(m.at[1]), C = ctx.cell;
  el("rect", { x: X + 1.5, y: Y + 1.5, width: C - 3, height: C - 3, fill: look.fill, "fill-opacity": 0.35, stroke: look.stroke,
               "stroke-width": 3, "stroke-dasharray": m.revealed ? "none" : "5 3" }, g);
  triangle(g, X + C / 2, Y + C / 2, 13, look);
  tip(g, mineWords(ctx, m));
}

function triangle(g, cx, cy, r, look) {
  el("path", { d: `M${cx} ${cy - r}L${cx + r * 0.95} ${cy + r * 0.65}L${cx - r * 0.95} ${cy + r * 0.65}Z`, fill: look.fill,
               stroke: look.stroke, "stroke-width": 1.6, "stroke-linejoin": "round" }, g);
  el("text", { x: cx, y: cy + r * 0.5, "font-size": r * 0.85, "text-anchor": "middle", "font-weight": 800,
               fill: look === REVEALED ? "#fff" : "#222" }, g, look.mark);
}

function mineWords(ctx, m) {
  let t = `${name(ctx, m.side)} minefield marker at ${sq(m.at)}: `;
  if (m.revealed) t += `revealed real (${m.kind}): attacks every enemy stand leaving it`;
  else if (m.kind === "unknown") t += "real or dummy (unknown until a stand leaves it): entering stops a stand, +3 to leave";
  else if (m.kind === "dummy") t += "dummy (removed when revealed)";
  else t += `real, ${m.kind} (not yet revealed to the enemy)`;
  if (m.breach) t += `; breaching: ${m.breach} success${m.breach > 1 ? "es" : ""} so far`;
  return t;
}

// Over the stands (no clicks): breaching progress, the field attacking now,
// the stand whose engineering roll is due.
export function drawObstacleActivity(ctx) {
  const v = ctx.v, C = ctx.cell;
  if (Array.isArray(v.minefield_attack)) {
    const X = ctx.px(v.minefield_attack[0]), Y = ctx.py(v.minefield_attack[1]);
    const g = el("g", { "data-minefield-attack": sq(v.minefield_attack), "pointer-events": "none" }, ctx.svg);
    el("rect", { x: X - 3, y: Y - 3, width: C + 6, height: C + 6, rx: 6, fill: "none", stroke: "#fff", "stroke-width": 5 }, g);
    el("rect", { x: X - 3, y: Y - 3, width: C + 6, height: C + 6, rx: 6, fill: "none", stroke: "#b71c1c", "stroke-width": 2.5 }, g);
  }
  const eng = v.engineering_roll && v.stands.find((s) => s.id === v.engineering_roll);
  if (eng && !eng.carried_by) {
    const X = ctx.px(eng.at[0]), Y = ctx.py(eng.at[1]);
    const g = el("g", { "data-engineering": eng.id, "pointer-events": "none" }, ctx.svg);
    el("rect", { x: X - 1, y: Y - 1, width: C + 2, height: C + 2, rx: 5, fill: "none", stroke: "#ef6c00", "stroke-width": 2.5, "stroke-dasharray": "2 2" }, g);
  }
  for (const c of v.terrain_changes || []) {        // a bridge or a ditch under way: its successes so far
    if (c.done) continue;
    const X = ctx.px(c.at[0]), Y = ctx.py(c.at[1]);
    const g = el("g", { "data-task": sq(c.at), "pointer-events": "none" }, ctx.svg);
    el("rect", { x: X + 3, y: Y - 7, width: C - 6, height: 11, rx: 3, fill: "#ef6c00" }, g);
    el("text", { x: X + C / 2, y: Y + 1.5, "font-size": 8, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g,
       `${c.task} ${c.successes}`);
  }
  for (const m of v.minefields || []) {
    if (m.removed || !m.breach) continue;
    const X = ctx.px(m.at[0]), Y = ctx.py(m.at[1]);
    const g = el("g", { "data-breach": sq(m.at), "pointer-events": "none" }, ctx.svg);
    el("rect", { x: X + 4, y: Y - 7, width: C - 8, height: 11, rx: 3, fill: "#b71c1c" }, g);
    el("text", { x: X + C / 2, y: Y + 1.5, "font-size": 8, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g, `breach ${m.breach}`);
  }
}

// The header's words for what is in progress (none: "").
export function obstacleActivityText(v) {
  const parts = [];
  if (Array.isArray(v.minefield_attack)) {
    parts.push(`minefield ${sq(v.minefield_attack)} ${v.mover && v.mover.step === "reveal" ? "being revealed" : "attacking"}`);
  }
  if (v.engineering_roll) parts.push(`engineering roll: ${v.engineering_roll}`);
  return parts.join(" · ");
}

// What is on a stand's square, for its tooltip.
export function obstacleNotes(ctx, x, y) {
  const at = (a) => a[0] === x && a[1] === y;
  const notes = [];
  for (const p of ctx.v.positions || []) if (at(p.at)) notes.push(`in a ${positionWords(ctx, p)}`);
  for (const m of ctx.v.minefields || []) if (at(m.at) && !m.removed) notes.push(`on a ${mineWords(ctx, m)}`);
  if ((ctx.v.wire || []).some(at)) notes.push("on wire");
  const filled = done(ctx.v, "ditch");
  if ((ctx.v.ditches || []).some((a) => at(a) && !filled.has(sq(a)))) notes.push("in an anti-tank ditch");
  return notes;
}

// Key entries for the obstacles on this board.
export function obstacleKey(ctx, g, item) {
  const v = ctx.v;
  // a swatch: the table's own drawing of one square at 0.45 scale
  // (without its data-* marks and tooltip: those name what is on the table)
  const small = (px, py, draw) => {
    const s = el("g", { transform: `translate(${px} ${py}) scale(0.45)` }, g);
    el("rect", { x: 0, y: 0, width: ctx.cell, height: ctx.cell, fill: "#e9ecd3" }, s);     // on clear ground
    draw(s);
    for (const t of [...s.querySelectorAll("title")]) t.remove();          // nor the square's tooltip
    for (const n of s.querySelectorAll("*")) for (const a of [...n.attributes]) if (a.name.startsWith("data-")) n.removeAttribute(a.name);
  };
  const at0 = { v: ctx.v, SIDE: ctx.SIDE, cell: ctx.cell, px: () => 0, py: () => 0 };
  const classes = new Set((v.positions || []).map((p) => p.class));
  for (const cls of ["light", "medium", "heavy"]) {
    if (!classes.has(cls)) continue;
    item((px, py) => small(px, py, (s) => position(at0, s,
                                                  { at: [0, 0], class: cls, facing: "n", side: "german", destroyed: false })),
         `${cls} improved position (open side: rear; ${POSITION[cls].mods} facing the way it was dug)`);
  }
  if ((v.positions || []).some((p) => p.destroyed)) {
    item((px, py) => small(px, py, (s) => position(at0, s,
                                                  { at: [0, 0], class: "medium", facing: "n", side: "german", destroyed: true })),
         "destroyed improved position");
  }
  if ((v.wire || []).length) item((px, py) => small(px, py, (s) => wire(at0, s, [0, 0])), "wire");
  const filled = done(v, "ditch");
  if ((v.ditches || []).some((a) => !filled.has(sq(a)))) item((px, py) => small(px, py, (s) => ditch(at0, s, [0, 0])), "anti-tank ditch");
  if (filled.size) item((px, py) => small(px, py, (s) => filledDitch(at0, s, [0, 0])), "anti-tank ditch filled in play");
  if ((v.terrain_changes || []).some((c) => !c.done)) {
    item((px, py) => {
      el("rect", { x: px - 4, y: py + 4, width: 26, height: 11, rx: 3, fill: "#ef6c00" }, g);
      el("text", { x: px + 9, y: py + 12.5, "font-size": 7, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g, "bridge 1");
    }, "bridge or ditch under way: successes so far");
  }
  const mines = (v.minefields || []).filter((m) => !m.removed);
  const shown = new Set(mines.map((m) => (m.revealed ? "revealed" : m.kind === "unknown" ? "unknown" : m.kind === "dummy" ? "dummy" : "real")));
  const mineSwatch = (look) => (px, py) => {
    el("rect", { x: px, y: py, width: 18, height: 18, fill: look.fill, "fill-opacity": 0.35, stroke: look.stroke, "stroke-width": 2,
                 "stroke-dasharray": look === REVEALED ? "none" : "3 2" }, g);
    triangle(g, px + 9, py + 10, 7, look);
  };
  if (shown.has("unknown")) item(mineSwatch(MINE.unknown), MINE.unknown.words);
  if (shown.has("real")) item(mineSwatch(MINE.standard), "own minefield, not yet revealed (h hasty, s standard, c concentrated)");
  if (shown.has("dummy")) item(mineSwatch(MINE.dummy), MINE.dummy.words);
  if (shown.has("revealed")) item(mineSwatch(REVEALED), "revealed real minefield (attacks enemy stands leaving it)");
  if (mines.some((m) => m.breach)) {
    item((px, py) => {
      el("rect", { x: px - 4, y: py + 4, width: 26, height: 11, rx: 3, fill: "#b71c1c" }, g);
      el("text", { x: px + 9, y: py + 12.5, "font-size": 7, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g, "breach 1");
    }, "breaching successes so far");
  }
  if (v.engineering_roll) {
    item((px, py) => el("rect", { x: px, y: py, width: 18, height: 18, rx: 3, fill: "none", stroke: "#ef6c00", "stroke-width": 2.5, "stroke-dasharray": "2 2" }, g),
         "engineering roll due (breach, wreck clearing, bridge or ditch)");
  }
}
