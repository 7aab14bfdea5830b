// Package envtest is the conformance suite every kumalak game passes: stones
// conserved, no negative pit, legal moves empty exactly when terminal, copies
// independent, position strings round-trip, observations of the right length,
// and zero allocations in the hot methods. It lists the per-game facts a
// game provides (facts.go) and holds the small Kalah games, env/kalah's
// rules, that the tests of mcts, agent, arena and selfplay play (kalah.go).
package envtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"kumalak/env"
)

// Run plays games random games of spec from the start and checks every
// position visited.
func Run(t *testing.T, spec *env.Spec, games int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	for g := 0; g < games; g++ {
		if err := PlayRandom(spec, spec.New(), rng, 2000); err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
	}
}

// PlayRandom plays random moves from st (which it changes) until the game
// ends or maxPlies pass, checking each position; it returns the first
// violation found.
func PlayRandom(spec *env.Spec, st env.State, rng *rand.Rand, maxPlies int) error {
	var buf [env.MaxActions]env.Action
	for ply := 0; ply < maxPlies; ply++ {
		if err := Check(spec, st); err != nil {
			return fmt.Errorf("ply %d, position %s: %w", ply, st, err)
		}
		moves := st.Legal(buf[:0])
		if len(moves) == 0 {
			return nil
		}
		before := st.String()
		other := env.Clone(st)
		st.Apply(moves[rng.IntN(len(moves))])
		if other.String() != before {
			return fmt.Errorf("ply %d: Apply on a copy changed the original: %s -> %s", ply, before, other)
		}
	}
	return nil
}

// Check verifies the invariants of one position.
func Check(spec *env.Spec, st env.State) error {
	s := st.String()
	total, err := countStones(s)
	if err != nil {
		return err
	}
	if total != spec.Stones {
		return fmt.Errorf("stones not conserved: %d, want %d", total, spec.Stones)
	}
	back, err := spec.Parse(s)
	if err != nil {
		return fmt.Errorf("own string refused: %v", err)
	}
	if back.String() != s {
		return fmt.Errorf("string round trip: %q -> %q", s, back.String())
	}
	var buf [env.MaxActions]env.Action
	moves := st.Legal(buf[:0])
	if (len(moves) == 0) != (st.Result() != env.Ongoing) {
		return fmt.Errorf("%d legal moves but result %s", len(moves), st.Result())
	}
	for i, a := range moves {
		if int(a) >= spec.NumActions || (i > 0 && moves[i-1] >= a) {
			return fmt.Errorf("legal moves out of range or order: %v", moves)
		}
	}
	obs := make([]float32, spec.ObsLen+1)
	obs[spec.ObsLen] = 12345
	st.Observe(obs)
	if obs[spec.ObsLen] != 12345 {
		return errors.New("observe wrote past ObsLen")
	}
	return nil
}

// countStones adds up every number in the pits and stores of a position
// string, refusing negative ones.
func countStones(s string) (int, error) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return 0, fmt.Errorf("position string %q too short", s)
	}
	nums := strings.FieldsFunc(f[0], func(r rune) bool { return r == ',' || r == '/' })
	nums = append(nums, f[1], f[2])
	total := 0
	for _, n := range nums {
		v, err := strconv.Atoi(n)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("bad count %q in %q", n, s)
		}
		total += v
	}
	return total, nil
}

// Allocs checks that Legal, Apply, Result, Observe and CopyFrom allocate
// nothing, over positions of a random game.
func Allocs(t *testing.T, spec *env.Spec) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	st, start := spec.New(), spec.New()
	buf := make([]env.Action, 0, 64)
	obs := make([]float32, spec.ObsLen)
	n := testing.AllocsPerRun(200, func() {
		moves := st.Legal(buf[:0])
		if len(moves) == 0 {
			st.CopyFrom(start)
			return
		}
		st.Observe(obs)
		_ = st.Result()
		st.Apply(moves[rng.IntN(len(moves))])
	})
	if n != 0 {
		t.Errorf("%s: %v allocations per move, want 0", spec.Name, n)
	}
}

// FuzzSpecs runs Fuzz on every spec for each input of a fuzz target,
// seeded with seeds (each with its index as the move seed): the whole
// FuzzParse of a game package whose parser needs no checks of its own.
func FuzzSpecs(f *testing.F, seeds []string, specs ...*env.Spec) {
	for i, s := range seeds {
		f.Add(s, uint64(i))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		for _, spec := range specs {
			Fuzz(t, spec, s, seed)
		}
	})
}

// Fuzz checks that Parse never panics and that every accepted string passes
// Check and round-trips; it then plays random moves from the position.
func Fuzz(t *testing.T, spec *env.Spec, s string, seed uint64) {
	st, err := spec.Parse(s)
	if err != nil {
		if err.Error() == "" {
			t.Fatalf("empty error for %q", s)
		}
		return
	}
	if err := Check(spec, st); err != nil {
		t.Fatalf("accepted %q: %v", s, err)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	if err := PlayRandom(spec, st, rng, 300); err != nil {
		t.Fatalf("from %q: %v", s, err)
	}
}
