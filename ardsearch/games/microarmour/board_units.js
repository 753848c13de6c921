// Micro Armour in the browser: what issue 12 added to the stands, drawn from
// the view only (RULES.md, Hidden set-up and spotting, Transport, Special
// stand types, Entry from the table edge, Movement groups, Weather and
// night): the opponent's unspotted markers as `?` counters (never what is
// under them), the viewer's own hidden stands and dummies, cargo aboard a
// carrier, cavalry on horseback, stands waiting off the table beside the
// map at their edge, the movement group and flame check in hand, and the
// weather and night line of the header. board.js calls these.

import { el } from "/static/board-kit.js";

const tip = (node, text) => { el("title", {}, node, text); return node; };
const WEATHER = { clear: "clear", light_rain: "light rain", haze: "haze", heavy_rain: "heavy rain", light_snow: "light snow",
                  heavy_snow: "heavy snow", fog: "fog", sandstorm: "sandstorm" };
const GROUND = { snow: "snow (clear counts as rough)", deep_snow: "deep snow (clear rough, every cost doubled)",
                 frozen: "frozen (streams count as rough; +2 to personnel movement rolls on foot)",
                 extreme_heat: "extreme heat (+2 to personnel movement rolls on foot)" };
export const PANEL = 52;               // the strip beside the map where stands wait to enter

// An unspotted enemy marker in a view: its type reads "?" (RULES.md,
// Hidden information); nothing else of it is drawn.
export const isMarker = (st) => st.type === "?";

// The header line: weather, ground, day or night and this turn's sighting.
export function conditionsText(v) {
  const c = v.conditions;
  if (!c) return "";
  let t = `weather ${WEATHER[c.weather] || c.weather} · ${c.night ? "night" : "day"}`;
  if (GROUND[c.ground]) t += ` · ground ${GROUND[c.ground]}`;
  t += ` · sighting ${c.sighting}"` + (c.sighting_turn ? ` (rolled turn ${c.sighting_turn})` : " (the scenario's)");
  return t;
}

// The ground's effect on a square's look (RULES.md, Weather and night: snow
// and deep snow make clear squares rough, frozen ground makes streams rough):
// a snowy or icy fill and the words for its tooltip; otherwise the look as is.
export function groundLook(v, kind, look) {
  const ground = v.conditions && v.conditions.ground;
  if ((ground === "snow" || ground === "deep_snow") && kind === "clear") {
    return { ...look, fill: "#f3f6f9", ground: ground === "snow" ? "snow: counts as rough" : "deep snow: rough, costs doubled" };
  }
  if (ground === "frozen" && kind === "stream") return { ...look, fill: "#dcecf5", ground: "frozen: counts as rough" };
  if (ground === "deep_snow") return { ...look, ground: "deep snow: costs doubled" };
  return look;
}

// At night the table is shaded (under the stands; no clicks).
export function drawNight(ctx) {
  if (!ctx.v.conditions || !ctx.v.conditions.night) return;
  el("rect", { x: ctx.left, y: ctx.top, width: ctx.T.width * ctx.cell, height: ctx.T.height * ctx.cell, fill: "#1a237e",
               "fill-opacity": 0.14, "pointer-events": "none", "data-night": "1" }, ctx.svg);
}

// The header's words for a group, flame check or loading roll in hand ("" if none).
export function unitActivityText(v) {
  const u = v.units || {}, parts = [];
  if (u.group) {
    const gr = u.group;
    parts.push(`group ${gr.id} (${gr.step === "roll" ? "movement roll" : "moving"}, ${gr.ordered ? "ordered" : "independent"}): ` +
               `${gr.attempting.join(",")}` + (gr.to_move.length ? `; still to move ${gr.to_move.join(",")}` : ""));
  }
  if (u.flame) parts.push(`flame check: ${u.flame.by} > ${u.flame.target} [${u.flame.step}]`);
  if (v.loading_into) parts.push(`loading roll: ${v.mover ? v.mover.id : "?"} boarding ${v.loading_into}`);
  return parts.join(" · ");
}

// --- hidden markers, own hidden stands, dummies ---------------------------------------------
// The opponent's unspotted marker: a counter in its side's colour with `?`
// and the marker's id (the name fire notation uses); no facing, posture or type.
export function drawMarkerCounter(ctx, g, st, X, Y) {
  const C = ctx.cell, side = ctx.SIDE[st.side];
  g.setAttribute("data-hidden", "marker");
  const box = el("rect", { x: X + 3, y: Y + 3, width: C - 6, height: C - 6, rx: 3, fill: side.color, stroke: "#111",
                           "stroke-width": 1, "stroke-dasharray": "3 2" }, g);
  el("text", { x: X + C / 2, y: Y + C / 2 + 3, "font-size": 19, "text-anchor": "middle", fill: side.text, "font-weight": 800 }, g, "?");
  el("text", { x: X + C / 2, y: Y + C - 5, "font-size": 8, "text-anchor": "middle", fill: side.text }, g, st.id);
  if (st.spotted) {                    // spotted: what it is comes next (a chance event)
    g.setAttribute("data-spotted", "1");
    el("circle", { cx: X + C - 5, cy: Y + 5, r: 6, fill: "#fdd835", stroke: "#222", "stroke-width": 0.8 }, g);
    el("text", { x: X + C - 5, y: Y + 8.5, "font-size": 9.5, "text-anchor": "middle", "font-weight": 800 }, g, "!");
  }
  tip(g, `${side.name} marker ${st.id} at ${st.at[0]},${st.at[1]}: unspotted (a stand or a dummy until an enemy ` +
         `spots it or its owner shows it; it cannot be attacked and blocks no LOS)`);
  return box;
}

// The viewer's own hidden stand (or any in the full state): a dashed yellow
// frame, as the opponent sees only a `?` there; a dummy: hatched, "dummy".
export function markHidden(ctx, g, st, X, Y) {
  const C = ctx.cell;
  if (st.dummy) {
    g.setAttribute("data-dummy", "1");
    const d = [6, 14, 22, 30].map((k) => `M${X + 3 + k} ${Y + 3}L${X + 3} ${Y + 3 + k}`).join("") +
              [6, 14, 22].map((k) => `M${X + C - 3} ${Y + 3 + k}L${X + 3 + k} ${Y + C - 3}`).join("");
    el("path", { d, stroke: "#fff", "stroke-opacity": 0.45, "stroke-width": 2.5 }, g);
    el("rect", { x: X + 4, y: Y + 10, width: C - 8, height: 11, rx: 2, fill: "#fff" }, g);
    el("text", { x: X + C / 2, y: Y + 18.5, "font-size": 7.5, "text-anchor": "middle", "font-weight": 800, fill: "#222" }, g, "dummy");
  }
  if (st.hidden) {
    g.setAttribute("data-hidden", "own");
    el("rect", { x: X + 1.5, y: Y + 1.5, width: C - 3, height: C - 3, rx: 4, fill: "none", stroke: "#fdd835", "stroke-width": 2.5,
                 "stroke-dasharray": "4 2" }, g);
  }
}

export function hiddenWords(st) {
  return (st.dummy ? ", a DUMMY (removed when spotted)" : "") +
         (st.hidden ? ", hidden (the opponent sees a ? marker)" : "") + (st.spotted ? ", spotted: shown next" : "");
}

// --- cargo, cavalry --------------------------------------------------------------------------
export function cargoOf(v, st) { return v.stands.filter((s) => s.alive && s.carried_by === st.id); }

// A carrier's cargo: a white badge with the count (ids in the tooltip) in
// the row of markers along the counter's top edge, after its S/D markers
// (`slot` of them); it shares the carrier's fate.
export function drawCargo(ctx, g, st, X, Y, slot = 0) {
  const cargo = cargoOf(ctx.v, st);
  if (!cargo.length) return "";
  const b = el("g", { "data-cargo": cargo.map((s) => s.id).join(",") }, g);
  const x = X - 1 + slot * 11;
  el("rect", { x, y: Y - 1, width: 12, height: 11, rx: 5.5, fill: "#fff", stroke: "#1565c0", "stroke-width": 1.5 }, b);
  el("text", { x: x + 6, y: Y + 7.8, "font-size": 8.5, "text-anchor": "middle", "font-weight": 800, fill: "#1565c0" }, b,
     String(cargo.length));
  const words = cargo.map((s) => `${s.id} (${(ctx.v.types[s.type] || {}).name || s.type})`).join(", ");
  return `, carrying ${words}` + (ctx.v.tank_riders && (ctx.v.types[st.type] || {}).defence === "A" ? " (tank riders if it has no cargo value)" : "");
}

export function drawMounted(ctx, g, st, X, Y) {
  const C = ctx.cell;
  g.setAttribute("data-mounted", "1");
  el("rect", { x: X + C - 11, y: Y + C / 2 - 9, width: 11, height: 11, rx: 2, fill: "#6d4c41", stroke: "#222", "stroke-width": 0.6 }, g);
  el("text", { x: X + C - 5.5, y: Y + C / 2 - 0.5, "font-size": 8.5, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g, "H");
}

// --- off the table ---------------------------------------------------------------------------
// The edge a stand waiting off the table enters by: the edge its entry square is on.
function edgeOf(T, at) {
  if (at[0] === 0) return "w";
  if (at[0] === T.width - 1) return "e";
  if (at[1] === 0) return "s";
  if (at[1] === T.height - 1) return "n";
  return "w";
}
const EDGE_NAME = { w: "west", e: "east", n: "north", s: "south" };

export function offTable(v) {
  const ids = new Set((v.units && v.units.offtable) || []);
  // cargo waits aboard its carrier (the carrier's badge shows it), not as a counter of its own
  return v.stands.filter((s) => s.alive && ids.has(s.id) && !s.carried_by);
}

// Which edges have stands waiting: board.js leaves a PANEL beside each.
export function offTableEdges(v) {
  const edges = new Set();
  for (const st of offTable(v)) edges.add(edgeOf(v.table, st.at));
  return edges;
}

// Each waiting stand beside the map, level with its entry square, with an
// arrow onto it; drawAt(st, X, Y) draws the counter (clickable as on the map).
export function drawOffTable(ctx, drawAt) {
  const T = ctx.T, C = ctx.cell;
  const by = { w: [], e: [], n: [], s: [] };
  for (const st of offTable(ctx.v)) by[edgeOf(T, st.at)].push(st);
  for (const [edge, list] of Object.entries(by)) {
    if (!list.length) continue;
    const box = { w: [ctx.left - 26 - C - 8, ctx.top - 4, C + 8, T.height * C + 8],
                  e: [ctx.px(T.width) + 4, ctx.top - 4, C + 8, T.height * C + 8],
                  n: [ctx.left - 4, ctx.top - C - 12, T.width * C + 8, C + 8],
                  s: [ctx.left - 4, ctx.py(0) + C + 18, T.width * C + 8, C + 8] }[edge];
    const g = el("g", { "data-offtable": edge }, ctx.svg);
    el("rect", { x: box[0], y: box[1], width: box[2], height: box[3], rx: 5, fill: "#f4f1e6", stroke: "#999", "stroke-dasharray": "4 3" }, g);
    tip(g, `off the table, entering from the ${EDGE_NAME[edge]} edge on turn 1: ` +
           list.map((s) => `${s.id} at ${s.at[0]},${s.at[1]}`).join(", "));
    for (const st of list) {
      const X = { w: box[0] + 4, e: box[0] + 4 }[edge] ?? ctx.px(st.at[0]);
      const Y = { n: box[1] + 4, s: box[1] + 4 }[edge] ?? ctx.py(st.at[1]);
      const [ax, ay, dx, dy] = { w: [X + C + 1, Y + C / 2, 1, 0], e: [X - 1, Y + C / 2, -1, 0],
                                 n: [X + C / 2, Y + C + 1, 0, 1], s: [X + C / 2, Y - 1, 0, -1] }[edge];
      el("path", { d: `M${ax + dx * 7} ${ay + dy * 7}L${ax - dy * 4} ${ay + dx * 4}L${ax + dy * 4} ${ay - dx * 4}Z`,
                   fill: ctx.SIDE[st.side].color }, g);
      drawAt(st, X, Y, g);
      // its entry square on the table: a dashed frame in its side's colour (no stand moves onto it)
      el("rect", { x: ctx.px(st.at[0]) + 2, y: ctx.py(st.at[1]) + 2, width: C - 4, height: C - 4, rx: 3, fill: "none",
                   stroke: ctx.SIDE[st.side].color, "stroke-width": 1.5, "stroke-dasharray": "3 2", "pointer-events": "none",
                   "data-entry": st.id }, ctx.svg);
    }
  }
}

export function offTableLines(ctx) {
  const by = new Map();
  for (const st of offTable(ctx.v)) {
    const k = `${st.side}:${edgeOf(ctx.T, st.at)}`;
    by.set(k, [...(by.get(k) || []), st]);
  }
  return [...by].map(([k, list]) => {
    const [side, edge] = k.split(":");
    return [side, "enter", `${ctx.SIDE[side].name} waiting to enter from the ${EDGE_NAME[edge]} edge: ` +
            list.map((s) => `${s.id} → ${s.at[0]},${s.at[1]}`).join(", ")];
  });
}

// --- the group and flame check in hand ------------------------------------------------------
// A stand of the group in hand still to move (on the table or waiting beside it): underlined in blue.
export function markGroup(ctx, g, st, X, Y) {
  const gr = ctx.v.units && ctx.v.units.group;
  if (!gr || !gr.to_move.includes(st.id)) return "";
  el("rect", { x: X + 6, y: Y + ctx.cell - 3, width: ctx.cell - 12, height: 4, rx: 2, fill: "#1e88e5", "data-group": gr.id }, g);
  return `, group ${gr.id}: still to move`;
}

export function drawUnitActivity(ctx) {
  const u = ctx.v.units || {}, C = ctx.cell;
  const find = (id) => ctx.v.stands.find((s) => s.id === id && s.alive && !s.carried_by);
  const onMap = (s) => s && !((u.offtable || []).includes(s.id));
  if (u.flame) {
    const a = find(u.flame.by), b = find(u.flame.target);
    if (onMap(a) && onMap(b)) {
      const c = (s) => [ctx.px(s.at[0]) + C / 2, ctx.py(s.at[1]) + C / 2];
      const [x1, y1] = c(a), [x2, y2] = c(b);
      el("line", { x1, y1, x2, y2, stroke: "#ff6d00", "stroke-width": 3, "stroke-dasharray": "6 3", "data-flame": u.flame.target,
                   "pointer-events": "none" }, ctx.svg);
    }
  }
}

// --- key ---------------------------------------------------------------------------------------
export function unitsKey(ctx, g, item) {
  const v = ctx.v, C = ctx.SIDE.german.color, S = ctx.SIDE.soviet.color;
  const live = v.stands.filter((s) => s.alive);
  if (live.some(isMarker)) {
    item((px, py) => {
      el("rect", { x: px, y: py, width: 18, height: 18, rx: 2, fill: S, stroke: "#111", "stroke-dasharray": "3 2" }, g);
      el("text", { x: px + 9, y: py + 14, "font-size": 13, "text-anchor": "middle", fill: "#fff", "font-weight": 800 }, g, "?");
    }, "unspotted enemy marker (a stand or a dummy)");
  }
  if (live.some((s) => s.hidden && !isMarker(s))) {
    item((px, py) => el("rect", { x: px, y: py, width: 18, height: 18, rx: 3, fill: C, stroke: "#fdd835", "stroke-width": 2.5, "stroke-dasharray": "4 2" }, g),
         "hidden (the opponent sees only a ? marker)");
  }
  if (live.some((s) => s.dummy)) {
    item((px, py) => {
      el("rect", { x: px, y: py, width: 30, height: 18, rx: 2, fill: C }, g);
      el("rect", { x: px + 1, y: py + 4, width: 28, height: 10, rx: 2, fill: "#fff" }, g);
      el("text", { x: px + 15, y: py + 12, "font-size": 8, "text-anchor": "middle", "font-weight": 800 }, g, "dummy");
    }, "dummy stand");
  }
  // a carrier drawn with a badge (a marker's cargo, if a view held it, is not drawn)
  if (live.some((s) => s.carried_by && live.some((c) => c.id === s.carried_by && !isMarker(c)))) {
    item((px, py) => {
      el("rect", { x: px + 2, y: py + 2, width: 18, height: 16, rx: 2, fill: C }, g);
      el("rect", { x: px, y: py, width: 12, height: 11, rx: 5.5, fill: "#fff", stroke: "#1565c0", "stroke-width": 1.5 }, g);
      el("text", { x: px + 6, y: py + 8.8, "font-size": 8.5, "text-anchor": "middle", "font-weight": 800, fill: "#1565c0" }, g, "1");
    }, "carrying stands (count; ids in the tooltip)");
  }
  if ((v.units && v.units.mounted || []).length) {
    item((px, py) => {
      el("rect", { x: px, y: py + 3, width: 11, height: 11, rx: 2, fill: "#6d4c41", stroke: "#222" }, g);
      el("text", { x: px + 5.5, y: py + 12, "font-size": 8.5, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, g, "H");
    }, "cavalry on horseback");
  }
  if (offTable(v).length) {
    item((px, py) => {
      el("rect", { x: px, y: py, width: 22, height: 18, rx: 3, fill: "#f4f1e6", stroke: "#999", "stroke-dasharray": "3 2" }, g);
      el("path", { d: `M${px + 14} ${py + 5}L${px + 20} ${py + 9}L${px + 14} ${py + 13}Z`, fill: C }, g);
    }, "off the table, waiting to enter (level with its entry square, framed on the table)");
  }
  if (v.conditions && v.conditions.night) {
    item((px, py) => el("rect", { x: px, y: py, width: 18, height: 18, fill: "#1a237e", "fill-opacity": 0.3 }, g),
         `night (sighting ${v.conditions.sighting}" this turn)`);
  }
  if (v.units && v.units.group) {
    item((px, py) => el("rect", { x: px, y: py + 12, width: 18, height: 4, rx: 2, fill: "#1e88e5" }, g), "movement group in hand: still to move");
  }
  if (v.units && v.units.flame) {
    item((px, py) => el("line", { x1: px, y1: py + 9, x2: px + 18, y2: py + 9, stroke: "#ff6d00", "stroke-width": 3, "stroke-dasharray": "6 3" }, g),
         "flame attack: cohesion check of its target");
  }
}
