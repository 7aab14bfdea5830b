package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"

	"kumalak/agent"
	"kumalak/env"
	"kumalak/rating"
)

// Config holds the settings of a match (and of each pairing of a
// tournament).
type Config struct {
	Games        int            // games to play, in pairs; an odd count leaves the last pair one game
	Parallel     int            // games played at once, in [1, 256]
	OpeningPlies int            // random plies of a generated opening, in [0, 64]
	Openings     [][]env.Action // given openings, used in turn; none = generated
	Balanced     bool           // keep only generated openings that a quick search rates near even (BalanceOf); games without a Balance are not filtered
	Start        string         // position string the openings start from; "" = the game's start
	Seed         uint64         // seeds the openings and the agents
	MaxPlies     int            // moves after the opening before a game is adjudicated by the stores (env.Adjudicate), in [1, 100000]
	SPRT         *SPRT          // when set, stop as soon as the test decides
	// Clock, when set, plays every game at this time control: a side whose
	// flag falls loses (its record's Reason, the Termination tag, says so).
	Clock *agent.TimeControl
}

// DefaultConfig returns 100 games, one at a time, balanced openings of 4
// random plies, seed 1, and at most 1000 moves a game.
func DefaultConfig() Config {
	return Config{Games: 100, Parallel: 1, OpeningPlies: 4, Balanced: true, Seed: 1, MaxPlies: 1000}
}

// Validate names the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.Games < 1 || c.Games > 10_000_000:
		return invalid("games %d out of range 1..10000000", c.Games)
	case c.Parallel < 1 || c.Parallel > 256:
		return invalid("parallel %d out of range 1..256", c.Parallel)
	case c.OpeningPlies < 0 || c.OpeningPlies > 64:
		return invalid("opening plies %d out of range 0..64", c.OpeningPlies)
	case c.MaxPlies < 1 || c.MaxPlies > 100_000:
		return invalid("max plies %d out of range 1..100000", c.MaxPlies)
	}
	if c.Clock != nil && (c.Clock.Base <= 0 || c.Clock.Inc < 0 || c.Clock.Moves < 0) {
		return invalid("time control %+v: want a base > 0, an increment >= 0 and moves >= 0", *c.Clock)
	}
	if c.SPRT != nil {
		return c.SPRT.Validate()
	}
	return nil
}

// ValueError is the error of the Validate methods: Reason says what is out
// of range without the package's name ("games 0 out of range 1..10000000").
type ValueError struct{ Reason string }

func (e *ValueError) Error() string { return "arena: " + e.Reason }

// Why is the reason alone, without the package's name, for a command
// that names its own.
func (e *ValueError) Why() string { return e.Reason }

func invalid(format string, args ...any) error {
	return &ValueError{Reason: fmt.Sprintf(format, args...)}
}

// NewAgentFunc builds an agent from its spec string; agent.New is one.
type NewAgentFunc func(spec *env.Spec, s string, seed uint64) (agent.Agent, error)

// Progress is reported after every finished game.
type Progress struct {
	Done, Total int           // games finished and planned (of the whole tournament, for one)
	A, B        string        // the agents of the current match
	Counts      rating.Counts // the current match so far, from A's view
	LLR         float64       // the SPRT's log-likelihood ratio so far, when testing
}

// Match is a match of paired games between agents A and B.
type Match struct {
	Spec   *env.Spec
	A, B   string // agent specs
	Config Config

	NewAgent NewAgentFunc   // builds the agents; nil = agent.New
	Progress func(Progress) // called after every game; may be nil
	Records  io.Writer      // receives one JSON line per game; may be nil
	Notation Notation       // writes Record.Notation; nil = the game's own (Spec.FormatMoves)
	// Done are games of an earlier run of this match (ReadLog of its log,
	// killed or shorter): Run checks that each is a game of this match (its
	// number, agents, colours, opening, start and clock), counts it and
	// plays only the others. They are not written to Records again.
	Done []Record
}

// Result is the outcome of a match, from A's view.
type Result struct {
	A, B    string
	Counts  rating.Counts // all finished games
	AWhite  rating.Counts // the games A played as White
	Pairs   rating.Pairs  // the complete pairs
	Elo     rating.Elo    // from the pairs when every game was paired, else from the games
	Model   string        // "pentanomial" or "trinomial": how rating.Elo's interval was computed
	LOS     float64
	SPRT    *SPRT   // the test, when one ran
	LLR     float64 // its log-likelihood ratio, on the pairs
	Verdict Verdict
	Stopped bool // the SPRT ended the match before all games were played
	// Forfeits counts the games A and B lost by failing: a crash, a hang
	// past their time, an illegal move or any other error of a move
	// (their records say why).
	ForfeitsA, ForfeitsB int
}

// gameOut is what a worker sends back for one game.
type gameOut struct {
	rec     *Record
	score   float64 // for A
	aWhite  bool
	forfeit int // 1: A lost by failing, 2: B did
	err     error
}

// Run plays the match and returns its result. It stops early when the SPRT
// decides, and returns the games finished so far with ctx's error when ctx
// ends, or with the first error of an agent or of Records.
func (m *Match) Run(ctx context.Context) (Result, error) {
	res := Result{A: m.A, B: m.B, SPRT: m.Config.SPRT}
	if err := m.Config.Validate(); err != nil {
		return res, err
	}
	start, openings, err := m.prepare(m.Config)
	if err != nil {
		return res, err
	}
	err = m.play(ctx, start, openings, &res, 0, m.Config.Games)
	return res, err
}

// play counts the games of m.Done into res, plays the others and computes
// the Elo estimate; done and total are as run's.
func (m *Match) play(ctx context.Context, start env.State, openings [][]env.Action, res *Result, done, total int) error {
	t := tally{res: res, total: m.Config.Games, pending: map[int]float64{}}
	defer t.finish()
	skip, err := m.resume(start, openings, &t)
	if err != nil {
		return err
	}
	if n := len(skip); n > 0 && m.Progress != nil {
		m.Progress(Progress{Done: done + n, Total: total, A: m.A, B: m.B, Counts: res.Counts, LLR: res.LLR})
	}
	if res.Stopped || res.Counts.Games() == m.Config.Games {
		return nil
	}
	return m.run(ctx, start, openings, skip, &t, done, total)
}

// prepare returns the start position and the openings.
func (m *Match) prepare(c Config) (env.State, [][]env.Action, error) {
	start, err := m.Spec.Start(c.Start)
	if err != nil {
		return nil, nil, fmt.Errorf("arena: %w", err)
	}
	if start.Result() != env.Ongoing {
		return nil, nil, errors.New("arena: the start position is already over")
	}
	if len(c.Openings) > 0 {
		return start, c.Openings, checkOpenings(start, c.Openings)
	}
	var bal *balancer
	if c.Balanced {
		if bal, err = newBalancer(m.Spec); err != nil {
			return nil, nil, err
		}
	}
	open, err := makeOpenings(start, (c.Games+1)/2, c.OpeningPlies, c.Seed, bal)
	return start, open, err
}

func (m *Match) newAgent() NewAgentFunc {
	if m.NewAgent != nil {
		return m.NewAgent
	}
	return agent.New
}

// run plays the games with the workers and feeds the tally; done is the
// count of games finished before this match (tournaments), total the games
// of the whole run.
func (m *Match) run(parent context.Context, start env.State, openings [][]env.Action, skip map[int]bool, t *tally, done, total int) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	out := make(chan gameOut)
	workers := min(m.Config.Parallel, (m.Config.Games+1)/2)
	for w := 0; w < workers; w++ {
		go m.worker(ctx, w, start, openings, skip, share(ctx, w, workers, (m.Config.Games+1)/2), out)
	}
	var firstErr error
	for running := workers; running > 0; {
		g := <-out
		switch {
		case g.rec == nil && g.err == nil: // a worker finished
			running--
		case g.err != nil:
			if firstErr == nil && !errors.Is(g.err, errAborted) {
				firstErr = g.err
			}
			cancel()
		case firstErr == nil && !t.res.Stopped:
			if err := m.take(g, t, done, total); err != nil {
				firstErr = err
				cancel()
			}
			if t.res.Stopped {
				cancel()
			}
		}
	}
	if firstErr == nil && !t.res.Stopped && t.res.Counts.Games() < m.Config.Games {
		firstErr = parent.Err()
	}
	return firstErr
}

// share yields worker w of workers its pair numbers below n, w, w+workers,
// w+2*workers..., until ctx ends. Each worker's agents (seeded by the
// worker) thus play the same games whatever the timing, and a match with
// random agents is reproducible at any Parallel.
func share(ctx context.Context, w, workers, n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for p := w; p < n && ctx.Err() == nil; p += workers {
			if !yield(p) {
				return
			}
		}
	}
}

// worker plays the pairs it receives with its own two agents, closes them
// (io.Closer), then sends an empty gameOut.
func (m *Match) worker(ctx context.Context, w int, start env.State, openings [][]env.Action, skip map[int]bool, pairs iter.Seq[int], out chan<- gameOut) {
	defer func() { out <- gameOut{} }()
	seed := m.Config.Seed ^ uint64(w+1)*0x9e3779b97f4a7c15
	a, err := m.guarded(m.A, seed)
	if err == nil {
		defer closeAgent(a, out)
		var b *guard
		if b, err = m.guarded(m.B, seed^0xb); err == nil {
			defer closeAgent(b, out)
			m.playPairs(ctx, start, openings, skip, player{a, m.A}, player{b, m.B}, pairs, out)
			return
		}
	}
	out <- gameOut{err: err}
}

// closeAgent closes an agent that holds resources (an engine process), and
// reports a failure.
func closeAgent(a agent.Agent, out chan<- gameOut) {
	if err := agent.Close(a); err != nil {
		out <- gameOut{err: fmt.Errorf("arena: close agent: %w", err)}
	}
}

// playPairs plays both games of each pair received: A as White, then as
// Black.
func (m *Match) playPairs(ctx context.Context, start env.State, openings [][]env.Action, skip map[int]bool, a, b player, pairs iter.Seq[int], out chan<- gameOut) {
	note := m.Notation
	if note == nil {
		note = m.Spec.FormatMoves
	}
	for p := range pairs {
		open := openings[p%len(openings)]
		for g := 2 * p; g < 2*p+2 && g < m.Config.Games; g++ {
			if skip[g] { // played in an earlier run (Done)
				continue
			}
			white, black, aWhite := a, b, g%2 == 0
			if !aWhite {
				white, black = b, a
			}
			rec, r, err := play(ctx, start, open, white, black, m.Config.MaxPlies, m.Config.Clock, note)
			forfeit := 0
			if err == nil {
				a.ag.(*guard).fails, b.ag.(*guard).fails = 0, 0
			} else {
				if rec, r, forfeit, err = m.forfeit(start, open, white, black, aWhite, note, err); err != nil {
					out <- gameOut{err: err}
					continue
				}
			}
			rec.Index, rec.Pair, rec.A = g, p, "white"
			if !aWhite {
				rec.A = "black"
			}
			out <- gameOut{rec: rec, score: scoreOf(r, aWhite), aWhite: aWhite, forfeit: forfeit}
		}
	}
}

// scoreOf is A's score in a game ending r, A playing White when aWhite.
func scoreOf(r env.Result, aWhite bool) float64 {
	if aWhite {
		return float64(r.Value(env.White)+1) / 2
	}
	return float64(r.Value(env.Black)+1) / 2
}

// forfeitOf is gameOut.forfeit for a game that the side of colour lost by
// failing ("white" or "black"), A playing White when aWhite: 1 when that
// was A, 2 when B.
func forfeitOf(colour string, aWhite bool) int {
	if (colour == "white") == aWhite {
		return 1
	}
	return 2
}

// take counts one finished game, writes its record and reports progress.
func (m *Match) take(g gameOut, t *tally, done, total int) error {
	t.add(g)
	if m.Records != nil {
		if err := writeRecord(m.Records, g.rec); err != nil {
			return err
		}
	}
	if m.Progress != nil {
		m.Progress(Progress{Done: done + t.res.Counts.Games(), Total: total, A: m.A, B: m.B, Counts: t.res.Counts, LLR: t.res.LLR})
	}
	return nil
}

// tally accumulates a match's games into its Result.
type tally struct {
	res     *Result
	total   int             // games planned
	pending map[int]float64 // first finished game of a pair: its score
}

// add counts a game, completes its pair when the other game is in, and
// updates the SPRT.
func (t *tally) add(g gameOut) {
	switch g.forfeit {
	case 1:
		t.res.ForfeitsA++
	case 2:
		t.res.ForfeitsB++
	}
	t.res.Counts.Add(g.score)
	if g.aWhite {
		t.res.AWhite.Add(g.score)
	}
	first, ok := t.pending[g.rec.Pair]
	if !ok {
		t.pending[g.rec.Pair] = g.score
		return
	}
	delete(t.pending, g.rec.Pair)
	t.res.Pairs.Add(first, g.score)
	if s := t.res.SPRT; s != nil {
		t.res.LLR = s.LLRPairs(t.res.Pairs)
		t.res.Verdict = s.Verdict(t.res.LLR)
		t.res.Stopped = t.res.Verdict != Inconclusive && t.res.Counts.Games() < t.total
	}
}

// finish computes the Elo estimate.
func (t *tally) finish() {
	r := t.res
	r.LOS = rating.LOS(r.Counts)
	if r.Pairs.Total() > 0 && 2*r.Pairs.Total() == r.Counts.Games() {
		r.Elo, r.Model = rating.EloOfPairs(r.Pairs), "pentanomial"
		return
	}
	r.Elo, r.Model = rating.EloOfCounts(r.Counts), "trinomial"
	if r.Counts.Games() == 0 {
		r.Elo = rating.Elo{Diff: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
}
