package togyz

import (
	"testing"

	"kumalak/env"
)

// ruleCase is one move of a rule test: the position before, the pit
// played, the position after, the move's note and the result after.
type ruleCase struct {
	clause string
	before string
	pit    int
	after  string
	note   string
	result env.Result
}

// ruleCases has a case for every clause of docs/RULES.md's togyz section. The
// pits read white 1..9 / black 1..9.
var ruleCases = []ruleCase{
	{"n=1: the stone goes to the next pit, the picked pit is left empty",
		"1,0,0,0,0,0,0,0,1/1,1,1,1,1,1,1,1,1 71 80 - - w", 1,
		"0,1,0,0,0,0,0,0,1/1,1,1,1,1,1,1,1,1 71 80 - - b", "12", env.Ongoing},
	{"n=1 from black's pit 9 crosses to white's pit 1 (the cycle closes)",
		"4,0,0,0,10,0,0,0,0/0,0,0,0,10,0,0,0,1 68 69 - - b", 9,
		"5,0,0,0,10,0,0,0,0/0,0,0,0,10,0,0,0,0 68 69 - - w", "91", env.Ongoing},
	{"n>1: the first stone goes back into the picked pit; own-side landing (even) does nothing",
		"0,0,4,1,1,1,0,0,0/5,5,5,5,5,5,5,5,5 60 50 - - w", 3,
		"0,0,1,2,2,2,0,0,0/5,5,5,5,5,5,5,5,5 60 50 - - b", "36", env.Ongoing},
	{"own-side landing making 3 does nothing",
		"0,0,2,2,0,0,0,0,0/5,5,5,5,5,5,5,5,5 60 53 - - w", 3,
		"0,0,1,3,0,0,0,0,0/5,5,5,5,5,5,5,5,5 60 53 - - b", "34", env.Ongoing},
	{"even capture on the opponent's side",
		"0,0,0,0,0,0,0,4,0/1,3,5,5,5,5,5,5,5 60 59 - - w", 8,
		"0,0,0,0,0,0,0,1,1/2,0,5,5,5,5,5,5,5 64 59 - - b", "82", env.Ongoing},
	{"odd landing other than 3 does nothing",
		"0,0,0,0,0,0,0,4,0/1,4,5,5,5,5,5,5,5 60 58 - - w", 8,
		"0,0,0,0,0,0,0,1,1/2,5,5,5,5,5,5,5,5 60 58 - - b", "82", env.Ongoing},
	{"n=1 into an even count captures",
		"0,0,0,0,0,0,0,0,1/1,1,1,1,1,1,1,1,1 72 80 - - w", 9,
		"0,0,0,0,0,0,0,0,0/0,1,1,1,1,1,1,1,1 74 80 - - b", "91", env.Ongoing},
	{"n>18: the sowing laps the board and passes the picked pit again",
		"20,0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1,1 60 73 - - w", 1,
		"2,2,1,1,1,1,1,1,1/2,2,2,2,2,2,2,2,2 60 73 - - b", "12", env.Ongoing},
	{"n>18 ending on the opponent's side captures",
		"0,0,0,0,25,0,0,0,0/0,0,0,0,0,0,0,0,0 70 67 - - w", 5,
		"1,1,1,1,2,2,2,2,2/2,0,1,1,1,1,1,1,1 72 67 - - b", "52", env.Ongoing},
	{"n>36: two laps",
		"40,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 60 61 - - w", 1,
		"3,3,3,3,2,2,2,2,2/3,2,2,2,2,2,2,2,2 60 61 - - b", "14", env.Ongoing},
	{"n>18 with two tuzdyks: each lap feeds both owners' kazans",
		"20,0,0,0,0,0,0,0,0/1,1,0,1,1,1,1,1,1 60 74 3 5 w", 1,
		"2,2,1,1,0,1,1,1,1/2,2,0,2,2,2,2,2,2 61 75 3 5 b", "12", env.Ongoing},
	{"a stone into the opponent's tuzdyk goes to the opponent's kazan and counts as a step",
		"0,0,5,0,0,0,0,0,0/4,4,4,4,4,4,4,4,4 60 61 - 5 w", 3,
		"0,0,1,1,0,1,1,0,0/4,4,4,4,4,4,4,4,4 60 62 - 5 b", "37", env.Ongoing},
	{"a stone into the mover's own tuzdyk goes to the mover's kazan; capture after it",
		"0,0,0,0,0,0,0,6,0/1,1,0,3,5,5,5,5,5 60 66 3 - w", 8,
		"0,0,0,0,0,0,0,1,1/2,2,0,0,5,5,5,5,5 65 66 3 - b", "84", env.Ongoing},
	{"the last stone into the mover's tuzdyk: nothing else happens",
		"0,0,0,0,0,0,0,5,0/1,1,0,5,5,5,5,5,5 60 65 3 - w", 8,
		"0,0,0,0,0,0,0,1,1/2,2,0,5,5,5,5,5,5 61 65 3 - b", "83", env.Ongoing},
	{"the last stone into the opponent's tuzdyk: nothing else happens",
		"0,0,3,0,0,0,0,0,0/4,4,4,4,4,4,4,4,4 60 63 - 5 w", 3,
		"0,0,1,1,0,0,0,0,0/4,4,4,4,4,4,4,4,4 60 64 - 5 b", "35", env.Ongoing},
	{"tuzdyk: last stone makes 3 on the opponent's side",
		"0,0,0,0,0,0,7,0,0/1,1,1,2,5,5,5,5,5 60 65 - - w", 7,
		"0,0,0,0,0,0,1,1,1/2,2,2,0,5,5,5,5,5 63 65 4 - b", "74x", env.Ongoing},
	{"tuzdyk made by black on white's side",
		"1,2,5,5,5,5,5,5,5/0,0,0,0,0,6,1,1,1 57 58 - - b", 6,
		"2,0,5,5,5,5,5,5,5/0,0,0,0,0,1,2,2,2 57 61 - 2 w", "62x", env.Ongoing},
	{"tuzdyk allowed when the opponent's tuzdyk has another number",
		"0,0,0,0,0,0,7,0,0/1,1,1,2,5,5,5,5,5 60 65 - 5 w", 7,
		"0,0,0,0,0,0,1,1,1/2,2,2,0,5,5,5,5,5 63 65 4 5 b", "74x", env.Ongoing},
	{"no tuzdyk: the mover already owns one",
		"0,0,0,0,0,0,7,0,0/1,0,1,2,5,5,5,5,5 60 66 2 - w", 7,
		"0,0,0,0,0,0,1,1,1/2,0,2,3,5,5,5,5,5 61 66 2 - b", "74", env.Ongoing},
	{"no tuzdyk: pit 9",
		"0,0,0,0,0,0,0,0,10/1,1,1,1,1,1,1,1,2 71 71 - - w", 9,
		"0,0,0,0,0,0,0,0,1/2,2,2,2,2,2,2,2,3 71 71 - - b", "99", env.Ongoing},
	{"no tuzdyk: the opponent's tuzdyk has the same number",
		"0,0,0,0,0,0,7,0,0/1,1,1,2,5,5,5,5,5 60 65 - 4 w", 7,
		"0,0,0,0,0,0,1,1,1/2,2,2,3,5,5,5,5,5 60 65 - 4 b", "74", env.Ongoing},
	{"no tuzdyk: the pit now holds 5, not 3",
		"0,0,0,0,0,0,7,0,0/1,1,1,4,5,5,5,5,5 60 63 - - w", 7,
		"0,0,0,0,0,0,1,1,1/2,2,2,5,5,5,5,5,5 60 63 - - b", "74", env.Ongoing},
	{"end: a kazan reaches 82; stones stay in the pits",
		"0,0,0,0,0,0,0,4,0/1,3,5,5,5,5,5,5,5 78 41 - - w", 8,
		"0,0,0,0,0,0,0,1,1/2,0,5,5,5,5,5,5,5 82 41 - - b", "82", env.WhiteWins},
	{"end by 82 is checked before atsyrau: no collection",
		"0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80 79 - - w", 9,
		"0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0 82 79 - - b", "91", env.WhiteWins},
	{"atsyrau: black has no stone, white collects its own",
		"0,0,0,0,0,3,0,0,2/1,0,0,0,0,0,0,0,0 76 80 - - w", 9,
		"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 82 80 - - b", "91", env.WhiteWins},
	{"atsyrau ending 81:81 is a draw",
		"0,0,0,0,0,1,0,0,2/1,0,0,0,0,0,0,0,0 77 81 - - w", 9,
		"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 81 81 - - b", "91", env.Draw},
	{"a player whose own move emptied their pits is not yet out",
		"0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,10 75 76 - - w", 9,
		"0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,10 75 76 - - b", "91", env.Ongoing},
	{"... and the opponent's move may sow stones back",
		"0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,10 75 76 - - b", 9,
		"1,1,1,1,1,1,1,1,1/1,0,0,0,0,0,0,0,1 75 76 - - w", "99", env.Ongoing},
	{"... or not: then atsyrau, and black collects",
		"0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,10 75 76 - - b", 1,
		"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 75 87 - - w", "12", env.BlackWins},
}

func TestRules(t *testing.T) {
	for _, c := range ruleCases {
		b := mustParse(t, c.before)
		got := *b
		note := got.ApplyNoted(env.Action(c.pit - 1))
		want := mustParse(t, c.after)
		if got != *want || note.String() != c.note || got.Result() != c.result {
			t.Errorf("%s\nbefore, pit %d:\n%s\ngot note %s, result %s:\n%s\nwant note %s, result %s:\n%s",
				c.clause, c.pit, b.Draw(), note, got.Result(), got.Draw(), c.note, c.result, want.Draw())
		}
		n := naiveParse(c.before)
		n.play(c.pit)
		if n.String() != c.after {
			t.Errorf("%s: the naive implementation gives %s, want %s", c.clause, n.String(), c.after)
		}
	}
}

// TestTerminalResult covers the result of terminal positions, including
// stones left on the non-moving side (counted as if collected).
func TestTerminalResult(t *testing.T) {
	cases := []struct {
		pos  string
		want env.Result
	}{
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w", env.Ongoing},
		{"0,0,0,0,0,0,0,0,0/5,0,0,0,0,0,0,0,0 78 79 - - w", env.BlackWins},
		{"0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 81 80 - - w", env.Draw},
		{"3,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 79 80 - - b", env.WhiteWins},
		{"0,0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0,0 80 80 - - w", env.BlackWins},
		{"0,0,0,0,0,0,0,0,0/30,0,0,0,0,0,0,0,0 81 51 - - w", env.Draw},
		{"5,5,5,5,5,5,5,5,5/3,0,0,0,0,0,0,0,0 82 32 - - w", env.WhiteWins},
		{"1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 79 82 - - w", env.BlackWins},
		{"0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 81 81 - - b", env.Draw},
		{"1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 80 81 - - w", env.Ongoing},
	}
	for _, c := range cases {
		b := mustParse(t, c.pos)
		if got := b.Result(); got != c.want {
			t.Errorf("result %s, want %s:\n%s", got, c.want, b.Draw())
		}
		if moves := b.Legal(nil); (len(moves) == 0) != (c.want != env.Ongoing) {
			t.Errorf("%d legal moves with result %s:\n%s", len(moves), c.want, b.Draw())
		}
		n := naiveParse(c.pos)
		if n.result() != c.want.String() {
			t.Errorf("naive result %s, want %s for %s", n.result(), c.want, c.pos)
		}
	}
}

func TestCheck(t *testing.T) {
	cases := []struct {
		pos  string
		pit  int
		want string
	}{
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w", 1, ""},
		{"0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,18 0 0 - - w", 1, "pit is empty"},
		{"9,9,0,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 - 3 w", 3, "pit is a tuzdyk"},
		{"9,9,9,9,9,9,9,9,9/9,9,0,9,9,9,9,9,9 9 0 3 - b", 3, "pit is a tuzdyk"},
		{"9,9,9,9,9,9,9,9,9/9,9,0,9,9,9,9,9,9 9 0 3 - b", 4, ""},
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w", 10, "no such pit"},
		{"5,5,5,5,5,5,5,5,5/3,0,0,0,0,0,0,0,0 82 32 - - w", 1, "game is over"},
	}
	for _, c := range cases {
		b := mustParse(t, c.pos)
		err := b.Check(env.Action(c.pit - 1))
		if (err == nil) != (c.want == "") || (err != nil && err.Error() != c.want) {
			t.Errorf("Check(pit %d) = %v, want %q:\n%s", c.pit, err, c.want, b.Draw())
		}
	}
	b := mustParse(t, "9,9,0,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 - 3 w")
	if err := env.Play(b, 3); err == nil || err.Error() != "illegal move: pit is a tuzdyk" {
		t.Errorf("env.Play on a tuzdyk: %v", err)
	}
}

func TestApplyPanicsOnIllegal(t *testing.T) {
	b := mustParse(t, "0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,18 0 0 - - w")
	defer func() {
		if recover() == nil {
			t.Error("Apply of an empty pit did not panic")
		}
	}()
	b.Apply(0)
}

func mustParse(t testing.TB, s string) *Board {
	t.Helper()
	b, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return b
}

func TestFinalStore(t *testing.T) {
	cases := []struct {
		pos        string
		white, blk int
	}{
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w", 0, 0},
		// Atsyrau: black to move with an empty row, white's 10 stones are white's.
		{"1,0,0,0,0,0,0,0,9/0,0,0,0,0,0,0,0,0 70 82 - - b", 70, 82},
		{"1,0,0,0,0,0,0,0,9/0,0,0,0,0,0,0,0,0 75 77 - - b", 85, 77},
		{"0,0,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0,0 80 80 - - w", 80, 82},
	}
	for _, c := range cases {
		b, err := Parse(c.pos)
		if err != nil {
			t.Fatalf("%s: %v", c.pos, err)
		}
		if w, k := b.FinalStore(0), b.FinalStore(1); w != c.white || k != c.blk {
			t.Errorf("%s: FinalStore = %d, %d; want %d, %d\n%s", c.pos, w, k, c.white, c.blk, b.Draw())
		}
	}
}
