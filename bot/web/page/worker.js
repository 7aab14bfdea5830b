// The Web Worker of the static site: it runs kumalak.wasm (cmd/kumalak-wasm),
// the bot with the rules and the search, and answers the page's API calls
// (static.js) one at a time, so the page stays responsive while the bot
// thinks. The first message, {init}, gives the wasm and the model files
// (bytes, or URLs to fetch) and the games; each later one is a request
// {id, method, path, body}, answered {id, status, body}, or a speed
// measurement {id, speed}. Go's runtime reads the model files through the
// in-memory file system below.
"use strict";

if (typeof Go === "undefined") importScripts("wasm_exec.js"); // the toolchain's own (kumalak web copies it)

let ready = null;
let stopped = ""; // why the Go program ended, once it has

self.onmessage = (e) => {
  const m = e.data;
  if (m.init) {
    ready = start(m.init);
    ready.then(() => postMessage({ ready: true }), (err) => postMessage({ ready: true, error: String(err.message || err) }));
    return;
  }
  ready.then(() => {
    if (m.speed) {
      const s = m.speed;
      kumalakSpeed(s.game, s.batch, s.rows, s.sims, (json, err) => postMessage({ id: m.id, speed: json && JSON.parse(json), error: err }));
      return;
    }
    if (stopped) {
      postMessage({ id: m.id, status: 500, body: JSON.stringify({ error: stopped }), error: stopped });
      return;
    }
    kumalakCall(m.method, m.path, m.body, (status, body) => postMessage({ id: m.id, status, body }));
  }, (err) => postMessage({ id: m.id, status: 500, body: JSON.stringify({ error: String(err.message || err) }) }));
};

// start loads the files and the wasm and runs it; it resolves when the
// bot is built (kumalakReady).
async function start(init) {
  const files = {};
  for (const [path, src] of Object.entries(init.files)) {
    files[path] = typeof src === "string" ? new Uint8Array(await (await fetchOK(src)).arrayBuffer()) : src;
  }
  globalThis.fs = memFS(files, globalThis.fs);
  const go = new Go();
  // The games go in a global, not argv: wasm_exec.js fits argv and the
  // environment in 12 KB, which four games' model cards overflow.
  globalThis.kumalakGames = init.args;
  go.argv = ["kumalak-wasm"];
  const built = new Promise((ok, fail) => {
    globalThis.kumalakReady = (err) => (err ? fail(new Error(err)) : ok());
  });
  let inst;
  if (typeof init.wasm !== "string") {
    inst = await WebAssembly.instantiate(init.wasm, go.importObject);
  } else {
    try {
      inst = await WebAssembly.instantiateStreaming(fetchOK(init.wasm), go.importObject);
    } catch (e) { // a host that serves .wasm with another Content-Type
      inst = await WebAssembly.instantiate(await (await fetchOK(init.wasm)).arrayBuffer(), go.importObject);
    }
  }
  go.run(inst.instance).then(() => { stopped = "the bot stopped (see the console)"; });
  await built;
}

async function fetchOK(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error("can't load " + url + ": " + r.status + " " + r.statusText);
  return r;
}

// memFS is the file system Go's runtime calls (the shape of Node's fs
// that wasm_exec.js stands in for): files, absolute paths to bytes, are
// read-only; everything else (writing to the console) goes to base.
function memFS(files, base) {
  const open = new Map();
  let next = 1000;
  const fail = (code) => Object.assign(new Error(code), { code });
  const stat = (size) => ({
    dev: 0, ino: 0, mode: 0o100444, nlink: 1, uid: 0, gid: 0, rdev: 0, size, blksize: 4096,
    blocks: Math.ceil(size / 512), atimeMs: 0, mtimeMs: 0, ctimeMs: 0, isDirectory: () => false,
  });
  const fs = Object.create(base);
  fs.open = (path, flags, mode, cb) => {
    if (!(path in files)) return cb(fail("ENOENT"));
    if (flags !== 0) return cb(fail("EROFS"));
    const fd = next++;
    open.set(fd, { data: files[path], pos: 0 });
    cb(null, fd);
  };
  fs.stat = fs.lstat = (path, cb) => (path in files ? cb(null, stat(files[path].length)) : cb(fail("ENOENT")));
  fs.fstat = (fd, cb) => (open.has(fd) ? cb(null, stat(open.get(fd).data.length)) : base.fstat(fd, cb));
  fs.read = (fd, buf, off, len, pos, cb) => {
    const f = open.get(fd);
    if (!f) return base.read(fd, buf, off, len, pos, cb);
    const at = pos === null || pos === undefined ? f.pos : pos;
    const n = Math.max(0, Math.min(len, f.data.length - at));
    buf.set(f.data.subarray(at, at + n), off);
    if (pos === null || pos === undefined) f.pos += n;
    cb(null, n);
  };
  fs.close = (fd, cb) => (open.delete(fd) ? cb(null) : base.close(fd, cb));
  return fs;
}
