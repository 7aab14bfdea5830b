package solve

import (
	"math/rand/v2"
	"testing"

	"kumalak/env"
	"kumalak/env/kalah"
	"kumalak/env/mangala"
)

// TestShippedBook reads the committed mangala proofs as a book: the start's
// first moves 1, 2 and 3 lose by 6 stones at least (docs/TABLEBASE.md),
// every position of the book has each move's bounds inside its own, some
// position has a move that another is proved to beat, and positions off
// the book or of games without proofs give nothing.
func TestShippedBook(t *testing.T) {
	bk, err := ShippedBook(mangala.Spec)
	if err != nil || bk == nil {
		t.Fatalf("ShippedBook(mangala) = %v, %v", bk, err)
	}
	r, ok := bk.Moves(mangala.Spec.New(), nil)
	if !ok || len(r.Moves) != 6 {
		t.Fatalf("start: %+v, %v", r, ok)
	}
	// The published solution (docs/TABLEBASE.md, "Turkish Mangala is a
	// draw"): the start is a draw, pit 5 the only drawing move.
	if r.Lo != 0 || r.Hi != 0 {
		t.Errorf("start: %+d..%+d, want the proved draw", r.Lo, r.Hi)
	}
	for i, want := range []int{-8, -8, -8, -2, 0, -2} {
		if m := r.Moves[i]; m.Lo != want || m.Hi != want {
			t.Errorf("start, pit %d: %+d..%+d, want %+d", m.Action.Pit(), m.Lo, m.Hi, want)
		}
	}
	excluded := 0
	for _, f := range bk.b.facts {
		st, err := mangala.Spec.Parse(f.pos)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := bk.Moves(st, nil)
		if !ok {
			continue
		}
		if r.Lo > f.base+f.hi || r.Hi < f.base+f.lo {
			t.Errorf("%s: moves give %+d..%+d, the book %+d..%+d", f.pos, r.Lo, r.Hi, f.base+f.lo, f.base+f.hi)
		}
		for _, m := range r.Moves {
			if m.Lo > m.Hi {
				t.Errorf("%s pit %d: %+d..%+d", f.pos, m.Action.Pit(), m.Lo, m.Hi)
			}
			if m.Hi < r.Lo {
				excluded++
			}
		}
	}
	if excluded == 0 {
		t.Error("no move of the book is proved worse than another: the book excludes nothing")
	}
	t.Logf("%d positions, %d moves proved worse than another", len(bk.b.facts), excluded)

	rng := rand.New(rand.NewPCG(3, 4))
	st := mangala.Spec.New()
	for range 12 {
		moves := st.Legal(nil)
		st.Apply(moves[rng.IntN(len(moves))])
	}
	if r, ok := bk.Moves(st, nil); ok {
		t.Errorf("12 random plies from the start, still in the book: %+v", r)
	}
	// A move that ends the game is no knowledge of the book's: a position
	// it does not hold answers false, even where the book's bounds reach
	// its stones.
	end, err := mangala.Spec.Parse("0,0,0,0,0,1/1,1,0,0,0,0 23 22 - - w")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := (&Book{b: bk.b}).Moves(end, nil); ok {
		t.Errorf("%s: a position the book does not hold, answered by its move that ends the game", end)
	}
	if bk.fewest < 20 || bk.fewest > 48 { // six plies from the start, captures can take half the stones
		t.Errorf("the book's fewest stones %d, want those of positions near the start", bk.fewest)
	}
	for _, spec := range []*env.Spec{mangala.KaleSpec, kalah.Spec} {
		if bk, err := ShippedBook(spec); bk != nil || err != nil {
			t.Errorf("ShippedBook(%s) = %v, %v; want none", spec.Name, bk, err)
		}
	}
}
