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
	if got := env.PitsOf([]env.Action{0, 2}); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Errorf("PitsOf = %v, want [1 3]", got)
	}
}
