package mangala

import (
	"fmt"

	"kumalak/env"
)

// Parse reads a position string of docs/RULES.md (env.ParsePosition):
//
//	<white pits 1..6>/<black pits 1..6> <white store> <black store> <white's special> <black's special> <to move>
//
// A special is the number of the opponent's pit that is the player's castle,
// or "-". Beyond what every game checks, Parse refuses a castle in the
// classic game (kale false) and a castle on pit 6. Its errors name the field.
func Parse(s string, kale bool) (*Board, error) {
	p, err := env.ParsePosition(s, PitsPerSide, Stones)
	if err != nil {
		return nil, err
	}
	b := Board{castle: [2]int8{noCastle, noCastle}, toMove: p.ToMove, kale: kale}
	for pl := env.White; pl <= env.Black; pl++ {
		switch n := p.Special[pl]; {
		case n == 0:
		case !kale:
			return nil, fmt.Errorf("%s's special: %d given, but mangala has no castles (want -)", pl.Name(), n)
		case n == PitsPerSide:
			return nil, fmt.Errorf("%s's special: a castle can't be on pit %d", pl.Name(), n)
		default:
			b.castle[pl] = int8(n - 1)
		}
		for i, v := range p.Pits[pl] {
			b.pits[int(pl)*PitsPerSide+i] = uint8(v)
		}
		b.stores[pl] = uint8(p.Stores[pl])
	}
	return &b, nil
}

// String returns the position string of docs/RULES.md.
func (b *Board) String() string {
	var rows [2][PitsPerSide]int
	for i, v := range b.pits {
		rows[i/PitsPerSide][i%PitsPerSide] = int(v)
	}
	p := env.Position{
		Pits:   [2][]int{rows[0][:], rows[1][:]},
		Stores: [2]int{int(b.stores[0]), int(b.stores[1])},
		ToMove: b.toMove,
	}
	for pl, c := range b.castle {
		if c != noCastle {
			p.Special[pl] = int(c) + 1
		}
	}
	return p.String()
}
