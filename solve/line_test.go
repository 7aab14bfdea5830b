package solve

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"kumalak/env"
)

// TestLine plays a perfect line from a small position, writes it, reads
// it back by the rules and checks each position's value against a solve
// of its own; a line whose moves do not follow, or that stops early, is
// refused.
func TestLine(t *testing.T) {
	spec, err := env.Lookup("mangala")
	if err != nil {
		t.Fatal(err)
	}
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
