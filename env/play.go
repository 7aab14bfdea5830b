package env

import (
	"errors"
	"fmt"
	"strings"
)

// Checker is implemented by games that can say why an in-range action is
// illegal (for example "pit is a tuzdyk"); Play uses it for its message.
type Checker interface {
	Check(a Action) error
}

// ErrIllegal is wrapped by every error Play returns for an illegal move.
var ErrIllegal = errors.New("illegal move")

// The reasons every game shares for refusing a move: each game's Check
// returns (or wraps) them, so callers test with errors.Is whatever the game.
var (
	ErrGameOver = errors.New("game is over")
	ErrEmptyPit = errors.New("pit is empty")
)

// Play is the checked door for a move written as a pit number (1-based). It
// returns an error naming the problem, and leaves st unchanged, when the game
// is over, the pit is out of range, or the move is illegal.
func Play(st State, pit int) error {
	a, err := CheckMove(st, pit)
	if err != nil {
		return err
	}
	st.Apply(a)
	return nil
}

// Replay plays moves, written as pit numbers, on st in order, each through
// Play. It stops at the first that cannot be played, with an error naming it,
// e.g. "move 14 (pit 5): illegal move: pit is empty"; st then holds the
// position before that move. It is the one replay of records, the API's move
// lists and arena openings.
func Replay(st State, pits []int) error {
	for i, pit := range pits {
		if err := Play(st, pit); err != nil {
			return fmt.Errorf("move %d (pit %d): %w", i+1, pit, err)
		}
	}
	return nil
}

// Replay returns the position a record reaches: start (a position string,
// or "" or "start" for the start position, as Start reads it) and then
// pits, each checked with Play (the package's Replay). The error names the
// bad position or move, e.g. "move 3 (pit 7): illegal move: pit is empty".
// It is the one reading of the engine protocol's and the web API's records.
func (s *Spec) Replay(start string, pits []int) (State, error) {
	st, err := s.Start(strings.TrimSpace(start))
	if err != nil {
		return nil, err
	}
	if err := Replay(st, pits); err != nil {
		return nil, err
	}
	return st, nil
}

// CheckMove returns the action for the pit number, or why it can't be played.
func CheckMove(st State, pit int) (Action, error) {
	spec := st.Spec()
	if st.Result() != Ongoing {
		return 0, fmt.Errorf("%w: %w (%s)", ErrIllegal, ErrGameOver, st.Result())
	}
	if pit < 1 || pit > spec.NumActions {
		return 0, fmt.Errorf("%w: pit %d out of range 1..%d", ErrIllegal, pit, spec.NumActions)
	}
	a := Action(pit - 1)
	if c, ok := st.(Checker); ok {
		if err := c.Check(a); err != nil {
			return 0, fmt.Errorf("%w: %w", ErrIllegal, err)
		}
		return a, nil
	}
	var buf [MaxActions]Action
	for _, l := range st.Legal(buf[:0]) {
		if l == a {
			return a, nil
		}
	}
	return 0, fmt.Errorf("%w: pit %d can't be played", ErrIllegal, pit)
}

// Scorer is implemented by games with stores: Store returns the stones in
// p's store. Baseline agents use it for their evaluation.
type Scorer interface {
	Store(p Player) int
}

// FinalScorer is implemented by games whose terminal positions may still
// show stones in pits that the end rule gives to a player (in togyz, the
// stones collected at atsyrau). FinalStore returns p's store after that
// rule; StoreFunc, and so the score targets and Adjudicate, prefer it to
// Scorer's Store.
type FinalScorer interface {
	FinalStore(p Player) int
}

// WinFor returns the result in which p wins.
func WinFor(p Player) Result {
	if p == White {
		return WhiteWins
	}
	return BlackWins
}

// Hasher is implemented by games that give each position a 64-bit hash
// (Zobrist or similar), equal for equal positions.
type Hasher interface {
	Hash() uint64
}

// Mix64 is the splitmix64 finalizer, a bijection on uint64 that spreads
// every input bit over the output: the games build their Hash with it.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Same reports whether a and b, states of one game, are the same position
// with the same player to move: by Hash when the game has one (no
// allocation), else by position string.
func Same(a, b State) bool {
	if a.ToMove() != b.ToMove() {
		return false
	}
	ha, ok1 := a.(Hasher)
	hb, ok2 := b.(Hasher)
	if ok1 && ok2 {
		return ha.Hash() == hb.Hash()
	}
	return a.String() == b.String()
}
