// Analysis mode: step through the game's positions; at each the server's
// engine (POST /api/move) gives its best move, its line and its chance,
// shown as White's chance on the value bar. Evaluations are kept per
// position.
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
  $("analyse").textContent = "Back to play";
  showPly(S.ana.ply);
}

// leaveAnalysis goes back to play; with resume the bot moves when it is
// its turn.
function leaveAnalysis(resume = true) {
  if (!S.ana) return;
  S.ana = null;
  $("analysis").hidden = true;
  $("analyse").textContent = "Analyse";
  say("anatext", "");
  setEval(null, "bot's chance");
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
    const w = v.winner === "w" ? 1 : v.winner === "b" ? 0 : 0.5;
    setEval(w, "white's chance");
    say("anatext", "The game is over: " + v.result + ".");
    return;
  }
  let ev = S.ana.evals[k];
  if (!ev) {
    say("anatext", "thinking…");
    try {
      const r = await moveRequest(v.moves);
      ev = { best: r.state.plies[r.state.plies.length - 1].token, line: r.line, r: r };
      if (S.ana) S.ana.evals[k] = ev;
    } catch (e) {
      message(e.message);
      return;
    }
  }
  if (!S.ana || S.ana.ply !== k) return; // stepped on meanwhile
  const r = ev.r;
  const white = r.evaluated ? (v.to_move === "w" ? r.win_prob : 1 - r.win_prob) : null;
  setEval(white, "white's chance");
  let t = sideName(v.to_move) + " to move; best " + ev.best + " (line " + ev.line + ")";
  if (r.evaluated) t += ", " + sideName(v.to_move) + "'s chance " + pct(r.win_prob) + (r.mate ? (r.mate > 0 ? ", a win in " + r.mate : ", a loss in " + -r.mate) : ", score " + signed(r.score));
  const next = S.views[k + 1];
  if (next) {
    const played = next.plies[k];
    t += played.pit === r.move ? "; played: " + played.token + ", the best." : "; played: " + played.token + ".";
  }
  say("anatext", t);
}
