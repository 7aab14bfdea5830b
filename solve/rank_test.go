package solve

import (
	"math/rand/v2"
	"testing"
)

// binomial returns C(n, k).
func binomial(n, k int) uint64 {
	r := uint64(1)
	for i := 1; i <= k; i++ {
		r = r * uint64(n-k+i) / uint64(i)
	}
	return r
}

func TestLevelSize(t *testing.T) {
	for s := 0; s <= MaxStones; s++ {
		if got, want := LevelSize(s), binomial(s+11, 11); got != want {
			t.Errorf("LevelSize(%d) = %d, want C(%d, 11) = %d", s, got, s+11, want)
		}
	}
}

// TestRankExhaustive checks that Unrank then Rank is the identity on every
// index of the small levels, that the configurations are distinct, hold s
// stones, and come in increasing weight.
func TestRankExhaustive(t *testing.T) {
	for s := 0; s <= 6; s++ {
		seen := map[Pits]bool{}
		prevW := 0
		for r := range LevelSize(s) {
			p := Unrank(s, r)
			if p.Stones() != s || seen[p] || p.Rank() != r || p.Weight() < prevW {
				t.Fatalf("level %d index %d: %v (stones %d, seen %v, rank %d, weight %d after %d)", s, r, p, p.Stones(), seen[p], p.Rank(), p.Weight(), prevW)
			}
			seen[p], prevW = true, p.Weight()
		}
	}
}

func TestRankRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := rng.IntN(MaxStones + 1)
		p := randomPits(rng, s)
		r := p.Rank()
		if r >= LevelSize(s) || Unrank(s, r) != p {
			t.Fatalf("%v: rank %d of %d, unranks to %v", p, r, LevelSize(s), Unrank(s, r))
		}
	}
}

func TestRankAllocs(t *testing.T) {
	p := Pits{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}
	var sink uint64
	if n := testing.AllocsPerRun(100, func() {
		sink += p.Rank()
		q := Unrank(48, sink%LevelSize(48))
		sink += uint64(q[0])
		c := p.Play(int(sink % 6))
		sink += uint64(c.Gain)
	}); n != 0 {
		t.Errorf("Rank, Unrank and Play allocate %v times", n)
	}
}

// FuzzRank checks the bijection on any configuration of at most
// MaxStones stones, and on any index of any level.
func FuzzRank(f *testing.F) {
	f.Add([]byte{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, uint64(0))
	f.Add([]byte{48}, uint64(1<<40))
	f.Fuzz(func(t *testing.T, b []byte, r uint64) {
		var p Pits
		s := 0
		for k := 0; k < nPits && k < len(b); k++ {
			v := min(int(b[k]), MaxStones-s)
			p[k], s = uint8(v), s+v
		}
		if got := Unrank(s, p.Rank()); got != p {
			t.Fatalf("%v: rank %d unranks to %v", p, p.Rank(), got)
		}
		r %= LevelSize(s)
		if q := Unrank(s, r); q.Rank() != r || q.Stones() != s {
			t.Fatalf("level %d index %d: %v ranks %d", s, r, q, q.Rank())
		}
	})
}
