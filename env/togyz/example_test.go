package togyz_test

import (
	"fmt"

	"kumalak/env"
	"kumalak/env/togyz"
)

// A game from the start: moves are pit numbers of the mover's row, played
// through the checked door env.Play; the position string is what records,
// the engine protocol and --position read back.
func Example() {
	b := togyz.New()
	if err := env.Replay(b, []int{7, 9}); err != nil {
		panic(err)
	}
	fmt.Println(b)
	fmt.Println("to move:", b.ToMove(), "stores:", b.Store(env.White), b.Store(env.Black))
	fmt.Println(env.Play(b, 10))
	again, err := togyz.Parse(b.String())
	fmt.Println(err == nil && *again == *b)
	// Output:
	// 10,10,10,10,10,10,2,11,10/10,10,10,10,10,0,9,9,1 10 0 - - w
	// to move: w stores: 10 0
	// illegal move: pit 10 out of range 1..9
	// true
}
