// The page that plays the bot. The rules live in Go: the page keeps the
// record (a start position and pit numbers), asks POST /api/state for the
// position each record reaches (legal moves, stores, result, the moves in
// notation) and POST /api/move for the bot's moves and evaluations. The
// API is kumalak serve's, or, on the static site of kumalak web (site.js
// says which), the same API answered by the wasm bot in a Web Worker
// (static.js). board.js draws; analysis.js steps through a game.
"use strict";

const $ = (id) => document.getElementById(id);
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

const S = {
  info: null,      // GET /api/info
  game: "",        // game name
  human: "w",      // the person's side
  start: "start",  // the position string the record starts from
  views: [],       // views[i]: the position after i moves (View in bot/web/state.go)
  busy: false,     // a request or an animation is running
  gen: 0,          // bumped by a new game: late answers of the old one are dropped
  hint: 0,         // pit suggested by hint, 0 for none
  changed: null,   // pits to flash, while a sowing is shown
  shown: null,     // the view drawn while a sowing is shown
  ana: null,       // analysis mode: {ply, evals} (analysis.js)
};

async function api(path, body) {
  if (KUMALAK_SITE) return siteAPI(path, body);
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
const pct = (p) => Math.round(100 * p) + "%";

async function init() {
  if (KUMALAK_SITE) message("loading the bot…");
  try {
    S.info = await api("/api/info");
  } catch (e) {
    message((KUMALAK_SITE ? "can't start the bot: " : "can't reach the server: ") + e.message);
    return;
  }
  message("");
  const sel = $("game");
  for (const g of S.info.games) {
    const opt = document.createElement("option");
    opt.value = g.name;
    opt.textContent = g.title;
    sel.appendChild(opt);
  }
  if (S.info.games.some((g) => g.name === "togyz")) sel.value = "togyz";
  describeGames();
  sel.addEventListener("change", () => { S.start = "start"; newGame(); });
  $("side").addEventListener("change", newGame);
  initLimits();
  initLevels();
  $("new").addEventListener("click", () => { S.start = "start"; newGame(); });
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("load").addEventListener("click", loadRecord);
  $("copy").addEventListener("click", copyRecord);
  initAnalysis();
  await newGame();
}

// describeGames writes the footer for the games the server serves: their
// rules and, where one has them, how tuzdyks (togyz) and castles
// (mangala-kale) are drawn.
function describeGames() {
  const names = S.info.games.map((g) => g.name);
  const kinds = [];
  if (names.includes("togyz")) kinds.push("tuzdyk (T)");
  if (names.includes("mangala-kale")) kinds.push("castle (K)");
  say("specials", kinds.length ? "A " + kinds.join(" or ") + " is drawn in its owner's colour: gold for white's, dark red for black's." : "");
  say("rules", "Games: " + S.info.games.map((g) => g.title).join(", ") + ".");
}

// recordExample is a record of the game in its notation, for the box's label.
const recordExample = (game) => (game === "togyz" ? "1. 76 98 2. 36x 45" : "3 6 1 (pit numbers)");

// showAgent names the bot of the game: its own when each game has its
// own (a model a game), else the server's.
function showAgent() {
  const g = S.info.games.find((x) => x.name === S.game) || {};
  $("agent").textContent = "bot: " + (g.agent || S.info.agent) + cardText(g.agent ? g.card : S.info.card) + levelText(g);
}

// initLimits offers the bot's search size: its own, simulations or time
// per move (the API's sims and time_ms, checked against its limits).
function initLimits() {
  const kind = $("limitkind"), val = $("limitval");
  const update = () => {
    val.hidden = kind.value === "";
    if (kind.value === "sims") { val.min = 1; val.max = S.info.limits.max_sims; val.step = 1; if (!val.value) val.value = 200; }
    if (kind.value === "time") { val.min = 0.01; val.max = S.info.limits.max_time_ms / 1000; val.step = 0.01; if (!val.value) val.value = 1; }
  };
  kind.addEventListener("change", () => { val.value = ""; update(); });
  update();
}

// limits returns the search size chosen, as fields of a move request.
function limits() {
  const v = Number($("limitval").value);
  if (!(v > 0)) return {};
  if ($("limitkind").value === "sims") return { sims: Math.min(Math.round(v), S.info.limits.max_sims) };
  if ($("limitkind").value === "time") return { time_ms: Math.min(Math.round(1000 * v), S.info.limits.max_time_ms) };
  return {};
}

// moveRequest asks for the bot's move after moves, at the search size
// chosen; at the level chosen when atLevel (the bot's own moves: hints
// and the analysis are at full strength).
function moveRequest(moves, atLevel) {
  const req = { game: S.game, position: S.start, moves: moves, ...limits() };
  const level = Number($("level").value);
  if (atLevel && level > 0) {
    delete req.sims;
    req.level = level;
  }
  return api("/api/move", req);
}

// initLevels offers the bot's strength levels (docs/PLAYING.md, Levels) when it
// plays them: 1, a beginner's, to the strongest, each titled with its
// measured rating where the game has one.
function initLevels() {
  if (!(S.info.levels > 0)) return;
  const sel = $("level");
  for (let n = 1; n <= S.info.levels; n++) {
    const opt = document.createElement("option");
    opt.value = String(n);
    opt.textContent = n === 1 ? "1 (beginner)" : String(n);
    sel.appendChild(opt);
  }
  $("levelbox").hidden = false;
  sel.addEventListener("change", showAgent);
}

// levelText names the level chosen, with its rating in the game when
// measured: ", level 3 (rated +417, random = 0)".
function levelText(g) {
  const n = Number($("level").value);
  if (!(n > 0)) return "";
  const elo = g.level_elo && g.level_elo[n - 1];
  return ", level " + n + (elo !== undefined ? " (rated " + (elo > 0 ? "+" : "") + elo + ", " + g.level_anchor + " = 0)" : "");
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

// newGame starts the game at S.start, the person playing the side chosen.
async function newGame() {
  const gen = ++S.gen;
  S.game = $("game").value;
  S.human = $("side").value;
  S.hint = 0;
  showAgent();
  say("recordeg", recordExample(S.game));
  leaveAnalysis(false);
  message("");
  say("botmove", "");
  say("hinttext", "");
  say("announce", "");
  setEval(null);
  try {
    const v = await api("/api/state", { game: S.game, position: S.start, moves: [] });
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
// position after it; the sowing is shown, then the bot answers.
async function play(pit) {
  const v = cur();
  if (S.busy || S.ana || v.over || v.to_move !== S.human || !v.legal.includes(pit)) return;
  const gen = S.gen;
  S.busy = true;
  S.hint = 0;
  say("hinttext", "");
  message("");
  try {
    const next = await api("/api/state", { game: S.game, position: S.start, moves: [...v.moves, pit] });
    if (gen !== S.gen) return;
    await showSowing(v, next, gen);
    S.views.push(next);
    announce(next, "You");
  } catch (e) {
    message(e.message);
  } finally {
    if (gen === S.gen) S.busy = false;
  }
  render();
  await botTurn(gen);
}

// botTurn asks for the bot's moves while it is the bot's turn: in mangala
// a move into the store keeps the turn, and each sowing is shown and
// announced in turn.
// The announcement and the "Bot played" line name every move of the
// turn, "The bot played 4, …, black moves again; then 2, …".
async function botTurn(gen) {
  const said = [], played = [];
  while (gen === S.gen && !S.ana && !cur().over && cur().to_move !== S.human) {
    S.busy = true;
    render();
    try {
      const before = cur();
      const r = await moveRequest(before.moves, true);
      if (gen !== S.gen) return;
      await showSowing(before, r.state, gen);
      S.views.push(r.state);
      played.push(lastToken(r.state));
      say("botmove", "Bot played " + played.join(", then ") + " — " + evalText(r));
      setEval(r.evaluated ? r.win_prob : null, "bot's chance");
      said.push(moveText(r.state, said.length ? "then" : "The bot played"));
      say("announce", said.join("; ") + ".");
    } catch (e) {
      if (gen === S.gen) message("the bot failed: " + e.message);
      break;
    } finally {
      if (gen === S.gen) S.busy = false;
    }
  }
  if (gen === S.gen) render();
}

// showSowing draws the sowing from view before to view after one stone at
// a time, then flashes what the move changed (captures included).
async function showSowing(before, after, gen) {
  if (!$("animate").checked) return;
  const pit = after.moves[after.moves.length - 1];
  const frames = sowingFrames(before, pit);
  const step = Math.max(25, Math.min(120, 1200 / Math.max(1, frames.length)));
  for (const f of frames) {
    if (gen !== S.gen) return;
    S.shown = f.view;
    S.changed = f.changed;
    render();
    await pause(step);
  }
  S.shown = null;
  S.changed = changedPits(before, after);
  render();
  await pause(200);
  S.changed = null;
}

// changedPits lists the pits and stores whose counts differ.
function changedPits(a, b) {
  const out = new Set();
  for (const p of ["w", "b"]) {
    a.pits[sideIdx(p)].forEach((c, i) => { if (b.pits[sideIdx(p)][i] !== c) out.add(p + "-" + (i + 1)); });
    if (a.stores[sideIdx(p)] !== b.stores[sideIdx(p)]) out.add("store-" + p);
  }
  return out;
}

const lastToken = (v) => (v.plies.length ? v.plies[v.plies.length - 1].token : "");

// announce says what the last move of v did: captures, a tuzdyk or
// castle, an extra turn.
function announce(v, who) {
  if (v.plies.length) say("announce", moveText(v, who + " played") + ".");
}

// moveText describes the last move of v after the words lead.
function moveText(v, lead) {
  const p = v.plies[v.plies.length - 1];
  const kazan = v.game === "togyz" ? "kazan" : "store";
  const parts = [lead + " " + p.token];
  if (p.captured > 0) parts.push("captured " + p.captured);
  if (p.gain > p.captured) parts.push((p.gain - p.captured) + " sown into the " + kazan);
  if (p.special) parts.push(v.game === "togyz" ? "a tuzdyk!" : "a castle!");
  if (p.extra) parts.push(sideName(p.mover) + " moves again");
  return parts.join(", ");
}

function evalText(r) {
  if (!r.evaluated) return "no evaluation";
  let t = "its chance " + pct(r.win_prob);
  if (r.mate) t += r.mate > 0 ? ", a win in " + r.mate : ", a loss in " + -r.mate;
  else t += ", score " + signed(r.score);
  if (r.depth) t += ", depth " + r.depth;
  else if (r.nodes) t += ", " + r.nodes + " simulations";
  return t;
}

const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(1);

// undo takes back the person's last move and the bot's replies after it.
function undo() {
  if (S.busy || S.ana) return;
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
  say("hinttext", "");
  say("botmove", "");
  say("announce", "");
  render();
}

// hint asks the bot which move it would play for the person.
async function hint() {
  const v = cur();
  if (S.busy || S.ana || v.over || v.to_move !== S.human) return;
  const gen = S.gen;
  S.busy = true;
  render();
  try {
    const r = await moveRequest(v.moves);
    if (gen !== S.gen) return;
    S.hint = r.move;
    say("hinttext", "Hint: " + lastToken(r.state) + (r.evaluated ? " (your chance " + pct(r.win_prob) + ")" : ""));
  } catch (e) {
    message(e.message);
  } finally {
    if (gen === S.gen) S.busy = false;
  }
  render();
}

// recordText writes the game as a record: a header naming the game (and
// the start when set up), then the moves in the game's notation.
function recordText() {
  const v = cur();
  let t = '[Game "' + S.game + '"]\n';
  if (S.start !== "start") t += '[Position "' + S.start + '"]\n';
  return t + (v.notation ? v.notation + " " : "") + v.result + "\n";
}

async function copyRecord() {
  const text = recordText();
  $("recordin").value = text;
  try {
    await navigator.clipboard.writeText(text);
    say("announce", "The record is copied.");
  } catch (e) {
    say("announce", "The record is in the box below: copy it from there.");
  }
}

// loadRecord sets up the position and the record pasted: the server reads
// it (its Game and Position tags, else the game chosen and the position
// box) and the moves are replayed; the person then plays the side to move.
async function loadRecord() {
  if (S.busy) return;
  const text = $("recordin").value;
  const gen = ++S.gen;
  S.busy = true;
  message("");
  try {
    const end = await api("/api/state", { game: $("game").value, position: $("posin").value.trim(), record: text });
    const home = await api("/api/state", { game: end.game, moves: [] });
    const pos = end.start === home.start ? "start" : end.start;
    const views = [];
    for (let k = 0; k <= end.moves.length; k++) {
      views.push(k === end.moves.length ? end : await api("/api/state", { game: end.game, position: pos, moves: end.moves.slice(0, k) }));
    }
    if (gen !== S.gen) return;
    leaveAnalysis(false);
    $("game").value = S.game = end.game;
    showAgent();
    say("recordeg", recordExample(S.game));
    S.start = pos;
    S.views = views;
    S.hint = 0;
    if (!end.over) $("side").value = S.human = end.to_move;
    say("announce", "Loaded " + end.moves.length + " moves.");
    say("botmove", "");
    setEval(null);
  } catch (e) {
    message("can't load the record: " + e.message);
  } finally {
    if (gen === S.gen) S.busy = false;
  }
  render();
}

function message(text) { say("message", text); }
function say(id, text) { $(id).textContent = text; }

// setEval shows a chance on the value bar, or none.
function setEval(p, label) {
  if (label) say("evallabel", label);
  $("evalfill").style.width = p == null ? "50%" : pct(p);
  say("evaltext", p == null ? "–" : pct(p));
}

function render() {
  const v = S.ana ? S.views[S.ana.ply] : cur();
  if (!v) return;
  const playing = !S.busy && !S.ana && !v.over && v.to_move === S.human;
  const last = v.plies.length ? v.plies[v.plies.length - 1] : null;
  drawBoard($("board"), S.shown || v, S.human, {
    me: S.human, legal: playing ? v.legal : null, onPlay: play, hint: S.hint,
    last: last && { mover: last.mover, pit: last.pit }, changed: S.changed,
  });
  renderTurn(v);
  renderRecord();
  $("undo").disabled = S.busy || !!S.ana;
  $("hint").disabled = !playing;
  $("load").disabled = S.busy;
}

function renderTurn(v) {
  let t;
  if (S.ana) {
    t = "Analysis: move " + S.ana.ply + " of " + (S.views.length - 1) + (v.over ? ", the end (" + v.result + ")" : ", " + sideName(v.to_move) + " to move");
  } else if (v.over) {
    const verdict = v.winner === "draw" ? "a draw" : v.winner === S.human ? "you win!" : "the bot wins";
    t = "Game over, " + v.result + ": " + verdict + " (stores " + v.stores[0] + " : " + v.stores[1] + ")";
  } else if (v.to_move === S.human) {
    t = "Your move (" + sideName(S.human) + ")";
  } else {
    t = "The bot is thinking…";
  }
  say("turn", t);
}

// renderRecord writes the moves in the game's notation: togyz in numbered
// pairs ("1. 76 98"), the mangalas one move a line; captures, tuzdyks,
// castles and extra turns are marked. In analysis a move can be clicked.
function renderRecord() {
  const ol = $("record");
  ol.replaceChildren();
  const plies = cur().plies;
  let li = null;
  plies.forEach((p, i) => {
    if (S.game !== "togyz" || p.mover === "w" || li === null) {
      li = document.createElement("li");
      ol.appendChild(li);
      if (S.game !== "togyz") li.appendChild(document.createTextNode(sideName(p.mover) + " "));
      else if (p.mover === "b") li.appendChild(document.createTextNode("… "));
    } else {
      li.appendChild(document.createTextNode(" "));
    }
    const span = document.createElement("span");
    span.className = "mv" + (p.mover !== S.human ? " bot" : "") + (p.captured > 0 ? " cap" : "") + (p.special ? " spec spec-" + p.mover : "") +
      (p.extra ? " extra" : "") + (S.ana && S.ana.ply === i + 1 ? " now" : "");
    span.id = "mv-" + (i + 1);
    span.textContent = p.token + (p.captured > 0 ? "+" + p.captured : "") + (p.extra ? "↻" : "");
    span.title = [p.captured > 0 && "captured " + p.captured, p.special && (S.game === "togyz" ? "tuzdyk" : "castle"),
      p.extra && "moves again"].filter(Boolean).join(", ");
    span.addEventListener("click", () => { if (S.ana) showPly(i + 1); });
    li.appendChild(span);
  });
}

document.addEventListener("DOMContentLoaded", init);
