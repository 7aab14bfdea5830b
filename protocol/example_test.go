package protocol_test

import (
	"fmt"

	"kumalak/protocol"
)

// A controller's line parses into a typed command and formats back in
// canonical form.
func ExampleParseCommand() {
	c, err := protocol.ParseCommand("go nodes 400 movetime 1000")
	if err != nil {
		fmt.Println(err)
		return
	}
	g := c.(protocol.Go)
	fmt.Println(g.Sims, g.MoveTime)
	fmt.Println(g.Format())
	// Output:
	// 400 1s
	// go sims 400 movetime 1000
}

// An engine's info line parses into an Info whose Has says which fields
// it gave.
func ExampleParseAnswer() {
	a, _ := protocol.ParseAnswer("info depth 6 nodes 5120 value 0.2500 winprob 0.6250 time 12 pv 5 1 9")
	in := a.(protocol.Info)
	fmt.Println(in.Depth, in.Has&protocol.InfoVisits != 0, in.PV)
	fmt.Println(protocol.BestMove{Pit: in.PV[0]}.Format())
	// Output:
	// 6 false [5 1 9]
	// bestmove 5
}
