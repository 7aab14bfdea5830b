package solve

import (
	"errors"
	"fmt"
	"time"

	"kumalak/env"
)

// JudgeConfig sets up a Judge of the positions the solver plays (classic
// mangala, mangala-kale, kalah: Solvable). A move is judged when its
// position is in the tablebase, or has at most Extra stones on the board
// more than the tablebase covers and the solver proves its values within
// Limit. A position the tablebase does not answer (without one, of
// another kind, or kale, whose positions can repeat) is judged by the
// solver alone, up to Extra stones on the board in all.
type JudgeConfig struct {
	Tablebase *Tablebase    // exact values of classic positions (the solver's below them); may be nil when Extra > 0
	Extra     int           // stones above the tablebase solved by search (in all without it), 0..MaxStones; 0 = the tablebase alone
	Limit     time.Duration // the solver's time per position; required with Extra > 0
	TTBits    int           // the solver's table, 2^TTBits slots of 16 bytes; 0 = 20
	Worst     int           // mistakes kept per player, the worst first; 0 = 5
}

// Validate names the first bad field of c.
func (c JudgeConfig) Validate() error {
	switch {
	case c.Tablebase == nil && c.Extra == 0:
		return errors.New("solve: judge: no tablebase and no Extra stones: nothing could be judged")
	case c.Extra < 0 || c.Extra > MaxStones:
		return fmt.Errorf("solve: judge: Extra %d out of range 0..%d", c.Extra, MaxStones)
	case c.Extra > 0 && c.Limit <= 0:
		return fmt.Errorf("solve: judge: Extra %d needs a Limit > 0", c.Extra)
	case c.solves() && c.Limit <= 0:
		return fmt.Errorf("solve: judge: a %s tablebase is read by the solver, which needs a Limit > 0", c.Tablebase.Game())
	case c.Worst < 0 || c.Worst > 1000:
		return fmt.Errorf("solve: judge: Worst %d out of range 0..1000", c.Worst)
	}
	return nil
}

// solves reports whether a judge of c needs the solver: for stones above
// the tablebase, or for a tablebase only the solver reads (kalah's).
func (c JudgeConfig) solves() bool {
	return c.Extra > 0 || c.Tablebase != nil && c.Tablebase.Game() != MangalaTB
}

// Judge finds the moves that lose value: a move is a mistake when its
// exact value (the final store difference under perfect play after it) is
// below the best move's, and the stones it loses are the difference. It
// is not safe for concurrent use (its solver is not); the tablebase may
// be shared.
type Judge struct {
	cfg    JudgeConfig
	solver *Solver     // nil with Extra 0
	buf    []MoveValue // the moves' values, of the tablebase or the solver
	owned  bool        // the tablebase is the judge's to close (OpenJudge)
}

// NewJudge returns a judge, or an error naming a bad field of cfg.
func NewJudge(cfg JudgeConfig) (*Judge, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Worst == 0 {
		cfg.Worst = 5
	}
	if cfg.TTBits == 0 {
		cfg.TTBits = 20
	}
	j := &Judge{cfg: cfg, buf: make([]MoveValue, 0, env.MaxActions)}
	if cfg.solves() {
		s, err := New(Config{TTBits: cfg.TTBits, Tablebase: cfg.Tablebase})
		if err != nil {
			return nil, fmt.Errorf("solve: judge: %w", err)
		}
		j.solver = s
	}
	return j, nil
}

// OpenJudge returns a judge of game's moves with the tablebase in dir of
// the game's kind (cfg.Tablebase is that one): a classic mangala one the
// judge reads itself; a kalah one (6 houses) the solver reads, so its
// positions are judged by the solver within cfg.Limit, as are cfg.Extra
// stones above either. A game without tablebases is an error. The judge
// owns the tablebase; Close closes it. With dir "" it judges by the
// solver alone, positions of up to cfg.Extra stones on the board, and a
// game the solver does not play is the error.
func OpenJudge(game, dir string, cfg JudgeConfig) (*Judge, error) {
	if dir == "" {
		return solverJudge(game, cfg)
	}
	spec, err := env.Lookup(game)
	if err == nil {
		err = Solvable(spec)
	}
	if err != nil {
		return nil, fmt.Errorf("solve: judge: %w", err)
	}
	tb, err := OpenFor(spec, dir)
	if err != nil {
		return nil, err
	}
	cfg.Tablebase = tb
	j, err := NewJudge(cfg)
	if err != nil {
		tb.Close()
		return nil, err
	}
	j.owned = true
	return j, nil
}

// solverJudge is OpenJudge without a tablebase.
func solverJudge(game string, cfg JudgeConfig) (*Judge, error) {
	spec, err := env.Lookup(game)
	if err == nil {
		err = Solvable(spec)
	}
	if err != nil {
		return nil, fmt.Errorf("solve: judge: %w", err)
	}
	cfg.Tablebase = nil
	return NewJudge(cfg)
}

// Config returns the judge's settings, the defaults filled in.
func (j *Judge) Config() JudgeConfig { return j.cfg }

// Close closes the tablebase OpenJudge opened; a judge from NewJudge
// leaves its tablebase to its caller and has nothing to close.
func (j *Judge) Close() error {
	if !j.owned {
		return nil
	}
	j.owned = false
	return j.cfg.Tablebase.Close()
}

// Verdict is the judgement of one move: its value and the best one, as
// final store differences from the mover's view.
type Verdict struct {
	Move, Best       env.Action // the move judged, and a best move
	Value, BestValue int
}

// Lost returns the stones the move lost against perfect play, >= 0.
func (v Verdict) Lost() int { return v.BestValue - v.Value }

// Turns reports whether the move turned the result under perfect play: a
// win to a draw or a loss, or a draw to a loss. A mistake that only wins
// by fewer stones, or loses by more, does not.
func (v Verdict) Turns() bool { return sign(v.Value) < sign(v.BestValue) }

// Check returns the stones that move a of before loses against the best
// move, and false when the judge cannot tell: a position outside the
// tablebase and the solver's reach, another game, a finished game, or an
// illegal move.
func (j *Judge) Check(before env.State, a env.Action) (lost int, ok bool) {
	v, ok := j.Verdict(before, a)
	return v.Lost(), ok
}

// Verdict returns the values of move a of before and of the best move,
// and false where Check does.
func (j *Judge) Verdict(before env.State, a env.Action) (Verdict, bool) {
	n, ok := Stones(before)
	if !ok || before.Result() != env.Ongoing || n > j.Reach(before.Spec()) {
		return Verdict{}, false
	}
	moves, ok := j.values(before)
	if !ok {
		return Verdict{}, false
	}
	v := Verdict{Move: a, Value: -MaxStones - 1, BestValue: -MaxStones - 1}
	found := false
	for _, m := range moves {
		if m.Lo > v.BestValue {
			v.Best, v.BestValue = m.Action, m.Lo
		}
		if m.Action == a {
			v.Value, found = m.Lo, true
		}
	}
	return v, found
}

// Reach returns the most stones on the board of a position of game that
// the judge may judge: the tablebase's stones and Extra above them for a
// game of the tablebase's kind (Tablebase.Game), Extra for another game
// the solver plays, 0 for a game it does not (togyz). The judge reads a
// classic mangala tablebase itself; a kalah one its solver reads (NewJudge
// always makes one for it).
func (j *Judge) Reach(game *env.Spec) int {
	t := j.cfg.Tablebase
	switch {
	case !game.Facts.Solver:
		return 0
	case t == nil || t.Game() != game.Facts.Tablebase:
		return j.cfg.Extra
	}
	return t.Stones() + j.cfg.Extra
}

// values returns the exact value of every legal move of st, from the
// tablebase or the solver, in j.buf; false when they are not all exact.
func (j *Judge) values(st env.State) ([]MoveValue, bool) {
	if t := j.cfg.Tablebase; t != nil {
		if moves, ok := t.MovesOf(st, j.buf[:0]); ok {
			return moves, true
		}
	}
	if j.solver == nil {
		return nil, false
	}
	r, err := j.solver.SolveWithin(st, Budget{Time: j.cfg.Limit}, j.buf[:0])
	if err != nil {
		return nil, false
	}
	for _, m := range r.Moves {
		if !m.Exact() {
			return nil, false
		}
	}
	return r.Moves, true
}

// Tally counts one player's moves and mistakes.
type Tally struct {
	Moves    int       `json:"moves"`    // moves seen
	Forced   int       `json:"forced"`   // moves seen that were the only legal move: never judged, never a mistake
	Judged   int       `json:"judged"`   // choices (two legal moves or more) whose values were known
	Mistakes int       `json:"mistakes"` // judged moves that lost value
	Lost     int       `json:"lost"`     // stones lost by all the mistakes
	Turned   int       `json:"turned"`   // mistakes that turned the result under perfect play: a win to a draw or loss, a draw to a loss
	Worst    []Mistake `json:"worst"`    // the worst mistakes, most stones lost first
	keep     int       // the length of Worst to keep
}

// Mistake is one move that lost value, with its position.
type Mistake struct {
	Position  string `json:"position"`   // the position before the move
	Pit       int    `json:"pit"`        // the move played
	Best      int    `json:"best"`       // a best move
	Value     int    `json:"value"`      // the final store difference after the move, mover's view
	BestValue int    `json:"best_value"` // the same after the best move
	Lost      int    `json:"lost"`       // BestValue - Value
}

// Rate returns the share of judged moves that were mistakes, 0 with none
// judged; forced moves are not choices and count in neither.
func (t *Tally) Rate() float64 {
	if t.Judged == 0 {
		return 0
	}
	return float64(t.Mistakes) / float64(t.Judged)
}

// Summary is a tally with its rates, as the reports of arena, analyze and
// training write it.
type Summary struct {
	Tally
	Rate           float64 `json:"rate"`             // mistakes per judged choice (forced moves apart)
	TurnedRate     float64 `json:"turned_rate"`      // result-turning mistakes per judged choice
	LostPerMistake float64 `json:"lost_per_mistake"` // stones
}

// Summary returns the tally with its rates.
func (t *Tally) Summary() Summary {
	return Summary{Tally: *t, Rate: t.Rate(), TurnedRate: t.TurnedRate(), LostPerMistake: t.LostPerMistake()}
}

// TurnedRate returns the share of judged moves that turned the result
// (Turned), 0 with none judged.
func (t *Tally) TurnedRate() float64 {
	if t.Judged == 0 {
		return 0
	}
	return float64(t.Turned) / float64(t.Judged)
}

// LostPerMistake returns the mean stones lost by a mistake, 0 with none.
func (t *Tally) LostPerMistake() float64 {
	if t.Mistakes == 0 {
		return 0
	}
	return float64(t.Lost) / float64(t.Mistakes)
}

// Merge adds u's counts and worst mistakes to t.
func (t *Tally) Merge(u *Tally) {
	t.Moves += u.Moves
	t.Forced += u.Forced
	t.Judged += u.Judged
	t.Mistakes += u.Mistakes
	t.Lost += u.Lost
	t.Turned += u.Turned
	t.keep = max(t.keep, u.keep)
	for _, m := range u.Worst {
		t.addWorst(m)
	}
}

// Record judges move a of before into t, and returns the stones it lost
// and whether it could be judged. The only legal move of a position is
// counted as forced, not judged.
func (j *Judge) Record(t *Tally, before env.State, a env.Action) (lost int, ok bool) {
	t.Moves++
	t.keep = j.cfg.Worst
	var buf [env.MaxActions]env.Action
	if len(before.Legal(buf[:0])) == 1 {
		t.Forced++
		return 0, false
	}
	v, ok := j.Verdict(before, a)
	if !ok {
		return 0, false
	}
	t.Judged++
	if v.Lost() > 0 {
		t.Mistakes++
		t.Lost += v.Lost()
		if v.Turns() {
			t.Turned++
		}
		t.addWorst(Mistake{Position: before.String(), Pit: a.Pit(), Best: v.Best.Pit(), Value: v.Value, BestValue: v.BestValue, Lost: v.Lost()})
	}
	return v.Lost(), true
}

// addWorst keeps m when it is among the t.keep worst, most stones lost
// first, the earlier first among equals.
func (t *Tally) addWorst(m Mistake) {
	keep := max(t.keep, 1)
	i := len(t.Worst)
	for i > 0 && t.Worst[i-1].Lost < m.Lost {
		i--
	}
	if i >= keep {
		return
	}
	t.Worst = append(t.Worst, Mistake{})
	copy(t.Worst[i+1:], t.Worst[i:])
	t.Worst[i] = m
	if len(t.Worst) > keep {
		t.Worst = t.Worst[:keep]
	}
}

// Game judges every move played from start (which it does not change),
// adding each to the tally of its mover: tallies[env.White] or
// tallies[env.Black]. It fails on an illegal move.
func (j *Judge) Game(start env.State, moves []env.Action, tallies *[2]Tally) error {
	st := env.Clone(start)
	for i, a := range moves {
		if _, err := env.CheckMove(st, a.Pit()); err != nil {
			return fmt.Errorf("solve: judge: move %d of %s: %w", i+1, st, err)
		}
		j.Record(&tallies[st.ToMove()], st, a)
		st.Apply(a)
	}
	return nil
}
