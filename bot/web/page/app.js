// The page that plays the bot. The rules live in Go: the page keeps the
// record (a start position and pit numbers), asks POST /api/state for the
// position each record reaches (legal moves, stores, result, the moves in
// notation) and POST /api/move for the bot's moves and evaluations. The
// API is kumalak serve's, or, on the static site of kumalak web (site.js
// says which), the same API answered by the wasm bot in a Web Worker
// (static.js). board.js draws; analysis.js steps through a game; i18n.js
// speaks the person's language (every text through t, from words.js).
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
  texts: {},       // texts[id]: what writes element id's text, run again in another language
  white: null,     // white's chance shown on the value bar, null for none
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
const pct = (p) => t("pct", Math.round(100 * p));

async function init() {
  initLang();
  W.onChange.push(relabel);
  if (KUMALAK_SITE) tell("message", () => t("page.loading"));
  try {
    S.info = await api("/api/info");
  } catch (e) {
    tell("message", () => t(KUMALAK_SITE ? "page.nostart" : "page.noreach", e.message));
    return;
  }
  message("");
  const sel = $("game");
  for (const g of S.info.games) {
    const opt = document.createElement("option");
    opt.value = g.name;
    sel.appendChild(opt);
  }
  if (S.info.default) sel.value = S.info.default;
  nameGames();
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

// nameGames names the games in the selector in the page's language.
function nameGames() {
  for (const opt of $("game").options) {
    const g = S.info.games.find((x) => x.name === opt.value);
    opt.textContent = gameTitle(g.name, g.title);
  }
}

// relabel writes again, in the language just chosen, every text the page
// shows: the fixed ones (i18n.js did those), the games, the board and the
// messages kept in S.texts.
function relabel() {
  if (!S.info) {
    for (const [id, f] of Object.entries(S.texts)) $(id).textContent = f();
    return;
  }
  nameGames();
  describeGame();
  const first = $("level").querySelector('option[value="1"]');
  if (first) first.textContent = t("page.level.beginner", 1);
  for (const [id, f] of Object.entries(S.texts)) $(id).textContent = f();
  setEval(S.white);
  if (S.views.length) render();
}

// describeGame writes what depends on the game chosen: the footer's words
// on its special pits (a tuzdyk in togyz, a castle in mangala-kale: drawn
// in their owner's colour), its rules, the example record, the bot's name.
function describeGame() {
  const special = gameWord(S.game, "special");
  say("specials", special ? t("page.special", special, gameWord(S.game, "mark")) : "");
  const rules = KUMALAK_WORDS.rules[S.game.split(":")[0]];
  rulesPage($("rules"), rules ? rules[W.lang] : "");
  say("recordeg", recordExample(gameInfo(S.game)));
  showAgent();
}

// recordExample is a record of game g (its GameInfo: what differs between
// games comes from there and from the view, never from comparing a game's
// name) in its notation, for the box's label (pit numbers said as such).
const recordExample = (g) => (g.notation ? g.example : t("page.record.pits", g.example || ""));

// showAgent names the bot of the game in the details: its own when each
// game has its own (a model a game), else the server's.
function showAgent() {
  const g = gameInfo(S.game);
  $("agent").textContent = t("page.bot", (g.agent || S.info.agent) + cardText(g.agent ? g.card : S.info.card)) + levelText(g);
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
    opt.textContent = n === 1 ? t("page.level.beginner", 1) : String(n);
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
  return ", " + t("page.level.n", n) + (elo !== undefined ? " (" + t("page.level.rated", (elo > 0 ? "+" : "") + elo, g.level_anchor) + ")" : "");
}

// cardText sums up a model card (net.Card): iteration and search size.
function cardText(card) {
  if (!card || typeof card !== "object") return "";
  const parts = [];
  if (card.iteration !== undefined) parts.push(t("page.iteration", card.iteration));
  const sims = (card.search && card.search.sims) || card.sims;
  if (sims) parts.push(t("page.sims", sims));
  return parts.length ? " (" + parts.join(", ") + ")" : "";
}

// newGame starts the game at S.start, the person playing the side chosen.
async function newGame() {
  const gen = ++S.gen;
  S.game = $("game").value;
  S.human = $("side").value;
  S.hint = 0;
  leaveAnalysis(false);
  message("");
  say("botmove", "");
  say("jargon", "");
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
  describeGame();
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
    announce(next, "page.played.you");
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
// turn, "The bot played 4, …, black moves again; then 2, …"; the line
// says who stands better, the details the engine's numbers.
async function botTurn(gen) {
  const views = [], played = [];
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
      views.push(r.state);
      const white = r.evaluated ? (before.to_move === "w" ? r.win_prob : 1 - r.win_prob) : null;
      const line = played.slice();
      tell("botmove", () => t("page.botmove", line.join(t("page.thenjoin"))) + " — " + (white === null ? t("eval.none") : standing(white)));
      tell("jargon", () => evalText(r));
      setEval(white);
      const said = views.slice();
      tell("announce", () => said.map((v, i) => moveText(v, i ? "page.then" : "page.played.bot")).join("; ") + ".");
    } catch (e) {
      if (gen === S.gen) tell("message", () => t("page.botfailed", e.message));
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
function announce(v, lead) {
  if (v.plies.length) tell("announce", () => moveText(v, lead) + ".");
}

// moveText describes the last move of v after the message lead ("You
// played %s").
function moveText(v, lead) {
  const p = v.plies[v.plies.length - 1];
  const parts = [t(lead, p.token)];
  if (p.captured > 0) parts.push(t("move.captured", p.captured));
  if (p.gain > p.captured) parts.push(t("move.sown", p.gain - p.captured, gameWord(v.game, "store")));
  if (p.special) parts.push(t("move.special", gameWord(v.game, "special")));
  if (p.extra) parts.push(t("move.again." + p.mover));
  return parts.join(", ");
}

// evalText is the engine's numbers for the details: the mover's chance,
// a win or loss in n moves or the score, the depth or simulations.
function evalText(r) {
  if (!r.evaluated) return t("eval.none");
  const parts = [t("eval.mover", pct(r.win_prob))];
  if (r.mate) parts.push(r.mate > 0 ? t("eval.win", r.mate) : t("eval.loss", -r.mate));
  else parts.push(t("eval.score", signed(r.score)));
  if (r.depth) parts.push(t("eval.depth", r.depth));
  else if (r.nodes) parts.push(t("eval.sims", r.nodes));
  return parts.join(", ");
}

const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(1);

// undo takes back the person's last move and the bot's replies after it.
function undo() {
  if (S.busy || S.ana) return;
  const humanMoved = S.views.slice(0, -1).some((v) => v.to_move === S.human);
  if (!humanMoved) {
    tell("message", () => t("undo.nothing"));
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
    const tok = lastToken(r.state), white = r.evaluated ? (v.to_move === "w" ? r.win_prob : 1 - r.win_prob) : null;
    tell("hinttext", () => t("page.hinttext", tok) + (white === null ? "" : " — " + standing(white)));
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
    tell("announce", () => t("page.copied"));
  } catch (e) {
    tell("announce", () => t("page.copyhere"));
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
    S.start = pos;
    S.views = views;
    S.hint = 0;
    describeGame();
    if (!end.over) $("side").value = S.human = end.to_move;
    const n = end.moves.length;
    tell("announce", () => t("page.loaded", n));
    say("botmove", "");
    say("jargon", "");
    setEval(null);
  } catch (e) {
    tell("message", () => t("page.loadfail", e.message));
  } finally {
    if (gen === S.gen) S.busy = false;
  }
  render();
}

function message(text) { say("message", text); }

// say writes text, in no language (a move, a server's error), into
// element id; tell writes what f returns, and again when the language
// changes.
function say(id, text) {
  delete S.texts[id];
  $(id).textContent = text;
}
function tell(id, f) {
  S.texts[id] = f;
  $(id).textContent = f();
}

// setEval shows white's chance on the value bar, and who stands better
// in words, or none.
function setEval(white) {
  S.white = white;
  $("evalfill").style.width = white == null ? "50%" : Math.round(100 * white) + "%";
  $("standing").textContent = white == null ? "–" : standing(white);
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
  let text;
  if (S.ana) {
    const n = S.views.length - 1;
    text = v.over ? t("turn.ana.end", S.ana.ply, n, v.result) : t("turn.ana." + v.to_move, S.ana.ply, n);
  } else if (v.over) {
    const verdict = v.winner === "draw" ? "turn.draw" : v.winner === S.human ? "turn.won" : "turn.lost";
    text = t(verdict, v.result, v.stores[0], v.stores[1]);
  } else if (v.to_move === S.human) {
    text = t("turn." + S.human);
  } else {
    text = t("turn.bot");
  }
  say("turn", text);
}

// renderRecord writes the moves in the game's notation: a game whose turns
// always alternate (togyz) in numbered pairs ("1. 76 98"), one with extra
// turns (the mangalas, kalah) one move a line with the mover's name;
// captures, tuzdyks, castles and extra turns are marked. In analysis a
// move can be clicked.
function renderRecord() {
  const ol = $("record");
  ol.replaceChildren();
  const plies = cur().plies;
  const paired = gameInfo(S.game).alternate;
  let li = null;
  plies.forEach((p, i) => {
    if (!paired || p.mover === "w" || li === null) {
      li = document.createElement("li");
      ol.appendChild(li);
      if (!paired) li.appendChild(document.createTextNode(sideName(p.mover) + " "));
      else if (p.mover === "b") li.appendChild(document.createTextNode("… "));
    } else {
      li.appendChild(document.createTextNode(" "));
    }
    const span = document.createElement("span");
    span.className = "mv" + (p.mover !== S.human ? " bot" : "") + (p.captured > 0 ? " cap" : "") + (p.special ? " spec spec-" + p.mover : "") +
      (p.extra ? " extra" : "") + (S.ana && S.ana.ply === i + 1 ? " now" : "");
    span.id = "mv-" + (i + 1);
    span.textContent = p.token + (p.captured > 0 ? "+" + p.captured : "") + (p.extra ? "↻" : "");
    span.title = [p.captured > 0 && t("move.captured", p.captured), p.special && gameWord(S.game, "special"),
      p.extra && t("board.again")].filter(Boolean).join(", ");
    span.addEventListener("click", () => { if (S.ana) showPly(i + 1); });
    li.appendChild(span);
  });
}

document.addEventListener("DOMContentLoaded", init);
