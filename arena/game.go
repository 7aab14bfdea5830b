package arena

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/env"
)

// Record is one finished game, written as a line of JSON.
type Record struct {
	Game     string `json:"game"`               // registry name, e.g. "togyz"
	Index    int    `json:"index"`              // game number in the match, from 0
	Pair     int    `json:"pair"`               // opening pair: games 2k and 2k+1
	White    string `json:"white"`              // agent spec playing White
	Black    string `json:"black"`              // agent spec playing Black
	A        string `json:"a"`                  // colour of agent A: "white" or "black"
	Start    string `json:"start"`              // position string before the opening
	Opening  []int  `json:"opening"`            // opening moves, pit numbers
	Moves    []int  `json:"moves"`              // moves the agents chose, pit numbers
	Result   string `json:"result"`             // "1-0", "0-1" or "1/2-1/2"
	Reason   string `json:"reason,omitempty"`   // why the game ended, when not by the rules
	Forfeit  string `json:"forfeit,omitempty"`  // "white" or "black": the side that lost by failing (Reason says how)
	Final    string `json:"final"`              // the last position string
	Notation string `json:"notation,omitempty"` // opening and moves in the game's notation
	// TimeControl is the clock the game was played at (agent.TimeControl's
	// form, e.g. "60+1"), when one was.
	TimeControl string `json:"tc,omitempty"`
	// UsedMS is, under a clock, each move's time in milliseconds as the
	// clock charged it, from the agent's call to its answer: one per move
	// of Moves, and one more for the move whose flag fell.
	UsedMS []int64 `json:"used_ms,omitempty"`
}

// Notation writes the moves played from start (which it must not change) in
// a game's record notation, such as togyz's "1. 21 65 2. 34 22x".
type Notation func(start env.State, moves []env.Action) (string, error)

// GameLog is implemented by a Records writer that takes each game whole
// (Logs) rather than as a line of JSON.
type GameLog interface {
	LogGame(r *Record) error
}

// writeRecord gives r to w's LogGame, or writes it as one line of JSON.
func writeRecord(w io.Writer, r *Record) error {
	if l, ok := w.(GameLog); ok {
		return l.LogGame(r)
	}
	return writeJSON(w, r)
}

// writeJSON writes r as one line of JSON.
func writeJSON(w io.Writer, r *Record) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("arena: record: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("arena: write record: %w", err)
	}
	return nil
}

// Logs is a Records writer that logs each game twice: as a line of JSON to
// JSON and as a game record with header tags (env.GameRecord, the format
// of docs/RECORDS.md) to Text. Either may be nil.
type Logs struct {
	JSON, Text io.Writer
	Spec       *env.Spec // the game played; required with Text
	Event      string    // the records' Event tag, e.g. "kumalak arena"
	Site, Date string    // their Site and Date tags; "" = "?"
	games      int
}

// Write passes p to JSON, so that Logs is an io.Writer.
func (l *Logs) Write(p []byte) (int, error) {
	if l.JSON == nil {
		return len(p), nil
	}
	return l.JSON.Write(p)
}

// LogGame writes one game to both logs.
func (l *Logs) LogGame(r *Record) error {
	if l.JSON != nil {
		if err := writeJSON(l.JSON, r); err != nil {
			return err
		}
	}
	if l.Text == nil {
		return nil
	}
	g, err := r.GameRecord(l.Spec)
	if err != nil {
		return err
	}
	for _, t := range []env.Tag{{Name: "Event", Value: l.Event}, {Name: "Site", Value: l.Site}, {Name: "Date", Value: l.Date}} {
		if t.Value != "" {
			g.SetTag(t.Name, t.Value)
		}
	}
	text, err := g.Text()
	if err != nil {
		return fmt.Errorf("arena: record of game %d: %w", r.Index+1, err)
	}
	if l.games > 0 {
		text = "\n" + text
	}
	l.games++
	if _, err := io.WriteString(l.Text, text); err != nil {
		return fmt.Errorf("arena: write record: %w", err)
	}
	return nil
}

// GameRecord returns r as a game record: its tags Round (the game number
// from 1), White, Black, Opening (the plies of the opening) and, for a game
// not ended by the rules, Termination (the reason); its start, and the
// opening and moves as its moves. spec is the game, r.Game's.
func (r *Record) GameRecord(spec *env.Spec) (*env.GameRecord, error) {
	if spec == nil || spec.Name != r.Game {
		return nil, fmt.Errorf("arena: record of %s, not of game %v", r.Game, spec)
	}
	start, err := spec.Start(r.Start)
	if err != nil {
		return nil, fmt.Errorf("arena: record: %w", err)
	}
	res, err := env.ParseResult(r.Result)
	if err != nil {
		return nil, fmt.Errorf("arena: record: %w", err)
	}
	g := &env.GameRecord{Spec: spec, Start: start, Result: res}
	for _, p := range append(append([]int(nil), r.Opening...), r.Moves...) {
		g.Moves = append(g.Moves, env.Action(p-1))
	}
	g.SetTag("Round", strconv.Itoa(r.Index+1))
	g.SetTag("White", r.White)
	g.SetTag("Black", r.Black)
	g.SetTag("Opening", strconv.Itoa(len(r.Opening)))
	if r.Reason != "" {
		g.SetTag("Termination", r.Reason)
	}
	if r.TimeControl != "" {
		g.SetTag("TimeControl", r.TimeControl)
	}
	return g, nil
}

// Replay returns the position r's agents started from (its start after
// the opening, every opening move checked) and their moves as actions,
// checked only to be pits of the game: what a caller replays them from,
// such as the judge of mistakes (solve's Judge.Game checks each move).
// spec is the game, r.Game's.
func (r *Record) Replay(spec *env.Spec) (env.State, []env.Action, error) {
	if spec == nil || spec.Name != r.Game {
		return nil, nil, fmt.Errorf("arena: record of %s, not of game %v", r.Game, spec)
	}
	st, err := spec.Start(r.Start)
	if err != nil {
		return nil, nil, fmt.Errorf("arena: record of game %d: %w", r.Index+1, err)
	}
	if err := env.Replay(st, r.Opening); err != nil {
		return nil, nil, fmt.Errorf("arena: record of game %d: opening %w", r.Index+1, err)
	}
	moves := make([]env.Action, len(r.Moves))
	for i, p := range r.Moves {
		if p < 1 || p > spec.NumActions {
			return nil, nil, fmt.Errorf("arena: record of game %d: move %d: pit %d out of range 1..%d", r.Index+1, i+1, p, spec.NumActions)
		}
		moves[i] = env.Action(p - 1)
	}
	return st, moves, nil
}

// errAborted marks a game cut short by the match's context.
var errAborted = errors.New("arena: game aborted")

// player is one side of a game: an agent and its spec.
type player struct {
	ag   agent.Agent
	spec string
}

// play plays one game from start after the opening, white and black
// choosing moves, and returns its record (without Index and Pair) and the
// result. A game still running after maxPlies moves is adjudicated by the
// stores, as self-play does (env.Adjudicate).
func play(ctx context.Context, start env.State, opening []env.Action, white, black player, maxPlies int, tc *agent.TimeControl, note Notation) (*Record, env.Result, error) {
	st := env.Clone(start)
	for _, a := range opening {
		st.Apply(a)
	}
	for _, p := range []player{white, black} {
		if r, ok := p.ag.(agent.Resetter); ok {
			r.Reset()
		}
	}
	rec := &Record{Game: st.Spec().Name, White: white.spec, Black: black.spec, Start: start.String(), Opening: env.Pits(opening)}
	var clk *gameClock
	if tc != nil {
		clk, rec.TimeControl = newGameClock(*tc), tc.String()
	}
	moves := make([]env.Action, 0, 256)
	res := env.Ongoing
	for len(moves) < maxPlies && st.Result() == env.Ongoing {
		mover, side := white, st.ToMove()
		if side == env.Black {
			mover = black
		}
		ply := len(opening) + len(moves)
		mctx, cancel := ctx, context.CancelFunc(func() {})
		if clk != nil {
			if err := clk.give(mover.ag, side, ply); err != nil {
				return nil, env.Ongoing, fmt.Errorf("arena: %s: clock: %w", mover.spec, err)
			}
			// Past its flag a move is lost anyway: the agent is stopped soon after.
			mctx, cancel = context.WithTimeout(ctx, clk.left[side]+flagGrace)
		}
		began := time.Now()
		a, err := mover.ag.Move(mctx, st)
		used := time.Since(began)
		cancel()
		if ctx.Err() != nil {
			return nil, env.Ongoing, errAborted
		}
		if clk != nil {
			rec.UsedMS = append(rec.UsedMS, used.Milliseconds())
			if over, fell := clk.spend(side, used); fell {
				res, rec.Reason = env.WinFor(side.Other()), flagReason(side, mover.spec, used, over)
				break
			}
		}
		if err != nil {
			return nil, env.Ongoing, fmt.Errorf("arena: %s at ply %d of %s: %w", mover.spec, ply+1, st, err)
		}
		if _, err := env.CheckMove(st, a.Pit()); err != nil {
			return nil, env.Ongoing, fmt.Errorf("arena: %s played pit %d in %s: %w", mover.spec, a.Pit(), st, err)
		}
		st.Apply(a)
		moves = append(moves, a)
		observe(white.ag, a, st)
		observe(black.ag, a, st)
	}
	if res == env.Ongoing {
		res = st.Result()
	}
	if res == env.Ongoing {
		res, rec.Reason = env.Adjudicate(st), fmt.Sprintf("adjudicated by the stores after %d moves", maxPlies) // as self-play
	}
	rec.Moves, rec.Result, rec.Final = env.Pits(moves), res.String(), st.String()
	n, err := note(start, append(append([]env.Action(nil), opening...), moves...))
	if err != nil {
		return nil, env.Ongoing, fmt.Errorf("arena: notation: %w", err)
	}
	rec.Notation = n
	return rec, res, nil
}

// flagGrace is how long past its flag's fall an agent may take to answer
// the cancellation of its move before the arena stops waiting for it.
const flagGrace = 100 * time.Millisecond

// observe tells ag about a move, when it listens.
func observe(ag agent.Agent, a env.Action, next env.State) {
	if o, ok := ag.(agent.Observer); ok {
		o.Played(a, next)
	}
}

// Balance is the test a generated opening passes when a match asks for
// balanced openings (Config.Balanced): an alpha-beta search of Depth plies,
// scoring the store difference only (no mobility term, no table, so the
// score depends on the position alone), rates the position after the
// opening within Margin stones of even for the side to move; a proven
// result never passes.
type Balance struct {
	Depth  int     // plies of the search, >= 1
	Margin float64 // largest |score| kept, in stones of store difference
}

// BalanceOf returns the balance test of game name (its env.Facts, with
// the measurements behind it, in the game's folder); ok is false for a
// game without one, whose openings are never filtered.
func BalanceOf(name string) (b Balance, ok bool) {
	spec, err := env.Lookup(name)
	if err != nil {
		return Balance{}, false
	}
	f := spec.Facts.Balance
	if f.Depth < 1 {
		return Balance{}, false
	}
	return Balance{Depth: f.Depth, Margin: f.Margin}, true
}

// balancer scores openings with a Balance's search.
type balancer struct {
	b     Balance
	ab    agent.Agent
	st    env.State
	score map[string]float64 // by opening; NaN: a proven result
}

// newBalancer returns the balancer of spec's game, or nil when the game
// has no Balance test.
func newBalancer(spec *env.Spec) (*balancer, error) {
	b, ok := BalanceOf(spec.Name)
	if !ok {
		return nil, nil
	}
	ab, err := agent.New(spec, fmt.Sprintf("ab:depth=%d,mob=0,tt=0", b.Depth), 1)
	if err != nil {
		return nil, fmt.Errorf("arena: balanced openings: %w", err)
	}
	return &balancer{b: b, ab: ab, st: spec.New(), score: map[string]float64{}}, nil
}

// rate returns the search's score of the position after open from start,
// for the side to move, in stones; NaN for a proven result.
func (b *balancer) rate(start env.State, open []env.Action, key string) (float64, error) {
	if v, ok := b.score[key]; ok {
		return v, nil
	}
	b.st.CopyFrom(start)
	for _, a := range open {
		b.st.Apply(a)
	}
	if _, err := b.ab.Move(context.Background(), b.st); err != nil {
		return 0, fmt.Errorf("arena: balanced openings: %w", err)
	}
	an := b.ab.(agent.Analyzer).Analysis()
	v := float64(an.Score)
	if an.Mate != 0 {
		v = math.NaN()
	}
	b.score[key] = v
	return v, nil
}

// keeps reports whether open passes the test.
func (b *balancer) keeps(start env.State, open []env.Action, key string) (bool, error) {
	v, err := b.rate(start, open, key)
	return err == nil && math.Abs(v) <= b.b.Margin, err // NaN fails
}

// makeOpenings returns n openings of plies random moves from start, drawn
// from seed. An opening that ends the game is drawn again, and so is a
// repeat, until 100 draws in a row have failed to find a new one. With
// bal, an opening that fails bal's test is drawn again too (a seed gives
// the same openings with or without bal until the first rejection); after
// 1000 draws in a row without one to keep, it fails.
func makeOpenings(start env.State, n, plies int, seed uint64, bal *balancer) ([][]env.Action, error) {
	rng := rand.New(rand.NewPCG(seed, 0x6f70656e696e67))
	seen := map[string]bool{}
	out := make([][]env.Action, 0, n)
	st := env.Clone(start)
	var buf [env.MaxActions]env.Action
	if plies == 0 {
		bal = nil // a single opening, the start itself: nothing to choose
	}
	for len(out) < n {
		var open []env.Action
		for try := 0; ; try++ {
			if try == 1000 {
				if bal != nil {
					return nil, fmt.Errorf("arena: no opening of %d plies that a depth-%d search rates within %g stones of even in 1000 draws (turn balanced openings off)", plies, bal.b.Depth, bal.b.Margin)
				}
				return nil, fmt.Errorf("arena: no opening of %d plies that does not end the game", plies)
			}
			open = randomLine(st, start, plies, rng, buf[:0])
			if open == nil {
				continue
			}
			key := fmt.Sprint(open)
			if seen[key] && try < 100 {
				continue
			}
			if bal != nil {
				ok, err := bal.keeps(start, open, key)
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
			}
			seen[key] = true
			break
		}
		out = append(out, open)
	}
	return out, nil
}

// randomLine plays plies random moves from start on st and returns them, or
// nil when the game ends on the way.
func randomLine(st, start env.State, plies int, rng *rand.Rand, buf []env.Action) []env.Action {
	st.CopyFrom(start)
	line := make([]env.Action, 0, plies)
	for i := 0; i < plies; i++ {
		moves := st.Legal(buf[:0])
		if len(moves) == 0 {
			return nil
		}
		a := moves[rng.IntN(len(moves))]
		st.Apply(a)
		line = append(line, a)
	}
	if st.Result() != env.Ongoing {
		return nil
	}
	return line
}

// checkOpenings verifies that every given opening is legal from start and
// leaves the game running.
func checkOpenings(start env.State, openings [][]env.Action) error {
	for i, open := range openings {
		st := env.Clone(start)
		if err := env.Replay(st, env.Pits(open)); err != nil {
			return fmt.Errorf("arena: opening %d, %w", i+1, err)
		}
		if st.Result() != env.Ongoing {
			return fmt.Errorf("arena: opening %d ends the game", i+1)
		}
	}
	return nil
}

// ReadOpenings reads the openings file at path (ParseOpenings); its
// errors name the file. A path of "" has none (nil: random openings).
func ReadOpenings(path string) ([][]env.Action, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("arena: openings: %w", err)
	}
	defer f.Close()
	open, err := ParseOpenings(f)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return open, nil
}

// ParseOpenings reads openings, one a line, as pit numbers separated by
// spaces; blank lines and lines starting with # are skipped.
func ParseOpenings(r io.Reader) ([][]env.Action, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("arena: openings: %w", err)
	}
	var out [][]env.Action
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var open []env.Action
		for _, f := range strings.Fields(line) {
			p, err := strconv.Atoi(f)
			if err != nil || p < 1 || p > 255 {
				return nil, fmt.Errorf("arena: openings line %d: %q is not a pit number", n+1, f)
			}
			open = append(open, env.Action(p-1))
		}
		out = append(out, open)
	}
	if len(out) == 0 {
		return nil, errors.New("arena: openings: none found")
	}
	return out, nil
}
