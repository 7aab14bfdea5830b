// The page's words in the person's language. words.js (written by kumalak
// from package bot/words, the catalogs the terminal reads too) holds every
// catalog and rules page as KUMALAK_WORDS; this file picks a language (the
// one chosen on the page before, else the browser's, else English), formats
// messages and translates the page's fixed text, marked in index.html by
// data-t (text), data-t-label (aria-label) and data-t-title (title).
"use strict";

const W = { lang: "en", cat: null, plural: null, numbers: null, onChange: [] };

// pickLang returns the language to speak: a saved choice, else the first of
// the browser's languages kumalak speaks (by its primary subtag, or a
// neighbour words.js names: Kyrgyz reads Russian), else English.
function pickLang() {
  const codes = KUMALAK_WORDS.langs.map((l) => l.code);
  let saved = null;
  try { saved = localStorage.getItem("kumalak-lang"); } catch (e) { /* no storage: file:// in some browsers */ }
  if (codes.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (codes.includes(base)) return base;
    const near = KUMALAK_WORDS.near[base];
    if (near) return near;
  }
  return "en";
}

// setLang switches the page to language code and redraws what depends on it.
function setLang(code, save) {
  W.lang = code;
  W.cat = KUMALAK_WORDS.catalogs[code];
  W.plural = new Intl.PluralRules(code);
  W.numbers = new Intl.NumberFormat(code, { maximumFractionDigits: 0 });
  if (save) {
    try { localStorage.setItem("kumalak-lang", code); } catch (e) { /* not saved: fine */ }
  }
  document.documentElement.lang = code;
  translatePage();
  for (const f of W.onChange) f();
}

// t formats the message of key with args: %s, %d, %q with an optional
// argument index (%[2]d), %% for a percent sign; a plural message picks
// the form of its argument's count. A key missing from the catalog shows
// as itself in brackets, which the browser test looks for.
function t(key, ...args) {
  let m = W.cat[key];
  if (m === undefined) return "[" + key + "]";
  if (typeof m === "object") m = m[W.plural.select(Number(args[m.arg - 1]))] || m.other;
  let next = 0;
  return m.replace(/%(\[(\d)\])?([sdq%])/g, (all, idx, n, verb) => {
    if (verb === "%") return "%";
    const i = idx ? Number(n) - 1 : next;
    next = i + 1;
    const a = args[i];
    if (verb === "d") return W.numbers.format(a);
    if (verb === "q") return JSON.stringify(String(a));
    return String(a);
  });
}

// translatePage sets the text of every element marked in index.html.
function translatePage() {
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll("[data-t-label]")) e.setAttribute("aria-label", t(e.dataset.tLabel));
  for (const e of document.querySelectorAll("[data-t-title]")) e.title = t(e.dataset.tTitle);
  document.title = t("page.title");
}

// initLang fills the language selector and speaks the language picked.
function initLang() {
  const sel = document.getElementById("lang");
  for (const l of KUMALAK_WORDS.langs) {
    const opt = document.createElement("option");
    opt.value = l.code;
    opt.textContent = l.name;
    sel.appendChild(opt);
  }
  const code = pickLang();
  sel.value = code;
  sel.addEventListener("change", () => setLang(sel.value, true));
  setLang(code, false);
}

// gameInfo is what GET /api/info says of a game (its names and words).
const gameInfo = (game) => (S.info && S.info.games.find((g) => g.name === game)) || { names: {}, words: {} };

// gameWord is one of a game's words in the language: store, special, or
// mark (the letter drawn in a special pit); "" for a word it has not.
function gameWord(game, word) {
  const w = gameInfo(game).words;
  if (word === "mark") return w.special ? t("mark." + w.special) : "";
  const id = w[word];
  if (!id) return "";
  return W.cat["word." + id] === undefined ? id : t("word." + id);
}

// gameTitle names a game in the language (env.Facts.Names); a variant
// keeps its options.
function gameTitle(game, fallback) {
  const title = gameInfo(game).names[W.lang] || fallback;
  const opts = String(game).split(":")[1];
  return opts ? title + " (" + opts + ")" : title;
}

// standing says who stands better from white's chance: "White is better,
// 62%" (words.js's bands, as the terminal's words.Standing).
function standing(white) {
  const pct = (p) => t("pct", Math.round(100 * p));
  const side = white < 0.5 ? "b" : "w";
  const best = Math.max(white, 1 - white);
  const band = KUMALAK_WORDS.bands.find((b) => best < b.below) || KUMALAK_WORDS.bands[KUMALAK_WORDS.bands.length - 1];
  if (band.key === "even") return t("standing.even", pct(white));
  return t("standing." + side + "." + band.key, pct(best));
}

// rulesPage renders a rules page (plain text: a "# " title, "## "
// headings, paragraphs and "- " items) into element box.
function rulesPage(box, text) {
  box.replaceChildren();
  for (const block of text.trim().split(/\n\s*\n/)) {
    const lines = block.split("\n");
    if (lines[0].startsWith("## ") || lines[0].startsWith("# ")) {
      const h = document.createElement(lines[0].startsWith("## ") ? "h4" : "h3");
      h.textContent = lines[0].replace(/^#+ /, "");
      box.appendChild(h);
    } else if (lines[0].startsWith("- ")) {
      const ul = document.createElement("ul");
      let li = null;
      for (const l of lines) {
        if (l.startsWith("- ")) {
          li = document.createElement("li");
          li.textContent = l.slice(2);
          ul.appendChild(li);
        } else {
          li.textContent += " " + l.trim();
        }
      }
      box.appendChild(ul);
    } else {
      const p = document.createElement("p");
      p.textContent = lines.map((l) => l.trim()).join(" ");
      box.appendChild(p);
    }
  }
}
