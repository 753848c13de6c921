// The browser side of `ardsearch serve`. It never names a game: the games come
// from /api/games and each game's drawing code from /games/<name>/board.js,
// which exports render(element, snapshot, ui).
//
// ui, for the board: ui.play(move) plays a move in notation; ui.offer(moves)
// shows those legal moves as buttons (after a click on a unit or a square);
// ui.selected is the board's current selection, kept across redraws.

const $ = (id) => document.getElementById(id);
let catalogue = null;
let socket = null;
let snap = null;            // the latest state snapshot of the open table
let lastHint = null;        // {table, ply, wp}: the newest hint's estimate, for the bar
let boardModule = null;     // the open game's board.js
let viewing = null;         // a past position shown by jump-to-ply, or null
const ui = { selected: null, play: (m) => send({ type: "move", table: snap.table, move: m }), offer };

function send(msg) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// --- the start page --------------------------------------------------------------
async function loadCatalogue() {
  catalogue = await (await fetch("/api/games")).json();
  const games = $("game");
  for (const g of catalogue.games) games.add(new Option(`${g.title} (${g.name})`, g.name));
  const opp = $("opponent");
  // the difficulty levels first, by name (weakest first), then the other presets
  const levels = document.createElement("optgroup");
  levels.label = "Difficulty levels";
  for (const l of catalogue.levels || []) {
    levels.appendChild(new Option(`${l.title} (${l.name})`, l.name));
  }
  if (levels.children.length) opp.appendChild(levels);
  const others = document.createElement("optgroup");
  others.label = "Bot presets";
  for (const b of catalogue.bots) others.appendChild(new Option(`${b.name}: ${b.description}`, b.name));
  opp.appendChild(others);
  opp.value = catalogue.bots.some((b) => b.name === "mcts-fast") ? "mcts-fast" : catalogue.bots[0].name;
  opp.addEventListener("change", levelShown);
  games.addEventListener("change", levelShown);
  games.addEventListener("change", gameChosen);
  $("side").addEventListener("change", () => { $("speed-label").hidden = $("side").value !== "watch"; });
  gameChosen();
}

// A level's description and its measured Elo in the chosen game, as the select's tooltip
// (and, where its ladder did not rise, the weaker level it was not measured stronger than).
function levelShown() {
  const opp = $("opponent");
  const l = (catalogue.levels || []).find((x) => x.name === opp.value);
  const game = $("game").value;
  const elo = l && l.elo[game];
  const weaker = l && l.not_stronger && l.not_stronger[game];
  opp.title = l ? `${l.description}${elo !== undefined ? ` Measured Elo in this game: ${elo} (random = 0).` : ""}` +
    (weaker ? ` Not measured stronger than ${weaker} in this game.` : "") : "";
}

function currentGame() { return catalogue.games.find((g) => g.name === $("game").value); }

function gameChosen() {
  const g = currentGame();
  const side = $("side");
  side.innerHTML = "";
  g.titles.forEach((t, i) => side.add(new Option(t, String(i))));
  side.add(new Option("watch (bot against bot)", "watch"));
  const box = $("params");
  box.innerHTML = "";
  for (const p of g.params) {
    const label = document.createElement("label");
    label.title = p.meaning;
    label.append(`${p.name} `);
    let input;
    if (p.choices) {
      input = document.createElement("select");
      for (const c of p.choices) input.add(new Option(String(c), String(c)));
    } else if (p.type === "bool") {
      input = document.createElement("select");
      input.add(new Option("false", "false")); input.add(new Option("true", "true"));
    } else {
      input = document.createElement("input");
      input.type = p.type === "str" ? "text" : "number";
      if (p.min !== null) input.min = p.min;
      if (p.max !== null) input.max = p.max;
    }
    input.value = String(p.default);
    input.dataset.param = p.name;
    label.append(input);
    box.append(label);
  }
}

function startGame(ev) {
  ev.preventDefault();
  const g = currentGame();
  const params = {};
  for (const input of $("params").querySelectorAll("[data-param]")) {
    const p = g.params.find((q) => q.name === input.dataset.param);
    if (String(p.default) !== input.value) params[p.name] = input.value;
  }
  const side = $("side").value;
  const opp = $("opponent").value;
  const msg = { type: "new", game: g.name, params };
  if (side === "watch") {
    msg.seats = [opp, opp];
    msg.audience = "full";
    msg.speed = $("watch-speed").value;
  } else {
    msg.seats = side === "0" ? ["human", opp] : [opp, "human"];
  }
  const seed = $("seed").value.trim();
  if (seed !== "") msg.seed = Number(seed);
  send(msg);
}

// --- a game on the table ------------------------------------------------------------
let boardReady = null;      // the open game's board.js, loading or loaded

async function showTable(s) {
  const fresh = !snap || snap.table !== s.table;
  snap = s;
  viewing = null;
  // an undo below the hint's ply makes it an estimate of a position gone
  if (lastHint && (lastHint.table !== s.table || s.history.length < lastHint.ply)) lastHint = null;
  if (fresh) {
    ui.selected = null;
    $("pause").textContent = "Pause";      // a new table starts unpaused
    $("setup").hidden = true;
    $("table").hidden = false;
    $("analysis").innerHTML = '<p class="note">The bot\'s top moves appear here.</p>';
    boardModule = null;
    boardReady = import(`/games/${s.game}/board.js`).catch(() => null);
    loadLegend(s.game);
  }
  // Every state waits for the board module (a state that arrives while it
  // loads must not draw the text fallback over the board), and only the
  // newest state draws.
  const module = await boardReady;
  if (snap !== s) return;
  boardModule = module;
  draw();
}

// A difficulty level is shown by its name ("beginner (level-1)"), other bots by their preset.
function botLabel(name) {
  const l = ((catalogue && catalogue.levels) || []).find((x) => x.name === name);
  return l ? `${l.title} (${l.name})` : name;
}

function draw() {
  const s = snap;
  const watching = s.audience === "full";
  $("game-title").textContent = s.title;
  $("seed-shown").textContent = `seed ${s.seed}`;
  const names = s.seats.map((x) => `${x.title}: ${x.kind === "human" ? "you" : botLabel(x.name)}`).join(" · ");
  let status = names + " — ";
  if (s.outcome) status += `Game over: ${s.outcome.sentence}`;
  else if (s.your_turn) status += "your move";
  else if (s.to_move === -1) status += "chance…";
  else status += `${s.seats[s.to_move].title} to move`;
  $("status").textContent = status;
  renderBoard(s.view, s.board_text, s);
  const typed = $("move-input");
  typed.hidden = !s.your_turn;
  const list = $("legal-list");
  list.innerHTML = "";
  for (const m of s.legal) list.append(new Option(m));
  if (!s.your_turn) $("candidates").innerHTML = "";
  else offer(ui.selected ? s.legal.filter((m) => boardOwns(m)) : []);
  $("undo").disabled = !s.can_undo || watching;
  $("hint").disabled = !s.your_turn;
  $("stop").disabled = !s.thinking;
  $("pause").hidden = !watching;
  $("speed").hidden = !watching;
  $("thinking").hidden = !s.thinking;
  drawHistory(s.history);
  drawWinProbability(s.wp, s);
}

function boardOwns(move) {
  return boardModule && boardModule.belongs ? boardModule.belongs(move, ui.selected) : false;
}

function renderBoard(view, text, s) {
  const el = $("board");
  el.innerHTML = "";
  if (boardModule && boardModule.render) {
    try {
      boardModule.render(el, { ...s, view, board_text: text, past: viewing !== null }, ui);
      return;
    } catch (err) {
      console.error(err);
    }
  }
  const pre = document.createElement("pre");
  pre.className = "board-text";
  pre.textContent = text;
  el.append(pre);
}

// The legal moves the board's selection allows, as buttons; all of them when
// the board offers none (every move can always be played from here or typed).
function offer(moves) {
  const box = $("candidates");
  box.innerHTML = "";
  if (!snap || !snap.your_turn) return;
  const shown = moves && moves.length ? moves : snap.legal;
  const head = document.createElement("div");
  head.className = "note";
  const n = shown.length;
  head.textContent = moves && moves.length ? `${n} move${n === 1 ? "" : "s"} for the selection:` :
    n === 1 ? "1 legal move:" : `${n} legal moves (click the board to narrow them):`;
  box.append(head);
  for (const m of shown.slice(0, 200)) {
    const b = document.createElement("button");
    b.className = "move";
    b.textContent = m;
    b.addEventListener("click", () => ui.play(m));
    box.append(b);
  }
  if (shown.length > 200) box.append(` … and ${shown.length - 200} more: type one`);
}

function drawHistory(history) {
  const ol = $("history");
  ol.innerHTML = "";
  const start = document.createElement("li");
  start.textContent = "start";
  start.className = "ply";
  start.addEventListener("click", () => send({ type: "jump", table: snap.table, ply: 0 }));
  ol.append(start);
  for (const h of history) {
    const li = document.createElement("li");
    li.className = "ply" + (h.player < 0 ? " chance" : "");
    const who = h.player < 0 ? "chance" : snap.seats[h.player].title;
    li.textContent = `${h.ply}. ${who}: ${h.move}` + (h.wp !== undefined ? `  (${Math.round(h.wp * 100)}%)` : "");
    li.title = "show the position after this event";
    li.addEventListener("click", () => send({ type: "jump", table: snap.table, ply: h.ply }));
    ol.append(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

// The bar shows the newest estimate there is: a bot's (seat 0's curve, after
// its move) or the hint's (the asker's own chance, at the ply it was asked).
// Before either there is none, and the bar says so rather than a made-up 50%.
function drawWinProbability(curve, s) {
  let at = -1;
  curve.forEach((x, i) => { if (x !== null) at = i; });
  const who = s.audience === "full" ? s.seats[0].title : "you";
  let mine = null, source = "";
  if (at >= 0) {
    mine = s.audience === 1 ? 1 - curve[at] : curve[at];
    source = `bot, after move ${at + 1}`;
  }
  if (lastHint && lastHint.table === s.table && lastHint.ply > at && lastHint.ply <= curve.length) {
    mine = lastHint.wp;
    source = `hint at move ${lastHint.ply + 1}`;
  }
  $("wp-bar").classList.toggle("unknown", mine === null);
  $("wp-fill").style.width = `${mine === null ? 0 : Math.round(mine * 100)}%`;     // no half-filled bar for "unknown"
  $("wp-text").textContent = mine === null ? `${who}: no estimate yet` : `${who}: ${Math.round(mine * 100)}% (${source})`;
  const tip = mine === null ? "The bot gives an estimate with each move it searches; so does Hint." : "";
  $("wp-bar").title = tip;
  $("wp-text").title = tip;
  const svg = $("wp-chart");
  const pts = [];
  curve.forEach((x, i) => { if (x !== null) pts.push(`${(i / Math.max(1, curve.length - 1)) * 300},${80 - (s.audience === 1 ? 1 - x : x) * 80}`); });
  svg.innerHTML = '<line x1="0" y1="40" x2="300" y2="40" class="mid"/>' +
    (pts.length ? `<polyline points="${pts.join(" ")}" class="curve"/>` : "");
}

function drawAnalysis(msg) {
  const info = msg.info;
  if (!info) return;
  if (msg.kind === "hint" && snap && snap.table === msg.table) {
    // a hint searches the asker's own move, so its wp is the asker's chance
    lastHint = { table: msg.table, ply: snap.history.length, wp: info.wp };
    drawWinProbability(snap.wp, snap);
  }
  const box = $("analysis");
  const title = msg.kind === "hint" ? "Hint (from what you can see)" : "Bot's search";
  if (info.book) {
    // a move from the game's book (Mortain's historical US setup) had no search to show
    box.innerHTML = `<p><b>${title}</b>: ${esc(info.move)} — win probability ${Math.round(info.wp * 100)}%, ` +
      `from the game's book, not a search (the game's rules say which positions it holds)</p>`;
    return;
  }
  let html = `<p><b>${title}</b>: ${esc(info.move)} — win probability ${Math.round(info.wp * 100)}%, ` +
    `${info.nodes} nodes, ${info.time}s</p><table><tr><th>move</th><th>visits</th><th>value</th></tr>`;
  for (const t of info.top) html += `<tr><td>${esc(t.move)}</td><td>${t.visits === null ? "–" : t.visits}</td><td>${esc(t.value_text)}</td></tr>`;
  html += "</table>";
  if (info.pv.length) html += `<p class="pv">line: ${info.pv.map(esc).join(" ")}</p>`;
  box.innerHTML = html;
}

function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

async function loadLegend(game) {
  const text = await (await fetch(`/api/rules/${game}`)).text();
  const start = text.indexOf("## Reading the board");
  let legend = "This game's rules have no legend section.";
  if (start >= 0) {
    const end = text.indexOf("\n## ", start + 3);
    legend = text.slice(start, end > 0 ? end : undefined).trim();
  }
  $("legend").textContent = legend;
}

function event(text) {
  const box = $("events");
  const p = document.createElement("div");
  p.textContent = text;
  box.prepend(p);
  while (box.childNodes.length > 6) box.lastChild.remove();
}

// --- the connection -------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${proto}://${location.host}/ws`);
  socket.onopen = () => { $("connection").textContent = "connected"; $("connection").className = "pill ok"; };
  socket.onclose = () => {
    $("connection").textContent = "disconnected (reload the page)";
    $("connection").className = "pill bad";
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      const before = snap && snap.table === msg.table ? snap.history.length : 0;
      for (const h of msg.history.slice(before)) {
        if (h.player < 0) event(`chance: ${h.move}`);
        else if (msg.seats[h.player].kind !== "human") event(`${msg.seats[h.player].title} plays ${h.move}`);
      }
      showTable(msg);
    } else if (msg.type === "analysis") drawAnalysis(msg);
    else if (msg.type === "thinking") {
      if (snap) { snap.thinking = msg.on; $("thinking").hidden = !msg.on; $("stop").disabled = !msg.on; }
      $("thinking-text").textContent = msg.what === "hint" ? "thinking about a hint…" : "the bot is thinking…";
    } else if (msg.type === "position") {
      viewing = msg.ply;
      renderBoard(msg.view, msg.board_text, snap);
      $("status").textContent = `position after event ${msg.ply} of ${snap.history.length} (click the last event or make a move to come back)`;
    } else if (msg.type === "record") {
      const blob = new Blob([msg.text + "\n"], { type: "application/json" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `${snap.game}-${snap.seed}.jsonl`;
      a.click();
    } else if (msg.type === "error") showError(msg.message);
  };
}

function wire() {
  $("new-game").addEventListener("submit", startGame);
  $("play-typed").addEventListener("click", () => { const m = $("notation").value.trim(); if (m) ui.play(m); $("notation").value = ""; });
  $("notation").addEventListener("keydown", (e) => { if (e.key === "Enter") $("play-typed").click(); });
  $("undo").addEventListener("click", () => send({ type: "undo", table: snap.table }));
  $("hint").addEventListener("click", () => send({ type: "hint", table: snap.table }));
  $("stop").addEventListener("click", () => send({ type: "stop", table: snap.table }));
  $("save").addEventListener("click", () => send({ type: "save", table: snap.table }));
  $("pause").addEventListener("click", () => {
    const paused = $("pause").textContent === "Resume";
    send(paused ? { type: "resume", table: snap.table, speed: $("speed").value } : { type: "pause", table: snap.table });
    $("pause").textContent = paused ? "Pause" : "Resume";
  });
  $("speed").addEventListener("change", () => send({ type: "speed", table: snap.table, speed: $("speed").value }));
  $("new").addEventListener("click", () => {
    if (snap) send({ type: "close", table: snap.table });
    snap = null; $("table").hidden = true; $("setup").hidden = false;
  });
  $("load-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) send({ type: "load", record: (await file.text()).trim().split("\n")[0] });
  });
}

wire();
connect();
loadCatalogue();
