package kalah_test

import (
	"errors"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
	"kumalak/env/kalah"
)

// specs are the games the conformance suite plays: the standard game, a
// small board, empty capture, more seeds (laps) and a ply limit.
var specs = []*env.Spec{
	kalah.Spec,
	mustLookup("kalah:houses=4,seeds=3"),
	mustLookup("kalah:capture=empty"),
	mustLookup("kalah:houses=3,seeds=10"),
	mustLookup("kalah:houses=2,seeds=2,plies=9"),
}

func mustLookup(name string) *env.Spec {
	s, err := env.Lookup(name)
	if err != nil {
		panic(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	for _, s := range specs {
		t.Run(s.Name, func(t *testing.T) {
			envtest.Run(t, s, 300, 1)
			envtest.Allocs(t, s)
			if err := envtest.CheckFacts(s); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	cases := []struct {
		name, want string
		houses, st int
	}{
		{"kalah", "kalah", 6, 48},
		{"kalah:", "kalah", 6, 48},
		{"kalah:seeds=4,houses=6", "kalah", 6, 48},
		{"kalah:houses=4,seeds=3", "kalah:houses=4,seeds=3", 4, 24},
		{"kalah:seeds=3,houses=4", "kalah:houses=4,seeds=3", 4, 24},
		{"kalah:seeds=6,capture=empty", "kalah:seeds=6,capture=empty", 6, 72},
		{"kalah:capture=opposite", "kalah", 6, 48},
		{"kalah:houses=1,seeds=1,plies=5", "kalah:houses=1,seeds=1,plies=5", 1, 2},
	}
	for _, c := range cases {
		s, err := env.Lookup(c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s.Name != c.want || s.Pits != c.houses || s.Stones != c.st {
			t.Errorf("%s: %s, %d houses, %d stones; want %s, %d, %d", c.name, s.Name, s.Pits, s.Stones, c.want, c.houses, c.st)
		}
		if again, _ := env.Lookup(c.want); again != s {
			t.Errorf("%s: a second spec for %s", c.name, c.want)
		}
	}
	for _, bad := range []string{"kalah:houses=9", "kalah:houses=0", "kalah:seeds=11", "kalah:capture=all",
		"kalah:pits=6", "kalah:houses", "kalah:houses=x", "kalah:houses=4,houses=5", "kalah:plies=-1", "kala:houses=3"} {
		if _, err := env.Lookup(bad); !errors.Is(err, env.ErrUnknownGame) {
			t.Errorf("%s: err %v, want an unknown game", bad, err)
		} else if !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: error %q does not name it", bad, err)
		}
	}
}

func TestRules(t *testing.T) {
	cases := []struct {
		game, before string
		pit          int
		after        string
	}{
		// last stone in the store: white again
		{"kalah", "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 3, "4,4,0,5,5,5/4,4,4,4,4,4 1 0 - - w"},
		// over to black's houses, black's turn
		{"kalah", "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 6, "4,4,4,4,4,0/5,5,5,4,4,4 1 0 - - b"},
		// into white's empty house 3, black's house 4 across holds 4: both taken
		{"kalah", "1,1,0,4,4,4/4,4,4,4,4,4 10 0 - - w", 2, "1,0,0,4,4,4/4,4,4,0,4,4 15 0 - - b"},
		// into an empty house with nothing across: no capture
		{"kalah", "1,1,0,4,4,4/4,4,4,0,4,4 10 4 - - w", 2, "1,0,1,4,4,4/4,4,4,0,4,4 10 4 - - b"},
		// the same with empty capture: the last stone alone goes to the store
		{"kalah:capture=empty", "1,1,0,4,4,4/4,4,4,0,4,4 10 4 - - w", 2, "1,0,0,4,4,4/4,4,4,0,4,4 11 4 - - b"},
		// black sows past white's store (skipped) into its own houses
		{"kalah", "4,4,4,4,4,3/4,4,4,4,0,9 0 0 - - b", 6, "5,5,5,5,5,4/5,5,4,4,0,0 0 1 - - w"},
		// 13 stones: a full lap, the last into the emptied house, which captures
		{"kalah", "13,0,0,0,0,0/4,4,4,4,4,4 11 0 - - w", 1, "0,1,1,1,1,1/5,5,5,5,5,0 18 0 - - b"},
		// white's last stones leave white's side empty: black sweeps its own
		{"kalah", "0,0,0,0,0,1/4,4,4,4,4,4 20 3 - - w", 6, "0,0,0,0,0,0/0,0,0,0,0,0 21 27 - - w"},
		// the ply limit ends the game, each side keeping its own houses
		{"kalah:houses=2,seeds=2,plies=9", "1,1/2,2 2 0 - - b 8", 1, "0,0/0,0 4 4 - - b 9"},
	}
	for _, c := range cases {
		spec := mustLookup(c.game)
		st, err := spec.Parse(c.before)
		if err != nil {
			t.Fatalf("%s %s: %v", c.game, c.before, err)
		}
		if err := env.Play(st, c.pit); err != nil {
			t.Fatalf("%s %s pit %d: %v", c.game, c.before, c.pit, err)
		}
		if got := st.String(); got != c.after {
			t.Errorf("%s %s pit %d:\n got %s\nwant %s", c.game, c.before, c.pit, got, c.after)
		}
	}
}

func TestCheck(t *testing.T) {
	cases := []struct {
		pos  string
		pit  int
		want error
	}{
		{"4,0,4,4,4,4/4,4,4,4,4,4 4 0 - - w", 2, env.ErrEmptyPit},
		{"0,0,0,0,0,0/4,4,4,4,4,4 24 0 - - w", 1, env.ErrGameOver},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 7, env.ErrIllegal},
	}
	for _, c := range cases {
		st, err := kalah.Spec.Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if err := env.Play(st, c.pit); !errors.Is(err, c.want) || !errors.Is(err, env.ErrIllegal) {
			t.Errorf("%s pit %d: %v, want %v", c.pos, c.pit, err, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ pos, field string }{
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 3 - w", "white's special"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 1 - - w", "pits and stores"},
		{"4,4,4,4,4/4,4,4,4,4,4 4 0 - - w", "pits"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - x", "to move"},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w 3", "to move"},
	} {
		if _, err := kalah.Spec.Parse(c.pos); err == nil || !strings.HasPrefix(err.Error(), c.field) {
			t.Errorf("%q: error %v, want one starting %q", c.pos, err, c.field)
		}
	}
	plies := mustLookup("kalah:houses=2,seeds=2,plies=9")
	for _, bad := range []string{"2,2/2,2 0 0 - - w", "2,2/2,2 0 0 - - w 10", "2,2/2,2 0 0 - - w x"} {
		if _, err := plies.Parse(bad); err == nil {
			t.Errorf("%q accepted with a ply limit of 9", bad)
		}
	}
}

func TestDraw(t *testing.T) {
	want := `kalah, white to move
          b6  b5  b4  b3  b2  b1
        +---+---+---+---+---+---+
        |  4|  4|  4|  4|  4|  4|
  b   0 +---+---+---+---+---+---+ 0   w
        |  4|  4|  4|  4|  4|  4|
        +---+---+---+---+---+---+
          w1  w2  w3  w4  w5  w6
`
	if got := env.Drawing(kalah.Spec.New()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestSownHome(t *testing.T) {
	cases := []struct {
		pos       string
		pit, want int
	}{
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 3, 1},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 2, 0},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", 6, 1},
		{"19,1,1,1,1,1/4,4,4,4,4,4 0 0 - - w", 1, 2}, // store at the 6th and 19th stone
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - b", 6, 1},
	}
	for _, c := range cases {
		st, err := kalah.Spec.Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := env.SownHome(st, env.Action(c.pit-1)); got != c.want {
			t.Errorf("%s pit %d: %d, want %d", c.pos, c.pit, got, c.want)
		}
	}
}

var fuzzSeeds = []string{
	"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w",
	"1,1,0,4,4,4/4,4,4,4,4,4 2 0 - - w",
	"0,0,0,0,0,1/4,4,4,4,4,4 20 3 - - w",
	"13,0,0,0,0,0/4,4,4,4,4,4 11 0 - - w",
	"48,0,0,0,0,0/0,0,0,0,0,0 0 0 - - b",
	"4,4,4,4,4,4/4,4,4,4,4,4 0 0 1 - w",
	"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w 0",
	"3,3,3,3/3,3,3,3 0 0 - - b",
	"1,1/2,2 2 0 - - b 8",
	"",
}

// FuzzParse holds every game's parser to the conformance suite's rules: no
// panic, an error or a position that checks, round-trips and plays.
func FuzzParse(f *testing.F) {
	envtest.FuzzSpecs(f, fuzzSeeds, specs...)
}
