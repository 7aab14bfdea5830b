package solve

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
)

// TestLine plays a perfect line from a small position, writes it, reads
// it back by the rules and checks each position's value against a solve
// of its own; a line whose moves do not follow, or that stops early, is
// refused.
func TestLine(t *testing.T) {
	spec := mangala.Spec
	st, err := spec.Parse("0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w")
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(t, nil)
	var buf bytes.Buffer
	if err := s.WriteLine(context.Background(), &buf, st); err != nil {
		t.Fatal(err)
	}
	line, err := ReadLine(strings.NewReader(buf.String()), spec)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	checkLine(t, line, func(p env.State) (int, bool) {
		r, err := newSolver(t, nil).Solve(p, 0)
		return r.Lo, err == nil && r.Exact()
	})
	if line[0].Value != 10 || line[0].Move.Pit() != 5 {
		t.Errorf("the line starts %+d by pit %d, want +10 by pit 5:\n%s", line[0].Value, line[0].Move.Pit(), buf.String())
	}
	rows := strings.Split(strings.TrimSpace(buf.String()), "\n")
	for name, bad := range map[string][]string{
		"a row dropped":   slices.Delete(slices.Clone(rows), 5, 6),
		"the end cut off": rows[:len(rows)-2],
		"another game":    append([]string{rows[0], "game kalah"}, rows[2:]...),
		"an illegal move": append(append(slices.Clone(rows[:3]), strings.Replace(rows[3], " 5 ", " 1 ", 1)), rows[4:]...),
		"no position":     append(append(slices.Clone(rows[:4]), "1 +10 5"), rows[5:]...),
	} {
		if _, err := ReadLine(strings.NewReader(strings.Join(bad, "\n")), spec); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

// checkLine checks a perfect line: every position's value from its
// mover's view is the final store difference the line reaches from that
// view, and equals value(position) wherever that knows it.
func checkLine(t *testing.T, line []Step, value func(env.State) (int, bool)) {
	t.Helper()
	last := line[len(line)-1]
	for _, s := range line {
		want := last.Value
		if s.Position.ToMove() != last.Position.ToMove() {
			want = -want
		}
		if s.Value != want {
			t.Errorf("%s: value %+d, but the line ends %+d for its mover", s.Position, s.Value, want)
		}
		if v, ok := value(s.Position); ok && v != s.Value {
			t.Errorf("%s: value %+d in the line, %+d solved", s.Position, s.Value, v)
		}
	}
}

// TestShippedLine replays the published perfect line of the classic
// Mangala start (proofs/mangala.line, written by `kumalak solve --line`
// with the 28-stone tablebase) by the rules and checks each position's
// value: the line keeps it to the end, the shipped bounds hold it
// (exactly where they are exact), and the positions of up to 16 stones
// on the board are solved again here.
func TestShippedLine(t *testing.T) {
	f, err := os.Open("proofs/mangala.line")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line, err := ReadLine(f, mangala.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if line[0].Position.String() != mangala.Spec.New().String() || line[0].Value != 0 || line[0].Move.Pit() != 5 {
		t.Fatalf("the line starts %s %+d by pit %d, want the start, a draw, pit 5", line[0].Position, line[0].Value, line[0].Move.Pit())
	}
	bk, err := ShippedBook(mangala.Spec)
	if err != nil {
		t.Fatal(err)
	}
	s := newSolver(t, openShared(t, sharedStones))
	inBook, solved := 0, 0
	for _, st := range line {
		if r, ok := bk.Moves(st.Position, nil); ok {
			inBook++
			if st.Value < r.Lo || st.Value > r.Hi {
				t.Errorf("%s: value %+d in the line, the book proves %+d..%+d", st.Position, st.Value, r.Lo, r.Hi)
			}
		}
	}
	checkLine(t, line, func(p env.State) (int, bool) {
		if q := FromBoard(p.(*mangala.Board)); q.Stones() > 16 {
			return 0, false
		}
		solved++
		r, err := s.Solve(p, 0)
		return r.Lo, err == nil && r.Exact()
	})
	if inBook < 3 || solved < 3 {
		t.Errorf("%d positions of the line checked by the book, %d solved: too few", inBook, solved)
	}
	t.Logf("%d positions, %d in the book, %d solved again", len(line), inBook, solved)
}

// FuzzReadLine: ReadLine refuses bad input with an error, never a panic,
// and a line it reads writes back to a text it reads the same.
func FuzzReadLine(f *testing.F) {
	if b, err := os.ReadFile("proofs/mangala.line"); err == nil {
		f.Add(string(b))
	}
	f.Add("kumalak-line 1\ngame mangala\n0 +0 - 0,0,0,0,0,0/0,0,0,0,0,0 24 24 - - w\n")
	f.Add("kumalak-line 1\ngame mangala\n0 +10 5 0,0,0,0,1,0/0,0,0,0,0,0 20 18 - - w\n")
	f.Fuzz(func(t *testing.T, text string) {
		line, err := ReadLine(strings.NewReader(text), mangala.Spec)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteLine(&buf, line); err != nil {
			t.Fatal(err)
		}
		again, err := ReadLine(&buf, mangala.Spec)
		if err != nil || len(again) != len(line) {
			t.Fatalf("written back: %v, %d of %d rows\n%s", err, len(again), len(line), buf.String())
		}
		for i := range line {
			if again[i].Position.String() != line[i].Position.String() || again[i].Value != line[i].Value || again[i].End != line[i].End {
				t.Fatalf("row %d: %+v, read back %+v", i, line[i], again[i])
			}
		}
	})
}
