package env_test

import (
	"errors"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

// TestReplay: moves are played in order; the first bad one is named and
// the position stays before it.
func TestReplay(t *testing.T) {
	st := envtest.Kalah3.New()
	if err := env.Replay(st, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	want := st.String()
	st = envtest.Kalah3.New()
	err := env.Replay(st, []int{1, 2, 9})
	if err == nil || !errors.Is(err, env.ErrIllegal) || !strings.HasPrefix(err.Error(), "move 3 (pit 9): ") {
		t.Fatalf("a pit out of range: %v", err)
	}
	if st.String() != want {
		t.Errorf("after the failed move: %s, want %s", st, want)
	}
	if got := env.Pits([]env.Action{0, 2}); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("Pits = %v, want [1 3]", got)
	}
}

// TestSpecReplay: a record's position from its start string and pits; ""
// and "start" are the start position, and a bad start or move is named.
func TestSpecReplay(t *testing.T) {
	spec := envtest.Kalah3
	want := spec.New()
	if err := env.Replay(want, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{"", "start", " start ", want.Spec().New().String()} {
		st, err := spec.Replay(start, []int{1, 2})
		if err != nil || st.String() != want.String() {
			t.Errorf("Replay(%q, [1 2]) = %v, %v; want %s", start, st, err, want)
		}
	}
	if _, err := spec.Replay("", []int{1, 2, 9}); err == nil || !strings.HasPrefix(err.Error(), "move 3 (pit 9): ") {
		t.Errorf("a pit out of range: %v", err)
	}
	if _, err := spec.Replay("not a position", nil); err == nil || !strings.Contains(err.Error(), `position "not a position"`) {
		t.Errorf("a bad start: %v", err)
	}
}
