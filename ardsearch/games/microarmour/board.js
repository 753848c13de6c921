// Micro Armour: The Game - WWII in the browser: the table as a grid of 1"
// squares with its terrain, every live stand as a counter with a NATO-style
// symbol (armour, infantry, gun, HQ, GHQ), its facing (the arrow), posture and
// markers, wrecks, the attack in progress (lines from the firers to the
// target) and the moving stand; below, each side's orders and break-point
// cards (the opponent's total only as the view gives it: hidden).
//
// Click-to-move: click one of your stands to select it: its fire targets
// light up (enemy stands) and its moves are listed (posture, order,
// independent move). While a stand moves, it is selected by itself: the
// squares it can step to light up, and the enemies it can assault or overrun.
// The contract with the app: render(element, snapshot, ui), belongs(move, selection).

import { SVG, el, flowKey } from "/static/board-kit.js";
const SIDE = { german: { name: "German", color: "#55616d", text: "#fff" },
               soviet: { name: "Soviet", color: "#9b3a2e", text: "#fff" } };
const DIRS = { n: [0, 1], ne: [1, 1], e: [1, 0], se: [1, -1], s: [0, -1], sw: [-1, -1], w: [-1, 0], nw: [-1, 1] };
// Terrain by the chart's name (data/charts.toml): fill and what is drawn on it.
const TERRAIN = {
  clear: { fill: "#e9ecd3" }, road: { fill: "#e9ecd3", road: true }, woods: { fill: "#8fb27a", trees: true },
  rough: { fill: "#d9cfae", dots: true }, buildings: { fill: "#c9b9a0", houses: true },
  hill: { fill: "#e0c98f", contour: true }, stream: { fill: "#a9cde8" }, ford: { fill: "#cfe3ef", dots: true },
};
const CELL = 40;
const POSTURE = { move: "M", firemove: "FM" };


function tip(node, text) { el("title", {}, node, text); return node; }

// --- moves -------------------------------------------------------------------------------
// The selection is {id, mover, retreater}: a stand, and whether it is the
// stand moving now (its step/stop/assault/overrun moves are about it) or the
// assaulted stand that must retreat. render() refreshes the two flags from
// the view before the app asks belongs().
function standOf(move, sel) {
  const f = move.split(" ");
  if (f[0] === "fire") return f[1].split(">")[0];
  if (f[0] === "posture" || f[0] === "order" || f[0] === "indep") return f[1];
  if (["step", "stop", "assault", "overrun", "load"].includes(f[0])) return sel && sel.mover ? sel.id : null;
  if (f[0] === "unload") return sel && sel.carrying && sel.carrying.includes(f[1]) ? sel.id : null;
  if (f[0] === "retreat") return sel && sel.retreater ? sel.id : null;
  return null;
}

export function belongs(move, selection) {
  return !!selection && standOf(move, selection) === selection.id;
}

// Where a move lands on the table: an enemy stand (`stand:t34a`) or a square
// (`sq:12,9`); null for a move with no place (posture, order, stop, ...).
function targetOf(move, v) {
  const f = move.split(" ");
  if (f[0] === "fire") return `stand:${f[1].split(">")[1]}`;
  if (f[0] === "assault" || f[0] === "overrun" || f[0] === "load") return `stand:${f[1]}`;
  if (f[0] === "unload") {     // the square beside the carrier (RULES.md, Transport)
    const c = v.stands.find((s) => s.id === f[1]);
    const car = c && v.stands.find((s) => s.id === c.carried_by);
    return car ? `sq:${car.at[0] + DIRS[f[2]][0]},${car.at[1] + DIRS[f[2]][1]}` : null;
  }
  if (f[0] === "step" || f[0] === "retreat") {
    const who = f[0] === "step" ? v.mover && v.mover.id : v.mover && v.mover.close_target;
    const st = v.stands.find((s) => s.id === who);
    if (!st) return null;
    return `sq:${st.at[0] + DIRS[f[1]][0]},${st.at[1] + DIRS[f[1]][1]}`;
  }
  return null;
}

// --- drawing -----------------------------------------------------------------------------
export function render(root, snap, ui) {
  const v = snap.view;
  const T = v.table;
  const interactive = snap.your_turn && !snap.past;
  const moves = interactive ? snap.legal : [];
  refreshSelection(v, moves, ui);
  const sel = ui.selected && moves.some((m) => belongs(m, ui.selected)) ? ui.selected : null;
  const targets = new Map();
  for (const m of sel ? moves.filter((mv) => belongs(mv, sel)) : []) {
    const t = targetOf(m, v);
    if (t) targets.set(t, [...(targets.get(t) || []), m]);
  }
  const left = 34, top = 50;
  const mapW = T.width * CELL, mapH = T.height * CELL;
  const width = left + mapW + 12;
  const svg = el("svg", { viewBox: `0 0 ${width} ${top + mapH + 300}`, role: "img",
                          "aria-label": "Micro Armour table", "font-family": "system-ui, sans-serif" }, root);
  const redraw = () => { root.innerHTML = ""; render(root, snap, ui); };
  const ctx = {
    v, svg, left, top, T, moves, sel, targets, interactive,
    px: (x) => left + x * CELL, py: (y) => top + (T.height - 1 - y) * CELL,
    select(id) {
      ui.selected = ui.selected && ui.selected.id === id ? null : { id, mover: false, retreater: false };
      refreshSelection(v, moves, ui);
      ui.offer(ui.selected ? moves.filter((m) => belongs(m, ui.selected)) : []);
      redraw();
    },
    choose(key) {
      const ms = targets.get(key);
      if (ms.length === 1) ui.play(ms[0]);
      else ui.offer(ms);
    },
  };
  drawHeader(ctx);
  drawTerrain(ctx);
  drawWrecks(ctx);
  drawBuildings(ctx);
  for (const st of v.stands) if (st.alive && !st.carried_by) drawStand(ctx, st);   // cargo rides unseen
  drawAttack(ctx);
  drawSquareTargets(ctx);
  const y = drawSides(ctx, top + mapH + 30);
  const used = drawLegend(ctx, y + 10, width - 20);
  svg.setAttribute("viewBox", `0 0 ${width} ${y + 10 + used + 6}`);
}

// The moving stand is the selection while its step/stop/assault moves are
// legal, and the assaulted stand while it must retreat: those moves name no
// stand, so the board picks it. Otherwise a selection keeps only its id.
function refreshSelection(v, moves, ui) {
  const moverMoves = moves.some((m) => /^(step|stop|assault|overrun|load) /.test(m));
  const retreat = moves.some((m) => m.startsWith("retreat "));
  if (moverMoves && v.mover) ui.selected = { id: v.mover.id, mover: true, retreater: false };
  else if (retreat && v.mover && v.mover.close_target) ui.selected = { id: v.mover.close_target, mover: false, retreater: true };
  else if (ui.selected && typeof ui.selected === "object") ui.selected = { id: ui.selected.id, mover: false, retreater: false };
  else ui.selected = null;
  // a carrier's selection holds its cargo's dismounts (`unload <cargo> <dir>`)
  if (ui.selected) ui.selected.carrying = v.stands.filter((s) => s.carried_by === ui.selected.id).map((s) => s.id);
}

function drawHeader(ctx) {
  const v = ctx.v;
  const name = (s) => (SIDE[s] ? SIDE[s].name : s);
  let text = `${ctx.T.title} · turn ${v.turn}/${v.turns} · phase ${v.phase}`;
  if (v.to_move === "terminal") text += ` · game over: ${v.winner === "draw" ? "draw" : name(v.winner) + " win"}`;
  else text += ` · ${v.to_move === "chance" ? "chance (a roll or card)" : name(v.to_move) + " to act"}`;
  el("text", { x: 10, y: 18, "font-size": 15, "font-weight": 600 }, ctx.svg, text);
  let sub = `initiative ${name(v.initiative)}, ${name(v.first)} acts first`;
  if (v.attack) {
    const a = v.attack;
    sub += ` · attack (${a.kind}): ${a.firers.join(", ") || "no firer yet"} → ${a.target} [${a.step}]`;
  }
  if (v.mover) sub += ` · moving: ${v.mover.id} (${v.mover.step})`;
  if (ctx.interactive && !v.attack && !v.mover) sub += " · click one of your stands for its moves";
  el("text", { x: 10, y: 38, "font-size": 12.5, fill: "#444" }, ctx.svg, sub);
}

// --- the table -------------------------------------------------------------------------------
function drawTerrain(ctx) {
  const { T, svg } = ctx;
  const g = el("g", { "data-layer": "terrain" }, svg);
  for (let y = 0; y < T.height; y++) {
    for (let x = 0; x < T.width; x++) {
      const kind = T.terrain[T.rows[y][x]] || "clear";
      const look = TERRAIN[kind] || { fill: "#eee" };
      const X = ctx.px(x), Y = ctx.py(y);
      const r = el("rect", { x: X, y: Y, width: CELL, height: CELL, fill: look.fill, stroke: "#c9c6b0", "stroke-width": 0.5 }, g);
      tip(r, `${x},${y} ${kind}`);
      if (look.road) el("rect", { x: X, y: Y + CELL * 0.38, width: CELL, height: CELL * 0.24, fill: "#b8a07a" }, g);
      if (look.trees) {
        for (const [dx, dy] of [[0.3, 0.3], [0.7, 0.35], [0.45, 0.7]]) {
          el("circle", { cx: X + dx * CELL, cy: Y + dy * CELL, r: CELL * 0.14, fill: "#5d8a4a" }, g);
        }
      }
      if (look.dots) {
        for (const [dx, dy] of [[0.25, 0.3], [0.65, 0.25], [0.4, 0.65], [0.8, 0.7]]) {
          el("circle", { cx: X + dx * CELL, cy: Y + dy * CELL, r: 1.6, fill: "#8a7a55" }, g);
        }
      }
      if (look.houses) el("rect", { x: X + CELL * 0.2, y: Y + CELL * 0.2, width: CELL * 0.6, height: CELL * 0.6, fill: "#a08c70", stroke: "#6e5d45" }, g);
      if (look.contour) el("path", { d: `M${X + 10} ${Y + 26} L${X + 20} ${Y + 14} L${X + 30} ${Y + 26}`, fill: "none", stroke: "#a8874a", "stroke-width": 1.5 }, g);
    }
  }
  // the ruler: x along the south edge, y up the west edge (north at the top)
  for (let x = 0; x < T.width; x++) {
    el("text", { x: ctx.px(x) + CELL / 2, y: ctx.py(0) + CELL + 13, "font-size": 10, "text-anchor": "middle", fill: "#555" }, svg, String(x));
  }
  for (let y = 0; y < T.height; y++) {
    el("text", { x: ctx.left - 5, y: ctx.py(y) + CELL / 2 + 4, "font-size": 10, "text-anchor": "end", fill: "#555" }, svg, String(y));
  }
  el("text", { x: ctx.px(T.width) - 4, y: ctx.top - 4, "font-size": 11, "text-anchor": "end", fill: "#555" }, svg, "N ↑  (1 square = 1\")");
}

// Squares a selected moving stand can step to (or the assaulted stand
// retreat to): lit, a click plays the step. Drawn over the stands, as a
// stand may step through a friend's square; where an enemy stand on the
// square is a target too (overrun, assault), the click offers both.
function drawSquareTargets(ctx) {
  for (const [key, ms] of [...ctx.targets]) {
    if (!key.startsWith("sq:")) continue;
    const [x, y] = key.slice(3).split(",").map(Number);
    const there = ctx.v.stands.find((s) => s.alive && !s.carried_by && s.at[0] === x && s.at[1] === y);
    if (there && ctx.targets.has(`stand:${there.id}`)) ctx.targets.set(key, [...ms, ...ctx.targets.get(`stand:${there.id}`)]);
    const r = el("rect", { x: ctx.px(x) + 2, y: ctx.py(y) + 2, width: CELL - 4, height: CELL - 4, rx: 4,
                           class: "target", fill: "#f2c14e", "data-target": key }, ctx.svg);
    tip(r, ctx.targets.get(key).join("  "));
    r.addEventListener("click", () => ctx.choose(key));
  }
}

function drawWrecks(ctx) {
  const count = new Map();
  for (const st of ctx.v.stands) {
    if (!st.alive && st.wreck) count.set(`${st.at[0]},${st.at[1]}`, (count.get(`${st.at[0]},${st.at[1]}`) || 0) + 1);
  }
  for (const [sq, n] of count) {
    const [x, y] = sq.split(",").map(Number);
    const X = ctx.px(x) + CELL / 2, Y = ctx.py(y) + CELL / 2;
    const g = el("g", { "data-wreck": sq }, ctx.svg);
    el("path", { d: star(X, Y, CELL * 0.42, CELL * 0.18, 7), fill: "#3a3330", opacity: 0.8 }, g);
    if (n > 1) el("text", { x: X, y: Y + 4, "font-size": 11, fill: "#fff", "text-anchor": "middle", "font-weight": 700 }, g, String(n));
    tip(g, `${n} wreck${n > 1 ? "s" : ""} at ${sq} (cover; ${n > 1 ? "rough terrain" : "2 MP per inch"})`);
  }
}

// Building areas that took an E result: rubble (grey hatching) and fire
// (an orange flame: smoke that blocks LOS), RULES.md "Buildings".
function drawBuildings(ctx) {
  for (const b of ctx.v.buildings || []) {
    if (!b.hits && !b.burning) continue;
    const X = ctx.px(b.at[0]), Y = ctx.py(b.at[1]);
    const g = el("g", { "data-building": `${b.at[0]},${b.at[1]}` }, ctx.svg);
    if (b.rubble) {
      for (const d of [8, 18, 28]) el("line", { x1: X + d, y1: Y + 2, x2: X + 2, y2: Y + d, stroke: "#6d6d6d", "stroke-width": 2 }, g);
    }
    if (b.burning) el("path", { d: `M${X + CELL / 2} ${Y + 4} Q${X + CELL - 6} ${Y + CELL / 2} ${X + CELL / 2} ${Y + CELL - 4} Q${X + 6} ${Y + CELL / 2} ${X + CELL / 2} ${Y + 4}Z`, fill: "#ff7043", opacity: 0.75 }, g);
    tip(g, `${b.class} building ${b.at[0]},${b.at[1]}: ${b.hits} E${b.rubble ? ", rubble" : ""}` +
           (b.burning ? `, burning ${b.burning} more turn${b.burning > 1 ? "s" : ""} (smoke: blocks LOS, +3 to fire)` : ""));
  }
}

function star(cx, cy, R, r, n) {
  let d = "";
  for (let i = 0; i < 2 * n; i++) {
    const a = (Math.PI * i) / n, rr = i % 2 ? r : R;
    d += `${i ? "L" : "M"}${(cx + rr * Math.sin(a)).toFixed(1)} ${(cy - rr * Math.cos(a)).toFixed(1)}`;
  }
  return d + "Z";
}

function kindOf(v, st) {
  const t = v.types[st.type];
  if (!t) return "unit";
  if (t.role !== "unit") return t.role;                 // hq, ghq
  return { A: "armour", P: "infantry", U: "gun" }[t.defence];
}

// A stand: a counter in its side's colour with the unit symbol, its id, the
// facing arrow on the edge it faces, a posture tag and S/D markers.
function drawStand(ctx, st) {
  const v = ctx.v;
  const X = ctx.px(st.at[0]), Y = ctx.py(st.at[1]);
  const side = SIDE[st.side];
  const mine = ctx.interactive && ctx.moves.some((m) => standOf(m, { id: st.id, mover: v.mover && v.mover.id === st.id,
                                                                      retreater: false }) === st.id);
  const key = `stand:${st.id}`;
  const g = el("g", { "data-stand": st.id, "data-side": st.side }, ctx.svg);
  const box = el("rect", { x: X + 3, y: Y + 3, width: CELL - 6, height: CELL - 6, rx: 3, fill: side.color,
                           stroke: "#111", "stroke-width": 1 }, g);
  drawSymbol(g, kindOf(v, st), X + CELL / 2, Y + 15, side.text);
  el("text", { x: X + CELL / 2, y: Y + CELL - 6, "font-size": 8.5, "text-anchor": "middle", fill: side.text }, g, st.id);
  drawFacing(g, st.facing, X, Y);
  if (POSTURE[st.posture]) {
    el("rect", { x: X + CELL - 15, y: Y - 1, width: 15, height: 10, rx: 2, fill: "#fff", stroke: "#333", "stroke-width": 0.6 }, g);
    el("text", { x: X + CELL - 7.5, y: Y + 7, "font-size": 7.5, "text-anchor": "middle", "font-weight": 700 }, g, POSTURE[st.posture]);
  }
  const marks = [];
  if (st.suppressed) marks.push(["S", "#f2d024", "#222"]);
  if (st.disorganized) marks.push(["D", "#c62828", "#fff"]);
  marks.forEach(([m, bg, fg], i) => {
    el("rect", { x: X - 1 + i * 11, y: Y - 1, width: 11, height: 11, rx: 2, fill: bg, stroke: "#222", "stroke-width": 0.6 }, g);
    el("text", { x: X + 4.5 + i * 11, y: Y + 8, "font-size": 8.5, "text-anchor": "middle", fill: fg, "font-weight": 700 }, g, m);
  });
  if (st.fired || st.moved) {
    el("text", { x: X + 4, y: Y + CELL - 3, "font-size": 8, fill: "#ffe082", "font-weight": 700 }, g,
       (st.fired ? "f" : "") + (st.moved ? "m" : ""));
  }
  if (st.low_ammo) el("circle", { cx: X + CELL - 5, cy: Y + CELL - 5, r: 3, fill: "#ff9800" }, g);
  const t = v.types[st.type] || {};
  tip(g, `${side.name} ${st.id}: ${t.name || st.type} (AP ${t.ap} HE ${t.he} DV ${t.dv}${t.defence}, range ${t.range}", MP ${t.mp})` +
         ` at ${st.at[0]},${st.at[1]} facing ${st.facing}, ${st.posture} posture` +
         (st.suppressed ? ", suppressed" : "") + (st.disorganized ? ", disorganized" : "") +
         (st.fired ? ", fired" : "") + (st.moved ? ", moved" : "") + (st.low_ammo ? ", low on ammunition" : ""));
  if (v.mover && v.mover.id === st.id) {
    el("rect", { x: X + 0.5, y: Y + 0.5, width: CELL - 1, height: CELL - 1, rx: 4, fill: "none", stroke: "#1e88e5",
                 "stroke-width": 2.5, "stroke-dasharray": "4 2" }, g);
  }
  if (ctx.sel && ctx.sel.id === st.id) box.classList.add("sel");
  if (ctx.targets.has(key)) {
    const hi = el("rect", { x: X + 1, y: Y + 1, width: CELL - 2, height: CELL - 2, rx: 4, class: "target",
                            fill: "#f2c14e", "data-target": key }, g);
    tip(hi, ctx.targets.get(key).join("  "));
    g.classList.add("clickable");
    g.addEventListener("click", () => ctx.choose(key));
  } else if (mine) {
    g.classList.add("clickable");
    g.addEventListener("click", () => ctx.select(st.id));
  }
}

// NATO-style unit symbols in a small frame: armour an oval (tracks), infantry
// a cross, gun a dot with a barrel, HQ a flag on a staff, GHQ a double flag.
function drawSymbol(g, kind, cx, cy, color) {
  const w = 22, h = 13, x = cx - w / 2, y = cy - h / 2;
  el("rect", { x, y, width: w, height: h, fill: "none", stroke: color, "stroke-width": 1.2 }, g);
  if (kind === "armour") el("ellipse", { cx, cy, rx: 7.5, ry: 3.8, fill: "none", stroke: color, "stroke-width": 1.3 }, g);
  else if (kind === "infantry") el("path", { d: `M${x} ${y}L${x + w} ${y + h}M${x + w} ${y}L${x} ${y + h}`, stroke: color, "stroke-width": 1.2 }, g);
  else if (kind === "gun") {
    el("circle", { cx, cy: cy + 2, r: 2.2, fill: color }, g);
    el("path", { d: `M${cx} ${cy + 2}L${cx + 8} ${cy - 4}`, stroke: color, "stroke-width": 1.4 }, g);
  } else if (kind === "hq" || kind === "ghq") {
    el("text", { x: cx, y: cy + 4, "font-size": kind === "ghq" ? 8 : 9, "text-anchor": "middle", fill: color, "font-weight": 700 }, g,
       kind === "ghq" ? "GHQ" : "HQ");
  }
}

// The facing: a triangle on the counter's edge (or corner) it faces.
function drawFacing(g, facing, X, Y) {
  const [dx, dy] = DIRS[facing] || [0, 1];
  const cx = X + CELL / 2 + dx * (CELL / 2 - 3), cy = Y + CELL / 2 - dy * (CELL / 2 - 3);
  const len = Math.hypot(dx, dy), ux = dx / len, uy = -dy / len;
  const tipX = cx + ux * 4, tipY = cy + uy * 4;
  const bx = cx - ux * 3, by = cy - uy * 3;
  const pts = [[tipX, tipY], [bx - uy * 4, by + ux * 4], [bx + uy * 4, by - ux * 4]];
  el("polygon", { points: pts.map((p) => p.map((n) => n.toFixed(1)).join(",")).join(" "), fill: "#fff",
                  stroke: "#111", "stroke-width": 0.8 }, g);
}

// The attack being declared or resolved: a line from each firer to the target.
function drawAttack(ctx) {
  const a = ctx.v.attack;
  if (!a) return;
  const target = ctx.v.stands.find((s) => s.id === a.target);
  if (!target) return;
  const cx = (s) => ctx.px(s.at[0]) + CELL / 2, cy = (s) => ctx.py(s.at[1]) + CELL / 2;
  for (const f of a.firers) {
    const s = ctx.v.stands.find((t) => t.id === f);
    if (!s) continue;
    el("line", { x1: cx(s), y1: cy(s), x2: cx(target), y2: cy(target), stroke: "#d32f2f", "stroke-width": 2.5,
                 "stroke-dasharray": "7 4", "pointer-events": "none" }, ctx.svg);
  }
  el("circle", { cx: cx(target), cy: cy(target), r: CELL * 0.55, fill: "none", stroke: "#d32f2f", "stroke-width": 2.5,
                 "pointer-events": "none" }, ctx.svg);
}

// --- the sides' lines -----------------------------------------------------------------------
function drawSides(ctx, y) {
  const v = ctx.v;
  ["german", "soviet"].forEach((side, i) => {
    const c = v.cards[side];
    const yy = y + i * 22;
    el("rect", { x: 10, y: yy - 12, width: 14, height: 14, fill: SIDE[side].color }, ctx.svg);
    const live = v.stands.filter((s) => s.side === side && s.alive).length;
    const ghq = v.ghq[i] ? `GHQ ${v.ghq[i]}` : "no GHQ (no orders)";
    const total = c.total === null ? "total hidden" : `total ${c.total}`;
    el("text", { x: 30, y: yy, "font-size": 13, fill: "#222" }, ctx.svg,
       `${SIDE[side].name}: cohesion ${v.cohesion[i]}, ${live} stands, ${ghq}, orders left ${v.orders[i]}, ` +
       `break-point cards drawn ${c.drawn} (${total})${c.broken ? " — BROKEN" : ""}` +
       (v.passed[i] && v.phase !== "over" ? " · passed" : ""));
  });
  return y + 44;
}

// --- key ------------------------------------------------------------------------------------
function drawLegend(ctx, y, width) {
  const g = el("g", { "data-legend": "1", "font-size": 11.5 }, ctx.svg);
  const x = 10;
  el("text", { x, y: y + 13, "font-weight": 700 }, g, "Key");
  const key = flowKey(g, { x, y, width, indent: 34, swatch: 32, row: 22, baseline: 13 });
  const item = key.item;
  for (const [name, look] of Object.entries(TERRAIN)) {
    if (!ctx.T.rows.some((row) => [...row].some((ch) => ctx.T.terrain[ch] === name))) continue;  // only terrain on this table
    item((px, py) => {
      el("rect", { x: px, y: py, width: 18, height: 18, fill: look.fill, stroke: "#aaa" }, g);
      if (look.road) el("rect", { x: px, y: py + 7, width: 18, height: 4, fill: "#b8a07a" }, g);
      if (look.trees) el("circle", { cx: px + 9, cy: py + 9, r: 4, fill: "#5d8a4a" }, g);
      if (look.houses) el("rect", { x: px + 4, y: py + 4, width: 10, height: 10, fill: "#a08c70" }, g);
      if (look.dots) el("circle", { cx: px + 9, cy: py + 9, r: 1.6, fill: "#8a7a55" }, g);
      if (look.contour) el("path", { d: `M${px + 3} ${py + 13} L${px + 9} ${py + 6} L${px + 15} ${py + 13}`, fill: "none", stroke: "#a8874a", "stroke-width": 1.5 }, g);
    }, name === "buildings" ? "buildings (the village)" : name);
  }
  for (const side of ["german", "soviet"]) {
    item((px, py) => el("rect", { x: px, y: py, width: 18, height: 18, rx: 2, fill: SIDE[side].color }, g), SIDE[side].name);
  }
  for (const [kind, words] of [["armour", "armour (tank, half-track)"], ["infantry", "infantry"], ["gun", "gun"],
                               ["hq", "HQ"], ["ghq", "GHQ"]]) {
    item((px, py) => {
      el("rect", { x: px, y: py, width: 26, height: 18, rx: 2, fill: SIDE.german.color }, g);
      drawSymbol(g, kind, px + 13, py + 9, "#fff");
    }, words);
  }
  item((px, py) => {
    el("rect", { x: px, y: py, width: 18, height: 18, rx: 2, fill: SIDE.german.color }, g);
    el("polygon", { points: `${px + 22},${py + 9} ${px + 16},${py + 4} ${px + 16},${py + 14}`, fill: "#fff", stroke: "#111" }, g);
  }, "facing (front arc: that way and one point either side)");
  item((px, py) => {
    el("rect", { x: px, y: py + 3, width: 15, height: 10, rx: 2, fill: "#fff", stroke: "#333" }, g);
    el("text", { x: px + 7.5, y: py + 11, "font-size": 7.5, "text-anchor": "middle", "font-weight": 700 }, g, "M");
  }, "movement posture (FM fire/move; no tag: firing)");
  item((px, py) => {
    el("rect", { x: px, y: py + 3, width: 11, height: 11, rx: 2, fill: "#f2d024", stroke: "#222" }, g);
    el("text", { x: px + 5.5, y: py + 12, "font-size": 8.5, "text-anchor": "middle", "font-weight": 700 }, g, "S");
  }, "suppressed");
  item((px, py) => {
    el("rect", { x: px, y: py + 3, width: 11, height: 11, rx: 2, fill: "#c62828", stroke: "#222" }, g);
    el("text", { x: px + 5.5, y: py + 12, "font-size": 8.5, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g, "D");
  }, "disorganized");
  item((px, py) => {
    el("rect", { x: px, y: py, width: 18, height: 18, rx: 2, fill: SIDE.german.color }, g);
    el("text", { x: px + 3, y: py + 15, "font-size": 8, fill: "#ffe082", "font-weight": 700 }, g, "fm");
  }, "fired / moved this turn");
  item((px, py) => el("circle", { cx: px + 9, cy: py + 9, r: 3.5, fill: "#ff9800" }, g), "low on ammunition");
  item((px, py) => el("path", { d: star(px + 9, py + 9, 9, 4, 7), fill: "#3a3330" }, g), "wreck (number: how many)");
  item((px, py) => el("path", { d: `M${px + 9} ${py} Q${px + 18} ${py + 9} ${px + 9} ${py + 18} Q${px} ${py + 9} ${px + 9} ${py}Z`, fill: "#ff7043" }, g),
       "burning building (smoke); grey hatching: rubble");
  item((px, py) => el("rect", { x: px, y: py, width: 18, height: 18, rx: 3, fill: "none", stroke: "#1e88e5", "stroke-width": 2.5, "stroke-dasharray": "4 2" }, g),
       "the stand moving now");
  item((px, py) => el("line", { x1: px, y1: py + 9, x2: px + 18, y2: py + 9, stroke: "#d32f2f", "stroke-width": 2.5, "stroke-dasharray": "5 3" }, g),
       "attack: firers to target");
  return key.bottom() - y;
}
