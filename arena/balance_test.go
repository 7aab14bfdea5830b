package arena

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"kumalak/agent"
	"kumalak/env"
	"kumalak/env/envtest"
	_ "kumalak/env/kalah"
	_ "kumalak/env/mangala"
	_ "kumalak/env/togyz"
)

// TestBalancedOpenings: every opening kept passes the game's test when the
// same search scores it again, the openings that decide a mangala game are
// never kept, and without the test a seed gives the openings it always
// gave.
func TestBalancedOpenings(t *testing.T) {
	for _, game := range []string{"mangala", "mangala-kale", "kalah", "togyz"} {
		t.Run(game, func(t *testing.T) {
			spec, err := env.Lookup(game)
			if err != nil {
				t.Fatal(err)
			}
			bal, err := newBalancer(spec)
			if err != nil || bal == nil {
				t.Fatalf("no balancer: %v", err)
			}
			start := spec.New()
			open, err := makeOpenings(start, 12, 4, 5, bal)
			if err != nil || len(open) != 12 {
				t.Fatalf("%d openings, %v", len(open), err)
			}
			check, _ := newBalancer(spec) // a fresh search, no cached scores
			for _, o := range open {
				v, err := check.rate(start, o, fmt.Sprint(o))
				if err != nil || !(math.Abs(v) <= bal.b.Margin) {
					t.Errorf("opening %v scores %g (margin %g), %v", o, v, bal.b.Margin, err)
				}
			}
			again, _ := makeOpenings(start, 12, 4, 5, check)
			if fmt.Sprint(again) != fmt.Sprint(open) {
				t.Errorf("same seed, other openings:\n%v\n%v", open, again)
			}
		})
	}
	spec, _ := env.Lookup("mangala")
	bal, _ := newBalancer(spec)
	for _, line := range []string{"1 1 6 6", "1 5 2 1", "5 4 4 6", "1 1 4 5"} {
		o, err := ParseOpenings(strings.NewReader(line))
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := bal.keeps(spec.New(), o[0], line); ok || err != nil {
			t.Errorf("deciding opening %s kept (%v)", line, err)
		}
	}
	// Off: the openings of seed 3 before balancing existed.
	old, err := makeOpenings(spec.New(), 6, 4, 3, nil)
	if want := "[[4 0 4 4] [1 1 3 5] [5 1 1 1] [2 1 0 0] [3 2 3 1] [1 5 0 1]]"; err != nil || fmt.Sprint(old) != want {
		t.Errorf("unbalanced openings %v, %v; want %s", old, err, want)
	}
	// No opening can pass: a clear error, not a hang. (A depth-1 search
	// rates the 1000 draws: the game's own depth would take half a minute
	// under the race detector.)
	shallow, err := agent.New(spec, "ab:depth=1,mob=0,tt=0", 1)
	if err != nil {
		t.Fatal(err)
	}
	none := &balancer{b: Balance{Depth: 1, Margin: -1}, ab: shallow, st: spec.New(), score: map[string]float64{}}
	if _, err := makeOpenings(spec.New(), 2, 4, 1, none); err == nil || !strings.Contains(err.Error(), "within -1 stones") {
		t.Errorf("impossible balance: %v", err)
	}
	// A game without a test is not filtered; nor is an opening of no plies.
	if b, err := newBalancer(envtest.Kalah3); b != nil || err != nil {
		t.Errorf("Kalah3 balancer %v, %v", b, err)
	}
	if o, err := makeOpenings(spec.New(), 3, 0, 1, none); err != nil || len(o) != 3 {
		t.Errorf("0-ply openings %v, %v", o, err)
	}
}
