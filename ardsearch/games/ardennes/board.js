// Clash of the Ardennes in the browser: seven roads between the Allied block
// (left) and the German block (right), units drawn tile by tile, the stock
// and the objective cards. Click a road: its moves are offered (place a unit,
// bring the rearmost to the front, retreat, clash, flank, fire the mortar).
// The contract with the app: render(element, snapshot, ui), belongs(move, selection).

import { SVG, el } from "/static/board-kit.js";
const TILES = { M: 1, T: 3, P: 2, C: 2, S: 2, G: 5, Y: 1, K: 3, R: 2 };
const NAMES = { M: "mine", T: "tank", P: "private", C: "corporal", S: "sergeant", G: "general",
                Y: "spy", K: "command tank", R: "mortar" };
const COLORS = { allies: "#4a6d8c", germans: "#7a5a3a" };


// The road a move acts on: T3 -> 3, f2 -> 2, k3:2 -> 3; null for pass and chance.
function roadOf(move) {
  const m = /^[A-Za-z](\d)/.exec(move);
  return m ? Number(m[1]) : null;
}

export function belongs(move, selection) {
  return selection !== null && roadOf(move) === selection;
}

export function render(root, snap, ui) {
  const v = snap.view;
  const L = v.road_length;
  const cell = 34, left = 90, top = 40, rowH = 48;
  const width = left + L * cell + 30, height = top + 7 * rowH + 120;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
                          "aria-label": "Clash of the Ardennes board" }, root);
  el("text", { x: left, y: 22, "font-size": 14 }, svg,
     `round ${v.round}/${v.max_rounds} · ${v.to_move === "terminal" ? "game over" : v.to_move + " to move"}` +
     (v.ap !== undefined && v.to_move !== "terminal" ? ` · ${v.ap} AP left` : ""));
  el("text", { x: 8, y: top - 6, "font-size": 12, fill: COLORS.allies }, svg, "Allies ▸");
  el("text", { x: left + L * cell - 50, y: top - 6, "font-size": 12, fill: COLORS.germans }, svg, "◂ Germans");
  const playable = new Set(snap.your_turn ? snap.legal.map(roadOf).filter((r) => r !== null) : []);
  for (const road of v.roads) {
    const y = top + (road.road - 1) * rowH;
    const g = el("g", { "data-road": road.road }, svg);
    const selected = ui.selected === road.road;
    const label = el("rect", { x: 6, y: y + 4, width: 70, height: rowH - 12, rx: 4,
                               fill: playable.has(road.road) ? "#e9f2e9" : "#eee",
                               stroke: selected ? "#f2c14e" : "#999", "stroke-width": selected ? 3 : 1 }, g);
    el("text", { x: 14, y: y + 28, "font-size": 13 }, g,
       `road ${road.road}` + (road.conquered ? " ★" : ""));
    if (road.conquered) label.setAttribute("fill", road.conquered === "allies" ? "#cfdceb" : "#e6d9c8");
    for (let t = 0; t < L; t++) {
      el("rect", { x: left + t * cell, y: y + 4, width: cell - 2, height: rowH - 12,
                   fill: "#f3efe3", stroke: "#d5ccb4" }, g);
    }
    drawUnits(g, road.allies, "allies", left, y, cell, rowH, L);
    drawUnits(g, road.germans, "germans", left, y, cell, rowH, L);
    if (playable.has(road.road) && !snap.past) {
      g.classList.add("clickable");
      g.addEventListener("click", () => {
        ui.selected = selected ? null : road.road;
        ui.offer(ui.selected === null ? [] : snap.legal.filter((m) => belongs(m, ui.selected)));
        root.innerHTML = "";
        render(root, snap, ui);
      });
    }
  }
  // stock and objectives
  const sy = top + 7 * rowH + 14;
  for (const [i, side] of ["allies", "germans"].entries()) {
    const stock = v.stock[side];
    const text = Object.entries(stock).map(([u, n]) => `${u}${n}`).join(" ");
    el("text", { x: 8, y: sy + i * 22, "font-size": 13, fill: COLORS[side] }, svg,
       `${side === "allies" ? "Allies" : "Germans"} stock: ${text}`);
    const card = v.objectives[side];
    const cx = left + L * cell - 200;
    el("rect", { x: cx, y: sy - 14 + i * 22, width: 190, height: 19, rx: 3,
                 fill: card ? "#fff7d6" : "#ddd", stroke: "#aa9" }, svg);
    el("text", { x: cx + 6, y: sy + i * 22, "font-size": 12 }, svg,
       card ? `objective card ${card}` : "objective card: hidden");
  }
  el("text", { x: 8, y: sy + 52, "font-size": 11, fill: "#666" }, svg,
     "Units: M mine, T tank, P/C/S infantry, G general, Y spy, K command tank, R mortar;");
  el("text", { x: 8, y: sy + 68, "font-size": 11, fill: "#666" }, svg,
     "upper case Allied, lower case German; ★ conquered road. Click a road for its moves.");
}

function drawUnits(g, units, side, left, y, cell, rowH, L) {
  // units run from the owner's block: Allies from tile 1 rightwards, Germans from tile L leftwards
  let pos = 0;
  for (const u of units) {
    const n = TILES[u.toUpperCase()] || 1;
    const first = side === "allies" ? pos : L - pos - n;
    const x = left + first * cell + 2, w = n * cell - 6;
    el("rect", { x, y: y + 8, width: w, height: rowH - 20, rx: 6, fill: COLORS[side], stroke: "#222" }, g);
    const t = el("text", { x: x + w / 2, y: y + 27, "font-size": 13, fill: "#fff", "text-anchor": "middle" }, g,
                 side === "allies" ? u.toUpperCase() : u.toLowerCase());
    el("title", {}, t, `${side === "allies" ? "Allied" : "German"} ${NAMES[u.toUpperCase()] || u}`);
    pos += n;
  }
}
