package agent

import (
	"context"
	"errors"
	"math"

	"kumalak/env"
)

// Agent chooses moves. Move returns a legal action for st, which it does not
// change; it fails when the game is over, when ctx ends before a move is
// chosen, or when its evaluator fails.
type Agent interface {
	Move(ctx context.Context, st env.State) (env.Action, error)
}

// Analyzer is implemented by agents that search: Analysis describes the
// last Move's search. Its slices are the agent's own and change on the next
// Move; copy them to keep them.
type Analyzer interface {
	Analysis() Analysis
}

// Resetter is implemented by agents with state kept across moves (a search
// tree, a transposition table): Reset forgets it before a new game.
type Resetter interface {
	Reset()
}

// Observer is implemented by agents that can reuse work across moves:
// Played tells them that a was played (by either side) and led to next.
// Callers that skip it lose only speed: Move checks the position it gets.
type Observer interface {
	Played(a env.Action, next env.State)
}

// Analysis is what a search found, from the view of the player to move.
type Analysis struct {
	Value   float32      // expected outcome for the mover, -1 (loss) .. +1 (win)
	WinProb float32      // estimated chance the mover wins, counting a draw as half: (Value+1)/2
	Depth   int          // alpha-beta: deepest completed iteration; 0 otherwise
	Nodes   int64        // alpha-beta: nodes searched; MCTS: simulations at the root
	PV      []env.Action // principal variation, starting with the chosen move
	Moves   []MoveStat   // one entry per legal move, best first
}

// MoveStat describes one root move.
type MoveStat struct {
	Action env.Action
	// Share is the move's fraction of root visits (MCTS); alpha-beta gives
	// the best move 1 and the others 0.
	Share float32
	// Value is the move's value for the mover in -1..1. Alpha-beta: exact
	// for the best move, an upper bound for the others. MCTS: the mean value
	// of its visits (0 when unvisited).
	Value float32
}

// ErrGameOver is returned by Move for a terminal position.
var ErrGameOver = errors.New("agent: game is over")

// winProb converts a value in -1..1 into a win probability.
func winProb(v float32) float32 {
	return float32(math.Min(1, math.Max(0, float64(v+1)/2)))
}
