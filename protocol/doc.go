// Package protocol is the kumalak engine protocol of docs/ENGINE.md, a line
// protocol in the manner of UCI, in one place: the typed commands (the
// controller's lines: Hello, IsReady, SetOption, NewGame, Position, Go,
// Stop, PonderHit, Show, Help, Quit) and answers (the engine's: ID, Option, HelloOK,
// ReadyOK, Info, MoveInfo, InfoString, BestMove, Error), each with one
// parser (ParseCommand, ParseAnswer) and one Format; the client (Client,
// which package agent's engine kind drives) and the server loop (Serve,
// around a Handler, which package bot provides) are built on them. Every
// word of the protocol is written once, in this package.
//
// Round trip: for every line that parses, Format writes a canonical line
// that parses to the same value (aliases such as "uci"/"ucinewgame",
// "startpos" or "nodes" read as their canonical form; numbers of info
// lines carry 4 decimals). The fuzz targets hold the parsers to it.
//
// Lenience: command and answer words are case-insensitive; a line of the
// engine whose first word no answer has is a Raw, and an info field no
// Info has is skipped, so controllers ignore what later versions add.
//
// The package knows no rules: pit numbers are checked by the handler and
// the client's caller (env.Play, env.CheckMove).
//
// Pondering: Serve runs "go ponder" as an infinite search; PonderHit
// replaces it by a search under the limits of that go, whose bestmove
// alone is written, and Stop ends it as any search.
//
// Concurrency: Serve runs its Handler from one goroutine, with the search
// in a second while the first answers Stop, PonderHit and IsReady. A Client is used
// from one goroutine, but Send and Close may be called from any.
package protocol
