package arena_test

import (
	"context"
	"fmt"

	"kumalak/arena"
	"kumalak/env/mangala"
)

// A match plays paired games (each opening twice, colours swapped) between
// two agent specs and reports the score and Elo from A's view.
func Example() {
	cfg := arena.DefaultConfig()
	cfg.Games, cfg.Seed, cfg.Balanced = 10, 7, false
	m := &arena.Match{Spec: mangala.Spec, A: "ab:depth=2", B: "random", Config: cfg}
	res, err := m.Run(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s against %s: %d games, %d pairs\n", res.A, res.B, res.Counts.Games(), res.Pairs.Total())
	fmt.Println("A scores more than half:", res.Counts.Score() > 0.5)
	// Output:
	// ab:depth=2 against random: 10 games, 5 pairs
	// A scores more than half: true
}
