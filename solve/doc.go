// Package solve computes exact values of Turkish Mangala positions: endgame
// tablebases of the classic game and an exact solver for both variants.
//
// # Values and perspective
//
// Every value is from the view of the player to move (the "mover") and
// counts stones: the future gain of a position is the stones the mover
// will still put into their store minus those the opponent will, when both
// play perfectly to maximise their own final store. The final store
// difference, mover's store less the opponent's, is the present difference
// plus the future gain; its sign is the result (win, draw, loss). With s
// stones in the pits the future gain lies in [-s, s] and has the parity of
// s, since all of them end in a store.
//
// Mangala's extra turn keeps the same mover, so search never negates per
// ply: a child's value is added when the mover moves again and subtracted
// when the turn passes.
//
// # Classic tablebases
//
// In the classic game the stores never influence play, so the future gain
// depends only on the twelve pits seen from the mover (type Pits). Level s
// of the tablebase holds the future gain of every configuration with
// exactly s stones on the board, LevelSize(s) = C(s+11, 11) of them, one
// signed byte each, indexed by Pits.Rank. A move either sends stones to a
// store (sowing past the store, a capture, the end sweep), leading to a
// lower level, or keeps every stone on the board: then the mover's stones
// only moved towards the store within the mover's row (sowing that does not
// reach the store, no capture), the turn passes, and the weight
// (Pits.Weight: each stone counts its pit's place 0..5 in its row, both
// rows alike) strictly grows. So the classic game has no cycles: a level
// depends on the lower levels and on its own configurations of higher
// weight. Build computes the levels in increasing stone count and, within a
// level, the weights from the heaviest down; configurations of one weight
// never lead to each other and are shared among all cores. Rank orders a
// level by weight, then lexicographically, so each weight is a contiguous
// range of the level file.
//
// The file format is documented at Magic. Build writes each level to a
// temporary name and renames it when complete; a build killed at any moment
// keeps its finished levels and starts again at the first missing one.
// Open memory-maps the files and refuses, with an error wrapping ErrFormat,
// a file that is truncated, corrupt (checksums of the header and of the
// entries), of another game, level or format version.
//
// # Kale
//
// In mangala-kale the stores do not influence play either, but a position
// also holds the castles, and no stone is ever sown into a store, so
// stones circle the twelve pits and a position can come back: a stone
// leaves the board only by a capture, a castle (taken or sown into) or the
// end of the game. A kale tablebase would therefore need (1) an index over
// the castle pair as well as the pits: each player has no castle or one on
// the opponent's pits 1..5, a castle pit holds 0, so a level holds
// C(s+11,11) + 10 C(s+10,10) + 25 C(s+9,9) positions (117 million at 16
// stones, 9 times the classic level); (2) retrograde analysis instead of one pass, since moves that
// keep every stone on the board form cycles within a level; and (3) a rule
// for a game that never ends, which the rules of the game do not give.
// This package builds no kale tablebase. Its solver handles kale with one
// stated convention: a position met again on the current search path ends
// the game there by the kale end rule (each player stores the stones in
// their own row). Results that lean on such a repetition are not recorded
// in the transposition table, so kale values are exact under that
// convention; Stats.Repetitions says whether it was used at all (when it
// is 0 the value is exact under the rules as written). Kale is searched by
// the engine of kalah and classic mangala (kale.go: the castles in the
// position and its key, the path kept per thread); the older alpha-beta
// search of search.go stays as the tests' reference, which the engine must
// match (TestKaleEngineMatchesReference).
//
// # Solver
//
// Solver.Solve gives the exact value of every legal move and of the
// position: for each move it runs MTD(f) null-window alpha-beta tests to
// the end of the game on the child, with a transposition table of proven
// bounds (lower and upper bound per position, valid at any depth, so they
// are never stale), starting from a guess found by iterative deepening of
// a shallow heuristic search that also fills the table's best moves. It
// probes the tablebase as soon as a classic position's stones are within
// it. With a time limit it stops and reports the bounds proved so far,
// always working on the move whose upper bound bounds the position.
//
// # Using the values
//
// Players and judges need three calls: Tablebase.Probe(state) returns the
// mover's exact future gain of a classic position within the tablebase
// (and false outside it); Tablebase.Moves(board, dst) the exact value of
// every legal move there, as final store differences, so a move is a
// mistake exactly when its value is below the best one, and the stones it
// loses are the difference; Solver.Solve(state, limit) the same, proved by
// search, for positions outside the tablebase (bounds when the limit
// strikes first).
//
// # Concurrency
//
// A Tablebase is read-only after Open and safe for concurrent use. A
// Solver is not; use one per goroutine. Build uses every core itself.
package solve
