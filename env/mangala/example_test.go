package mangala_test

import (
	"fmt"

	"kumalak/env"
	"kumalak/env/mangala"
)

// Classic mangala's extra turn: 4 stones from pit 4 end in white's store,
// so white moves again; in the kale variant (New(true)) no stone is sown
// into a store and the turn passes.
func Example() {
	for _, kale := range []bool{false, true} {
		b := mangala.New(kale)
		if err := env.Play(b, 4); err != nil {
			panic(err)
		}
		fmt.Printf("%s: %s, %s to move\n", b.Spec().Name, b, b.ToMove())
	}
	// Output:
	// mangala: 4,4,4,1,5,5/4,4,4,4,4,4 1 0 - - w, w to move
	// mangala-kale: 4,4,4,1,5,5/5,4,4,4,4,4 0 0 - - b, b to move
}
