// Analysis mode: step through the game's positions; at each the server's
// engine (POST /api/move) gives its best move, its line and its chance,
// shown as White's chance on the value bar and who stands better in
// words. A move other than the best is described by what it missed (the
// capture or tuzdyk the best move makes) or allowed (the opponent's best
// reply's). Evaluations are kept per position.
"use strict";

function initAnalysis() {
  $("analyse").addEventListener("click", () => (S.ana ? leaveAnalysis() : enterAnalysis()));
  $("first").addEventListener("click", () => showPly(0));
  $("prev").addEventListener("click", () => showPly(S.ana.ply - 1));
  $("next").addEventListener("click", () => showPly(S.ana.ply + 1));
  $("last").addEventListener("click", () => showPly(S.views.length - 1));
  document.addEventListener("keydown", (e) => {
    if (!S.ana || e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") showPly(S.ana.ply - 1);
    if (e.key === "ArrowRight") showPly(S.ana.ply + 1);
  });
}

function enterAnalysis() {
  if (S.busy) return;
  S.ana = { ply: S.views.length - 1, evals: [], gen: S.gen };
  $("analysis").hidden = false;
  $("analyse").dataset.t = "page.back";
  $("analyse").textContent = t("page.back");
  showPly(S.ana.ply);
}

// leaveAnalysis goes back to play; with resume the bot moves when it is
// its turn.
function leaveAnalysis(resume = true) {
  if (!S.ana) return;
  S.ana = null;
  $("analysis").hidden = true;
  $("analyse").dataset.t = "page.analyse";
  $("analyse").textContent = t("page.analyse");
  say("anatext", "");
  say("jargon", "");
  setEval(null);
  if (resume && S.views.length) {
    render();
    botTurn(S.gen);
  }
}

// showPly shows the position after k moves and its evaluation, asking the
// engine for it the first time.
async function showPly(k) {
  if (!S.ana) return;
  k = Math.max(0, Math.min(S.views.length - 1, k));
  S.ana.ply = k;
  $("first").disabled = $("prev").disabled = k === 0;
  $("next").disabled = $("last").disabled = k === S.views.length - 1;
  render();
  const v = S.views[k];
  if (v.over) {
    setEval(v.winner === "w" ? 1 : v.winner === "b" ? 0 : 0.5);
    say("jargon", "");
    tell("anatext", () => t("ana.over", v.result));
    return;
  }
  tell("anatext", () => t("page.thinking"));
  const ev = await evalAt(k);
  const next = S.views[k + 1];
  const played = next && next.plies[k];
  const reply = played && played.pit !== ev.r.move && !next.over ? await evalAt(k + 1) : null;
  if (!ev || !S.ana || S.ana.ply !== k) return; // failed, or stepped on meanwhile
  const r = ev.r;
  setEval(r.evaluated ? (v.to_move === "w" ? r.win_prob : 1 - r.win_prob) : null);
  tell("jargon", () => evalText(r));
  tell("anatext", () => {
    let text = t("ana.tomove." + v.to_move, ev.best, ev.line);
    if (played && played.pit === r.move) text += "; " + t("ana.played.best", played.token);
    else if (played) text += "; " + [t("ana.played", played.token, ev.best), ...missed(v, ev, played, reply)].join(", ");
    return text + ".";
  });
}

// evalAt returns the engine's evaluation of the position after k moves,
// asking for it the first time, or null when that fails.
async function evalAt(k) {
  if (S.ana.evals[k]) return S.ana.evals[k];
  try {
    const r = await moveRequest(S.views[k].moves);
    const ply = r.state.plies[r.state.plies.length - 1];
    const ev = { best: ply.token, ply: ply, special: r.state.special, line: r.line, r: r };
    if (S.ana) S.ana.evals[k] = ev;
    return ev;
  } catch (e) {
    message(e.message);
    return null;
  }
}

// missed says what a move other than the best lost, in words: the tuzdyk
// or castle, or the capture, the best move makes and it does not; else
// the tuzdyk or capture it lets the opponent's best reply (reply, the
// evaluation after it) make. Empty when neither.
function missed(v, ev, played, reply) {
  const special = gameWord(v.game, "special"), me = v.to_move, opp = other(me);
  if (ev.ply.special && !played.special) return [t("missed.special", special, ev.special[sideIdx(me)])];
  if (ev.ply.captured > played.captured) return [t("missed.capture", ev.ply.captured)];
  if (!reply || reply.ply.mover !== opp) return [];
  if (reply.ply.special) return [t("allowed.special", special, reply.special[sideIdx(opp)])];
  if (reply.ply.captured > 0) return [t("allowed.capture", reply.ply.captured)];
  return [];
}
