package togyz

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"kumalak/env"
)

func TestFormatRecord(t *testing.T) {
	start := New()
	// White's 7 sows 9 stones up to black's 6, which then holds 10 and is
	// captured; black's 5, now 10 stones, reaches white's 5 (10, captured);
	// white's 1, now 10 stones, ends on black's 1, which holds 11.
	rec, err := FormatRecord(start, []env.Action{6, 4, 0})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1. 76 55 2. 11"; rec != want {
		t.Errorf("record %q, want %q", rec, want)
	}
	if start.String() != startPos {
		t.Errorf("FormatRecord changed start: %s", start)
	}
	blackFirst := mustParse(t, "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - b")
	rec, err = FormatRecord(blackFirst, []env.Action{6, 6})
	if err != nil {
		t.Fatal(err)
	}
	if want := "1... 76 2. 76"; rec != want {
		t.Errorf("record from black %q, want %q", rec, want)
	}
	_, err = FormatRecord(mustParse(t, ruleCases[0].before), []env.Action{1})
	if err == nil || err.Error() != "togyz: move 1 (pit 2): illegal move: pit is empty" {
		t.Errorf("illegal move error: %v", err)
	}
}

func TestNoteTuzdyk(t *testing.T) {
	for _, c := range ruleCases {
		b := mustParse(t, c.before)
		moves, err := ParseRecord(b, c.note)
		if err != nil || !slices.Equal(moves, []env.Action{env.Action(c.pit - 1)}) {
			t.Errorf("%s: ParseRecord(%q) = %v, %v", c.clause, c.note, moves, err)
		}
		rec, err := FormatRecord(b, moves)
		if err != nil || !strings.HasSuffix(rec, " "+c.note) {
			t.Errorf("%s: FormatRecord = %q, %v; want it to end with %s", c.clause, rec, err, c.note)
		}
	}
}

func TestRecordRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for g := 0; g < 50; g++ {
		b := New()
		var moves []env.Action
		for {
			legal := b.Legal(nil)
			if len(legal) == 0 {
				break
			}
			a := legal[rng.IntN(len(legal))]
			moves = append(moves, a)
			b.Apply(a)
		}
		rec, err := FormatRecord(New(), moves)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseRecord(New(), rec+" "+b.Result().String())
		if err != nil || !slices.Equal(back, moves) {
			t.Fatalf("game %d: %q read back as %v, %v", g, rec, back, err)
		}
		plain := make([]string, len(moves))
		for i, a := range moves {
			plain[i] = string(rune('0' + a.Pit()))
		}
		back, err = ParseRecord(New(), strings.Join(plain, " "))
		if err != nil || !slices.Equal(back, moves) {
			t.Fatalf("game %d: plain pits read back as %v, %v", g, back, err)
		}
	}
}

func TestParseRecordErrors(t *testing.T) {
	const (
		tuz = "0,0,0,0,0,0,7,0,0/1,1,1,2,5,5,5,5,5 60 65 - - w" // white's 7 makes a tuzdyk: "74x"
		end = "0,0,0,0,0,0,0,4,0/1,3,5,5,5,5,5,5,5 78 41 - - w" // white's 8 wins: "82"
	)
	cases := []struct {
		start, rec, want string
	}{
		{startPos, "1. 76 55 2. 18", "togyz: move 3 (18): last stone fell in pit 1"},
		{startPos, "1. 76 54", "togyz: move 2 (54): last stone fell in pit 5"},
		{startPos, "76 55 11x", "togyz: move 3 (11x): no tuzdyk was made"},
		{tuz, "74", "togyz: move 1 (74): it made a tuzdyk: write 74x"},
		{tuz, "75x", "togyz: move 1 (75x): last stone fell in pit 4"},
		{tuz, "1", "togyz: move 1 (1): illegal move: pit is empty"},
		{startPos, "0", "togyz: move 1 (0): illegal move: pit 0 out of range 1..9"},
		{startPos, "7a", "togyz: move 1 (7a): want a pit"},
		{startPos, "765", "togyz: move 1 (765): want a pit"},
		{startPos, "7x", "togyz: move 1 (7x): want a pit"},
		{startPos, "76 * 65", "togyz: record: result * before the last move"},
		{end, "82 0-1", "togyz: record: result 0-1, but the game ended 1-0"},
		{end, "82 76", "togyz: move 2 (76): illegal move: game is over"},
	}
	for _, c := range cases {
		_, err := ParseRecord(mustParse(t, c.start), c.rec)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseRecord(%q) = %v, want %q", c.rec, err, c.want)
		}
	}
	if _, err := ParseRecord(New(), "1. 76 2. 1-0"); err != nil {
		t.Errorf("a resignation after an unfinished game: %v", err)
	}
}

func TestSpecNotation(t *testing.T) {
	moves := []env.Action{6, 8}
	got, err := Spec.FormatMoves(New(), moves)
	if err != nil || got != "1. 76 98" {
		t.Fatalf("Spec.FormatMoves = %q, %v; want \"1. 76 98\"", got, err)
	}
}
