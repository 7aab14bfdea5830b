package ladder

import (
	"math"
	"testing"

	"kumalak/net"
	"kumalak/rating"
)

// TestRateAgainstAnchorErrors: the rating's interval adds the anchors'
// errors in quadrature, each weighted by its baseline's share of the
// Fisher information, on hand-made cases.
func TestRateAgainstAnchorErrors(t *testing.T) {
	// Symmetric results against baselines rated 0 and 800 put the network
	// at 400, where both weigh the same: the anchor at 800 (error 100)
	// adds (1/2)^2 * 100^2 to the variance; random (error 0) adds nothing.
	a := &net.Anchors{Ratings: map[string]float64{"random": 0, "ab": 800}, Errors: map[string]float64{"random": 0, "ab": 100}}
	res := map[string]rating.Match{"random": {Games: 100, Wins: 90, Losses: 10}, "ab": {Games: 100, Wins: 10, Losses: 90}}
	_, fit := rating.RateAgainst([]float64{0, 800}, []float64{90, 10}, []float64{100, 100}, Prior)
	cases := []struct {
		name    string
		a       *net.Anchors
		res     map[string]rating.Match
		elo, hw float64
	}{
		{"two baselines", a, res, 400, math.Sqrt(fit*fit + 50*50)},
		{"exact anchors", &net.Anchors{Ratings: a.Ratings, Errors: map[string]float64{}}, res, 400, fit},
	}
	// One baseline rated 300 ± 60, an even score: the whole anchor error
	// passes to the rating.
	_, fit1 := rating.RateAgainst([]float64{300}, []float64{50}, []float64{100}, Prior)
	cases = append(cases, struct {
		name    string
		a       *net.Anchors
		res     map[string]rating.Match
		elo, hw float64
	}{"one baseline", &net.Anchors{Ratings: map[string]float64{"ab": 300}, Errors: map[string]float64{"ab": 60}},
		map[string]rating.Match{"ab": {Games: 100, Wins: 40, Draws: 20, Losses: 40}}, 300, math.Sqrt(fit1*fit1 + 60*60)})
	for _, c := range cases {
		r, _, _ := Rate(c.a, nil, c.res)
		if r == nil || math.Abs(r.Elo-c.elo) > 0.01 || math.Abs(r.Err-c.hw) > 0.01 {
			t.Errorf("%s: %+v, want elo %.2f ± %.2f", c.name, r, c.elo, c.hw)
		}
	}
	if fit1 < 60 || fit1 > 75 { // 1.96 / sqrt(101/4 * (ln10/400)^2) = 67.8
		t.Errorf("fit half-width at 50%% over 100 games %.1f, want about 67.8", fit1)
	}
	if r, _, _ := Rate(a, nil, map[string]rating.Match{"other": {Games: 10}}); r != nil {
		t.Errorf("no rated baseline: %+v", r)
	}
}

// TestRateAgainstRungs: a rung's error passes into the ratings measured
// against it, and rungs that share a source add it whole (correlated),
// not in quadrature.
func TestRateAgainstRungs(t *testing.T) {
	a := &net.Anchors{Zero: "ab", Ratings: map[string]float64{"ab": 0, "r1": 300, "r2": 300}, Errors: map[string]float64{"ab": 0, "r1": 50, "r2": 50}}
	even := rating.Match{Games: 100, Wins: 40, Draws: 20, Losses: 40}
	_, fit := rating.RateAgainst([]float64{300}, []float64{50}, []float64{100}, Prior)
	_, fit2 := rating.RateAgainst([]float64{300, 300}, []float64{50, 50}, []float64{100, 100}, Prior)
	shared := []Rung{{Name: "r1", Loadings: Loadings{"s": 50}}, {Name: "r2", Loadings: Loadings{"s": 50}}}
	apart := []Rung{{Name: "r1", Loadings: Loadings{"r1": 50}}, {Name: "r2", Loadings: Loadings{"r2": 50}}}
	cases := []struct {
		name    string
		rungs   []Rung
		res     map[string]rating.Match
		hw      float64
		sources int
	}{
		{"one rung", apart, map[string]rating.Match{"r1": even}, math.Sqrt(fit*fit + 50*50), 1},
		{"independent rungs", apart, map[string]rating.Match{"r1": even, "r2": even}, math.Sqrt(fit2*fit2 + 2*25*25), 2},
		{"rungs sharing a source", shared, map[string]rating.Match{"r1": even, "r2": even}, math.Sqrt(fit2*fit2 + 50*50), 1},
	}
	for _, c := range cases {
		r, load, f := Rate(a, c.rungs, c.res)
		if r == nil || math.Abs(r.Elo-300) > 0.01 || math.Abs(r.Err-c.hw) > 0.01 || len(load) != c.sources {
			t.Errorf("%s: %+v, loadings %v, want 300 ± %.2f from %d sources", c.name, r, load, c.hw, c.sources)
		}
		if want := math.Sqrt(r.Err*r.Err - load.Variance()); math.Abs(f-want) > 0.01 {
			t.Errorf("%s: fit %.2f, want %.2f", c.name, f, want)
		}
	}
}

// TestLadderInterval: near the top, games against a rung rated close to
// the network give a narrower final interval than the same games against
// baselines far below it, the rung's own error included: the reason for
// the ladder. Expected scores stand in for games.
func TestLadderInterval(t *testing.T) {
	// Baselines as in togyz (ab:depth=6 = 0); the network at +400.
	a := &net.Anchors{Zero: "ab6", Ratings: map[string]float64{"ab6": 0, "ab4": -250, "r1": 200, "r2": 350},
		Errors: map[string]float64{"ab4": 40, "r1": 40, "r2": 50}}
	rungs := []Rung{{Name: "r1", Elo: 200, Loadings: Loadings{"r1": 40}}, {Name: "r2", Elo: 350, Loadings: Loadings{"r1": 25, "r2": 43}}}
	at := func(opp string, games int) rating.Match {
		p := rating.ScoreFromElo(400 - a.Ratings[opp])
		w := int(math.Round(p * float64(games)))
		return rating.Match{Games: games, Wins: w, Losses: games - w}
	}
	base, _, _ := Rate(a, rungs, map[string]rating.Match{"ab6": at("ab6", 400), "ab4": at("ab4", 400)})
	ladder, _, _ := Rate(a, rungs, map[string]rating.Match{"ab6": at("ab6", 200), "ab4": at("ab4", 200), "r2": at("r2", 200), "r1": at("r1", 200)})
	if base == nil || ladder == nil || !(ladder.Err < base.Err-5) {
		t.Fatalf("800 games: baselines only %+v, with the ladder %+v: want the ladder's interval narrower", base, ladder)
	}
	if math.Abs(ladder.Elo-400) > 15 || math.Abs(base.Elo-400) > 15 {
		t.Errorf("ratings %+v, %+v: want about 400", base, ladder)
	}
}
