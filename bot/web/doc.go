// Package web is the bot's HTTP front end: a JSON API (GET /api/info,
// POST /api/state, POST /api/move; Server, and Mux for several games) and
// the embedded web page (page/: plain HTML, CSS and JS, no build step)
// where a person plays the bot in any of the games, pastes or copies a
// record, sets up a position and steps through a game's analysis;
// board.js draws the board and the sowings, analysis.js the analysis mode.
// The same page is published as a static site by package site (bot/web/site),
// with the bot built for the browser (cmd/kumalak-wasm); bot/web/webtest
// drives it in a headless browser for the tests.
//
// Rules stay in Go: every move from outside goes through env.Play (Spec.Replay),
// and the page keeps only the record (start position and pit numbers),
// asking the server for the position, the legal moves and the result.
//
// Agents are built from the agent spec string when the server starts. A
// request may bound one search in sims, time and depth: the server sets
// them on its agent through agent.Limiter, so a limit the agent lacks is
// reported as ignored (MoveResponse.Ignored).
//
// Perspective: values and win probabilities are from the view of the
// player to move in the position searched: the bot's own chances after its
// move, the person's for a hint (the analysis mode turns them into
// White's). An agent that evaluates nothing shows no chance
// (MoveResponse.Evaluated).
//
// Concurrency: Server and Mux are safe for concurrent use: each request
// borrows an agent from a pool and at most Config.Searches run at once.
//
// Errors: bad input is answered by a 4xx JSON body naming the field and
// never stops the server.
package web
