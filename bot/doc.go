// Package bot puts an agent in front of people and programs, four ways:
//
//   - Play: a game in the terminal. The board is drawn as the person sees
//     it from their seat (turned round for black), each move is stated
//     with what it did (stones sown, captures, a tuzdyk or castle made, an
//     extra turn); the person types one token of the record notation (a
//     pit number, togyz's "76" with its landing pit checked), hint, undo,
//     new, board, save FILE, load FILE (record files of package env), help
//     and quit. The bot's moves come with its evaluation, the end with the
//     result.
//   - Analyze: the judgement of every move of a game record (analyze.go):
//     the mover's value and chance to win before and after the move, the
//     best move and line, and a mark by the chance lost (Thresholds).
//     WinProb is the one place that decides which agents' values are
//     probabilities; AnalyzeConfig.Exact is the seam for a tablebase.
//   - ServeEngine: the kumalak engine protocol on standard input and output, a
//     line protocol in the manner of UCI for tournament programs. It is
//     specified, with a full example session, in docs/ENGINE.md; the
//     agent package's "engine" kind is its client.
//   - Server: an HTTP JSON API (GET /api/info, POST /api/state, POST
//     /api/move) and an embedded web page (web/, plain HTML, CSS and JS,
//     no build step) where a person plays the bot in any of the games,
//     pastes or copies a record, sets up a position and steps through a
//     game's analysis; board.js draws the board and the sowings,
//     analysis.js the analysis mode.
//
// Agents are built from agent spec strings (agent.ParseSpec, once, when
// the engine or server starts). A request or a go command may bound one
// search in sims, time and depth: the bot sets them on its agent through
// agent.Limiter (Limits.Replace says how), so a limit the agent lacks is
// reported as ignored and leaves its own limits alone, and the options the
// engine offers carry the agent's own ranges.
//
// Files: engine.go is the engine's protocol.Handler (options, games,
// positions) and engine_go.go its go (slices of search, info lines,
// bestmove); the protocol itself, its parser and its command loop are
// package protocol's.
//
// Rules stay in Go: every move from outside goes through env.Play (Replay),
// and the web page keeps only the record (start position and pit numbers),
// asking the server for the position, the legal moves and the result.
//
// Perspective: values and win probabilities are from the view of the
// player to move in the position searched, as in package agent: the bot's
// own chances after its move, the person's for a hint (the analysis mode
// turns them into White's). They are calibrated: the network's value, or
// alpha-beta's score through agent.Calibration; an agent that evaluates
// nothing shows no chance (MoveResponse.Evaluated).
//
// Concurrency: agents are not safe for concurrent use. Play and Engine use
// one goroutine for the game (Engine's search runs in a second one, while
// the first answers stop and isready; the command loop waits for the
// search before touching agents). Server is safe for concurrent use: each
// request borrows an agent from a pool and at most Searches run at once.
//
// Errors: a person's or a program's bad input is answered (a message and
// the prompt again, an "error ..." line, a 4xx JSON body) and never ends a
// session; only a failing agent, a failing writer or the context does.
package bot
