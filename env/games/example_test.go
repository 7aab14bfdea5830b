package games_test

import (
	"fmt"

	"kumalak/env"
	_ "kumalak/env/games" // registers every game
)

// Importing games for its side effect makes every game known by name
// (env.Games lists them).
func Example() {
	for _, name := range []string{"togyz", "mangala", "mangala-kale", "kalah"} {
		spec, err := env.Lookup(name)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %s, %d pits a side, %d stones\n", name, spec.Title, spec.Pits, spec.Stones)
	}
	// Output:
	// togyz: Togyz Kumalak, 9 pits a side, 162 stones
	// mangala: Mangala (classic), 6 pits a side, 48 stones
	// mangala-kale: Mangala with the castle rule (kale), 6 pits a side, 48 stones
	// kalah: Kalah (6 houses, 4 seeds), 6 pits a side, 48 stones
}
