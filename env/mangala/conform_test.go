package mangala

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

var specs = []*env.Spec{Spec, KaleSpec}

func TestConformance(t *testing.T) {
	for _, s := range specs {
		t.Run(s.Name, func(t *testing.T) {
			envtest.Run(t, s, 500, 1)
			envtest.Allocs(t, s)
		})
	}
}

func TestRegistered(t *testing.T) {
	for _, s := range specs {
		got, err := env.Lookup(s.Name)
		if err != nil || got != s {
			t.Errorf("Lookup(%q) = %v, %v", s.Name, got, err)
		}
		st := s.New()
		if st.Spec() != s || st.String() != "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w" {
			t.Errorf("%s: New() = %s with spec %s", s.Name, st, st.Spec().Name)
		}
	}
	if Spec.ObsVersion != "mangala/1" || KaleSpec.ObsVersion != "mangala-kale/1" {
		t.Errorf("obs versions %q %q", Spec.ObsVersion, KaleSpec.ObsVersion)
	}
}

// fuzzSeeds are the seed corpus of FuzzParse: good positions and each kind
// of error.
var fuzzSeeds = []string{
	"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w",
	"3,0,5,5,5,2/0,3,0,3,3,3 10 6 3 2 b",
	"15,2,2,2,2,1/4,4,4,4,4,0 2 2 - - w",
	"0,0,0,0,0,0/4,4,4,4,4,4 10 14 - - w",
	"0,0,0,0,0,0/0,0,0,0,0,0 24 24 - - b",
	"48,0,0,0,0,0/0,0,0,0,0,0 0 0 - - b",
	"4,4,4,4,4,4/4,4,4,4,4,4 0 0 6 - w",
	"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - -",
	"4,4,4,-4,4,4/4,4,4,4,4,12 0 0 - - w",
	"4,4,4,4,4/4,4,4,4,4,4,4 0 0 - - w",
	"255,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w",
	"",
}

func FuzzParse(f *testing.F) {
	envtest.FuzzSpecs(f, fuzzSeeds, specs...)
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		pos  string
		kale bool
		want string // the error must contain this
	}{
		{"", false, "pits: missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4", false, "white store: missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0", false, "black store: missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0", false, "white's special: missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 -", false, "black's special: missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - -", false, "to move: missing"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w x", false, "to move: followed by more fields"},
		{"4,4,4,4,4,4/4,4,4,4,4,4  0 0 - - w", false, "white store: empty; fields are separated by single spaces"},
		{"4,4,4,4,4,4 0 0 - - w", false, "pits: want white's pits and black's pits separated by one '/'"},
		{"4,4,4,4,4,4/4,4,4,4,4,4/0 0 0 - - w", false, "pits: want white's pits and black's pits separated by one '/'"},
		{"4,4,4,4,4/4,4,4,4,4,4 4 0 - - w", false, "pits: white has 5 pits, want 6"},
		{"4,4,4,4,4,4/4,4,4,4,4,4,0 0 0 - - w", false, "pits: black has 7 pits, want 6"},
		{"4,4,x,4,4,4/4,4,4,4,4,4 0 0 - - w", false, `pits: white's pit 3: not a number: "x"`},
		{"4,4,4,4,4,4/4,4,4,4,,4 0 0 - - w", false, `pits: black's pit 5: not a number: ""`},
		{"4,4,4,4,4,4/4,4,4,4,4,+4 0 0 - - w", false, `pits: black's pit 6: not a number: "+4"`},
		{"4,4,4,-4,4,4/4,4,4,4,4,12 0 0 - - w", false, "pits: white's pit 4: negative count -4"},
		{"49,0,0,0,0,0/0,0,0,0,0,0 0 0 - - w", false, "pits: white's pit 1: count 49 is more than 48"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 x 0 - - w", false, `white store: not a number: "x"`},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 -1 - - w", false, "black store: negative count -1"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 1 0 - - w", false, "pits and stores: stones add up to 49, want 48"},
		{"4,4,4,4,4,3/4,4,4,4,4,4 0 0 - - w", true, "pits and stores: stones add up to 47, want 48"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - x", false, `to move: want w or b, got "x"`},
		{"4,4,4,4,4,4/4,4,4,0,4,4 4 0 4 - w", false, "white's special: 4 given, but mangala has no castles"},
		{"4,4,0,4,4,4/4,4,4,4,4,4 0 4 - 3 w", false, "black's special: 3 given, but mangala has no castles"},
		{"4,4,4,4,4,4/4,4,4,4,4,0 4 0 6 - w", true, "white's special: a castle can't be on pit 6"},
		{"4,4,4,4,4,0/4,4,4,4,4,4 0 4 - 6 w", true, "black's special: a castle can't be on pit 6"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 3 - w", true, "white's special: black's pit 3 holds 4 stones, want an empty pit"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - 1 w", true, "black's special: white's pit 1 holds 4 stones, want an empty pit"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 x - w", true, `white's special: want - or a pit number: not a number: "x"`},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - 7 w", true, "black's special: pit 7 out of range 1..6"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - 0 w", true, "black's special: pit 0 out of range 1..6"},
	}
	for _, c := range cases {
		_, err := Parse(c.pos, c.kale)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q, kale %v) = %v, want an error containing %q", c.pos, c.kale, err, c.want)
		}
		if c.kale {
			continue
		}
		if _, err := Spec.Parse(c.pos); err == nil {
			t.Errorf("Spec.Parse(%q) accepted it", c.pos)
		}
	}
	for _, s := range []string{"4,4,4,4,4,4/4,4,4,0,4,4 4 0 4 - w", "  4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - b\n"} {
		if _, err := KaleSpec.Parse(s); err != nil {
			t.Errorf("KaleSpec.Parse(%q): %v", s, err)
		}
	}
}

func TestCheck(t *testing.T) {
	cases := []struct {
		pos  string
		kale bool
		pit  int
		want error
	}{
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", false, 1, nil},
		{"4,0,4,4,4,4/4,4,4,4,4,4 4 0 - - w", false, 2, env.ErrEmptyPit},
		{"4,4,4,4,4,4/4,0,4,4,4,4 0 4 - - b", false, 2, env.ErrEmptyPit},
		{"4,0,4,4,4,4/4,4,0,4,4,4 4 4 3 2 w", true, 2, ErrCastle},
		{"4,0,4,4,4,4/4,4,0,4,4,4 4 4 3 2 b", true, 3, ErrCastle},
		{"4,0,4,4,4,4/4,4,0,4,4,4 4 4 3 2 b", true, 2, nil},
		{"4,4,4,4,4,4/0,0,0,0,0,0 24 0 - - w", false, 1, env.ErrGameOver},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", false, 7, ErrOutOfRange},
	}
	for _, c := range cases {
		b, err := Parse(c.pos, c.kale)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Check(env.Action(c.pit - 1)); got != c.want {
			t.Errorf("%s pit %d: Check = %v, want %v\n%s", c.pos, c.pit, got, c.want, b.Draw())
		}
	}
	b, _ := Parse("4,0,4,4,4,4/4,4,0,4,4,4 4 4 3 2 w", true)
	err := env.Play(b, 2)
	if !errors.Is(err, env.ErrIllegal) || err.Error() != "illegal move: pit is a castle" {
		t.Errorf("Play on a castle: %v", err)
	}
	if err := env.Play(b, 7); err == nil {
		t.Error("Play accepted pit 7")
	}
}

func TestApplyIllegalPanics(t *testing.T) {
	for _, pit := range []env.Action{1, 6} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Apply(%d) did not panic", pit)
				}
			}()
			b, _ := Parse("4,0,4,4,4,4/4,4,4,4,4,4 4 0 - - w", false)
			b.Apply(pit)
		}()
	}
}

func TestHash(t *testing.T) {
	a, b := New(false), New(false)
	if a.Hash() != b.Hash() {
		t.Error("equal positions hash differently")
	}
	if New(true).Hash() == a.Hash() {
		t.Error("the variant is not in the hash")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	seen := map[uint64]string{}
	var buf [8]env.Action
	for g := 0; g < 300; g++ {
		st := New(g%2 == 0)
		for {
			key := st.String()
			if st.kale {
				key += " kale"
			}
			h := st.Hash()
			if prev, ok := seen[h]; ok && prev != key {
				t.Fatalf("hash collision: %q and %q", prev, key)
			}
			seen[h] = key
			legal := st.Legal(buf[:0])
			if len(legal) == 0 {
				break
			}
			st.Apply(legal[rng.IntN(len(legal))])
		}
	}
	n := 0
	for range seen {
		n++
	}
	if n < 1000 {
		t.Errorf("only %d distinct positions seen", n)
	}
}

func TestAllocs(t *testing.T) {
	b := New(true)
	obs := make([]float32, ObsLen)
	var sink uint64
	if n := testing.AllocsPerRun(50, func() {
		sink += b.Perft(3) + b.Hash()
		b.Observe(obs)
	}); n != 0 {
		t.Errorf("Perft/Hash/Observe: %v allocations, want 0", n)
	}
	_ = sink
}
