// Undaunted: Normandy in the browser: the scenario's terrain tiles laid out as
// on the table (rows of square tiles, each row offset by half a tile, so a
// tile touches up to six others), their cover, objectives, control and
// scouted markers, the combat tokens and Target markers; beside the map each
// army's cards: hand (yours face up, the opponent's face down except the cards
// the view knows), deck, discard pile, play area, supply and removed pile.
//
// Click-to-move: a card is the unit of play (`rifA:move:13B` is the Rifleman A
// card moving the Rifleman A token), so clicking one of your tokens or a card
// in your hand (or in your supply while bolstering) selects that card, lights
// up the tiles and enemy tokens its moves reach and lists all its moves.
// The contract with the app: render(element, snapshot, ui), belongs(move, selection).

import { SVG, el, flowKey } from "/static/board-kit.js";
// Army colours as the game's cards: US green, German grey (kept far apart on small tokens).
const ARMY = [{ name: "US", long: "US Army", color: "#3f7a1f", light: "#e0ead2" },
              { name: "DE", long: "Germans", color: "#5e6166", light: "#e2e3e6" }];
// The card table of RULES.md (Cards): name and initiative value, in card order.
const CARDS = {
  fog: ["Fog of War", 1], mortar: ["Mortar", 2], mg: ["Machine Gunner", 3], sniper: ["Sniper", 4],
  rifA: ["Rifleman A", 5], rifB: ["Rifleman B", 5], rifC: ["Rifleman C", 5],
  scoutA: ["Scout A", 6], scoutB: ["Scout B", 6], scoutC: ["Scout C", 6],
  sl_A: ["Squad Leader A", 7], sl_B: ["Squad Leader B", 7], sl_C: ["Squad Leader C", 7],
  guide: ["Platoon Guide", 8], psgt: ["Platoon Sergeant", 9],
};
const CARD_ORDER = Object.keys(CARDS);
// Phases that wait for a chance event (RULES.md, Round), and what it is.
const CHANCE_PHASES = new Map([["deal", "cards drawn"], ["reveal", "a card revealed"], ["roll", "the attack roll"],
                               ["command_draw", "cards drawn"], ["leftover", "the hand discarded"]]);
// Terrain shading by cover value (the tiles' printed art is not data: the
// cover value is what matters in play, so the shade says it).
const COVER_FILL = { 0: "#e4ebc8", 1: "#cddca2", 2: "#a8c47f", 3: "#c2ab8a", hill: "#dcc48e" };
const TILE_W = 170, TILE_H = 138, GAP = 4;
const TOKEN_W = 38, TOKEN_H = 20;


function tip(node, text) { el("title", {}, node, text); return node; }

// --- moves -------------------------------------------------------------------------
// The card a move plays or picks: `rifA:move:13B` -> rifA, `bid:psgt` -> psgt,
// `bolster:rifA` -> rifA (the card taken from the supply); null for `end`,
// `bolster:stop` and chance events.
function cardOf(move) {
  const f = move.split(":");
  if ((f[0] === "bid" || f[0] === "bolster") && f[1] in CARDS) return f[1];
  return f[0] in CARDS ? f[0] : null;
}

export function belongs(move, selection) {
  return selection !== null && selection !== undefined && cardOf(move) === selection;
}

// Where on the board a move lands: a tile (`tile:13B`) or an enemy token
// (`token:1:scoutA`), or null for a move with no place (control, shelter...).
// `mortar:explode` lands on its own Target tile.
function targetOf(move, view, army) {
  const f = move.split(":");
  const act = f[1];
  if (act === "move" || act === "sneak" || act === "aim") return `tile:${f[2]}`;
  if (act === "scout") return `tile:${f[2].split(",").pop()}`;
  if (act === "advance") return `tile:${f[2].split(",")[1]}`;
  if (act === "attack" || act === "suppress") return `token:${1 - army}:${f[2]}`;
  if (act === "explode" && view.armies[army].target) return `tile:${view.armies[army].target}`;
  return null;
}

// --- layout: the tiles on a hex grid -------------------------------------------------
// The view gives only each tile's neighbours. Undaunted's tiles sit in offset
// rows, which is a hex grid: axial (q, r) drawn at x = q + r/2, y = r. The
// layout is found by backtracking: each tile goes next to its placed
// neighbours, touching exactly the tiles it is adjacent to; a scenario whose
// adjacency has no such layout is placed touching at least its neighbours
// (connector lines then show which touching tiles are adjacent), and as a last
// resort in plain rows with every adjacency drawn as a line.
const HEX = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
const layoutCache = new Map();

function layout(tiles) {
  const key = tiles.map((t) => `${t.name}>${t.adjacent.join(",")}`).join(";");
  if (!layoutCache.has(key)) {
    layoutCache.set(key, embed(tiles, true) || embed(tiles, false) || rowsLayout(tiles));
  }
  return layoutCache.get(key);
}

function embed(tiles, exact) {
  const adj = new Map(tiles.map((t) => [t.name, new Set(t.adjacent)]));
  const pos = new Map();         // tile -> [q, r]
  const at = new Map();          // "q,r" -> tile
  let budget = 200000;
  // most-constrained first: the unplaced tile with most placed neighbours
  function next() {
    let best = null, score = -1;
    for (const t of tiles) {
      if (pos.has(t.name)) continue;
      const s = t.adjacent.filter((n) => pos.has(n)).length * 10 + t.adjacent.length;
      if (s > score) { best = t.name; score = s; }
    }
    return best;
  }
  function fits(name, q, r) {
    if (at.has(`${q},${r}`)) return false;
    const near = new Set(HEX.map(([dq, dr]) => at.get(`${q + dq},${r + dr}`)).filter(Boolean));
    for (const n of adj.get(name)) if (pos.has(n) && !near.has(n)) return false;
    if (exact) for (const n of near) if (!adj.get(name).has(n)) return false;
    return true;
  }
  function place(count) {
    if (count === tiles.length) return true;
    if (--budget < 0) return false;
    const name = next();
    const placedNeighbour = [...adj.get(name)].find((n) => pos.has(n));
    const cands = placedNeighbour
      ? HEX.map(([dq, dr]) => [pos.get(placedNeighbour)[0] + dq, pos.get(placedNeighbour)[1] + dr])
      : (count === 0 ? [[0, 0]] : []);   // a disconnected board has no hex layout here
    for (const [q, r] of cands) {
      if (!fits(name, q, r)) continue;
      pos.set(name, [q, r]); at.set(`${q},${r}`, name);
      if (place(count + 1)) return true;
      pos.delete(name); at.delete(`${q},${r}`);
    }
    return false;
  }
  if (!place(0)) return null;
  return { pos, lines: !exact };
}

function rowsLayout(tiles) {
  const per = Math.ceil(Math.sqrt(tiles.length));
  const pos = new Map(tiles.map((t, i) => [t.name, [i % per - Math.floor(i / per) / 2, Math.floor(i / per)]]));
  return { pos, lines: true };
}

// The 12 symmetries of the hex grid; the board is turned so that the US spawn
// is on the left and the German spawn on the right, as the armies face off.
function oriented(lay, view) {
  const turns = [];
  for (let k = 0; k < 6; k++) {
    for (const mirror of [false, true]) {
      turns.push(([q, r]) => {
        let x = q, z = r, y = -q - r;
        if (mirror) [x, z] = [z, x];
        for (let i = 0; i < k; i++) [x, y, z] = [-z, -x, -y];
        return [x, z];
      });
    }
  }
  const screen = ([q, r]) => [q + r / 2, r];
  const us = lay.pos.get(view.armies[0].spawn), de = lay.pos.get(view.armies[1].spawn);
  let best = null, bestScore = -Infinity;
  for (const f of turns) {
    const pts = [...lay.pos.values()].map((p) => screen(f(p)));
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const w = Math.max(...xs) - Math.min(...xs) + 1, h = Math.max(...ys) - Math.min(...ys) + 1;
    const dx = us && de ? screen(f(de))[0] - screen(f(us))[0] : 0;
    const dy = us && de ? screen(f(de))[1] - screen(f(us))[1] : 0;
    const score = dx * 10 - Math.abs(dy) - h * 2 - w * 0.5;   // US left, DE right, then compact
    if (score > bestScore) { bestScore = score; best = f; }
  }
  const out = new Map();
  for (const [name, p] of lay.pos) out.set(name, screen(best(p)));
  const minX = Math.min(...[...out.values()].map((p) => p[0]));
  const minY = Math.min(...[...out.values()].map((p) => p[1]));
  for (const [name, p] of out) out.set(name, [p[0] - minX, p[1] - minY]);
  return out;
}

// --- drawing ---------------------------------------------------------------------------
export function render(root, snap, ui) {
  const v = snap.view;
  const army = snap.your_turn ? v.to_move : null;          // the army whose moves are listed
  const interactive = snap.your_turn && !snap.past;
  const moves = interactive ? snap.legal : [];
  const lay = layout(v.tiles);
  const grid = oriented(lay, v);
  const cols = Math.max(...[...grid.values()].map((p) => p[0])) + 1;
  const rows = Math.max(...[...grid.values()].map((p) => p[1])) + 1;
  const mapX = 10, mapY = 44;
  const mapW = cols * (TILE_W + GAP), mapH = Math.max(rows * (TILE_H + GAP), 560);
  const panelX = mapX + mapW + 14, panelW = 420;
  const width = panelX + panelW + 10, height = mapY + mapH + 120;
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
                          "aria-label": "Undaunted: Normandy board", "font-family": "system-ui, sans-serif" }, root);

  const selected = ui.selected && moves.some((m) => belongs(m, ui.selected)) ? ui.selected : null;
  const mine = selected ? moves.filter((m) => belongs(m, selected)) : [];
  const targets = new Map();          // target key -> its moves
  for (const m of mine) {
    const t = targetOf(m, v, army);
    if (t) targets.set(t, [...(targets.get(t) || []), m]);
  }
  const redraw = () => { root.innerHTML = ""; render(root, snap, ui); };
  const select = (card) => {
    ui.selected = ui.selected === card ? null : card;
    ui.offer(ui.selected === null ? [] : moves.filter((m) => belongs(m, ui.selected)));
    redraw();
  };
  const choose = (key) => {
    const ms = targets.get(key);
    if (ms.length === 1) ui.play(ms[0]);
    else ui.offer(ms);
  };
  const ctx = { v, svg, grid, moves, selected, targets, select, choose, interactive, army };

  drawHeader(ctx, snap);
  if (lay.lines) drawLinks(ctx, mapX, mapY);
  for (const t of v.tiles) drawTile(ctx, t, mapX, mapY);
  for (let a = 0; a < 2; a++) drawArmy(ctx, a, panelX, mapY + a * 292, panelW);
  const used = drawLegend(ctx, mapX, mapY + mapH + 14, width - 20);
  svg.setAttribute("viewBox", `0 0 ${width} ${mapY + mapH + 24 + used}`);
}

function tileXY(ctx, name, mapX, mapY) {
  const [gx, gy] = ctx.grid.get(name);
  return [mapX + gx * (TILE_W + GAP), mapY + gy * (TILE_H + GAP)];
}

function drawHeader(ctx, snap) {
  const v = ctx.v;
  const who = (a) => ARMY[a].long;
  let text = `Scenario ${v.scenario} · round ${v.round}/${v.max_rounds} · phase ${v.phase}`;
  if (v.phase === "over") text += ` · game over: ${v.winner === null ? "?" : who(v.winner)} win (${v.end_reason})`;
  else text += ` · ${CHANCE_PHASES.has(v.phase) ? "chance: " + CHANCE_PHASES.get(v.phase) : who(v.to_move) + " to act"}`;
  el("text", { x: 10, y: 18, "font-size": 15, "font-weight": 600 }, ctx.svg, text);
  let sub = "";
  if (v.roll) {
    sub = `Attack roll: ${v.roll.kind} against ${who(v.roll.army)} ${v.roll.unit}, ${v.roll.dice} ` +
          `${v.roll.dice === 1 ? "die" : "dice"} vs defence ${v.roll.defence} (hit chance ${Math.round(v.roll.probability * 100)}%)`;
  } else if (v.bolster) {
    sub = `Bolster: ${v.bolster.left} more card${v.bolster.left === 1 ? "" : "s"} from the supply` +
          (v.bolster.group ? ` (combat group ${v.bolster.group} only)` : "") + ": click one in the supply, or stop";
  } else if (v.phase === "bid1" || v.phase === "bid2") {
    sub = "Initiative: choose a card from the hand (its number is its initiative)";
  } else if (ctx.interactive) {
    sub = "Click one of your tokens or hand cards for its moves; lit tiles and tokens play them";
  }
  if (sub) el("text", { x: 10, y: 36, "font-size": 12.5, fill: "#444" }, ctx.svg, sub);
}

// Adjacency lines, only when the tiles could not be laid out touching exactly
// their neighbours (then touching alone does not say which tiles are adjacent).
function drawLinks(ctx, mapX, mapY) {
  for (const t of ctx.v.tiles) {
    const [x1, y1] = tileXY(ctx, t.name, mapX, mapY);
    for (const n of t.adjacent) {
      if (n < t.name || !ctx.grid.has(n)) continue;
      const [x2, y2] = tileXY(ctx, n, mapX, mapY);
      el("line", { x1: x1 + TILE_W / 2, y1: y1 + TILE_H / 2, x2: x2 + TILE_W / 2, y2: y2 + TILE_H / 2,
                   stroke: "#8a7f66", "stroke-width": 3, "stroke-dasharray": "6 4" }, ctx.svg);
    }
  }
}

function drawTile(ctx, t, mapX, mapY) {
  const v = ctx.v;
  const [x, y] = tileXY(ctx, t.name, mapX, mapY);
  const g = el("g", { "data-tile": t.name }, ctx.svg);
  const key = `tile:${t.name}`;
  const rect = el("rect", { x, y, width: TILE_W, height: TILE_H, rx: 5, fill: COVER_FILL[t.cover] ?? "#eee",
                            stroke: "#6b6148", "stroke-width": 1.5 }, g);
  if (t.cover === "hill") {       // contour lines say "hill" at a glance
    for (const k of [0, 1, 2]) {
      el("ellipse", { cx: x + TILE_W / 2, cy: y + TILE_H / 2 + 8, rx: 64 - k * 20, ry: 40 - k * 12,
                      fill: "none", stroke: "#a88d55", "stroke-width": 1 }, g);
    }
  }
  tip(rect, `tile ${t.name}: cover ${t.cover === "hill" ? "hill (1 against a hill or Explode, else 3)" : t.cover}` +
            (t.objective ? `, objective ${t.objective}` : "") + `; adjacent ${t.adjacent.join(" ")}`);
  el("text", { x: x + 6, y: y + 16, "font-size": 14, "font-weight": 700, fill: "#3b3422" }, g, t.name);
  // cover: a shield with the value (hills show 3/1)
  const sx = x + TILE_W - 30, sy = y + 4;
  el("path", { d: `M${sx} ${sy} h24 v10 q0 9 -12 14 q-12 -5 -12 -14 z`, fill: "#fff", stroke: "#6b6148" }, g);
  el("text", { x: sx + 12, y: sy + 15, "font-size": t.cover === "hill" ? 9 : 12, "text-anchor": "middle",
               "font-weight": 700 }, g, t.cover === "hill" ? "3/1" : String(t.cover));
  if (t.objective) {
    const ctrl = v.armies.findIndex((a) => a.controlled.includes(t.name));
    const c = el("circle", { cx: x + TILE_W / 2, cy: y + 14, r: 11, fill: ctrl >= 0 ? ARMY[ctrl].color : "#e8b923",
                             stroke: "#5a4a10", "stroke-width": 1.5 }, g);
    tip(c, `objective worth ${t.objective}` + (ctrl >= 0 ? `, controlled by ${ARMY[ctrl].long}` : ""));
    el("text", { x: x + TILE_W / 2, y: y + 19, "font-size": 13, "text-anchor": "middle", "font-weight": 700,
                 fill: ctrl >= 0 ? "#fff" : "#222" }, g, String(t.objective));
  }
  drawMarkers(ctx, g, t, x, y);
  drawTokens(ctx, g, t, x, y);
  if (ctx.targets.has(key)) {
    // a lit tile: a move of the selected card lands here
    const hi = el("rect", { x: x + 3, y: y + 3, width: TILE_W - 6, height: TILE_H - 6, rx: 5, class: "target",
                            fill: "#f2c14e", "fill-opacity": 0.5, "data-target": key }, g);
    tip(hi, ctx.targets.get(key).join("  "));
    hi.addEventListener("click", () => ctx.choose(key));
    g.append(...[...g.querySelectorAll("[data-token]")]);   // tokens stay clickable above the light
  }
}

// Control markers, one per army at the tile's foot: US left, German right.
// A controlled marker is solid, a scouted one an outline: the two sides of
// the real marker. The Target markers (Mortar) sit beside them.
function drawMarkers(ctx, g, t, x, y) {
  for (let a = 0; a < 2; a++) {
    const arm = ctx.v.armies[a];
    const state = arm.controlled.includes(t.name) ? "controlled" : arm.scouted.includes(t.name) ? "scouted" : null;
    const mx = a === 0 ? x + 6 : x + TILE_W - 30, my = y + TILE_H - 26;
    if (state) {
      const m = el("rect", { x: mx, y: my, width: 24, height: 20, rx: 3,
                             fill: state === "controlled" ? ARMY[a].color : "#fff",
                             stroke: ARMY[a].color, "stroke-width": 2.5 }, g);
      tip(m, `${ARMY[a].long}: ${state}`);
      el("text", { x: mx + 12, y: my + 15, "font-size": 12, "text-anchor": "middle", "font-weight": 700,
                   fill: state === "controlled" ? "#fff" : ARMY[a].color }, g, state === "controlled" ? "C" : "s");
    }
    if (arm.target === t.name) {
      const cx = a === 0 ? x + 48 : x + TILE_W - 48, cy = y + TILE_H - 16;
      const m = el("g", {}, g);
      el("circle", { cx, cy, r: 9, fill: "#fff", stroke: "#b22", "stroke-width": 2 }, m);
      el("path", { d: `M${cx - 12} ${cy} h24 M${cx} ${cy - 12} v24`, stroke: ARMY[a].color, "stroke-width": 2 }, m);
      tip(m, `${ARMY[a].long} Mortar's Target marker`);
    }
  }
}

// The combat tokens on a tile: US first, then German, four to a row.
function drawTokens(ctx, g, t, x, y) {
  const here = [];
  for (let a = 0; a < 2; a++) {
    for (const [unit, tok] of Object.entries(ctx.v.armies[a].tokens)) if (tok.tile === t.name) here.push([a, unit, tok]);
  }
  here.forEach(([a, unit, tok], i) => {
    const tx = x + 8 + (i % 4) * (TOKEN_W + 2), ty = y + 32 + Math.floor(i / 4) * (TOKEN_H + 4);
    drawToken(ctx, g, a, unit, tok, tx, ty);
  });
}

// A token's label, short enough for the counter: "Rif A", "Sct B", "MG".
function tokenLabel(unit) {
  const fixed = { mortar: "Mort", mg: "MG", sniper: "Snip" };
  if (fixed[unit]) return fixed[unit];
  if (unit.startsWith("rif")) return `Rif ${unit.slice(-1)}`;
  if (unit.startsWith("scout")) return `Sct ${unit.slice(-1)}`;
  return unit;
}

function drawToken(ctx, g, a, unit, tok, tx, ty) {
  const key = `token:${a}:${unit}`;
  const own = a === ctx.army && ctx.moves.some((m) => belongs(m, unit));
  const lit = ctx.targets.has(key);
  const tg = el("g", { "data-token": `${a}:${unit}` }, g);
  const r = el("rect", { x: tx, y: ty, width: TOKEN_W, height: TOKEN_H, rx: 4,
                         fill: tok.suppressed ? "#fff" : ARMY[a].color, stroke: tok.suppressed ? ARMY[a].color : "#222",
                         "stroke-width": tok.suppressed ? 2.5 : 1 }, tg);
  // label and stripe let clicks through to the counter (a lit counter is the click target)
  el("text", { x: tx + TOKEN_W / 2, y: ty + 14, "font-size": 10.5, "text-anchor": "middle", "font-weight": 600,
               fill: tok.suppressed ? ARMY[a].color : "#fff", "pointer-events": "none" }, tg, tokenLabel(unit));
  if (tok.suppressed) {
    el("path", { d: `M${tx + 2} ${ty + TOKEN_H - 2} L${tx + TOKEN_W - 2} ${ty + 2}`, stroke: "#b22", "stroke-width": 1.5,
                 "pointer-events": "none" }, tg);
  }
  tip(tg, `${ARMY[a].long} ${CARDS[unit] ? CARDS[unit][0] : unit}${tok.suppressed ? " (suppressed)" : ""}`);
  if (ctx.selected === unit && a === ctx.army) r.classList.add("sel");
  if (lit) {
    r.classList.add("target");
    r.setAttribute("data-target", key);
    tip(r, ctx.targets.get(key).join("  "));      // a target's own title lists its moves
    tg.classList.add("clickable");
    tg.addEventListener("click", (e) => { e.stopPropagation(); ctx.choose(key); });
  } else if (own && ctx.interactive) {
    tg.classList.add("clickable");
    tg.addEventListener("click", (e) => { e.stopPropagation(); ctx.select(unit); });
  }
}

// --- the armies' cards ------------------------------------------------------------------
function count(zone) { return Object.values(zone || {}).reduce((s, n) => s + n, 0); }

function listed(zone) {
  const parts = CARD_ORDER.filter((c) => zone[c]).map((c) => (zone[c] > 1 ? `${c}x${zone[c]}` : c));
  return parts.length ? parts.join(" ") : "-";
}

function drawArmy(ctx, a, x, y, w) {
  const v = ctx.v, arm = v.armies[a];
  const viewerKnows = v.viewer === -1 || v.viewer === a;
  const g = el("g", { "data-army": a }, ctx.svg);
  el("rect", { x, y, width: w, height: 282, rx: 6, fill: ARMY[a].light, stroke: ARMY[a].color, "stroke-width": 2 }, g);
  let head = `${ARMY[a].long}: ${arm.points} of ${arm.goal === "capture" ? arm.goal_points + " objective points" : ""}`;
  if (arm.goal === "immobilize") head = `${ARMY[a].long}: goal immobilize (points ${arm.points})`;
  el("text", { x: x + 10, y: y + 20, "font-size": 15, "font-weight": 700, fill: ARMY[a].color }, g, head);
  if (v.initiative === a) {
    const m = el("g", {}, g);
    el("rect", { x: x + w - 92, y: y + 6, width: 84, height: 20, rx: 10, fill: "#b8860b" }, m);
    el("text", { x: x + w - 50, y: y + 20, "font-size": 12, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, m, "Initiative");
    tip(m, "holds the Initiative marker (plays first; wins initiative ties)");
  }
  el("text", { x: x + 10, y: y + 38, "font-size": 12 }, g,
     `spawn ${arm.spawn}` + (arm.bid ? ` · initiative card: ${arm.bid === "unknown" ? "face down" : arm.bid}` : ""));
  // hand: known cards face up, unknown ones as card backs
  el("text", { x: x + 10, y: y + 58, "font-size": 12, "font-weight": 600 }, g,
     `hand (${count(arm.hand) + (arm.unknown_hand || 0)})`);
  let cx = x + 10;
  const cards = [];
  for (const c of CARD_ORDER) for (let k = 0; k < (arm.hand[c] || 0); k++) cards.push(c);
  const step = Math.min(52, (w - 24) / Math.max(1, cards.length + (arm.unknown_hand || 0)));
  for (const c of cards) { drawCard(ctx, g, a, c, cx, y + 64, "hand"); cx += step; }
  for (let k = 0; k < (arm.unknown_hand || 0); k++) { drawCardBack(g, a, cx, y + 64); cx += step; }
  if (!cards.length && !arm.unknown_hand) el("text", { x: x + 12, y: y + 100, "font-size": 12, fill: "#777" }, g, "empty");
  // deck: for the opponent of a view, `deck` is the pool of deck and unknown hand
  const deckCount = viewerKnows ? count(arm.deck) : count(arm.deck) - (arm.unknown_hand || 0);
  const lines = [
    ["deck", `${deckCount} card${deckCount === 1 ? "" : "s"}` + (viewerKnows ? `: ${listed(arm.deck)}` : ` (face down; with the hand: ${listed(arm.deck)})`)],
    ["discard", `${count(arm.discard)}: ${listed(arm.discard)}`],
    ["play area", `${count(arm.play)}: ${listed(arm.play)}`],
    ["removed", `${count(arm.removed)}: ${listed(arm.removed)}`],
  ];
  lines.forEach(([k, text], i) => {
    const ty = y + 150 + i * 17;
    el("text", { x: x + 10, y: ty, "font-size": 12, "font-weight": 600 }, g, k);
    const t = el("text", { x: x + 78, y: ty, "font-size": 12 }, g, clip(text, 58));
    tip(t, `${k}: ${text}`);
  });
  drawSupply(ctx, g, a, x, y + 226, w);
}

function clip(text, n) { return text.length > n ? text.slice(0, n - 1) + "…" : text; }

// The supply as one small card per kind with its count; while bolstering,
// the cards that can be taken are clickable (the card is the selection).
function drawSupply(ctx, g, a, x, y, w) {
  const arm = ctx.v.armies[a];
  el("text", { x: x + 10, y: y - 4, "font-size": 12, "font-weight": 600 }, g, `supply (${count(arm.supply)})`);
  let cx = x + 10;
  for (const c of CARD_ORDER) {
    const n = arm.supply[c] || 0;
    if (!n) continue;
    const takeable = a === ctx.army && ctx.v.phase === "bolster" && ctx.moves.some((m) => m === `bolster:${c}`);
    const cg = el("g", { "data-supply": c }, g);
    const r = el("rect", { x: cx, y, width: 46, height: 40, rx: 3, fill: "#fff", stroke: "#888" }, cg);
    el("text", { x: cx + 23, y: y + 15, "font-size": 10.5, "text-anchor": "middle" }, cg, c);
    el("text", { x: cx + 23, y: y + 32, "font-size": 13, "text-anchor": "middle", "font-weight": 700 }, cg, `×${n}`);
    tip(cg, `${n} ${CARDS[c][0]} in the supply`);
    if (takeable) {
      r.classList.add("clickable");
      if (ctx.selected === c) r.classList.add("sel");
      cg.classList.add("clickable");
      cg.addEventListener("click", () => ctx.select(c));
    }
    cx += 50;
    if (cx > x + w - 50) break;
  }
}

function drawCard(ctx, g, a, c, x, y, zone) {
  const playable = a === ctx.army && ctx.interactive && ctx.moves.some((m) => belongs(m, c));
  const cg = el("g", { "data-card": c, "data-zone": zone }, g);
  const r = el("rect", { x, y, width: 48, height: 68, rx: 4, fill: "#fffdf5", stroke: ARMY[a].color, "stroke-width": 1.5 }, cg);
  el("rect", { x: x + 3, y: y + 3, width: 16, height: 16, rx: 8, fill: ARMY[a].color }, cg);
  el("text", { x: x + 11, y: y + 15, "font-size": 11, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, cg,
     String(CARDS[c] ? CARDS[c][1] : "?"));
  const [l1, l2] = cardLines(c);
  el("text", { x: x + 24, y: y + 38, "font-size": 10, "text-anchor": "middle", "font-weight": 600 }, cg, l1);
  el("text", { x: x + 24, y: y + 51, "font-size": 10, "text-anchor": "middle" }, cg, l2);
  tip(cg, `${CARDS[c] ? CARDS[c][0] : c} (initiative ${CARDS[c] ? CARDS[c][1] : "?"})`);
  if (ctx.selected === c && a === ctx.army) r.classList.add("sel");
  if (playable) {
    cg.classList.add("clickable");
    cg.addEventListener("click", () => ctx.select(c));
  }
}

// A card's name in two short lines: "Rifle" / "man A".
function cardLines(c) {
  const short = { fog: ["Fog of", "War"], mortar: ["Mortar", ""], mg: ["Machine", "Gunner"], sniper: ["Sniper", ""],
                  guide: ["Platoon", "Guide"], psgt: ["Platoon", "Sergeant"] };
  if (short[c]) return short[c];
  const grp = c.slice(-1);
  if (c.startsWith("rif")) return ["Rifleman", grp];
  if (c.startsWith("scout")) return ["Scout", grp];
  if (c.startsWith("sl_")) return ["Squad Ldr", grp];
  return [c, ""];
}

function drawCardBack(g, a, x, y) {
  const cg = el("g", { "data-card": "hidden" }, g);
  el("rect", { x, y, width: 48, height: 68, rx: 4, fill: ARMY[a].color, stroke: "#222" }, cg);
  el("rect", { x: x + 5, y: y + 5, width: 38, height: 58, rx: 3, fill: "none", stroke: "#fff", "stroke-dasharray": "3 2" }, cg);
  el("text", { x: x + 24, y: y + 40, "font-size": 16, "text-anchor": "middle", fill: "#fff" }, cg, "?");
  tip(cg, "a card in the opponent's hand, face down");
}

// --- key ---------------------------------------------------------------------------------
// The key flows left to right and wraps: each item is a symbol and its words,
// measured once drawn (the SVG is in the page, so text lengths are known).
function drawLegend(ctx, x, y, width) {
  const g = el("g", { "data-legend": "1", "font-size": 11.5 }, ctx.svg);
  el("text", { x, y: y + 12, "font-weight": 700 }, g, "Key");
  const key = flowKey(g, { x, y, width, indent: 34, swatch: 22, row: 21, baseline: 12 });
  const item = key.item;
  for (const [c, label] of [[0, "cover 0 (open)"], [1, "cover 1"], [2, "cover 2"], [3, "cover 3"],
                            ["hill", "hill: cover 3, or 1 against a hill or Explode"]]) {
    item((px, py) => el("rect", { x: px, y: py, width: 16, height: 16, fill: COVER_FILL[c], stroke: "#6b6148" }, g), label);
  }
  item((px, py) => el("path", { d: `M${px} ${py} h14 v6 q0 6 -7 9 q-7 -3 -7 -9 z`, fill: "#fff", stroke: "#6b6148" }, g),
       "cover value");
  item((px, py) => el("circle", { cx: px + 8, cy: py + 8, r: 8, fill: "#e8b923", stroke: "#5a4a10" }, g),
       "objective points (in an army's colour: it controls the tile)");
  for (let a = 0; a < 2; a++) {
    item((px, py) => { el("rect", { x: px, y: py + 1, width: 18, height: 14, rx: 2, fill: ARMY[a].color }, g); },
         `${ARMY[a].long} token / card`);
  }
  item((px, py) => {
    el("rect", { x: px, y: py + 1, width: 18, height: 14, rx: 2, fill: "#fff", stroke: ARMY[0].color, "stroke-width": 2 }, g);
    el("path", { d: `M${px + 1} ${py + 14} L${px + 17} ${py + 2}`, stroke: "#b22" }, g);
  }, "suppressed token");
  item((px, py) => {
    el("rect", { x: px, y: py + 1, width: 16, height: 14, rx: 2, fill: ARMY[0].color }, g);
    el("text", { x: px + 8, y: py + 12, fill: "#fff", "text-anchor": "middle", "font-weight": 700 }, g, "C");
  }, "controlled");
  item((px, py) => {
    el("rect", { x: px, y: py + 1, width: 16, height: 14, rx: 2, fill: "#fff", stroke: ARMY[0].color, "stroke-width": 2 }, g);
    el("text", { x: px + 8, y: py + 12, fill: ARMY[0].color, "text-anchor": "middle", "font-weight": 700 }, g, "s");
  }, "scouted (US marker bottom left, German bottom right)");
  item((px, py) => el("circle", { cx: px + 8, cy: py + 8, r: 7, fill: "#fff", stroke: "#b22", "stroke-width": 2 }, g),
       "Mortar Target marker");
  item((px, py) => {
    el("rect", { x: px, y: py, width: 14, height: 17, rx: 2, fill: "#fffdf5", stroke: "#555" }, g);
    el("text", { x: px + 7, y: py + 13, "text-anchor": "middle", "font-size": 10, "font-weight": 700 }, g, "5");
  }, "card face up: its initiative number");
  item((px, py) => el("rect", { x: px, y: py, width: 14, height: 17, rx: 2, fill: ARMY[1].color }, g),
       "card face down (not in your view)");
  item(() => {}, "Rif = Rifleman, Sct = Scout, Mort = Mortar, MG = Machine Gunner, Snip = Sniper; " +
       "cards by notation (rifA, sl_A Squad Leader A, psgt Platoon Sergeant, guide Platoon Guide, fog Fog of War)");
  if (layout(ctx.v.tiles).lines) item(() => {}, "dashed lines join adjacent tiles (this map cannot be laid out touching)");
  return key.bottom() - y;
}
