// The board: drawing a position (see View in bot/web/state.go) as SVG, and
// the animation of a sowing, one stone at a time. The person's row is at
// the bottom, pits numbered from their left; the other row runs the other
// way, as seen across the board.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const other = (p) => (p === "w" ? "b" : "w");
const sideName = (p) => t("side." + p);
const sideIdx = (p) => (p === "w" ? 0 : 1);

// drawBoard draws view v for a person playing `me`. opts: legal (pits
// that may be clicked), onPlay (their click), last ({mover, pit}), hint
// (a pit of me), changed (a set of "w-3" / "store-w" keys to flash).
function drawBoard(svg, v, me, opts) {
  const n = v.pits[0].length;
  // A store the sowing passes through (mangala, kalah: the view's
  // sow_store) stands at the ends of the rows, on the sowing's path; one
  // it does not (togyz's kazans) lies between the rows, whose pits are then
  // tall and narrow.
  const between = !v.sow_store;
  const pw = between ? 78 : 100;        // pit pitch
  const rx = between ? 31 : 40, ry = between ? 52 : 40;
  const side = between ? 40 : 130;      // room at each end
  const midH = between ? 110 : 40;      // band between the rows
  const rowH = 2 * ry + 50;             // row with its labels
  const W = 2 * side + n * pw;
  const H = 2 * rowH + midH + 20;
  svg.setAttribute("viewBox", "0 0 " + W + " " + H);
  svg.replaceChildren();
  svg.appendChild(el("rect", { class: "frame", x: 2, y: 2, width: W - 4, height: H - 4, rx: 40 }));
  const opp = other(me);
  const topY = 10 + 25 + ry, botY = H - 10 - 25 - ry;
  for (let i = 1; i <= n; i++) {
    const xb = side + (i - 0.5) * pw;             // bottom row: my pit i from the left
    const xt = side + (n - i + 0.5) * pw;         // top row: their pit i from their left
    drawPit(svg, v, me, i, xb, botY, rx, ry, botY + ry + 16, opts);
    drawPit(svg, v, opp, i, xt, topY, rx, ry, topY - ry - 16, opts);
  }
  const toMove = (p) => p === v.to_move && !v.over;
  const label = (p) => t("board.store." + p, gameWord(v.game, "store"));
  if (between) {
    const kw = (n * pw) / 2 - 20, cy = H / 2;
    drawStore(svg, v, opp, side + kw / 2 + 10, cy, kw / 2, 38, label(opp), toMove(opp), opts);
    drawStore(svg, v, me, W - side - kw / 2 - 10, cy, kw / 2, 38, label(me), toMove(me), opts);
  } else {
    const sh = (H - 80) / 2;
    drawStore(svg, v, opp, side / 2 + 5, H / 2, 50, sh, label(opp), toMove(opp), opts);
    drawStore(svg, v, me, W - side / 2 - 5, H / 2, 50, sh, label(me), toMove(me), opts);
  }
}

// drawPit draws pit `pit` of player p. A tuzdyk (togyz) or castle
// (mangala-kale) of the other player on it is drawn in that player's
// colour with its letter (T or K in English).
function drawPit(svg, v, p, pit, x, y, rx, ry, labelY, opts) {
  const count = v.pits[sideIdx(p)][pit - 1];
  const taker = other(p);
  const special = v.special[sideIdx(taker)] === pit;
  const legal = opts.legal && p === opts.me && opts.legal.includes(pit);
  const cls = ["pit"];
  if (legal) cls.push("legal");
  if (opts.last && opts.last.mover === p && opts.last.pit === pit) cls.push("last");
  if (special) cls.push("special", "special-" + taker);
  if (opts.hint === pit && p === opts.me) cls.push("hint");
  if (opts.changed && opts.changed.has(p + "-" + pit)) cls.push("changed");
  const g = el("g", { class: cls.join(" "), id: "pit-" + p + "-" + pit, "data-count": count });
  const title = el("title", {});
  title.textContent = t("board.pit." + p, pit, count) + (special ? " — " + t("board.owner." + taker, gameWord(v.game, "special")) : "");
  g.appendChild(title);
  g.appendChild(el("ellipse", { cx: x, cy: y, rx: rx, ry: ry }));
  drawStones(g, count, x, y, rx, ry);
  g.appendChild(el("circle", { class: "badge", cx: x, cy: y, r: 14 }));
  g.appendChild(el("text", { class: "count", x: x, y: y }, String(count)));
  if (special) {
    g.appendChild(el("text", { class: "mark", x: x, y: y + ry - 12 }, gameWord(v.game, "mark") + taker));
  }
  svg.appendChild(g);
  svg.appendChild(el("text", { class: "label", x: x, y: labelY }, String(pit)));
  if (legal) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.addEventListener("click", () => opts.onPlay(pit));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") opts.onPlay(pit); });
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

function drawStore(svg, v, p, x, y, rx, ry, label, toMove, opts) {
  const cls = "store" + (opts.changed && opts.changed.has("store-" + p) ? " changed" : "");
  const g = el("g", { class: cls, id: "store-" + (p === "w" ? "white" : "black") });
  g.appendChild(el("ellipse", { cx: x, cy: y, rx: rx, ry: ry }));
  g.appendChild(el("text", { class: "count", x: x, y: y }, String(v.stores[sideIdx(p)])));
  svg.appendChild(g);
  svg.appendChild(el("text", { class: "storelabel" + (toMove ? " tomove" : ""), x: x, y: y + ry + 16 }, label));
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val);
  if (text !== undefined) e.textContent = text;
  return e;
}

// sowingFrames returns the positions of a sowing, one stone at a time,
// from view `before` when the mover plays `pit` (docs/RULES.md, "A move"): the
// picked pit emptied, then each stone dropped along the mover's cycle, a
// stone for a tuzdyk or castle going to its owner's store. Captures come
// with the view after the move, which ends the animation.
function sowingFrames(before, pit) {
  const mover = before.to_move, opp = other(mover);
  const n = before.pits[0].length;
  const withStore = before.sow_store;        // the mover's store is a place (mangala, kalah)
  const cycle = 2 * n + (withStore ? 1 : 0);
  const f = { ...before, pits: [before.pits[0].slice(), before.pits[1].slice()], stores: before.stores.slice(), legal: [] };
  const m = sideIdx(mover);
  let stones = f.pits[m][pit - 1];
  f.pits[m][pit - 1] = 0;
  const frames = [];
  let place = stones === 1 || !before.sow_back ? pit : pit - 1;   // places from the mover's pit 1, 0-based
  const key = [];
  for (; stones > 0; stones--, place++) {
    const q = place % cycle;
    if (withStore && q === n) {
      f.stores[m]++;
      key.push("store-" + mover);
    } else {
      const own = q < n;
      const idx = own ? q : q - n - (withStore ? 1 : 0);
      const owner = own ? mover : opp;
      const taker = other(owner);
      if (f.special[sideIdx(taker)] === idx + 1) {
        f.stores[sideIdx(taker)]++;                // a tuzdyk or castle: its owner's store
        key.push("store-" + taker);
      } else {
        f.pits[sideIdx(owner)][idx]++;
        key.push(owner + "-" + (idx + 1));
      }
    }
    frames.push({ view: { ...f, pits: [f.pits[0].slice(), f.pits[1].slice()], stores: f.stores.slice() }, changed: new Set([key[key.length - 1]]) });
  }
  return frames;
}
