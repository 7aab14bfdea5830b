// The page that plays the bot. The rules live in the Go server: the page
// keeps the record (start position + pit numbers), asks POST /api/state for
// the position each record reaches (legal moves, stores, result) and POST
// /api/move for the bot's moves. It draws the board from those answers.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const S = {
  info: null,   // GET /api/info
  game: "",     // game name
  human: "w",   // the person's side
  views: [],    // views[i]: the position after i moves (see View in bot/state.go)
  busy: false,  // a request is running
  gen: 0,       // bumped by new game: late answers of the old game are dropped
  hint: 0,      // pit suggested by hint, 0 for none
};

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const resp = await fetch(path, opts);
  let data = null;
  try { data = await resp.json(); } catch (e) { /* not JSON: reported below */ }
  if (!resp.ok) {
    throw new Error((data && data.error) || (resp.status + " " + resp.statusText));
  }
  return data;
}

const cur = () => S.views[S.views.length - 1];
const other = (p) => (p === "w" ? "b" : "w");
const sideName = (p) => (p === "w" ? "white" : "black");

async function init() {
  try {
    S.info = await api("/api/info");
  } catch (e) {
    message("can't reach the server: " + e.message);
    return;
  }
  $("agent").textContent = "bot: " + S.info.agent + cardText(S.info.card);
  const sel = $("game");
  for (const g of S.info.games) {
    const opt = document.createElement("option");
    opt.value = g.name;
    opt.textContent = g.title;
    sel.appendChild(opt);
  }
  if (S.info.games.some((g) => g.name === "togyz")) sel.value = "togyz";
  sel.addEventListener("change", newGame);
  $("side").addEventListener("change", newGame);
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  await newGame();
}

// cardText sums up a model card (net.Card): iteration and search size.
function cardText(card) {
  if (!card || typeof card !== "object") return "";
  const parts = [];
  if (card.iteration !== undefined) parts.push("iteration " + card.iteration);
  const sims = (card.search && card.search.sims) || card.sims;
  if (sims) parts.push(sims + " simulations a move");
  return parts.length ? " (" + parts.join(", ") + ")" : "";
}

async function newGame() {
  const gen = ++S.gen;
  S.game = $("game").value;
  S.human = $("side").value;
  S.hint = 0;
  message("");
  $("botmove").textContent = "";
  $("hinttext").textContent = "";
  setEval(null);
  try {
    const v = await api("/api/state", { game: S.game, position: "start", moves: [] });
    if (gen !== S.gen) return;
    S.views = [v];
  } catch (e) {
    message(e.message);
    return;
  }
  S.busy = false;
  render();
  await botTurn(gen);
}

// play sows the person's pit: the server checks the move and returns the
// position after it; then the bot answers.
async function play(pit) {
  const v = cur();
  if (S.busy || v.over || v.to_move !== S.human || !v.legal.includes(pit)) return;
  const gen = S.gen;
  S.busy = true;
  S.hint = 0;
  $("hinttext").textContent = "";
  message("");
  try {
    const next = await api("/api/state", { game: S.game, position: "start", moves: [...v.moves, pit] });
    if (gen !== S.gen) return;
    S.views.push(next);
  } catch (e) {
    message(e.message);
  } finally {
    if (gen === S.gen) S.busy = false;
  }
  render();
  await botTurn(gen);
}

// botTurn asks for the bot's moves while it is the bot's turn (in
// mangala a move into the store keeps the turn).
async function botTurn(gen) {
  while (gen === S.gen && !cur().over && cur().to_move !== S.human) {
    S.busy = true;
    render();
    try {
      const r = await api("/api/move", { game: S.game, position: "start", moves: cur().moves });
      if (gen !== S.gen) return;
      S.views.push(r.state);
      $("botmove").textContent = "Bot played pit " + r.move + " — " + evalText(r);
      setEval(r.win_prob);
    } catch (e) {
      if (gen === S.gen) message("the bot failed: " + e.message);
      break;
    } finally {
      if (gen === S.gen) S.busy = false;
    }
  }
  if (gen === S.gen) render();
}

function evalText(r) {
  let t = "its chance " + Math.round(100 * r.win_prob) + "%, value " + signed(r.value);
  if (r.depth) t += ", depth " + r.depth;
  else if (r.nodes) t += ", " + r.nodes + " simulations";
  return t;
}

const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(2);

// undo takes back the person's last move and the bot's replies after it.
function undo() {
  if (S.busy) return;
  const humanMoved = S.views.slice(0, -1).some((v) => v.to_move === S.human);
  if (!humanMoved) {
    message("nothing to undo");
    return;
  }
  while (S.views.length > 1) {
    const mover = S.views[S.views.length - 2].to_move;
    S.views.pop();
    if (mover === S.human) break;
  }
  S.hint = 0;
  message("");
  $("hinttext").textContent = "";
  $("botmove").textContent = "";
  render();
}

// hint asks the bot which move it would play for the person.
async function hint() {
  const v = cur();
  if (S.busy || v.over || v.to_move !== S.human) return;
  const gen = S.gen;
  S.busy = true;
  render();
  try {
    const r = await api("/api/move", { game: S.game, position: "start", moves: v.moves });
    if (gen !== S.gen) return;
    S.hint = r.move;
    $("hinttext").textContent = "Hint: pit " + r.move + " (your chance " + Math.round(100 * r.win_prob) + "%)";
  } catch (e) {
    message(e.message);
  } finally {
    if (gen === S.gen) S.busy = false;
  }
  render();
}

function message(text) { $("message").textContent = text; }

function setEval(p) {
  $("evalfill").style.width = p == null ? "50%" : Math.round(100 * p) + "%";
  $("evaltext").textContent = p == null ? "–" : Math.round(100 * p) + "%";
}

function render() {
  const v = cur();
  if (!v) return;
  drawBoard(v);
  renderTurn(v);
  renderRecord();
  $("undo").disabled = S.busy;
  $("hint").disabled = S.busy || v.over || v.to_move !== S.human;
}

function renderTurn(v) {
  let t;
  if (v.over) {
    const verdict = v.winner === "draw" ? "a draw" : v.winner === S.human ? "you win!" : "the bot wins";
    t = "Game over, " + v.result + ": " + verdict + " (stores " + v.stores[0] + " : " + v.stores[1] + ")";
  } else if (v.to_move === S.human) {
    t = "Your move (" + sideName(S.human) + ")";
  } else {
    t = "The bot is thinking…";
  }
  $("turn").textContent = t;
}

function renderRecord() {
  const ol = $("record");
  ol.replaceChildren();
  for (let i = 1; i < S.views.length; i++) {
    const mover = S.views[i - 1].to_move;
    const li = document.createElement("li");
    li.textContent = sideName(mover) + " " + S.views[i].moves[i - 1];
    if (mover !== S.human) li.className = "bot";
    ol.appendChild(li);
  }
}

// Board geometry, in SVG units. The person's row is at the bottom, pits
// numbered from their left; the other row runs the other way, as seen
// across the board. Mangala's stores sit at the ends (each after its
// owner's pit 6); togyz's kazans lie between the rows.
function drawBoard(v) {
  const n = v.pits[0].length;
  const togyz = v.game === "togyz";
  const pw = togyz ? 78 : 100;          // pit pitch
  const rx = togyz ? 31 : 40, ry = togyz ? 52 : 40;
  const side = togyz ? 40 : 130;        // room at each end
  const midH = togyz ? 110 : 40;        // band between the rows
  const rowH = 2 * ry + 50;             // row with its labels
  const W = 2 * side + n * pw;
  const H = 2 * rowH + midH + 20;
  const svg = $("board");
  svg.setAttribute("viewBox", "0 0 " + W + " " + H);
  svg.replaceChildren();
  svg.appendChild(el("rect", { class: "frame", x: 2, y: 2, width: W - 4, height: H - 4, rx: 40 }));

  const me = S.human, opp = other(me);
  const idx = (p) => (p === "w" ? 0 : 1);
  const topY = 10 + 25 + ry, botY = H - 10 - 25 - ry;
  const lastPit = S.views.length > 1 ? v.moves[v.moves.length - 1] : 0;
  const lastMover = S.views.length > 1 ? S.views[S.views.length - 2].to_move : "";
  for (let i = 1; i <= n; i++) {
    const xb = side + (i - 0.5) * pw;             // bottom row: my pit i from the left
    const xt = side + (n - i + 0.5) * pw;         // top row: their pit i from their left
    drawPit(svg, v, me, i, xb, botY, rx, ry, botY + ry + 16, lastMover === me && lastPit === i);
    drawPit(svg, v, opp, i, xt, topY, rx, ry, topY - ry - 16, lastMover === opp && lastPit === i);
  }
  if (togyz) {
    const kw = (n * pw) / 2 - 20, cy = H / 2;
    drawStore(svg, v.stores[idx(opp)], side + kw / 2 + 10, cy, kw / 2, 38, "kazan " + sideName(opp), opp === v.to_move && !v.over);
    drawStore(svg, v.stores[idx(me)], W - side - kw / 2 - 10, cy, kw / 2, 38, "kazan " + sideName(me), me === v.to_move && !v.over);
  } else {
    const sh = (H - 80) / 2;
    drawStore(svg, v.stores[idx(opp)], side / 2 + 5, H / 2, 50, sh, "store " + sideName(opp), opp === v.to_move && !v.over);
    drawStore(svg, v.stores[idx(me)], W - side / 2 - 5, H / 2, 50, sh, "store " + sideName(me), me === v.to_move && !v.over);
  }
}

// drawPit draws one pit of player p; its owner's opponent may have made it
// a tuzdyk or castle (v.special of the other player names it).
function drawPit(svg, v, p, pit, x, y, rx, ry, labelY, last) {
  const row = v.pits[p === "w" ? 0 : 1];
  const count = row[pit - 1];
  const taker = other(p);
  const special = v.special[taker === "w" ? 0 : 1] === pit;
  const legal = !S.busy && !v.over && p === S.human && v.to_move === S.human && v.legal.includes(pit);
  const cls = ["pit"];
  if (legal) cls.push("legal");
  if (last) cls.push("last");
  if (special) cls.push("special");
  if (S.hint === pit && p === S.human) cls.push("hint");
  const g = el("g", { class: cls.join(" "), id: "pit-" + p + "-" + pit, "data-count": count });
  const title = el("title", {});
  title.textContent = sideName(p) + " pit " + pit + ": " + count + " stones" +
    (special ? " — " + (v.game === "togyz" ? "tuzdyk" : "castle") + " of " + sideName(taker) : "");
  g.appendChild(title);
  g.appendChild(el("ellipse", { cx: x, cy: y, rx: rx, ry: ry }));
  drawStones(g, count, x, y, rx, ry);
  g.appendChild(el("circle", { class: "badge", cx: x, cy: y, r: 14 }));
  g.appendChild(el("text", { class: "count", x: x, y: y }, String(count)));
  if (special) g.appendChild(el("text", { class: "mark", x: x, y: y + ry - 10 }, "X"));
  svg.appendChild(g);
  svg.appendChild(el("text", { class: "label", x: x, y: labelY }, String(pit)));
  if (legal) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.addEventListener("click", () => play(pit));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") play(pit); });
  }
}

// drawStones scatters up to 40 stones in a fixed pattern over the pit,
// around the badge that shows the count.
function drawStones(g, count, x, y, rx, ry) {
  const shown = Math.min(count, 40);
  const n = Math.max(shown, 8);
  for (let k = 0; k < shown; k++) {
    const a = k * 2.39996 + 0.5;           // golden angle: an even spread
    const r = 0.42 + 0.5 * Math.sqrt((k + 0.5) / n);
    g.appendChild(el("circle", {
      class: "stone", r: 5,
      cx: (x + Math.cos(a) * r * (rx - 5)).toFixed(1),
      cy: (y + Math.sin(a) * r * (ry - 5)).toFixed(1),
    }));
  }
}

function drawStore(svg, count, x, y, rx, ry, label, toMove) {
  const g = el("g", { class: "store", id: "store-" + label.split(" ")[1] });
  g.appendChild(el("ellipse", { cx: x, cy: y, rx: rx, ry: ry }));
  g.appendChild(el("text", { class: "count", x: x, y: y }, String(count)));
  svg.appendChild(g);
  svg.appendChild(el("text", { class: "storelabel" + (toMove ? " tomove" : ""), x: x, y: y + ry + 16 }, label));
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

document.addEventListener("DOMContentLoaded", init);
