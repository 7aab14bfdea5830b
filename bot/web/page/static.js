// The static site's bot: when site.js names the bot's files (a site
// written by kumalak web), the page's API calls go to a Web Worker
// (worker.js) running kumalak.wasm, which answers the same API as kumalak
// serve (GET /api/info, POST /api/state, POST /api/move). Served over
// http(s), the worker and the wasm are plain files; opened from file://,
// where Chromium starts no worker from a file and fetches nothing, they
// come from kumalak-bundle.js, a script holding the worker's source and
// the files as base64, and the worker is started from a Blob.
"use strict";

const Site = { worker: null, next: 0, waiting: new Map() };

// siteAPI sends one request to the worker and returns the answer's JSON,
// throwing the error of an answer that is not 200.
async function siteAPI(path, body) {
  if (!Site.worker) Site.worker = startWorker(KUMALAK_SITE);
  const w = await Site.worker;
  const r = await new Promise((done) => {
    const id = ++Site.next;
    Site.waiting.set(id, done);
    w.postMessage({ id, method: body === undefined ? "GET" : "POST", path, body: body === undefined ? "" : JSON.stringify(body) });
  });
  let data = null;
  try { data = JSON.parse(r.body); } catch (e) { /* not JSON: reported below */ }
  if (r.status !== 200) throw new Error((data && data.error) || "status " + r.status);
  return data;
}

// siteSpeed runs the speed measurement in the worker (BENCHMARKS.md).
async function siteSpeed(game, batch, rows, sims) {
  if (!Site.worker) Site.worker = startWorker(KUMALAK_SITE);
  const w = await Site.worker;
  return new Promise((done) => {
    const id = ++Site.next;
    Site.waiting.set(id, done);
    w.postMessage({ id, speed: { game, batch, rows, sims } });
  });
}

// startWorker starts the worker and resolves when its bot is built.
async function startWorker(site) {
  const args = JSON.stringify(site.games);
  let w, init;
  if (location.protocol === "file:") {
    await loadScript(site.bundle);
    const b = KUMALAK_BUNDLE;
    w = new Worker(URL.createObjectURL(new Blob([b.worker], { type: "text/javascript" })));
    const files = {};
    for (const [path, data] of Object.entries(b.files)) files[path] = fromBase64(data);
    init = { args, wasm: fromBase64(b.wasm), files };
  } else {
    w = new Worker("worker.js");
    const files = {};
    for (const [path, url] of Object.entries(site.files)) files[path] = new URL(url, location.href).href;
    init = { args, wasm: new URL(site.wasm, location.href).href, files };
  }
  return new Promise((ok, fail) => {
    w.onmessage = (e) => {
      const m = e.data;
      if (m.ready) {
        if (m.error) fail(new Error(m.error));
        else ok(w);
        return;
      }
      const done = Site.waiting.get(m.id);
      Site.waiting.delete(m.id);
      if (done) done(m);
    };
    w.onerror = (e) => fail(new Error("the bot's worker failed: " + (e.message || "an error")));
    w.postMessage({ init });
  });
}

function loadScript(src) {
  return new Promise((ok, fail) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = ok;
    s.onerror = () => fail(new Error("can't load " + src));
    document.head.appendChild(s);
  });
}

function fromBase64(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
