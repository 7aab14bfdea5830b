package agent

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"kumalak/env"
)

// -calibrate re-fits the calibrations from fresh games and prints the
// constants for each game's Calibration (env.Calibrated, in the game's
// folder; a few minutes; -calibrate-game picks one game):
//
//	go test ./agent -run TestCalibrate -calibrate -v
var (
	calibrate      = flag.Bool("calibrate", false, "play games and re-fit the alpha-beta calibrations")
	calibrateGames = flag.Int("calibrate-games", 1000, "games per game kind for -calibrate")
	calibrateGame  = flag.String("calibrate-game", "", "the one game to re-fit (default: every registered game)")
)

// calibrationData plays n games of spec between ab:depth=3 players after
// 6 random plies, and scores every 3rd position from ply 6 on with an
// ab:depth=5 search: the samples pair that score with the game's outcome
// for the mover. Proven scores and games over 600 plies are left out.
func calibrationData(spec *env.Spec, n int, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 0xca11b))
	player := newSearcher(spec, 3, 0, 50, 4, rng)
	probe := newSearcher(spec, 5, 0, 50, 16, rng)
	var out []Sample
	var buf [env.MaxActions]env.Action
	for g := 0; g < n; g++ {
		st := spec.New()
		type pt struct {
			mover env.Player
			score float64
		}
		var pts []pt
		for ply := 0; ply < 600 && st.Result() == env.Ongoing; ply++ {
			if ply < 6 {
				moves := st.Legal(buf[:0])
				st.Apply(moves[rng.IntN(len(moves))])
				continue
			}
			if ply%3 == 0 {
				probe.Reset()
				if _, err := probe.Move(context.Background(), st); err == nil && abs32(probe.score) < winBound {
					pts = append(pts, pt{st.ToMove(), float64(probe.score) / stoneUnit})
				}
			}
			a, err := player.Move(context.Background(), st)
			if err != nil {
				break
			}
			st.Apply(a)
		}
		r := st.Result()
		if r == env.Ongoing {
			continue
		}
		for _, p := range pts {
			out = append(out, Sample{Score: p.score, Outcome: int(r.Value(p.mover))})
		}
	}
	return out
}

func TestCalibrate(t *testing.T) {
	if !*calibrate {
		t.Skip("re-fits the calibrations: run with -calibrate")
	}
	names := env.Games()
	if *calibrateGame != "" {
		names = []string{*calibrateGame}
	}
	for _, name := range names {
		spec, err := env.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		data := calibrationData(spec, *calibrateGames, 1)
		c, err := Fit(data)
		if err != nil {
			t.Fatal(err)
		}
		var w, d, l int
		for _, s := range data {
			switch s.Outcome {
			case 1:
				w++
			case 0:
				d++
			default:
				l++
			}
		}
		fmt.Printf("%q: {K: %.4f, Draw: %.4f}, // %d games, %d samples (W/D/L %d/%d/%d); start %.3f, +5 stones %.3f\n",
			name, c.K, c.Draw, *calibrateGames, len(data), w, d, l, c.WinProb(0), c.WinProb(5))
	}
}

// TestFitRecovers fits samples drawn from a known model and finds it
// again.
func TestFitRecovers(t *testing.T) {
	for _, want := range []Calibration{{K: 0.2, Draw: 0.5}, {K: 0.05, Draw: 0}} {
		rng := rand.New(rand.NewPCG(7, 7))
		var data []Sample
		for range 20000 {
			s := rng.NormFloat64() * 15
			w, d, _ := want.WDL(s)
			u, o := rng.Float64(), -1
			switch {
			case u < w:
				o = 1
			case u < w+d:
				o = 0
			}
			data = append(data, Sample{Score: s, Outcome: o})
		}
		got, err := Fit(data)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.K-want.K) > 0.15*want.K || math.Abs(got.Draw-want.Draw) > 0.1 {
			t.Errorf("Fit = %+v, want about %+v", got, want)
		}
	}
	if _, err := Fit([]Sample{{Score: 1, Outcome: 1}}); err == nil {
		t.Error("Fit of wins only succeeded")
	}
}

func TestCalibrationShape(t *testing.T) {
	for _, name := range env.Games() {
		c, ok := CalibrationOf(name)
		if !ok {
			t.Errorf("%s: no calibration", name)
			continue
		}
		if c.K <= 0 || c.Draw < 0 {
			t.Errorf("%s: %+v: want K > 0 and Draw >= 0", name, c)
		}
		// Even at an even score, rising with the score, symmetric.
		if p := c.WinProb(0); math.Abs(p-0.5) > 1e-9 {
			t.Errorf("%s: WinProb(0) = %v, want 0.5", name, p)
		}
		for s := -20.0; s < 20; s += 0.5 {
			if c.WinProb(s+0.5) <= c.WinProb(s) {
				t.Errorf("%s: WinProb not rising at %v", name, s)
			}
			if math.Abs(c.WinProb(s)+c.WinProb(-s)-1) > 1e-9 {
				t.Errorf("%s: WinProb(%v) + WinProb(%v) != 1", name, s, -s)
			}
			w, d, l := c.WDL(s)
			if math.Abs(w+d+l-1) > 1e-9 || d < 0 {
				t.Errorf("%s: WDL(%v) = %v %v %v", name, s, w, d, l)
			}
		}
		if back := c.Score(c.WinProb(7), 100); math.Abs(back-7) > 1e-6 {
			t.Errorf("%s: Score(WinProb(7)) = %v", name, back)
		}
	}
	if _, ok := WinProb("chess", 1); ok {
		t.Error("WinProb of an unknown game is ok")
	}
	if p, ok := WinProb("togyz", 0); !ok || p != 0.5 {
		t.Errorf("WinProb(togyz, 0) = %v, %v", p, ok)
	}
}

// TestScorer: an MCTS chance scores as the store lead of the same
// calibrated chance, or, without a calibration, as its logit.
func TestScorer(t *testing.T) {
	togyz, _ := env.Lookup("togyz")
	c, _ := CalibrationOf("togyz")
	uncal := &env.Spec{Name: "no-such-game", Stones: 48}
	cases := []struct {
		spec *env.Spec
		p    float32
		want float32
	}{
		{togyz, float32(c.WinProb(7)), 7},
		{togyz, 0.5, 0},
		{uncal, 0.75, 10},
		{uncal, 0.5, 0},
	}
	for _, k := range cases {
		if got := newScorer(k.spec).of(k.p); math.Abs(float64(got-k.want)) > 1e-3 {
			t.Errorf("%s: score of %v = %v, want %v", k.spec.Name, k.p, got, k.want)
		}
	}
}
