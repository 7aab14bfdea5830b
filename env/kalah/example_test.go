package kalah_test

import (
	"fmt"

	"kumalak/env"
	"kumalak/env/kalah"
)

// Kalah's rules are options: the registered "kalah" is six houses of four
// seeds with the opposite capture; ParseRules reads others.
func Example() {
	b := kalah.New(kalah.Spec, kalah.Default)
	if err := env.Replay(b, []int{3, 6}); err != nil {
		panic(err)
	}
	fmt.Printf("%s, %s to move\n", b, b.ToMove())
	r, err := kalah.ParseRules("houses=4,seeds=3")
	fmt.Println(r.Houses, r.Seeds, err)
	// Output:
	// 4,4,0,5,5,0/5,5,5,5,4,4 2 0 - - b, b to move
	// 4 3 <nil>
}
