package selfplay

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"kumalak/data"
	"kumalak/env"
	"kumalak/env/envtest"
)

// testConfig is a small, fast configuration for the test game.
func testConfig() Config {
	c := DefaultConfig()
	c.Games = 4
	c.FullSims = 24
	c.CheapSims = 6
	c.FullFraction = 1
	c.TempPlies = 4
	c.ResignThreshold = 0
	c.MaxPlies = 100
	return c
}

// collect runs games games and returns them ordered by index.
func collect(t *testing.T, ev interface {
	Evaluate(obs, mask, priors, values []float32) error
}, cfg Config, games int, seed uint64) ([]GameResult, Stats) {
	t.Helper()
	var got []GameResult
	st, err := Run(context.Background(), toySpec, ev, cfg, games, seed, func(g GameResult) { got = append(got, g) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != games || st.Games != games {
		t.Fatalf("got %d games, stats say %d, want %d", len(got), st.Games, games)
	}
	slices.SortFunc(got, func(a, b GameResult) int { return a.Index - b.Index })
	for i, g := range got {
		if g.Index != i {
			t.Fatalf("game indices %d at %d: a game was delivered twice or never", g.Index, i)
		}
	}
	return got, st
}

// replay returns the states before each move of g and the final state.
func replay(g *GameResult) []env.State {
	st := toySpec.New()
	states := []env.State{env.Clone(st)}
	for _, a := range g.Moves {
		st.Apply(a)
		states = append(states, env.Clone(st))
	}
	return states
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	bad := map[string]func(*Config){
		"games":               func(c *Config) { c.Games = 0 },
		"steppers":            func(c *Config) { c.Steppers = -2 },
		"full_sims":           func(c *Config) { c.FullSims = 0 },
		"cheap_sims":          func(c *Config) { c.CheapSims = c.FullSims + 1 },
		"full_fraction":       func(c *Config) { c.FullFraction = 0 },
		"temp_plies":          func(c *Config) { c.TempPlies = -1 },
		"opening_plies":       func(c *Config) { c.OpeningPlies = 65 },
		"temp":                func(c *Config) { c.Temp = float32(math.NaN()) },
		"resign_threshold":    func(c *Config) { c.ResignThreshold = 1 },
		"resign_plies":        func(c *Config) { c.ResignPlies = 0 },
		"resign_off_fraction": func(c *Config) { c.ResignOffFraction = 1.5 },
		"max_plies":           func(c *Config) { c.MaxPlies = 1 << 16 },
	}
	for field, spoil := range bad {
		c := DefaultConfig()
		spoil(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), field+" ") {
			t.Errorf("%s: got %v, want an error naming it", field, err)
		}
	}
}

// Every sample's targets are from the view of the player to move at its ply,
// which in the test game is often the same player twice in a row.
func TestTargetsFollowTheMoverAcrossExtraTurns(t *testing.T) {
	games, _ := collect(t, &toyEval{}, testConfig(), 24, 1)
	repeats := 0
	for _, g := range games {
		states := replay(&g)
		final := states[len(states)-1].(*envtest.Kalah)
		if g.Result != final.Result() || g.Capped || g.Resigned {
			t.Fatalf("game %d: result %s, replay says %s (capped %v, resigned %v)", g.Index, g.Result, final.Result(), g.Capped, g.Resigned)
		}
		if len(g.Samples) != g.Plies()-g.Forced {
			t.Fatalf("game %d: %d samples for %d plies (%d forced) with full_fraction 1", g.Index, len(g.Samples), g.Plies(), g.Forced)
		}
		for i, s := range g.Samples {
			st := states[s.Ply]
			mover := st.ToMove()
			if i > 0 && mover == states[s.Ply-1].ToMove() {
				repeats++
			}
			if want := g.Result.Value(mover); s.Outcome != want {
				t.Fatalf("game %d ply %d: outcome %v, want %v for mover %s", g.Index, s.Ply, s.Outcome, want, mover)
			}
			want := float32(final.Store(mover)-final.Store(mover.Other())) / float32(toySpec.Stones)
			if s.Score != want {
				t.Fatalf("game %d ply %d: score %v, want %v", g.Index, s.Ply, s.Score, want)
			}
			obs := make([]float32, toySpec.ObsLen)
			st.Observe(obs)
			if !slices.Equal(obs, s.Obs) {
				t.Fatalf("game %d ply %d: obs %v, want %v", g.Index, s.Ply, s.Obs, obs)
			}
			if s.RootValue < -1 || s.RootValue > 1 {
				t.Fatalf("root value %v out of [-1, 1]", s.RootValue)
			}
		}
	}
	if repeats == 0 {
		t.Fatal("no extra turn in any game: the test proves nothing")
	}
}

func TestPolicyTargets(t *testing.T) {
	games, _ := collect(t, &toyEval{}, testConfig(), 16, 2)
	masked := 0
	for _, g := range games {
		states := replay(&g)
		for _, s := range g.Samples {
			var legal uint64
			for _, a := range states[s.Ply].Legal(nil) {
				legal |= 1 << a
			}
			if s.Legal != legal {
				t.Fatalf("ply %d: legal mask %b, want %b", s.Ply, s.Legal, legal)
			}
			var sum float32
			for a, p := range s.Policy {
				if legal>>a&1 == 0 && p != 0 {
					t.Fatalf("ply %d: policy %v is not 0 on illegal action %d", s.Ply, s.Policy, a)
				}
				sum += p
			}
			if math.Abs(float64(sum-1)) > 1e-5 {
				t.Fatalf("ply %d: policy %v sums to %v", s.Ply, s.Policy, sum)
			}
			if legal != 7 {
				masked++
			}
		}
	}
	if masked == 0 {
		t.Fatal("no sample with an illegal action")
	}
}

// Only full searches make samples, and about FullFraction of moves get one.
func TestPlayoutCap(t *testing.T) {
	cfg := testConfig()
	cfg.FullFraction = 0.3
	cfg.Search.Solver = false // every search then runs its full budget
	games, st := collect(t, &toyEval{}, cfg, 80, 3)
	full := 0
	for _, g := range games {
		var plies []uint16
		for ply, f := range g.Full {
			if f {
				plies = append(plies, uint16(ply))
			}
		}
		var got []uint16
		for _, s := range g.Samples {
			got = append(got, s.Ply)
		}
		if !slices.Equal(got, plies) {
			t.Fatalf("game %d: sample plies %v, full-search plies %v", g.Index, got, plies)
		}
		full += len(plies)
	}
	frac := float64(full) / float64(st.Plies)
	if math.Abs(frac-0.3) > 0.05 || st.Samples != full {
		t.Fatalf("%d full searches in %d plies (%.3f), %d samples; want about 0.3", full, st.Plies, frac, st.Samples)
	}
	if want := int64(full*cfg.FullSims + (st.Plies-full-st.Forced)*cfg.CheapSims); st.Positions != want {
		t.Fatalf("positions %d, want %d", st.Positions, want)
	}
}

func TestCheapSearchHasNoNoise(t *testing.T) {
	cfg := testConfig()
	cfg.FullFraction = 0.5
	w := newWorker(toySpec, &toyEval{}, cfg, func(int64, int64) {})
	if l := w.limits(true); l.NoNoise || l.Sims != cfg.FullSims {
		t.Fatalf("full search limits %+v", l)
	}
	if l := w.limits(false); !l.NoNoise || l.Sims != cfg.CheapSims {
		t.Fatalf("cheap search limits %+v", l)
	}
}

// Opening moves are sampled (games differ), later ones are the most visited.
func TestTemperature(t *testing.T) {
	cfg := testConfig()
	cfg.Search.NoiseAlpha = 0
	cfg.Search.Solver = false // proven wins are played whatever the visits
	cfg.TempPlies = 3
	openings := map[string]bool{}
	games, _ := collect(t, &toyEval{}, cfg, 30, 4)
	for _, g := range games {
		openings[fmtMoves(g.Moves[:3])] = true
		states := replay(&g)
		for _, s := range g.Samples[cfg.TempPlies:] {
			a := g.Moves[s.Ply]
			if s.Policy[a] != slices.Max(s.Policy) && !winsAtOnce(states[s.Ply], a) {
				t.Fatalf("game %d ply %d: played %d, policy %v", g.Index, s.Ply, a, s.Policy)
			}
		}
	}
	if len(openings) < 3 {
		t.Fatalf("only %d distinct openings in 30 games with temperature", len(openings))
	}
	cfg.Temp = 0
	games, _ = collect(t, &toyEval{}, cfg, 10, 4)
	for _, g := range games[1:] {
		if !slices.Equal(g.Moves, games[0].Moves) {
			t.Fatalf("temperature 0 without noise: games differ: %v, %v", g.Moves, games[0].Moves)
		}
	}
}

// Random opening plies: with temperature 0 and no noise every game would
// be the same; with OpeningPlies each game starts with 0..OpeningPlies
// random moves that have no sample, and the games differ.
func TestOpeningPlies(t *testing.T) {
	cfg := testConfig()
	cfg.Search.NoiseAlpha = 0
	cfg.Temp = 0
	cfg.OpeningPlies = 4
	games, st := collect(t, &toyEval{}, cfg, 40, 5)
	lines, unsampled := map[string]bool{}, map[int]bool{}
	for _, g := range games {
		lines[fmtMoves(g.Moves)] = true
		first := len(g.Moves)
		if len(g.Samples) > 0 {
			first = int(g.Samples[0].Ply)
		}
		if first > cfg.OpeningPlies+g.Forced {
			t.Fatalf("game %d: first sample at ply %d, more than %d random plies and %d forced", g.Index, first, cfg.OpeningPlies, g.Forced)
		}
		unsampled[min(first, cfg.OpeningPlies)] = true
	}
	if len(lines) < 10 {
		t.Fatalf("only %d distinct games of 40 with random openings", len(lines))
	}
	if len(unsampled) < 3 {
		t.Fatalf("the random plies before the first sample took only the counts %v", unsampled)
	}
	if st.Samples == 0 {
		t.Fatal("no samples")
	}
}

// winsAtOnce reports whether a ends the game with a win for the mover:
// the search plays such a move whatever the visits.
func winsAtOnce(st env.State, a env.Action) bool {
	next := env.Clone(st)
	next.Apply(a)
	return next.Result().Value(st.ToMove()) == 1
}

func fmtMoves(m []env.Action) string {
	var b strings.Builder
	for _, a := range m {
		b.WriteByte(byte('1' + a))
	}
	return b.String()
}

// With an evaluator that says white is lost, white resigns at its
// ResignPlies-th move, except in resign-off games, where the would-be
// resignation is checked against the real result.
func TestResign(t *testing.T) {
	cfg := testConfig()
	cfg.ResignThreshold = 0.8
	cfg.ResignPlies = 2
	cfg.ResignOffFraction = 0.4
	cfg.FullSims, cfg.CheapSims = 4, 2
	games, st := collect(t, whiteLost{}, cfg, 60, 5)
	off, falseResigns := 0, 0
	for _, g := range games {
		whiteMoves := 0
		for _, s := range replay(&g)[:g.Plies()] {
			if s.ToMove() == env.White {
				whiteMoves++
			}
		}
		if g.ResignOff {
			off++
			if g.Resigned || !g.WouldResign || g.Resigner != env.White {
				t.Fatalf("resign-off game %d: resigned %v, would %v by %s", g.Index, g.Resigned, g.WouldResign, g.Resigner)
			}
			if g.FalseResign != (g.Result != env.BlackWins) {
				t.Fatalf("resign-off game %d: false resign %v with result %s", g.Index, g.FalseResign, g.Result)
			}
			falseResigns += b2i(g.FalseResign)
			continue
		}
		if !g.Resigned || g.Resigner != env.White || g.Result != env.BlackWins || whiteMoves != cfg.ResignPlies-1 {
			t.Fatalf("game %d: resigned %v by %s, result %s after %d white moves", g.Index, g.Resigned, g.Resigner, g.Result, whiteMoves)
		}
		for _, s := range g.Samples {
			want := float32(1)
			if s.Obs[toySpec.ObsLen-1] == 1 { // white to move
				want = -1
			}
			if s.Outcome != want {
				t.Fatalf("resigned game %d: outcome %v, want %v", g.Index, s.Outcome, want)
			}
		}
	}
	if off < 12 || off > 36 {
		t.Fatalf("%d of 60 games with resignation off, want about 24", off)
	}
	if st.Resigned != 60-off || st.ResignOff != off || st.WouldResign != off || st.FalseResigns != falseResigns {
		t.Fatalf("stats %+v, want %d resigned, %d off, %d false", st, 60-off, off, falseResigns)
	}
	if falseResigns == 0 || st.FalseResignRate() != float64(falseResigns)/float64(off) {
		t.Fatalf("false resign rate %v from %d/%d: the evaluator is wrong, some should be false", st.FalseResignRate(), falseResigns, off)
	}
}

func TestPlyCap(t *testing.T) {
	cfg := testConfig()
	cfg.MaxPlies = 3
	games, st := collect(t, &toyEval{}, cfg, 12, 6)
	for _, g := range games {
		final := replay(&g)[g.Plies()].(*envtest.Kalah)
		if !g.Capped || g.Plies() != 3 {
			t.Fatalf("game %d: capped %v after %d plies", g.Index, g.Capped, g.Plies())
		}
		if want := adjudicate(final); g.Result != want || want == env.Ongoing {
			t.Fatalf("game %d: result %s, final %s says %s", g.Index, g.Result, final, want)
		}
		for _, s := range g.Samples {
			if s.Outcome != g.Result.Value(replay(&g)[s.Ply].ToMove()) {
				t.Fatalf("capped game %d: outcome %v", g.Index, s.Outcome)
			}
		}
	}
	if st.Capped != 12 || st.WhiteWins+st.BlackWins+st.Draws != 12 {
		t.Fatalf("stats %+v", st)
	}
}

func TestAdjudicateWithoutStores(t *testing.T) {
	if r := adjudicate(noStores{toySpec.New().(*envtest.Kalah)}); r != env.Draw {
		t.Fatalf("got %s, want a draw", r)
	}
}

type noStores struct{ *envtest.Kalah }

func (noStores) Store() {} // hides Kalah.Store: not an env.Scorer

func TestCancel(t *testing.T) {
	cfg := testConfig()
	cfg.MaxPlies = 1000
	ev := &toyEval{delay: time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	begin := time.Now()
	delivered := 0
	st, err := Run(ctx, toySpec, ev, cfg, 1000, 7, func(GameResult) { delivered++ })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want deadline exceeded", err)
	}
	if d := time.Since(begin); d > 3*time.Second {
		t.Fatalf("Run took %v after a 60ms deadline", d)
	}
	if st.Games != delivered || st.Games >= 1000 {
		t.Fatalf("%d games in stats, %d delivered", st.Games, delivered)
	}
}

func TestEvaluatorError(t *testing.T) {
	ev := &lockedEval{failAt: 50}
	_, err := Run(context.Background(), toySpec, ev, testConfig(), 100, 8, nil)
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), "selfplay: game ") {
		t.Fatalf("err %v, want the evaluator's error with the game", err)
	}
}

func TestDeterminism(t *testing.T) {
	cfg := testConfig()
	cfg.Games = 1
	cfg.FullFraction = 0.5
	a, _ := collect(t, &toyEval{}, cfg, 6, 9)
	b, _ := collect(t, &toyEval{}, cfg, 6, 9)
	if !sameGames(a, b) {
		t.Fatal("same seed, different games")
	}
	cfg.Games = 3 // each game's randomness comes from (seed, index) only
	c, _ := collect(t, &toyEval{}, cfg, 6, 9)
	if !sameGames(a, c) {
		t.Fatal("games depend on the number of workers")
	}
	d, _ := collect(t, &toyEval{}, cfg, 6, 10)
	if sameGames(a, d) {
		t.Fatal("different seeds, same games")
	}
}

func sameGames(a, b []GameResult) bool {
	for i := range a {
		a[i].Samples, b[i].Samples = trimSamples(a[i].Samples), trimSamples(b[i].Samples)
	}
	return reflect.DeepEqual(a, b)
}

// trimSamples drops the slab capacity behind each slice, which DeepEqual
// ignores anyway, so that the comparison is about the values.
func trimSamples(s []data.Sample) []data.Sample {
	out := make([]data.Sample, len(s))
	for i, x := range s {
		x.Obs, x.Policy = slices.Clone(x.Obs), slices.Clone(x.Policy)
		out[i] = x
	}
	return out
}

// Many games share one evaluator; run under -race.
func TestConcurrentGames(t *testing.T) {
	cfg := testConfig()
	cfg.Games = 8
	cfg.FullFraction = 0.5
	cfg.ResignThreshold, cfg.ResignPlies, cfg.ResignOffFraction = 0.95, 2, 0.5
	ev := &lockedEval{}
	p, err := NewPool(toySpec, ev, cfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 100; i++ {
			if pr := p.Progress(); pr.Games < 0 || pr.Positions < 0 || pr.GamesPerSec() < 0 {
				t.Errorf("progress %+v", pr)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	for round := uint64(0); round < 2; round++ {
		seen := make([]bool, 40)
		var sum Stats
		st, err := p.Run(context.Background(), 40, round, func(g GameResult) {
			if seen[g.Index] {
				t.Errorf("game %d delivered twice", g.Index)
			}
			seen[g.Index] = true
			sum.add(&g)
		})
		if err != nil {
			t.Fatal(err)
		}
		if pr := p.Progress(); pr.Games != 40 || pr.Plies != int64(st.Plies+st.Resigned) || pr.Samples != int64(st.Samples) {
			t.Fatalf("progress %+v, stats %v", pr, st)
		}
		sum.Positions, sum.Elapsed = st.Positions, st.Elapsed
		if sum != st || slices.Contains(seen, false) {
			t.Fatalf("stats %+v, sum of games %+v", st, sum)
		}
	}
	<-done
}

func TestStoreFunc(t *testing.T) {
	tt, err := envtest.ParseKalah(toySpec, "2,2,2/2,3,3 3 1 - - w 0")
	if err != nil {
		t.Fatal(err)
	}
	if f := storeFunc(tt); f == nil || f(env.White) != 3 {
		t.Fatal("env.Scorer not used")
	}
	if f := storeFunc(finalToy{tt}); f == nil || f(env.White) != 103 {
		t.Fatal("FinalScorer not preferred")
	}
	if f := storeFunc(noStores{tt}); f != nil {
		t.Fatal("a store function for a game without stores")
	}
}

type finalToy struct{ *envtest.Kalah }

func (f finalToy) FinalStore(p env.Player) int { return f.Store(p) + 100 }
