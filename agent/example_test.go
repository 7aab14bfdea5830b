package agent_test

import (
	"context"
	"fmt"

	"kumalak/agent"
	"kumalak/env/togyz"
)

// Agents are made from spec strings and all play through Move; searching
// agents also describe their last search (Analyzer).
func Example() {
	pos, err := togyz.Parse("1,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,9 80 70 - - w")
	if err != nil {
		panic(err)
	}
	for _, spec := range []string{"greedy", "ab:depth=4", "mcts:sims=200"} {
		a, err := agent.New(togyz.Spec, spec, 1)
		if err != nil {
			panic(err)
		}
		move, err := a.Move(context.Background(), pos)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s plays pit %d", spec, move.Pit())
		if an, ok := a.(agent.Analyzer); ok {
			fmt.Printf(", value %+.0f", an.Analysis().Value)
		}
		fmt.Println()
	}
	_, err = agent.New(togyz.Spec, "ab:depth=-1", 1)
	fmt.Println("ab:depth=-1 refused:", err != nil)
	// Output:
	// greedy plays pit 9
	// ab:depth=4 plays pit 9, value +1
	// mcts:sims=200 plays pit 9, value +1
	// ab:depth=-1 refused: true
}
