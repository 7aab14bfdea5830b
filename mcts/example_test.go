package mcts_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"kumalak/env/togyz"
	"kumalak/mcts"
)

// A search from a togyz position where white's pit 9 captures 2 stones into
// a kazan of 80 and wins: the solver proves it. The loop of a game is:
// Reset (or Advance) to the position, Run, read Policy (the training target)
// and Choose, play the move, Advance to keep the subtree under it.
func Example() {
	pos, err := togyz.Parse("1,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,9 80 70 - - w")
	if err != nil {
		panic(err)
	}
	s := mcts.New(togyz.Spec, mcts.Uniform{}, mcts.DefaultConfig(), rand.New(rand.NewPCG(1, 2)))
	s.Reset(pos)
	if err := s.Run(context.Background(), mcts.Limits{Sims: 200}); err != nil {
		panic(err)
	}
	policy := make([]float32, togyz.Spec.NumActions)
	s.Policy(policy) // the visit distribution: the policy target of self-play
	a := s.Choose(0)
	root := s.Root()
	fmt.Printf("play pit %d: proven %s in %d ply\n", a.Pit(), root.Proof, root.Depth)
	pos.Apply(a)
	s.Advance(a, pos)
	fmt.Println("result", pos.Result())
	// Output:
	// play pit 9: proven win in 1 ply
	// result 1-0
}
