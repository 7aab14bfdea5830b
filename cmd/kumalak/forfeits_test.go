package main

import (
	"testing"

	"kumalak/arena"
)

// The forfeit line names each player's count, and is absent without any.
func TestForfeits(t *testing.T) {
	cases := []struct {
		a, b int
		want string
	}{
		{0, 0, ""},
		{1, 0, "ab:depth=2 1, random 0"},
		{0, 3, "ab:depth=2 0, random 3"},
	}
	for _, c := range cases {
		r := arena.Result{A: "ab:depth=2", B: "random", ForfeitsA: c.a, ForfeitsB: c.b}
		if got := forfeits(r); got != c.want {
			t.Errorf("forfeits %d/%d: %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
