package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
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
	Value   float32 // expected outcome for the mover, -1 (loss) .. +1 (win)
	WinProb float32 // estimated chance the mover wins, counting a draw as half: (Value+1)/2
	// (alpha-beta: Score is the mean score of the last two completed
	// depths, Value and WinProb its calibration, so that they do not swing
	// with the depth's parity; Lines' values are those of the deepest
	// depth, comparable with each other)
	Depth  int          // alpha-beta: deepest completed iteration; 0 otherwise
	Nodes  int64        // this search's own work: alpha-beta's nodes, MCTS's simulations added
	Visits int64        // MCTS: the root's visits, those kept from earlier searches (tree reuse) included
	PV     []env.Action // principal variation, starting with the chosen move
	Moves  []MoveStat   // one entry per legal move, best first

	// Score is the value in stones of store lead for the mover: alpha-beta's
	// own score, or for MCTS the lead that alpha-beta's calibration maps
	// to WinProb (ScoreOf). Mate, when not 0, is a proven result instead:
	// a win in Mate plies, or a loss in -Mate.
	Score float32
	Mate  int
	// WDL holds the chances of a win, a draw and a loss, summing to 1,
	// when HasWDL: alpha-beta's calibration (Calibration.WDL).
	WDL    [3]float32
	HasWDL bool
	// SelDepth is alpha-beta's deepest ply reached, HashFull the use of its
	// transposition table (MCTS: of its tree's memory) per mille.
	SelDepth, HashFull int
	// Full: the MCTS tree filled its memory (hash) during the search, so
	// it stopped growing; the search went on with its leaves' values.
	Full bool
	// Lines are the best moves with their lines, best first, when the
	// agent was asked for more than one (MultiPV); nil otherwise.
	Lines []Line
}

// Line is one of the best moves of a search with its expected line.
type Line struct {
	PV      []env.Action
	Value   float32 // for the mover, -1..1
	WinProb float32 // as Analysis.WinProb
	Score   float32 // as Analysis.Score
	Mate    int     // as Analysis.Mate
}

// MultiPVer is implemented by agents that can report the N best moves,
// each with its line (Analysis.Lines).
type MultiPVer interface {
	SetMultiPV(n int) error
}

// HashSizer is implemented by agents with a transposition table whose size
// can be set.
type HashSizer interface {
	// SetHash replaces the table by one of mib MiB (0: none).
	SetHash(mib int) error
	// Hash returns the table's size in MiB.
	Hash() int
	// HashRange returns the sizes SetHash takes, in MiB.
	HashRange() (lo, hi int)
}

// Threader is implemented by agents that search on several threads.
type Threader interface {
	// SetThreads sets the threads of the next searches, in 1..MaxThreads.
	SetThreads(n int) error
	Threads() int
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

// ValueWinProb converts a value in -1..1 into a win probability.
func ValueWinProb(v float32) float32 {
	return float32(math.Min(1, math.Max(0, float64(v+1)/2)))
}

// ErrClose is wrapped by Check's error when an agent built fails to
// close (an engine process that does not end cleanly).
var ErrClose = errors.New("agent: close")

// Check builds the agent of each spec for game once (New, seed 0) and
// closes it, so that a bad spec is found before any game: it returns
// New's error for the first spec that fails, or one wrapping ErrClose.
func Check(game *env.Spec, specs ...string) error {
	for _, s := range specs {
		a, err := New(game, s, 0)
		if err != nil {
			return err
		}
		if err := Close(a); err != nil {
			return fmt.Errorf("%w %s: %w", ErrClose, s, err)
		}
	}
	return nil
}

// Close closes a when it holds resources (an engine process, a
// tablebase: an io.Closer), and returns nil for an agent that holds none:
// the one way every caller ends an agent.
func Close(a Agent) error {
	if c, ok := a.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
