package mangala

import (
	"testing"

	"kumalak/env"
)

// ruleCase plays one move and compares the position string after it.
type ruleCase struct {
	name   string
	before string
	pit    int    // the move, 1..6 from the mover's side
	after  string // position string after the move
	result string // result after the move; "" means "*"
}

// classicCases covers every clause of the mangala section of docs/RULES.md.
var classicCases = []ruleCase{
	{name: "n=1 from pit 6 goes into own store, extra turn",
		before: "4,4,4,4,4,1/4,4,4,4,4,4 3 0 - - w", pit: 6,
		after: "4,4,4,4,4,0/4,4,4,4,4,4 4 0 - - w"},
	{name: "n>1: first stone back into the picked pit, turn passes",
		before: "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", pit: 1,
		after: "1,5,5,5,4,4/4,4,4,4,4,4 0 0 - - b"},
	{name: "n>1 ending in own store: extra turn",
		before: "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", pit: 4,
		after: "4,4,4,1,5,5/4,4,4,4,4,4 1 0 - - w"},
	{name: "extra turn for black",
		before: "4,4,4,4,4,4/4,4,4,4,4,1 0 3 - - b", pit: 6,
		after: "4,4,4,4,4,4/4,4,4,4,4,0 0 4 - - b"},
	{name: "through own store into opponent's pits, odd: no capture",
		before: "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", pit: 6,
		after: "4,4,4,4,4,1/5,5,4,4,4,4 1 0 - - b"},
	{name: "rule 2: even on opponent's side is captured",
		before: "4,4,4,4,4,4/4,3,4,4,4,4 1 0 - - w", pit: 6,
		after: "4,4,4,4,4,1/5,0,4,4,4,4 6 0 - - b"},
	{name: "rule 2 for black",
		before: "4,3,4,4,4,4/4,4,4,4,4,4 0 1 - - b", pit: 6,
		after: "5,0,4,4,4,4/4,4,4,4,4,1 0 6 - - w"},
	{name: "last stone in an empty opponent pit holds 1: no capture",
		before: "4,4,4,4,4,3/0,4,4,4,4,4 2 3 - - w", pit: 6,
		after: "4,4,4,4,4,1/1,4,4,4,4,4 3 3 - - b"},
	{name: "white skips black's store",
		before: "0,2,4,4,4,10/4,4,4,4,4,0 2 2 - - w", pit: 6,
		after: "1,3,4,4,4,1/5,5,5,5,5,1 3 2 - - b"},
	{name: "black skips white's store",
		before: "4,4,4,4,0,0/1,4,4,4,3,9 4 3 - - b", pit: 6,
		after: "5,5,5,5,1,1/2,4,4,4,3,1 4 4 - - w"},
	{name: "lap: 15 stones pass the picked pit and own store",
		before: "15,2,2,2,2,1/4,4,4,4,4,0 2 2 - - w", pit: 1,
		after: "2,4,3,3,3,2/5,5,5,5,5,1 3 2 - - b"},
	{name: "lap ending in the picked pit: it holds 2, no rule 3",
		before: "14,0,0,0,0,0/4,4,4,4,4,4 5 5 - - w", pit: 1,
		after: "2,1,1,1,1,1/5,5,5,5,5,5 6 5 - - b"},
	{name: "rule 3: n=1 into an empty own pit, opposite pit non-empty",
		before: "4,1,0,4,4,4/4,4,4,4,4,4 3 4 - - w", pit: 2,
		after: "4,0,0,4,4,4/4,4,4,0,4,4 8 4 - - b"},
	{name: "rule 3: n>1 ending in an empty own pit",
		before: "3,2,0,4,4,4/4,4,4,4,4,4 3 4 - - w", pit: 1,
		after: "1,3,0,4,4,4/4,4,4,0,4,4 8 4 - - b"},
	{name: "rule 3: opposite pit empty, no capture",
		before: "4,1,0,4,4,4/4,4,4,0,4,4 7 4 - - w", pit: 2,
		after: "4,0,1,4,4,4/4,4,4,0,4,4 7 4 - - b"},
	{name: "rule 3 for black: black pit 2 faces white pit 5",
		before: "4,4,4,4,4,4/1,0,4,4,4,4 4 3 - - b", pit: 1,
		after: "4,4,4,4,0,4/0,0,4,4,4,4 4 8 - - w"},
	{name: "rule 3 not for a non-empty own pit",
		before: "3,4,2,4,4,4/4,4,4,4,4,4 3 0 - - w", pit: 1,
		after: "1,5,3,4,4,4/4,4,4,4,4,4 3 0 - - b"},
	{name: "end: mover empties own row into own store, takes the rest, no extra turn",
		before: "0,0,0,0,0,1/4,4,4,4,4,4 10 13 - - w", pit: 6,
		after: "0,0,0,0,0,0/0,0,0,0,0,0 35 13 - - b", result: "1-0"},
	{name: "end: capture empties black's row, black takes white's stones",
		before: "2,0,0,0,0,3/1,0,0,0,0,0 20 22 - - w", pit: 6,
		after: "0,0,0,0,0,0/0,0,0,0,0,0 23 25 - - b", result: "0-1"},
	{name: "end: 24:24 is a draw",
		before: "0,0,0,0,0,1/3,0,0,0,0,0 20 24 - - w", pit: 6,
		after: "0,0,0,0,0,0/0,0,0,0,0,0 24 24 - - b", result: "1/2-1/2"},
}

// kaleCases covers every clause of the mangala-kale section of docs/RULES.md.
var kaleCases = []ruleCase{
	{name: "no stone into the store: pit 4 runs on to black's pit 1",
		before: "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", pit: 4,
		after: "4,4,4,1,5,5/5,4,4,4,4,4 0 0 - - b"},
	{name: "single stone in pit 6 goes to the opponent's pit 1, no extra turn",
		before: "4,4,4,4,4,1/4,4,4,4,4,4 3 0 - - w", pit: 6,
		after: "4,4,4,4,4,0/5,4,4,4,4,4 3 0 - - b"},
	{name: "black's pit 6 runs on to white's pit 1",
		before: "4,4,4,4,4,4/4,4,4,4,4,1 0 3 - - b", pit: 6,
		after: "5,4,4,4,4,4/4,4,4,4,4,0 0 3 - - w"},
	{name: "rule 2: even capture applies",
		before: "4,4,4,4,4,4/4,4,3,4,4,4 1 0 - - w", pit: 6,
		after: "4,4,4,4,4,1/5,5,0,4,4,4 5 0 - - b"},
	{name: "no rule 3: last stone in an empty own pit stays",
		before: "4,1,0,4,4,4/4,4,4,4,4,4 3 4 - - w", pit: 2,
		after: "4,0,1,4,4,4/4,4,4,4,4,4 3 4 - - b"},
	{name: "castle: opponent's pit 2 makes 3",
		before: "4,4,4,4,4,4/4,2,4,4,4,4 2 0 - - w", pit: 5,
		after: "4,4,4,4,1,5/5,0,4,4,4,4 5 0 2 - b"},
	{name: "castle for black on white's pit 3",
		before: "4,4,2,4,4,4/4,4,4,4,4,4 2 0 - - b", pit: 6,
		after: "5,5,0,4,4,4/4,4,4,4,4,1 2 3 - 3 w"},
	{name: "no castle: the mover owns one already",
		before: "4,4,4,4,4,4/4,2,4,4,0,4 6 0 5 - w", pit: 5,
		after: "4,4,4,4,1,5/5,3,4,4,0,4 6 0 5 - b"},
	{name: "no castle: opponent's pit 6 makes 3",
		before: "4,4,4,4,1,7/4,4,4,4,4,2 2 0 - - w", pit: 6,
		after: "4,4,4,4,1,1/5,5,5,5,5,3 2 0 - - b"},
	{name: "no castle: 5 is not 3 (and odd: no capture)",
		before: "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", pit: 5,
		after: "4,4,4,4,1,5/5,5,4,4,4,4 0 0 - - b"},
	{name: "no castle: 4 is even and captured instead",
		before: "4,4,4,4,4,4/4,3,4,4,4,4 1 0 - - w", pit: 5,
		after: "4,4,4,4,1,5/5,0,4,4,4,4 5 0 - - b"},
	{name: "no castle on the mover's own side",
		before: "3,4,2,4,4,4/4,4,4,4,4,4 3 0 - - w", pit: 1,
		after: "1,5,3,4,4,4/4,4,4,4,4,4 3 0 - - b"},
	{name: "last stone into own castle: to own store, nothing else",
		before: "4,4,4,4,4,4/4,4,0,4,4,4 4 0 3 - w", pit: 6,
		after: "4,4,4,4,4,1/5,5,0,4,4,4 5 0 3 - b"},
	{name: "black sows through white's castle: the stone goes to white's store",
		before: "4,4,4,4,4,4/4,4,0,4,4,4 4 0 3 - b", pit: 1,
		after: "4,4,4,4,4,4/1,5,0,5,4,4 5 0 3 - w"},
	{name: "white sows through black's castle: the stone goes to black's store",
		before: "5,0,4,4,4,4/4,4,0,4,4,4 4 3 3 2 w", pit: 1,
		after: "1,0,5,5,5,4/4,4,0,4,4,4 4 4 3 2 b"},
	{name: "lap through both castles, then even capture",
		before: "2,0,4,4,4,14/2,2,0,2,2,2 5 5 3 2 w", pit: 6,
		after: "3,0,5,5,5,2/0,3,0,3,3,3 10 6 3 2 b"},
	{name: "end: white's row empty, each keeps their own stones",
		before: "0,0,0,0,0,1/4,4,4,4,4,4 10 13 - - w", pit: 6,
		after: "0,0,0,0,0,0/0,0,0,0,0,0 10 38 - - b", result: "0-1"},
	{name: "end: capture empties black's row, white keeps its own",
		before: "3,0,0,0,0,1/1,0,0,0,0,0 20 23 - - w", pit: 6,
		after: "0,0,0,0,0,0/0,0,0,0,0,0 25 23 - - b", result: "1-0"},
	{name: "end: 24:24 is a draw",
		before: "0,0,0,0,0,1/3,0,0,0,0,0 20 24 - - w", pit: 6,
		after: "0,0,0,0,0,0/0,0,0,0,0,0 24 24 - - b", result: "1/2-1/2"},
}

func TestRulesClassic(t *testing.T) { runRuleCases(t, classicCases, false) }
func TestRulesKale(t *testing.T)    { runRuleCases(t, kaleCases, true) }

func runRuleCases(t *testing.T, cases []ruleCase, kale bool) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := Parse(c.before, kale)
			if err != nil {
				t.Fatalf("parse %q: %v", c.before, err)
			}
			before := b.Draw()
			if err := env.Play(b, c.pit); err != nil {
				t.Fatalf("move %d: %v\n%s", c.pit, err, before)
			}
			want := c.result
			if want == "" {
				want = "*"
			}
			if b.String() != c.after || b.Result().String() != want {
				t.Errorf("move %d\nbefore:\n%s\ngot %s (%s):\n%s\nwant %s (%s)",
					c.pit, before, b, b.Result(), b.Draw(), c.after, want)
			}
			n := naiveParse(c.before, kale)
			n.play(c.pit)
			if n.format() != c.after || n.result() != want {
				t.Errorf("naive implementation disagrees with the table: %s (%s)", n.format(), n.result())
			}
		})
	}
}

// TestExtraTurnKeepsMover pins the subtle point of the classic game: the
// mover stays to move after a last stone in the own store, unless the game
// ended; kale never gives an extra turn.
func TestExtraTurnKeepsMover(t *testing.T) {
	cases := []struct {
		pos  string
		kale bool
		pit  int
		want env.Player
	}{
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", false, 4, env.White},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - b", false, 4, env.Black},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", false, 3, env.Black},
		{"0,0,0,0,0,1/4,4,4,4,4,4 10 13 - - w", false, 6, env.Black}, // game over
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", true, 4, env.Black},
		{"4,4,4,4,4,1/4,4,4,4,4,4 3 0 - - w", true, 6, env.Black},
	}
	for _, c := range cases {
		b, err := Parse(c.pos, c.kale)
		if err != nil {
			t.Fatal(err)
		}
		b.Apply(env.Action(c.pit - 1))
		if b.ToMove() != c.want {
			t.Errorf("%s (kale %v) pit %d: %s to move, want %s\n%s", c.pos, c.kale, c.pit, b.ToMove(), c.want, b.Draw())
		}
	}
}

// TestResultUncollected checks that a parsed terminal position counts the
// stones still in the pits as the variant's end rule would.
func TestResultUncollected(t *testing.T) {
	cases := []struct {
		pos  string
		kale bool
		want env.Result
	}{
		{"0,0,0,0,0,0/4,4,4,4,4,4 10 14 - - w", false, env.WhiteWins}, // white takes 24: 34:14
		{"0,0,0,0,0,0/4,4,4,4,4,4 10 14 - - w", true, env.BlackWins},  // black keeps 24: 10:38
		{"4,4,4,4,4,4/0,0,0,0,0,0 0 24 - - w", false, env.BlackWins},  // black takes 24: 0:48
		{"4,4,4,4,4,4/0,0,0,0,0,0 0 24 - - w", true, env.Draw},        // white keeps 24: 24:24
		{"0,0,0,0,0,0/0,0,0,0,0,0 25 23 - - b", false, env.WhiteWins},
		{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", false, env.Ongoing},
	}
	for _, c := range cases {
		b, err := Parse(c.pos, c.kale)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Result(); got != c.want {
			t.Errorf("%s (kale %v): %s, want %s\n%s", c.pos, c.kale, got, c.want, b.Draw())
		}
		var buf [8]env.Action
		if n := len(b.Legal(buf[:0])); (n == 0) != (c.want != env.Ongoing) {
			t.Errorf("%s: %d legal moves at result %s", c.pos, n, c.want)
		}
	}
}
