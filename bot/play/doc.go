// Package play is the bot's terminal front end: a game between a person
// and an agent on a text terminal (Run).
//
// The board is drawn as the person sees it from their seat (turned round
// for black), each move is stated with what it did (stones sown, captures,
// a tuzdyk or castle made, an extra turn); the person types one token of
// the record notation (a pit number, togyz's "76" with its landing pit
// checked), hint, undo, new, board, save FILE, load FILE (record files of
// package env), help and quit. The bot's moves come with its evaluation,
// the end with the result.
//
// Rules stay in package env: every move the person types goes through
// env.Play.
//
// Perspective: the evaluation shown is from the view of the player to move
// in the position searched, as in package agent: the bot's own chances
// after its move, the person's for a hint.
//
// Concurrency: a game runs on the caller's goroutine; the agent is not
// shared.
//
// Errors: a person's bad input is answered with a message and the prompt
// again and never ends the game; only a failing agent, a failing writer or
// the context does.
package play
