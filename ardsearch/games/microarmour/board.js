// Micro Armour: The Game - WWII in the browser: the table as a grid of 1"
// squares with its terrain, every live stand as a counter with a NATO-style
// symbol (armour, infantry, gun, HQ, GHQ), its facing (the arrow), posture and
// markers, wrecks, the attack in progress (lines from the firers to the
// target) and the moving stand; fire support (issue 11): aircraft over the
// table (a strip above the map) and the strike in progress, bomb and artillery
// plots (the viewer's own only: an opponent's plot is "hidden" in a view and
// shows as `?` in the lines below the map, never on the table), artillery
// impact and smoke markers; below, each side's orders and break-point cards
// (the opponent's total only as the view gives it: hidden) and the aircraft
// and batteries.
//
// Click-to-move: click one of your stands to select it: its fire targets
// light up (enemy stands) and its moves are listed (posture, order,
// independent move). While a stand moves, it is selected by itself: the
// squares it can step to light up, and the enemies it can assault or overrun.
// The contract with the app: render(element, snapshot, ui), belongs(move, selection).

import { SVG, el, flowKey } from "/static/board-kit.js";
import { drawObstacles, drawObstacleActivity, obstacleActivityText, obstacleNotes, obstacleKey, builtBridges } from "./board_obstacles.js";
import { PANEL, isMarker, groundLook, drawNight, conditionsText, unitActivityText, drawMarkerCounter, markHidden, hiddenWords, drawCargo,
         drawMounted, markGroup, offTable, offTableEdges, drawOffTable, offTableLines, drawUnitActivity, unitsKey } from "./board_units.js";
import { DROP_STRIP, hasStrip, drawAirborne, drawDropZone, dropLines, dropKey, parachute } from "./board_drop.js";
import { drawPreregPoints, preregLines, aimText } from "./board_prereg.js";
const SIDE = { german: { name: "German", color: "#55616d", text: "#fff" },
               soviet: { name: "Soviet", color: "#9b3a2e", text: "#fff" } };
const DIRS = { n: [0, 1], ne: [1, 1], e: [1, 0], se: [1, -1], s: [0, -1], sw: [-1, -1], w: [-1, 0], nw: [-1, 1] };
// Terrain by the chart's name (data/charts.toml): fill and what is drawn on it.
const TERRAIN = {
  clear: { fill: "#e9ecd3" }, road: { fill: "#e9ecd3", road: true }, woods: { fill: "#8fb27a", trees: true },
  rough: { fill: "#d9cfae", dots: true }, buildings: { fill: "#c9b9a0", houses: true },
  hill: { fill: "#e0c98f", contour: true }, stream: { fill: "#a9cde8", waves: true }, ford: { fill: "#cfe3ef", dots: true, waves: true },
  bridge: { fill: "#a9cde8", waves: true, bridge: true }, hedgerow: { fill: "#e9ecd3", hedge: true },
};
// Every terrain of data/charts.toml has a look above (a test checks it); its words in the key:
const TERRAIN_WORDS = { buildings: "buildings (the village)", stream: "stream (foot only, 2 MP; boats)",
                        ford: "ford (2 MP)", bridge: "bridge (the road over the stream)", hedgerow: "hedgerow (spotted only from adjacent)" };
const CELL = 40;
const HEADER = 74;                     // the three header lines above the table (and a plot label in row 19)
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
  if (f[0] === "posture" || f[0] === "order" || f[0] === "indep" || f[0] === "show") return f[1];
  if (["step", "stop", "assault", "overrun", "load", "mount", "dismount"].includes(f[0])) return sel && sel.mover ? sel.id : null;
  if (f[0] === "unload") return sel && sel.carrying && sel.carrying.includes(f[1]) ? sel.id : null;
  if (f[0] === "retreat") return sel && sel.retreater ? sel.id : null;
  return null;
}

// Fire-support moves name their place themselves and belong to no stand:
// `strafe t34a`, `bomb 12,9`, `plot 10,1` (a bomb plot), `plot he 10,4` and
// `plot smoke 10,4` (an artillery mission; `plot smoke pre1`, a
// pre-registered point, has no square), `drop 13,13` (a paratroop drop
// zone's centre), `prereg 13,10` (a pre-registered point recorded before turn 1).
// undefined: not such a move.
const FIRE_SUPPORT = /^(strafe|bomb|plot|drop|prereg)$/;
function fireSupportTarget(f) {
  if (!FIRE_SUPPORT.test(f[0])) return undefined;
  const last = f[f.length - 1];
  if (/^\d+,\d+$/.test(last)) return `sq:${last}`;
  return f[0] === "strafe" && f[1] ? `stand:${f[1]}` : null;
}

export function belongs(move, selection) {
  return !!selection && standOf(move, selection) === selection.id;
}

// Where a move lands on the table: an enemy stand (`stand:t34a`) or a square
// (`sq:12,9`); null for a move with no place (posture, order, stop, ...).
function targetOf(move, v) {
  const f = move.split(" ");
  const fs = fireSupportTarget(f);
  if (fs !== undefined) return fs;
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
  // a selected stand's moves, and the fire-support moves (a strike's target,
  // a plot's square), which need no selection
  for (const m of [...(sel ? moves.filter((mv) => belongs(mv, sel)) : []),
                   ...moves.filter((mv) => fireSupportTarget(mv.split(" ")))]) {
    const t = targetOf(m, v);
    if (t) targets.set(t, [...(targets.get(t) || []), m]);
  }
  // stands waiting to enter sit in a strip beside the map at their edge
  const edges = offTableEdges(v);
  const left = 34 + (edges.has("w") ? PANEL : 0);
  // the paratroop landing group waits in a strip under the header (board_drop.js)
  const top = HEADER + (hasStrip(v) ? DROP_STRIP : 0) + (airOf(v).length ? AIR_STRIP : 0) + (edges.has("n") ? PANEL + 4 : 0);
  const mapW = T.width * CELL, mapH = T.height * CELL;
  const width = left + mapW + 12 + (edges.has("e") ? PANEL : 0);
  const svg = el("svg", { viewBox: `0 0 ${width} ${top + mapH + 300}`, role: "img",
                          "aria-label": "Micro Armour table", "font-family": "system-ui, sans-serif" }, root);
  const redraw = () => { root.innerHTML = ""; render(root, snap, ui); };
  const ctx = {
    v, svg, left, top, T, moves, sel, targets, interactive, cell: CELL, SIDE,
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
  drawObstacles(ctx);
  drawWrecks(ctx);
  drawBuildings(ctx);
  drawMarkers(ctx);
  drawDropZone(ctx);                  // under the stands (a landed stand on it stays readable)
  const waiting = new Set(offTable(v).map((s) => s.id));
  for (const st of v.stands) {        // cargo rides unseen (its carrier's badge); waiting stands beside the map
    if (st.alive && !st.carried_by && !waiting.has(st.id)) drawStand(ctx, st, ctx.px(st.at[0]), ctx.py(st.at[1]));
  }
  drawOffTable(ctx, (st, X, Y, parent) => drawStand(ctx, st, X, Y, parent));
  // airborne stands are not in play: a counter of their own, not a (clickable) data-stand
  drawAirborne(ctx, HEADER - 8, (st, X, Y, parent) => {
    const g = el("g", { "data-airborne": st.id, "data-side": st.side }, parent);
    drawCounter(ctx, g, st, X, Y);
    return g;
  });
  drawObstacleActivity(ctx);
  drawUnitActivity(ctx);
  drawPlots(ctx);
  drawAircraft(ctx);
  drawAttack(ctx);
  drawSquareTargets(ctx);
  const y = drawSupportLines(ctx, drawSides(ctx, top + mapH + 30 + (edges.has("s") ? PANEL + 20 : 0)));
  const used = drawLegend(ctx, y + 10, width - 20);
  svg.setAttribute("viewBox", `0 0 ${width} ${y + 10 + used + 6}`);
}

// The moving stand is the selection while its step/stop/assault moves are
// legal, and the assaulted stand while it must retreat: those moves name no
// stand, so the board picks it. Otherwise a selection keeps only its id.
function refreshSelection(v, moves, ui) {
  const moverMoves = moves.some((m) => /^(step |stop |assault |overrun |load |mount$|dismount$)/.test(m));
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
  const busy = [unitActivityText(v), obstacleActivityText(v)].filter((t) => t).join(" · ");
  if (busy) sub += ` · ${busy}`;
  if (ctx.interactive && ctx.moves.some((m) => fireSupportTarget(m.split(" ")))) sub += " · click a lit stand or square to strike or plot";
  else if (ctx.interactive && !v.attack && !v.mover) sub += " · click one of your stands for its moves";
  el("text", { x: 10, y: 38, "font-size": 12.5, fill: "#444" }, ctx.svg, sub);
  el("text", { x: 10, y: 56, "font-size": 12.5, fill: "#444", "data-conditions": "1" }, ctx.svg, conditionsText(v));
}

// --- the table -------------------------------------------------------------------------------
function drawTerrain(ctx) {
  const { T, svg } = ctx;
  const g = el("g", { "data-layer": "terrain" }, svg);
  const built = builtBridges(ctx.v);      // bridges built in play (RULES.md, Engineering)
  for (let y = 0; y < T.height; y++) {
    for (let x = 0; x < T.width; x++) {
      const kind = built.has(`${x},${y}`) ? "bridge" : T.terrain[T.rows[y][x]] || "clear";
      const look = groundLook(ctx.v, kind, TERRAIN[kind] || { fill: "#eee" });
      const X = ctx.px(x), Y = ctx.py(y);
      const r = el("rect", { x: X, y: Y, width: CELL, height: CELL, fill: look.fill, stroke: "#c9c6b0", "stroke-width": 0.5 }, g);
      tip(r, `${x},${y} ${kind}` + (built.has(`${x},${y}`) ? " (built in play)" : "") + (look.ground ? ` (${look.ground})` : ""));
      if (built.has(`${x},${y}`)) r.setAttribute("data-built-bridge", `${x},${y}`);
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
      terrainExtras(g, look, X, Y, CELL);
    }
  }
  drawNight(ctx);
  // the ruler: x along the south edge, y up the west edge (north at the top)
  for (let x = 0; x < T.width; x++) {
    el("text", { x: ctx.px(x) + CELL / 2, y: ctx.py(0) + CELL + 13, "font-size": 10, "text-anchor": "middle", fill: "#555" }, svg, String(x));
  }
  for (let y = 0; y < T.height; y++) {
    el("text", { x: ctx.left - 5, y: ctx.py(y) + CELL / 2 + 4, "font-size": 10, "text-anchor": "end", fill: "#555" }, svg, String(y));
  }
  el("text", { x: ctx.px(T.width) - 4, y: ctx.top - 4, "font-size": 11, "text-anchor": "end", fill: "#555" }, svg, "N ↑  (1 square = 1\")");
}

// Water, bridges and hedgerows, drawn in a square of side `c` at X, Y (the
// table's squares and the key's swatches).
function terrainExtras(g, look, X, Y, c) {
  if (look.waves) {
    for (const f of look.bridge ? [0.15, 0.85] : [0.3, 0.7]) {
      el("path", { d: `M${X + c * 0.1} ${Y + c * f}q${c * 0.2} ${-c * 0.12} ${c * 0.4} 0t${c * 0.4} 0`, fill: "none",
                   stroke: "#3f7fb0", "stroke-width": c / 26 }, g);
    }
  }
  if (look.bridge) {                   // the deck and its rails across the stream
    el("rect", { x: X, y: Y + c * 0.3, width: c, height: c * 0.4, fill: "#b8a07a" }, g);
    el("path", { d: `M${X} ${Y + c * 0.3}H${X + c}M${X} ${Y + c * 0.7}H${X + c}`, stroke: "#5d4a33", "stroke-width": c / 14 }, g);
  }
  if (look.hedge) {                    // a bank of shrubs along the square
    for (const fy of [0.2, 0.8]) {
      for (const fx of [0.125, 0.375, 0.625, 0.875]) {
        el("circle", { cx: X + fx * c, cy: Y + fy * c, r: c * 0.13, fill: "#4f7a3a", stroke: "#345626", "stroke-width": c / 40 }, g);
      }
    }
  }
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
  const count = new Map(), cleared = new Set();
  for (const st of ctx.v.stands) {
    if (!st.alive && st.wreck) count.set(`${st.at[0]},${st.at[1]}`, (count.get(`${st.at[0]},${st.at[1]}`) || 0) + 1);
    if (!st.alive && st.wreck && (ctx.v.wrecks_cleared || []).includes(st.id)) cleared.add(`${st.at[0]},${st.at[1]}`);
  }
  for (const [sq, n] of count) {
    const [x, y] = sq.split(",").map(Number);
    const X = ctx.px(x) + CELL / 2, Y = ctx.py(y) + CELL / 2;
    const g = el("g", { "data-wreck": sq }, ctx.svg);
    el("path", { d: star(X, Y, CELL * 0.42, CELL * 0.18, 7), fill: "#3a3330", opacity: 0.8 }, g);
    if (n > 1) el("text", { x: X, y: Y + 4, "font-size": 11, fill: "#fff", "text-anchor": "middle", "font-weight": 700 }, g, String(n));
    // cleared off the road (RULES.md, wreck clearing): it stays as cover, the road rate resumes
    if (cleared.has(sq)) {
      g.setAttribute("data-cleared", "1");
      el("path", { d: `M${X - 14} ${Y + 13}H${X + 14}`, stroke: "#fff", "stroke-width": 3 }, g);
      el("path", { d: `M${X - 14} ${Y + 13}H${X + 14}`, stroke: "#b8a07a", "stroke-width": 2, "stroke-dasharray": "3 2" }, g);
    }
    tip(g, `${n} wreck${n > 1 ? "s" : ""} at ${sq} (cover; ${n > 1 ? "rough terrain" : "2 MP per inch"})` +
           (cleared.has(sq) ? ", cleared off the road (the road rate resumes)" : ""));
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
function drawStand(ctx, st, X, Y, parent = ctx.svg) {
  const v = ctx.v;
  const side = SIDE[st.side];
  const mine = ctx.interactive && ctx.moves.some((m) => standOf(m, { id: st.id, mover: v.mover && v.mover.id === st.id,
                                                                      retreater: false }) === st.id);
  const key = `stand:${st.id}`;
  const g = el("g", { "data-stand": st.id, "data-side": st.side }, parent);
  const box = isMarker(st) ? drawMarkerCounter(ctx, g, st, X, Y) : drawCounter(ctx, g, st, X, Y);
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

// A seen stand's counter (drawStand's look for all but an unspotted enemy marker).
function drawCounter(ctx, g, st, X, Y) {
  const v = ctx.v, side = SIDE[st.side];
  const box = el("rect", { x: X + 3, y: Y + 3, width: CELL - 6, height: CELL - 6, rx: 3, fill: side.color,
                           stroke: "#111", "stroke-width": 1 }, g);
  if (!st.dummy) drawSymbol(g, kindOf(v, st), X + CELL / 2, Y + 15, side.text);
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
  // issue 12: hidden / dummy, on horseback, cargo aboard; a waiting stand sits beside the map (board_units.js)
  markHidden(ctx, g, st, X, Y);
  const units = v.units || { mounted: [], offtable: [] };
  const mounted = units.mounted.includes(st.id), off = units.offtable.includes(st.id);
  if (mounted) drawMounted(ctx, g, st, X, Y);
  const cargo = drawCargo(ctx, g, st, X, Y, marks.length) + markGroup(ctx, g, st, X, Y);
  const t = v.types[st.type] || {};
  const here = off ? [] : obstacleNotes(ctx, st.at[0], st.at[1]);
  tip(g, `${side.name} ${st.id}: ${t.name || st.type} (AP ${t.ap} HE ${t.he} DV ${t.dv}${t.defence}, range ${t.range}", MP ${t.mp})` +
         ` at ${st.at[0]},${st.at[1]} facing ${st.facing}, ${st.posture} posture` +
         (st.suppressed ? ", suppressed" : "") + (st.disorganized ? ", disorganized" : "") +
         (st.fired ? ", fired" : "") + (st.moved ? ", moved" : "") + (st.low_ammo ? ", low on ammunition" : "") +
         (st.loaded_this_turn ? ", took personnel aboard this turn (half MP)" : "") +
         (st.loading_onto ? `, loading onto ${st.loading_onto} (a two-turn load: aboard at the start of next turn's movement)` : "") +
         (mounted ? ", on horseback" : "") + (off ? `, off the table: enters at ${st.at[0]},${st.at[1]}` : "") +
         hiddenWords(st) + cargo + (here.length ? `; ${here.join("; ")}` : ""));
  return box;
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

// --- fire support (issue 11): aircraft, strikes, plots, impact and smoke markers ---------------
const AIR_STRIP = 30;                  // the strip above the map where aircraft over the table fly
// charts.toml [air] bomb_radius (design 1: a bomb attacks the 3" x 3" block
// around its landing square); the view does not carry the chart, so it is here.
// BEGIN DATA (generated by tests/board_data.py from the game's data files; a test checks it)
const DATA = {"bomb_radius": 1};
// END DATA
const BOMB_RADIUS = DATA.bomb_radius;
// Strike steps whose `at` is the aimed (or deviated) square; before them
// (fasc, choose, plot) no square is chosen yet and `at` means nothing.
const AIMED = new Set(["aa", "attack", "deviate", "direction", "distance", "crt"]);
const IMPACT = { fill: "#e65100", stroke: "#b71c1c" }, SMOKE = { fill: "#9e9e9e", stroke: "#424242" };
const KIND = { he: "HE", smoke: "smoke" };     // a mission's kind as a person reads it

function airOf(v) { return (v.air && v.air.aircraft) || []; }
function batteriesOf(v) { return (v.artillery && v.artillery.batteries) || []; }
function onTable(T, at) { return Array.isArray(at) && at[0] >= 0 && at[1] >= 0 && at[0] < T.width && at[1] < T.height; }

// An aircraft seen from above, nose up, centred on cx, cy, `s` from nose to tail.
function plane(g, cx, cy, s, fill) {
  const p = (pts) => pts.map(([x, y]) => `${(cx + x * s).toFixed(1)},${(cy + y * s).toFixed(1)}`).join(" ");
  el("polygon", { points: p([[0, -0.5], [0.07, -0.35], [0.07, -0.15], [0.5, 0], [0.5, 0.08], [0.07, 0.05], [0.05, 0.32],
                             [0.2, 0.42], [0.2, 0.5], [0, 0.45], [-0.2, 0.5], [-0.2, 0.42], [-0.05, 0.32], [-0.07, 0.05],
                             [-0.5, 0.08], [-0.5, 0], [-0.07, -0.15], [-0.07, -0.35]]),
                  fill, stroke: "#111", "stroke-width": 0.8, "stroke-linejoin": "round" }, g);
}

// A 1" impact marker (HE: an orange burst) or smoke marker (a grey cloud) on
// square x, y, drawn under the stands and larger than a counter: the stand it
// attacks stays readable and the burst's points or the cloud's puffs show
// around it.
function marker(g, ctx, x, y, smoke) {
  const X = ctx.px(x), Y = ctx.py(y), cx = X + CELL / 2, cy = Y + CELL / 2, look = smoke ? SMOKE : IMPACT;
  if (smoke) {
    for (const [dx, dy] of [[-0.42, -0.42], [0.42, -0.42], [-0.42, 0.42], [0.42, 0.42], [0, -0.5], [0, 0.5], [-0.5, 0], [0.5, 0]]) {
      el("circle", { cx: cx + dx * CELL, cy: cy + dy * CELL, r: CELL * 0.2, fill: "#f5f5f5", stroke: look.stroke, "stroke-width": 1.2 }, g);
    }
    el("rect", { x: X + 1, y: Y + 1, width: CELL - 2, height: CELL - 2, rx: 8, fill: "#e0e0e0", stroke: "none" }, g);
    for (const [dx, dy, r] of [[0.33, 0.58, 0.17], [0.55, 0.45, 0.2], [0.72, 0.62, 0.14]]) {
      el("circle", { cx: X + dx * CELL, cy: Y + dy * CELL, r: r * CELL, fill: "#fafafa", stroke: "#757575" }, g);
    }
  } else {
    el("path", { d: star(cx, cy, CELL * 0.68, CELL * 0.4, 8), fill: look.fill, stroke: look.stroke, "stroke-width": 1.5 }, g);
    el("path", { d: star(cx, cy, CELL * 0.4, CELL * 0.22, 8), fill: "#ffca28", stroke: "none" }, g);
  }
}

// Impact and smoke markers of every firing battery: each section's marker on
// its square; a closed sheaf's sections share one square: one marker with ×n.
function drawMarkers(ctx) {
  for (const b of batteriesOf(ctx.v)) {
    const smoke = b.mission && b.mission.kind === "smoke";
    const count = new Map();
    for (const at of b.markers || []) if (onTable(ctx.T, at)) count.set(`${at[0]},${at[1]}`, (count.get(`${at[0]},${at[1]}`) || 0) + 1);
    for (const [sq, n] of count) {
      const at = sq.split(",").map(Number);
      // under the stands: it takes no click from them and keeps its tooltip
      const g = el("g", { "data-marker": smoke ? "smoke" : "impact", "data-battery": b.id }, ctx.svg);
      marker(g, ctx, at[0], at[1], smoke);
      if (n > 1) {
        const X = ctx.px(at[0]) - 6, Y = ctx.py(at[1]) + CELL - 8;
        el("rect", { x: X, y: Y, width: 18, height: 13, rx: 3, fill: smoke ? SMOKE.stroke : IMPACT.stroke }, g);
        el("text", { x: X + 9, y: Y + 10, "font-size": 9.5, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g, `×${n}`);
      }
      tip(g, `${SIDE[b.side] ? SIDE[b.side].name : b.side} battery ${b.id}: ${n > 1 ? `${n} ` : ""}` +
             `${smoke ? "smoke marker" : "impact marker"}${n > 1 ? "s" : ""} ` +
             `${smoke ? "(blocks LOS, +3 to fire into or out of it)" : "(attacks every stand under it, friend or foe)"}` +
             ` at ${at[0]},${at[1]}, ${b.turns_left} turn${b.turns_left === 1 ? "" : "s"} left`);
    }
  }
}

// A plot: a crosshair in the plotting side's colour with what lands and when.
function crosshair(g, ctx, at, side, label) {
  const cx = ctx.px(at[0]) + CELL / 2, cy = ctx.py(at[1]) + CELL / 2, c = SIDE[side] ? SIDE[side].color : "#333";
  el("circle", { cx, cy, r: CELL * 0.38, fill: "none", stroke: "#fff", "stroke-width": 4.5 }, g);
  el("circle", { cx, cy, r: CELL * 0.38, fill: "none", stroke: c, "stroke-width": 2.2, "stroke-dasharray": "5 3" }, g);
  el("path", { d: `M${cx - CELL / 2} ${cy}H${cx - 6}M${cx + 6} ${cy}H${cx + CELL / 2}M${cx} ${cy - CELL / 2}V${cy - 6}M${cx} ${cy + 6}V${cy + CELL / 2}`,
               stroke: c, "stroke-width": 2 }, g);
  const w = 7 + label.length * 5.6;
  el("rect", { x: cx - w / 2, y: cy - CELL / 2 - 13, width: w, height: 12, rx: 3, fill: "#fff", stroke: c, "stroke-width": 1 }, g);
  el("text", { x: cx, y: cy - CELL / 2 - 4, "font-size": 9, "text-anchor": "middle", fill: "#111", "font-weight": 700 }, g, label);
}

// The plots the view shows: a bomb plot or artillery mission with a square
// (the viewer's own, or every one in the full state). A hidden plot has no
// square in the view, so it is not on the table (the lines below say `?`).
function drawPlots(ctx) {
  for (const pl of airOf(ctx.v)) {
    const p = pl.plot;
    if (!p || !onTable(ctx.T, p.at)) continue;
    const g = el("g", { "data-plot": `bomb:${pl.id}`, "pointer-events": "none" }, ctx.svg);
    crosshair(g, ctx, p.at, pl.side, `bomb ${pl.id} t${p.turn}`);
    tip(g, `${pl.id} bomb plot for turn ${p.turn} at ${p.at[0]},${p.at[1]}`);
  }
  for (const b of batteriesOf(ctx.v)) {
    if (b.state !== "plotted" || !b.mission || !onTable(ctx.T, b.mission.target)) continue;
    const g = el("g", { "data-plot": `artillery:${b.id}`, "pointer-events": "none" }, ctx.svg);
    crosshair(g, ctx, b.mission.target, b.side, `${KIND[b.mission.kind] || b.mission.kind} ${b.id} t${b.lands}`);
    tip(g, `battery ${b.id}: ${b.mission.kind === "smoke" ? "smoke" : "HE"} mission plotted at ` +
           `${aimText(b.mission)}, lands turn ${b.lands}`);
  }
  drawPreregPoints(ctx, el, tip, onTable, (g, at, side, label) => crosshair(g, ctx, at, side, label));
}

// Aircraft over the table fly in the strip above the map, left to right;
// the aircraft striking now flies over its target instead,
// with a red ring (strafe: the square; bomb: the block it attacks).
function drawAircraft(ctx) {
  const air = ctx.v.air || {};
  const st = air.strike && AIMED.has(air.strike.step) && onTable(ctx.T, air.strike.at) ? air.strike : null;
  if (st) {
    const r = st.kind === "bomb" ? BOMB_RADIUS : 0;
    const g = el("g", { "data-strike": st.kind, "pointer-events": "none" }, ctx.svg);
    const box = { x: ctx.px(st.at[0] - r) - 1, y: ctx.py(st.at[1] + r) - 1, width: (2 * r + 1) * CELL + 2,
                  height: (2 * r + 1) * CELL + 2, rx: 5 };
    el("rect", { ...box, fill: "none", stroke: "#fff", "stroke-width": 5 }, g);
    el("rect", { ...box, fill: "#d32f2f", "fill-opacity": 0.12, stroke: "#d32f2f", "stroke-width": 2.5 }, g);
    tip(g, `${st.aircraft} ${st.kind === "bomb" ? "bombs" : "strafes"} ${st.at[0]},${st.at[1]} [${st.step}]` + (st.aa ? `, AA +${st.aa}` : ""));
  }
  let i = 0;
  for (const pl of airOf(ctx.v).filter((p) => p.present)) {
    const striking = st && st.aircraft === pl.id;
    const g = el("g", { "data-aircraft": pl.id, "pointer-events": "none" }, ctx.svg);
    const r = st && st.kind === "bomb" ? BOMB_RADIUS : 0;
    // striking: on a white disc just outside the ring's top-right corner, so the counters under it stay readable
    const x = striking ? ctx.px(st.at[0] + r + 1) + 6 : ctx.left + 20 + 190 * i++;
    const y = striking ? ctx.py(st.at[1] + r) - 8 : ctx.top - AIR_STRIP / 2 - 2;
    if (striking) {
      el("circle", { cx: x, cy: y, r: 19, fill: "#fff", stroke: "#d32f2f", "stroke-width": 2 }, g);
      el("line", { x1: x - 14, y1: y + 14, x2: x - 22, y2: y + 22, stroke: "#d32f2f", "stroke-width": 2 }, g);
      const label = `${pl.id} ${st.kind === "bomb" ? "bombs" : "strafes"}`;
      el("rect", { x: x + 21, y: y - 8, width: 10 + label.length * 6.8, height: 16, rx: 3, fill: "#d32f2f" }, g);
      el("text", { x: x + 25, y: y + 4, "font-size": 11, fill: "#fff", "font-weight": 700 }, g, label);
    }
    plane(g, x, y, striking ? 30 : 24, SIDE[pl.side] ? SIDE[pl.side].color : "#555");
    if (!striking) el("text", { x: x + 16, y: y + 4, "font-size": 11, fill: "#222" }, g, `${pl.id} over the table`);
    tip(g, `${pl.name} (${pl.id}) over the table` + (striking ? `, ${st.kind === "bomb" ? "bombing" : "strafing"} ${st.at.join(",")}` : ""));
  }
}

// Marker squares as "10,19 ×3 11,19": a square several sections share, once with its count.
function squaresText(markers) {
  const count = new Map();
  for (const m of markers) count.set(m.join(","), (count.get(m.join(",")) || 0) + 1);
  return [...count].map(([sq, n]) => (n > 1 ? `${sq} ×${n}` : sq)).join(" ");
}

// One line per aircraft and per battery under the sides' lines.
function drawSupportLines(ctx, y) {
  const name = (s) => (SIDE[s] ? SIDE[s].name : s);
  const v = ctx.v, lines = [...offTableLines(ctx), ...dropLines(ctx)];
  const air = v.air || {};
  for (const pl of airOf(v)) {
    const when = pl.present ? "over the table" : `turns ${pl.arrive}-${pl.arrive + pl.turns - 1}`;
    let t = `${pl.id} (${name(pl.side)} ${pl.name}): ${when}, strafe ${pl.strafe}, bomb ${pl.bomb} ×${pl.ordnance} left` +
            (pl.fasc ? `, FASC${pl.fasc_ok ? " through" : ""}` : "");
    if (pl.plot) t += ` · bomb plot turn ${pl.plot.turn}: ` + (pl.plot.at === "hidden" ? "?" : pl.plot.at === null ? "none" : pl.plot.at.join(","));
    lines.push([pl.side, "plane", t]);
  }
  if (air.strike) {
    const st = air.strike;
    const what = AIMED.has(st.step) ? `${st.kind} at ${st.at[0]},${st.at[1]}`
      : { plot: "plotting next turn's bomb point", fasc: "Forward Air Support Coordinator roll" }[st.step] || "choosing a target";
    lines.push([null, "strike", `airstrike: ${st.aircraft} ${what} [${st.step}]` + (st.aa ? `, AA +${st.aa}` : "")]);
  }
  const art = v.artillery;
  if (art && art.current) lines.push([null, "strike", `artillery: battery ${art.current} [${art.step}]`]);
  for (const b of batteriesOf(v)) {
    let t = `battery ${b.id} (${name(b.side)}): `;
    if (b.state === "hidden") t += "mission plotted: ?";
    else if (b.state === "plotted" && b.mission) t += `${KIND[b.mission.kind] || b.mission.kind} plotted at ${aimText(b.mission)}, lands turn ${b.lands}`;
    else if (b.state === "active" && b.mission) t += `${b.mission.kind === "smoke" ? "smoke" : "impact"} markers at ` +
      `${squaresText(b.markers)}, ${b.turns_left} turn${b.turns_left === 1 ? "" : "s"} left`;
    else t += b.state === "held" ? "mission held" : "no mission";
    if (b.smoke_left !== undefined) t += ` · smoke missions left ${b.smoke_left}`;
    lines.push([b.side, "gun", t]);
  }
  lines.push(...preregLines(v, name));
  lines.forEach(([side, icon, text], i) => {
    const yy = y + i * 20;
    const g = el("g", { "data-support": icon }, ctx.svg);
    if (icon === "plane") plane(g, 17, yy - 5, 16, SIDE[side].color);
    else if (icon === "gun") el("circle", { cx: 17, cy: yy - 5, r: 6, fill: SIDE[side] ? SIDE[side].color : "#555" }, g);
    else if (icon === "para") parachute(g, 17, yy - 9, 7, SIDE[side].color);
    else if (icon === "enter") el("path", { d: `M11 ${yy - 11}L23 ${yy - 5}L11 ${yy + 1}Z`, fill: SIDE[side].color }, g);
    else el("rect", { x: 11, y: yy - 11, width: 12, height: 12, fill: "#d32f2f", "fill-opacity": 0.25, stroke: "#d32f2f", "stroke-width": 2 }, g);
    el("text", { x: 30, y: yy, "font-size": 12.5, fill: "#222" }, g, text);
  });
  return y + lines.length * 20;
}

// --- the sides' lines -----------------------------------------------------------------------
function drawSides(ctx, y) {
  const v = ctx.v;
  ["german", "soviet"].forEach((side, i) => {
    const c = v.cards[side];
    const yy = y + i * 22;
    el("rect", { x: 10, y: yy - 12, width: 14, height: 14, fill: SIDE[side].color }, ctx.svg);
    // unspotted markers are not counted as stands: what they are is not known (a dummy is no stand)
    const alive = v.stands.filter((s) => s.side === side && s.alive);
    const markers = alive.filter(isMarker).length, dummies = alive.filter((s) => s.dummy).length;
    const live = `${alive.length - markers - dummies} stands` + (markers ? ` + ${markers} unspotted marker${markers > 1 ? "s" : ""}` : "") +
                 (dummies ? ` + ${dummies} dumm${dummies > 1 ? "ies" : "y"}` : "");
    const ghq = v.ghq[i] ? `GHQ ${v.ghq[i]}` : "no GHQ (no orders)";
    const total = c.total === null ? "total hidden" : `total ${c.total}`;
    el("text", { x: 30, y: yy, "font-size": 13, fill: "#222" }, ctx.svg,
       `${SIDE[side].name}: cohesion ${v.cohesion[i]}, ${live}, ${ghq}, orders left ${v.orders[i]}, ` +
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
  // only terrain on this table, in TERRAIN's order; a terrain board.js does not know yet still gets its (grey) entry
  const present = new Set(ctx.T.rows.flatMap((row) => [...row].map((ch) => ctx.T.terrain[ch] || "clear")));
  if (builtBridges(ctx.v).size) present.add("bridge");      // built in play (RULES.md, Engineering)
  for (const name of [...Object.keys(TERRAIN), ...[...present].filter((n) => !TERRAIN[n])]) {
    if (!present.has(name)) continue;
    const look = groundLook(ctx.v, name, TERRAIN[name] || { fill: "#eee" });
    item((px, py) => {
      el("rect", { x: px, y: py, width: 18, height: 18, fill: look.fill, stroke: "#aaa" }, g);
      if (look.road) el("rect", { x: px, y: py + 7, width: 18, height: 4, fill: "#b8a07a" }, g);
      if (look.trees) el("circle", { cx: px + 9, cy: py + 9, r: 4, fill: "#5d8a4a" }, g);
      if (look.houses) el("rect", { x: px + 4, y: py + 4, width: 10, height: 10, fill: "#a08c70" }, g);
      if (look.dots) el("circle", { cx: px + 9, cy: py + 9, r: 1.6, fill: "#8a7a55" }, g);
      if (look.contour) el("path", { d: `M${px + 3} ${py + 13} L${px + 9} ${py + 6} L${px + 15} ${py + 13}`, fill: "none", stroke: "#a8874a", "stroke-width": 1.5 }, g);
      terrainExtras(g, look, px, py, 18);
    }, (TERRAIN_WORDS[name] || name) + (look.ground ? ` (${look.ground})` : ""));
  }
  for (const side of ["german", "soviet"]) {
    item((px, py) => el("rect", { x: px, y: py, width: 18, height: 18, rx: 2, fill: SIDE[side].color }, g), SIDE[side].name);
  }
  obstacleKey(ctx, g, item);
  unitsKey(ctx, g, item);
  dropKey(ctx, g, item);
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
  if (airOf(ctx.v).length) {
    item((px, py) => plane(g, px + 11, py + 9, 20, SIDE.soviet.color), "aircraft over the table");
    item((px, py) => el("rect", { x: px, y: py, width: 18, height: 18, rx: 3, fill: "#d32f2f", "fill-opacity": 0.12, stroke: "#d32f2f", "stroke-width": 2.5 }, g),
         `airstrike target (bomb: the ${2 * BOMB_RADIUS + 1}×${2 * BOMB_RADIUS + 1} block)`);
  }
  if (airOf(ctx.v).length || batteriesOf(ctx.v).length) {
    item((px, py) => {
      el("circle", { cx: px + 9, cy: py + 9, r: 8, fill: "none", stroke: SIDE.german.color, "stroke-width": 2, "stroke-dasharray": "4 2" }, g);
      el("path", { d: `M${px} ${py + 9}H${px + 5}M${px + 13} ${py + 9}H${px + 18}M${px + 9} ${py}V${py + 5}M${px + 9} ${py + 13}V${py + 18}`, stroke: SIDE.german.color, "stroke-width": 1.5 }, g);
    }, "plot (bomb or artillery; t = the turn it lands; pre1: a pre-registered point); a hidden plot or point: ? below the map");
  }
  if (batteriesOf(ctx.v).length) {
    item((px, py) => {
      el("path", { d: star(px + 9, py + 9, 10, 6, 8), fill: IMPACT.fill, stroke: IMPACT.stroke }, g);
      el("path", { d: star(px + 9, py + 9, 6, 3.3, 8), fill: "#ffca28" }, g);
    }, "impact marker (attacks every stand on it)");
    item((px, py) => {
      for (const [dx, dy] of [[3, 4], [15, 4], [3, 14], [15, 14]]) el("circle", { cx: px + dx, cy: py + dy, r: 4, fill: "#f5f5f5", stroke: SMOKE.stroke }, g);
      el("rect", { x: px + 1, y: py + 1, width: 16, height: 16, rx: 4, fill: "#e0e0e0" }, g);
      el("circle", { cx: px + 9, cy: py + 10, r: 5, fill: "#fafafa", stroke: "#757575" }, g);
    }, "smoke marker (blocks LOS, +3 to fire through)");
  }
  return key.bottom() - y;
}
