package solve_test

import (
	"context"
	"fmt"
	"os"

	"kumalak/env/mangala"
	"kumalak/solve"
)

// A tablebase is built once into a folder (every level up to Stones stones
// on the board), then opened and probed: the exact result for the player
// to move, and the exact value of each move.
func Example() {
	dir, err := os.MkdirTemp("", "solve-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if _, err := solve.Build(context.Background(), solve.BuildConfig{Dir: dir, Stones: 6}); err != nil {
		panic(err)
	}
	tb, err := solve.Open(dir, -1)
	if err != nil {
		panic(err)
	}
	defer tb.Close()
	pos, err := mangala.Parse("0,0,0,0,2,1/0,0,1,0,0,1 22 21 - - w", false)
	if err != nil {
		panic(err)
	}
	v, ok := tb.Exact(pos)
	fmt.Println("levels 0 to", tb.Stones(), "stones; white to move wins:", ok && v == 1)
	moves, _ := tb.MovesOf(pos, nil)
	for _, m := range moves { // the final store difference for white after the move
		fmt.Printf("pit %d: %+d (exact %v)\n", m.Action.Pit(), m.Lo, m.Exact())
	}
	// Output:
	// levels 0 to 6 stones; white to move wins: true
	// pit 5: +4 (exact true)
	// pit 6: +4 (exact true)
}
