// Command kumalak-wasm is the bot of the static web site that `kumalak
// web` writes: built for GOOS=js GOARCH=wasm, it runs in the page's Web
// Worker (bot/web/worker.js) and answers the same HTTP API as `kumalak
// serve` (web.Mux over one web.Server a game), so the one page plays it
// with no server. Its one argument is the JSON list of the games it plays,
// each with the agent spec that plays it and its model card:
// [{"game":"togyz","agent":"model:sims=400","card":{...}}, ...]; a model
// file the site ships (--model of kumalak web) is read from the worker's
// in-memory files.
//
// Built for another platform, it measures the speed the site's figures are
// compared with (BENCHMARKS.md): go run ./cmd/kumalak-wasm -speed.
package main

// seed is the seed of the bots' randomness, as kumalak serve's default.
const seed = 1
