// Micro Armour in the browser: the paratroop landing group (RULES.md
// "Paratroops", "On the boards and in the evaluation"), drawn from the view's
// `drop` key only: the stands still in the aircraft in a strip above the map
// (each with a parachute badge and its drop turn), the ones lost on the
// arrival roll crossed out there during the drop, and the plotted drop zone's
// 3" block on the table. A view reads the opponent's zone as "hidden" until
// the public `drop x,y` event opens the drop turn: then nothing of it is drawn
// (the line below the map says "?"), so two truths with different plots draw
// the same opponent board. board.js calls these.

import { el } from "/static/board-kit.js";

const tip = (node, text) => { el("title", {}, node, text); return node; };
export const DROP_STRIP = 58;          // the strip above the map where the landing group waits
const JUMP = { on_target: "'On Target' jump (1D8/2 scatter)", hot: "'Hot Combat Jump' (4D6 scatter on a failed cohesion roll)" };

export function dropOf(v) { return v.drop || null; }

// The stands still in the aircraft (not yet landed, not removed).
export function airborne(v) {
  const dr = dropOf(v);
  return dr ? v.stands.filter((s) => dr.waiting.includes(s.id)) : [];
}

// The group's stands out of the game: neither waiting nor alive (removed on the
// arrival roll, or landed and lost since: the view cannot tell which).
export function lostIds(v) {
  const dr = dropOf(v);
  if (!dr) return [];
  const alive = new Set(v.stands.filter((s) => s.alive).map((s) => s.id));
  return dr.group.filter((id) => !dr.waiting.includes(id) && !alive.has(id));
}

// The strip is there while stands wait or the landings are under way.
export function hasStrip(v) {
  const dr = dropOf(v);
  return !!dr && (dr.waiting.length > 0 || dr.step !== "none");
}

export function parachute(g, cx, cy, s, color) {
  el("path", { d: `M${cx - s} ${cy}A${s} ${s} 0 0 1 ${cx + s} ${cy}Z`, fill: color, stroke: "#111", "stroke-width": 0.7 }, g);
  el("path", { d: `M${cx - s} ${cy}L${cx} ${cy + s * 1.1}M${cx} ${cy}L${cx} ${cy + s * 1.1}M${cx + s} ${cy}L${cx} ${cy + s * 1.1}`,
               stroke: "#111", "stroke-width": 0.7, fill: "none" }, g);
  el("rect", { x: cx - s * 0.22, y: cy + s * 1.05, width: s * 0.44, height: s * 0.5, fill: "#111" }, g);
}

// The strip above the map, at y: a label, then each waiting stand's counter
// (drawAt(st, X, Y, parent) draws it and returns its group) with a parachute
// badge "t<turn>", then (during the drop) each lost stand's counter crossed out.
export function drawAirborne(ctx, y, drawAt) {
  const v = ctx.v, dr = dropOf(v), C = ctx.cell;
  if (!hasStrip(v)) return;
  const side = ctx.SIDE[dr.side];
  const lost = lostIds(v).map((id) => v.stands.find((s) => s.id === id)).filter((s) => s);
  const list = [...airborne(v), ...lost];
  const g = el("g", { "data-airborne-strip": dr.side }, ctx.svg);
  const w = 200 + list.length * (C + 8);
  el("rect", { x: ctx.left - 4, y, width: w, height: DROP_STRIP - 6, rx: 5, fill: "#eef3f8", stroke: "#7a93ad", "stroke-dasharray": "4 3" }, g);
  parachute(g, ctx.left + 14, y + 16, 10, side.color);
  el("text", { x: ctx.left + 30, y: y + 19, "font-size": 12, "font-weight": 700, fill: "#222" }, g, `${side.name} airborne`);
  el("text", { x: ctx.left + 30, y: y + 35, "font-size": 11, fill: "#444" }, g, `drops turn ${dr.turn}` + (dr.step !== "none" ? " (now)" : ""));
  tip(g, `${side.name} paratroop landing group: drops at the start of turn ${dr.turn}, ${JUMP[dr.jump] || dr.jump}, ` +
         `arrival roll 1D20 +${dr.modifier} (removed on 20+); waiting: ${dr.waiting.join(", ") || "none"}` +
         (lost.length ? `; lost: ${lost.map((s) => s.id).join(", ")}` : ""));
  list.forEach((st, i) => {
    const X = ctx.left + 190 + i * (C + 8), Y = y + (DROP_STRIP - 6 - C) / 2;
    const waiting = dr.waiting.includes(st.id);
    const c = drawAt(st, X, Y, g);
    c.setAttribute("data-drop-state", waiting ? "waiting" : "lost");
    const t = c.querySelector(":scope > title");
    const name = (ctx.v.types[st.type] || {}).name || st.type;
    const words = waiting ? `${side.name} ${st.id}: ${name}, in the aircraft: drops at the start of turn ${dr.turn}`
      : `${side.name} ${st.id}: ${name}, lost (removed on its arrival roll, 1D20 +${dr.modifier} of 20+)`;
    if (t) t.textContent = words; else tip(c, words);
    if (waiting) {
      el("rect", { x: X - 2, y: Y - 3, width: 25, height: 12, rx: 6, fill: "#fff", stroke: side.color, "stroke-width": 1.2 }, c);
      parachute(c, X + 5, Y + 2, 4, side.color);
      el("text", { x: X + 16, y: Y + 6.5, "font-size": 8, "text-anchor": "middle", "font-weight": 800, fill: "#111" }, c, `t${dr.turn}`);
    } else {
      el("rect", { x: X + 3, y: Y + 3, width: C - 6, height: C - 6, rx: 3, fill: "#fff", "fill-opacity": 0.6 }, c);
      el("path", { d: `M${X + 6} ${Y + 6}L${X + C - 6} ${Y + C - 6}M${X + C - 6} ${Y + 6}L${X + 6} ${Y + C - 6}`,
                   stroke: "#c62828", "stroke-width": 3 }, c);
      el("text", { x: X + C / 2, y: Y + C + 3.5, "font-size": 8, "text-anchor": "middle", "font-weight": 800, fill: "#c62828" }, c, "lost");
    }
  });
}

// The plotted zone's 3" block (only a zone the view holds: its owner's, or both
// once the drop is seen), under the stands and taking no clicks.
export function drawDropZone(ctx) {
  const dr = dropOf(ctx.v), C = ctx.cell;
  if (!dr || !Array.isArray(dr.zone)) return;
  const [zx, zy] = dr.zone, c = ctx.SIDE[dr.side] ? ctx.SIDE[dr.side].color : "#333";
  const x0 = Math.max(zx - 1, 0), y0 = Math.max(zy - 1, 0);
  const x1 = Math.min(zx + 1, ctx.T.width - 1), y1 = Math.min(zy + 1, ctx.T.height - 1);
  const g = el("g", { "data-drop-zone": `${zx},${zy}`, "pointer-events": "none" }, ctx.svg);
  const box = { x: ctx.px(x0) + 1, y: ctx.py(y1) + 1, width: (x1 - x0 + 1) * C - 2, height: (y1 - y0 + 1) * C - 2, rx: 6 };
  el("rect", { ...box, fill: c, "fill-opacity": 0.1, stroke: "#fff", "stroke-width": 5 }, g);
  el("rect", { ...box, fill: "none", stroke: c, "stroke-width": 2.5, "stroke-dasharray": "8 4" }, g);
  parachute(g, ctx.px(zx) + C / 2, ctx.py(zy) + C / 2 - 6, 9, c);
  const label = `drop zone t${dr.turn}`;
  const w = 10 + label.length * 5.6;
  el("rect", { x: box.x + 4, y: box.y - 7, width: w, height: 13, rx: 3, fill: "#fff", stroke: c, "stroke-width": 1 }, g);
  el("text", { x: box.x + 4 + w / 2, y: box.y + 3, "font-size": 9, "text-anchor": "middle", "font-weight": 700, fill: "#111" }, g, label);
  tip(g, `${ctx.SIDE[dr.side] ? ctx.SIDE[dr.side].name : dr.side} drop zone ${zx},${zy}: the 3" block ${x0},${y0} to ${x1},${y1}; ` +
         `each stand scatters from its centre (turn ${dr.turn})`);
}

// The line below the map: [side, "para", text].
export function dropLines(ctx) {
  const dr = dropOf(ctx.v);
  if (!dr) return [];
  const lost = lostIds(ctx.v);
  if (!dr.waiting.length && !lost.length && dr.zone === null) return [];
  const name = ctx.SIDE[dr.side] ? ctx.SIDE[dr.side].name : dr.side;
  let t = `${name} airborne, drop turn ${dr.turn}: ` + (dr.waiting.length ? `waiting ${dr.waiting.join(", ")}` : "none waiting");
  if (lost.length) t += ` · lost ${lost.join(", ")}`;
  if (dr.zone === "hidden") t += " · drop zone: ? (plotted, secret until the drop)";
  else if (Array.isArray(dr.zone)) t += ` · drop zone ${dr.zone.join(",")}`;
  else if (dr.waiting.length) t += " · drop zone not plotted yet";
  return [[dr.side, "para", t]];
}

// --- key -----------------------------------------------------------------------------------------
export function dropKey(ctx, g, item) {
  const dr = dropOf(ctx.v);
  if (!dr) return;
  const c = ctx.SIDE[dr.side] ? ctx.SIDE[dr.side].color : "#333";
  if (hasStrip(ctx.v)) {
    item((px, py) => {
      el("rect", { x: px, y: py + 2, width: 26, height: 16, rx: 2, fill: c }, g);
      el("rect", { x: px - 1, y: py - 2, width: 22, height: 11, rx: 5.5, fill: "#fff", stroke: c }, g);
      parachute(g, px + 5, py + 2, 3.5, c);
      el("text", { x: px + 15, y: py + 6.5, "font-size": 7.5, "text-anchor": "middle", "font-weight": 800 }, g, "t2");
    }, "airborne: in the aircraft above the map, drops at the start of turn t");
    if (lostIds(ctx.v).length) {
      item((px, py) => el("path", { d: `M${px + 2} ${py + 2}L${px + 16} ${py + 16}M${px + 16} ${py + 2}L${px + 2} ${py + 16}`,
                                    stroke: "#c62828", "stroke-width": 3 }, g), "airborne stand lost (removed on its arrival roll)");
    }
  }
  if (Array.isArray(dr.zone)) {
    item((px, py) => {
      el("rect", { x: px, y: py, width: 18, height: 18, rx: 3, fill: c, "fill-opacity": 0.1, stroke: c, "stroke-width": 2, "stroke-dasharray": "5 2" }, g);
      parachute(g, px + 9, py + 7, 5, c);
    }, "drop zone (the 3\" block the paratroops scatter from; the opponent's: ? below the map until the drop)");
  }
}
