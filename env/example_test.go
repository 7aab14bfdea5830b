package env_test

import (
	"fmt"

	"kumalak/env"
	_ "kumalak/env/games" // registers every game
)

// A game is looked up by name; moves from people go through the checked
// door env.Play, records through Spec.ParseMoves.
func Example() {
	spec, err := env.Lookup("mangala")
	if err != nil {
		panic(err)
	}
	st := spec.New()
	for _, pit := range []int{4, 3} { // 4 ends in white's store: white moves again
		if err := env.Play(st, pit); err != nil {
			panic(err)
		}
	}
	fmt.Println(st)
	fmt.Println(st.ToMove().Name(), "to move, result", st.Result())
	fmt.Println(env.Play(st, 7))
	// Output:
	// 4,4,1,2,6,6/4,4,4,4,4,4 1 0 - - b
	// black to move, result *
	// illegal move: pit 7 out of range 1..6
}

func ExampleSpec_ParseMoves() {
	spec, _ := env.Lookup("togyz")
	start := spec.New()
	moves, err := spec.ParseMoves(start, "1. 21 65 2. 34 22x")
	fmt.Println(moves, err)
	_, err = spec.ParseMoves(start, "1. 76 98 2. 55 12x")
	fmt.Println(err)
	// Output:
	// [1 5 2 1] <nil>
	// togyz: move 4 (12x): no tuzdyk was made
}

func ExamplePerft() {
	spec, _ := env.Lookup("togyz")
	for d := 1; d <= 4; d++ {
		fmt.Println(d, env.Perft(spec.New(), d))
	}
	// Output:
	// 1 9
	// 2 73
	// 3 613
	// 4 5199
}

func ExampleParsePosition() {
	_, err := env.ParsePosition("4,4,4,4,4,4/4,4,4,4,4 0 0 - - w", 6, 48)
	fmt.Println(err)
	// Output:
	// pits: black has 5 pits, want 6
}
