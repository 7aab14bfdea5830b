// Package engine serves the kumalak engine protocol on an input and an
// output (Serve): a line protocol in the manner of UCI for tournament
// programs, specified with a full example session in docs/ENGINE.md. The
// agent package's "engine" kind is its client; the protocol itself, its
// parser and its command loop are package protocol's.
//
// Files: engine.go is the engine's protocol.Handler (options, games,
// positions) and engine_go.go its go (slices of search, info lines,
// bestmove).
//
// The agent is built from its spec string (agent.ParseSpec) when the
// engine starts and again for each new game. A go command may bound one
// search in sims, time and depth: the engine sets them on its agent
// through agent.Limiter (Limits.Replace says how), so a limit the agent
// lacks is reported as ignored and leaves its own limits alone, and the
// options the engine offers carry the agent's own ranges.
//
// Perspective: scores and win/draw/loss are from the view of the player to
// move in the position searched, as in package agent.
//
// Concurrency: one goroutine reads commands; a search runs in a second
// one, while the first answers stop and isready; the command loop waits
// for the search before touching the agent.
//
// Errors: a program's bad input is answered by an "error ..." line and
// never ends the session; only a failing agent, a failing writer or the
// context does.
package engine
