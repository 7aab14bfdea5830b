package analysis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"kumalak/agent"
	"kumalak/bot/words"
	"kumalak/env"
)

// Mark judges a move by the win probability it lost.
type Mark int8

// The marks, from none to the worst.
const (
	Good Mark = iota
	Inaccuracy
	Mistake
	Blunder
)

// String returns "", "inaccuracy", "mistake" or "blunder".
func (m Mark) String() string {
	return [...]string{"", "inaccuracy", "mistake", "blunder"}[m]
}

// Symbol returns the mark as annotators write it: "", "?!", "?" or "??".
func (m Mark) Symbol() string {
	return [...]string{"", "?!", "?", "??"}[m]
}

// MarshalText writes the mark's name, for JSON.
func (m Mark) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Thresholds are the win probability a move must lose, at least, for each
// mark.
type Thresholds struct {
	Inaccuracy float32 `json:"inaccuracy"`
	Mistake    float32 `json:"mistake"`
	Blunder    float32 `json:"blunder"`
}

// DefaultThresholds: 5, 10 and 20 points of win probability.
func DefaultThresholds() Thresholds {
	return Thresholds{Inaccuracy: 0.05, Mistake: 0.10, Blunder: 0.20}
}

// Validate requires 0 < Inaccuracy <= Mistake <= Blunder <= 1.
func (t Thresholds) Validate() error {
	if !(0 < t.Inaccuracy && t.Inaccuracy <= t.Mistake && t.Mistake <= t.Blunder && t.Blunder <= 1) {
		return &ValueError{Reason: fmt.Sprintf("thresholds %g/%g/%g: want 0 < inaccuracy <= mistake <= blunder <= 1", t.Inaccuracy, t.Mistake, t.Blunder)}
	}
	return nil
}

// ParseThresholds reads the three thresholds, inaccuracy, mistake and
// blunder, written as "0.05,0.1,0.2", and validates them. Its errors are
// ValueErrors.
func ParseThresholds(s string) (Thresholds, error) {
	words := strings.Split(s, ",")
	if len(words) != 3 {
		return Thresholds{}, &ValueError{Reason: fmt.Sprintf("%q: want three numbers, e.g. 0.05,0.1,0.2", s)}
	}
	var v [3]float32
	for i, w := range words {
		f, err := strconv.ParseFloat(strings.TrimSpace(w), 32)
		if err != nil {
			return Thresholds{}, &ValueError{Reason: fmt.Sprintf("%q: %q is not a number (want three, e.g. 0.05,0.1,0.2)", s, w)}
		}
		v[i] = float32(f)
	}
	t := Thresholds{Inaccuracy: v[0], Mistake: v[1], Blunder: v[2]}
	return t, t.Validate()
}

// ValueError is the error of Thresholds.Validate: Reason reads without the
// package's name.
type ValueError struct{ Reason string }

func (e *ValueError) Error() string { return "analysis: " + e.Reason }

// Why is the reason alone, without the package's name, for a command
// that names its own.
func (e *ValueError) Why() string { return e.Reason }

// Mark returns the mark of a move that lost loss.
func (t Thresholds) Mark(loss float32) Mark {
	switch {
	case loss >= t.Blunder:
		return Blunder
	case loss >= t.Mistake:
		return Mistake
	case loss >= t.Inaccuracy:
		return Inaccuracy
	}
	return Good
}

// Exact knows the value of some positions exactly, for the player to move
// (-1 lost, 0 drawn, +1 won): a Mangala endgame tablebase plugs in here.
type Exact func(st env.State) (value float32, ok bool)

// Verdict knows the exact value of some moves: the final store
// difference, the mover's store less the opponent's, after move a of
// before and after the best move, under perfect play (a Mangala judge or
// tablebase plugs in here).
type Verdict func(before env.State, a env.Action) (played, best int, ok bool)

// Config sets up the analysis of one game.
type Config struct {
	Game  *env.GameRecord // the game; required
	Agent string          // the agent spec that judges it, e.g. "ab:depth=8"; required
	Limit agent.Limits    // the search of each position; zero = the spec's own
	Seed  uint64          // the agent's seed
	// Thresholds of the marks; zero = DefaultThresholds.
	Thresholds Thresholds
	// Exact, when set, gives the value of the positions it knows (a
	// tablebase), in place of the search's; the best move stays the search's.
	Exact Exact
	// Verdict, when set, gives the exact value of the moves it knows: their
	// mark then follows it (ExactMark), not the search's estimate.
	Verdict Verdict
	// Progress, when set, is called after each position searched.
	Progress func(done, total int)
}

// Eval is the value of a position for one player.
type Eval struct {
	Value float32 `json:"value"` // the engine's value, -1 (lost) .. +1 (won)
	// WinProb is the chance to win, a draw counting half; nil where the
	// agent's value is no probability (see WinProb).
	WinProb *float32 `json:"win_prob,omitempty"`
	Exact   bool     `json:"exact,omitempty"` // a finished game or a tablebase value
}

// MoveAnalysis is the judgement of one move of the game.
type MoveAnalysis struct {
	Ply    int    `json:"ply"`    // 1-based, in the order played
	Number string `json:"number"` // the move number as records write it: togyz's "3." or "3..."; "" in mangala, whose records number no moves
	Mover  string `json:"mover"`  // "white" or "black"
	Pit    int    `json:"pit"`    // the pit played
	Move   string `json:"move"`   // the move in the game's notation, e.g. togyz's "76"
	Before Eval   `json:"before"` // the position before the move, for the mover
	After  Eval   `json:"after"`  // the position after it, for the same player
	Best   string `json:"best"`   // the engine's best move in the position before
	PV     string `json:"pv"`     // the engine's line from there
	// Loss is the win probability the move lost (before - after, never
	// below 0); 0 without probabilities before and after. With an exact
	// verdict it is the result's: 1 from a win to a loss, 0.5 a step.
	Loss float32 `json:"loss"`
	Mark Mark    `json:"mark"`
	// Forced says the move was the only legal one: never marked.
	Forced bool `json:"forced,omitempty"`
	// Value and BestValue are the exact final store differences after the
	// move and after the best one, for the mover, when a verdict knows
	// them (Exact); the mark then follows them.
	Exact     bool `json:"exact,omitempty"`
	Value     int  `json:"value,omitempty"`
	BestValue int  `json:"best_value,omitempty"`
	// Missed says what a marked move gave up that the best move did not;
	// nil for an unmarked move, the best move, or one whose cost the
	// next move alone does not show.
	Missed *Missed `json:"missed,omitempty"`
}

// Missed is what a move gave up, seen in the move itself or the
// opponent's best reply: Kind "special" (the best move makes a tuzdyk or
// castle on the opponent's pit Pit, the move does not), "capture" (the
// best move takes Stones, more than the move), "allowed-special" or
// "allowed-capture" (the opponent's best reply makes one on the mover's
// pit Pit, or takes Stones).
type Missed struct {
	Kind   string `json:"kind"`
	Stones int    `json:"stones,omitempty"`
	Pit    int    `json:"pit,omitempty"`
}

// ExactMark is the mark of a move whose exact value is played against a
// best move's best (final store differences, mover's view): none when it
// keeps the best value; an inaccuracy when it loses stones but not the
// result; a mistake when it turns a win into a draw or a draw into a loss;
// a blunder when it turns a win into a loss.
func ExactMark(played, best int) Mark {
	switch steps := cmp.Compare(best, 0) - cmp.Compare(played, 0); {
	case played >= best:
		return Good
	case steps >= 2:
		return Blunder
	case steps == 1:
		return Mistake
	}
	return Inaccuracy
}

// Summary counts one player's marks.
type Summary struct {
	Player      string  `json:"player"`
	Moves       int     `json:"moves"`
	Inaccuracy  int     `json:"inaccuracies"`
	Mistakes    int     `json:"mistakes"`
	Blunders    int     `json:"blunders"`
	AverageLoss float32 `json:"average_loss"` // mean win probability lost per move
}

// GameAnalysis is the analysis of a game.
type GameAnalysis struct {
	Game   string            `json:"game"`
	Agent  string            `json:"agent"`
	Tags   map[string]string `json:"tags"`
	Start  string            `json:"start"`
	Result string            `json:"result"`
	// Probabilities says whether any move has win probabilities before and
	// after it (and so a loss and a mark): false for an uncalibrated
	// alpha-beta agent outside proven results.
	Probabilities bool           `json:"probabilities"`
	Thresholds    Thresholds     `json:"thresholds"`
	Moves         []MoveAnalysis `json:"moves"`
	Summary       [2]Summary     `json:"summary"` // white's, black's
}

// WinProb returns the chance to win for the player to move that an agent's
// analysis gives, and false where its value is no probability. This is the
// one place that decides: the network's and MCTS's values are expected
// outcomes, so (value+1)/2 is one; alpha-beta's is one where its score
// is mapped by the game's calibration (HasWDL, agent.WinProb) or where the
// result is proven (value ±1).
func WinProb(kind string, r agent.Analysis) (float32, bool) {
	if kind == "ab" && !r.HasWDL && r.Value > -1 && r.Value < 1 {
		return 0, false
	}
	return r.WinProb, true
}

// Analyze judges every move of cfg.Game: it searches each position of the
// game with the agent (one position after another, the last one
// included), and compares the value for the mover before each move with
// the value after it. A finished position is valued by its result, one
// with a single legal move by the position after it.
func Analyze(ctx context.Context, cfg Config) (*GameAnalysis, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	sp, _ := agent.ParseSpec(cfg.Agent) // check parsed it
	a, err := agent.New(cfg.Game.Spec, cfg.Agent, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	defer func() { _ = agent.Close(a) }() // the analysis is done; an engine failing to quit changes nothing
	if !cfg.Limit.IsZero() {
		if _, err := agent.SetLimits(a, cfg.Limit); err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
	}
	if _, ok := a.(agent.Analyzer); !ok {
		return nil, fmt.Errorf("analysis: agent %s reports no values (want a searching agent: ab, mcts, model, engine)", cfg.Agent)
	}
	j := &judge{cfg: cfg, kind: sp.Kind, ag: a}
	if m, ok := a.(agent.MultiPVer); ok && sp.Kind == "ab" {
		// Every root move searched exactly at the same depth: the move
		// played is valued in the same search as the best.
		if err := m.SetMultiPV(agent.MaxMultiPV); err != nil {
			return nil, fmt.Errorf("analysis: %w", err)
		}
		j.sameSearch = true
	}
	if err := j.evaluate(ctx); err != nil {
		return nil, err
	}
	return j.report(), nil
}

// check validates the config and fills the default thresholds.
func (c *Config) check() error {
	if c.Game == nil || c.Game.Spec == nil {
		return errors.New("analysis: no game")
	}
	if c.Thresholds == (Thresholds{}) {
		c.Thresholds = DefaultThresholds()
	}
	if err := c.Thresholds.Validate(); err != nil {
		return err
	}
	if _, err := c.Game.Final(); err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	if _, err := agent.ParseSpec(c.Agent); err != nil {
		return fmt.Errorf("analysis: %w", err)
	}
	return nil
}

// position is one position of the game with what the analysis found.
type position struct {
	st    env.State
	eval  Eval         // for st's mover
	pv    []env.Action // the best line, its first move the best
	moves []moveEval   // with sameSearch: every root move's value in the search of st
}

// moveEval is a root move's value for the mover in a position's search.
type moveEval struct {
	a    env.Action
	eval Eval
}

// judge analyses one game.
type judge struct {
	cfg  Config
	kind string
	ag   agent.Agent
	pos  []position // pos[i] before move i; pos[len(moves)] the last
	// sameSearch: alpha-beta searches every root move exactly (MultiPV), so
	// a move's before and after both come from the search of the
	// position before it, at one depth (see report).
	sameSearch bool
}

// evaluate fills j.pos, from the last position back to the first, so that
// a forced move takes the value of the position it leads to.
func (j *judge) evaluate(ctx context.Context) error {
	g := j.cfg.Game
	st := g.StartState()
	for _, a := range g.Moves {
		j.pos = append(j.pos, position{st: env.Clone(st)})
		st.Apply(a)
	}
	j.pos = append(j.pos, position{st: st})
	var buf [env.MaxActions]env.Action
	for i := len(j.pos) - 1; i >= 0; i-- {
		p := &j.pos[i]
		if legal := p.st.Legal(buf[:0]); len(legal) == 1 && i < len(g.Moves) {
			next := j.pos[i+1]
			p.eval = flip(next.eval, next.st.ToMove() != p.st.ToMove())
			p.pv = append([]env.Action{legal[0]}, next.pv...)
		} else if err := j.search(ctx, p); err != nil {
			return fmt.Errorf("analysis: move %d, in %s: %w", i+1, p.st, err)
		}
		if j.cfg.Progress != nil {
			j.cfg.Progress(len(j.pos)-i, len(j.pos))
		}
	}
	return nil
}

// search values p: by its result, the Exact hook, or the agent.
func (j *judge) search(ctx context.Context, p *position) error {
	if r := p.st.Result(); r != env.Ongoing {
		v := r.Value(p.st.ToMove())
		p.eval = Eval{Value: v, WinProb: prob((v + 1) / 2), Exact: true}
		return nil
	}
	if r, ok := j.ag.(agent.Resetter); ok {
		r.Reset()
	}
	a, err := j.ag.Move(ctx, p.st)
	if err != nil {
		return err
	}
	r := j.ag.(agent.Analyzer).Analysis()
	p.pv = append([]env.Action(nil), r.PV...)
	if len(p.pv) == 0 || p.pv[0] != a {
		p.pv = []env.Action{a}
	}
	p.eval = Eval{Value: r.Value}
	if wp, ok := WinProb(j.kind, r); ok {
		p.eval.WinProb = prob(wp)
	}
	p.moves = p.moves[:0]
	if j.sameSearch {
		for _, l := range r.Lines {
			if len(l.PV) == 0 {
				continue
			}
			e := Eval{Value: l.Value}
			if wp, ok := WinProb(j.kind, agent.Analysis{Value: l.Value, WinProb: l.WinProb, HasWDL: r.HasWDL}); ok {
				e.WinProb = prob(wp)
			}
			p.moves = append(p.moves, moveEval{l.PV[0], e})
		}
	}
	if j.cfg.Exact != nil {
		if v, ok := j.cfg.Exact(p.st); ok {
			p.eval = Eval{Value: v, WinProb: prob((v + 1) / 2), Exact: true}
		}
	}
	return nil
}

// sameSearch returns the values, in the search of p, of its best move
// (before) and of move a (after), when that search valued every root move
// (alpha-beta with MultiPV): both at one depth, so that their difference
// is the move's cost and not the difference of two depths' parities.
func sameSearch(p position, a env.Action) (before, after Eval, ok bool) {
	if len(p.moves) == 0 || len(p.pv) == 0 {
		return before, after, false
	}
	var hasB, hasA bool
	for _, m := range p.moves {
		if m.a == p.pv[0] {
			before, hasB = m.eval, true
		}
		if m.a == a {
			after, hasA = m.eval, true
		}
	}
	return before, after, hasB && hasA
}

// prob returns a pointer to p.
func prob(p float32) *float32 { return &p }

// flip returns e for the other player when other is true.
func flip(e Eval, other bool) Eval {
	if !other {
		return e
	}
	out := Eval{Value: -e.Value, Exact: e.Exact}
	if e.WinProb != nil {
		out.WinProb = prob(1 - *e.WinProb)
	}
	return out
}

// report writes the analysis of each move and the summaries.
func (j *judge) report() *GameAnalysis {
	g := j.cfg.Game
	out := &GameAnalysis{Game: g.Spec.Name, Agent: j.cfg.Agent, Tags: map[string]string{}, Start: j.pos[0].st.String(),
		Result: g.Result.String(), Thresholds: j.cfg.Thresholds, Moves: []MoveAnalysis{}}
	for _, t := range g.Tags {
		out.Tags[t.Name] = t.Value
	}
	nums := moveNumbers(j.pos[0].st, g.Moves)
	for i, a := range g.Moves {
		before, after := j.pos[i], j.pos[i+1]
		m := MoveAnalysis{Ply: i + 1, Number: nums[i], Mover: before.st.ToMove().Name(), Pit: a.Pit(),
			Move: words.Moves(before.st, []env.Action{a}), Before: before.eval,
			After: flip(after.eval, after.st.ToMove() != before.st.ToMove()), PV: words.Moves(before.st, before.pv)}
		if len(before.pv) > 0 {
			m.Best = words.Moves(before.st, before.pv[:1])
		}
		var buf [env.MaxActions]env.Action
		m.Forced = len(before.st.Legal(buf[:0])) == 1
		if b, a, ok := sameSearch(before, a); ok && !before.eval.Exact && !after.eval.Exact {
			m.Before, m.After = b, a
		}
		if m.Before.WinProb != nil && m.After.WinProb != nil {
			out.Probabilities = true
			m.Loss = max(0, *m.Before.WinProb-*m.After.WinProb)
			if len(before.pv) > 0 && before.pv[0] == a {
				m.Loss = 0 // the engine's own best move loses nothing by its judge's measure
			}
			m.Mark = j.cfg.Thresholds.Mark(m.Loss)
		}
		if j.cfg.Verdict != nil {
			if played, best, ok := j.cfg.Verdict(before.st, a); ok {
				m.Exact, m.Value, m.BestValue = true, played, best
				out.Probabilities = true
				m.Mark = ExactMark(played, best)
				m.Loss = float32(cmp.Compare(best, 0)-cmp.Compare(played, 0)) / 2
			}
		}
		if m.Forced {
			m.Mark, m.Loss = Good, 0
		}
		if m.Mark != Good && len(before.pv) > 0 && before.pv[0] != a {
			m.Missed = missed(before, after, a)
		}
		out.Moves = append(out.Moves, m)
	}
	out.Summary = summarize(out.Moves)
	return out
}

// missed compares move a of before with the best move, and then with the
// opponent's best reply in after (Missed).
func missed(before, after position, a env.Action) *Missed {
	bc, bs := effect(before.st, before.pv[0])
	pc, ps := effect(before.st, a)
	switch {
	case bs != 0 && ps == 0:
		return &Missed{Kind: "special", Pit: bs}
	case bc > pc:
		return &Missed{Kind: "capture", Stones: bc}
	case after.st.Result() != env.Ongoing || after.st.ToMove() == before.st.ToMove() || len(after.pv) == 0:
		return nil
	}
	switch rc, rs := effect(after.st, after.pv[0]); {
	case rs != 0:
		return &Missed{Kind: "allowed-special", Pit: rs}
	case rc > 0:
		return &Missed{Kind: "allowed-capture", Stones: rc}
	}
	return nil
}

// effect returns what move a of st takes for its mover: the stones
// captured (the store's gain less the stones sown into it, env.SownHome)
// and the pit of a tuzdyk or castle it makes, 0 for none.
func effect(st env.State, a env.Action) (captured, special int) {
	sc, ok := st.(env.Scorer)
	if !ok {
		return 0, 0
	}
	me := st.ToMove()
	next := env.Clone(st)
	next.Apply(a)
	captured = next.(env.Scorer).Store(me) - sc.Store(me) - env.SownHome(st, a)
	spec := st.Spec()
	b, err1 := env.ParsePosition(st.String(), spec.Pits, spec.Stones)
	f, err2 := env.ParsePosition(next.String(), spec.Pits, spec.Stones)
	if err1 == nil && err2 == nil && b.Special[me] == 0 {
		special = f.Special[me]
	}
	return captured, special
}

// summarize counts each player's marks.
func summarize(moves []MoveAnalysis) [2]Summary {
	s := [2]Summary{{Player: "white"}, {Player: "black"}}
	for _, m := range moves {
		p := &s[0]
		if m.Mover == "black" {
			p = &s[1]
		}
		p.Moves++
		p.AverageLoss += m.Loss
		switch m.Mark {
		case Inaccuracy:
			p.Inaccuracy++
		case Mistake:
			p.Mistakes++
		case Blunder:
			p.Blunders++
		}
	}
	for i := range s {
		if s[i].Moves > 0 {
			s[i].AverageLoss /= float32(s[i].Moves)
		}
	}
	return s
}

// moveNumbers returns the number of each move played from start as the
// game's record writes it (docs/RECORDS.md): togyz's "3." for white's move
// of pair 3 and "3..." for black's; "" for every move of a game whose
// records number no moves, as mangala's, where an extra turn gives a
// player two moves in a row.
func moveNumbers(start env.State, moves []env.Action) []string {
	nums := make([]string, len(moves))
	noted, err := start.Spec().NoteMoves(start, moves)
	if err != nil {
		return nums
	}
	cur := ""
	for i, m := range noted {
		if m.Number != "" {
			cur = m.Number
		}
		if cur != "" {
			nums[i], cur = cur, strings.TrimRight(cur, ".")+"..."
		}
	}
	return nums
}
