package selfplay_test

import (
	"context"
	"fmt"

	"kumalak/env/mangala"
	"kumalak/mcts"
	"kumalak/selfplay"
)

// Run plays games at once against one evaluator (the network's batcher in
// training; here mcts.Uniform) and hands each finished game, with its
// training samples, to a callback.
func Example() {
	cfg := selfplay.DefaultConfig()
	cfg.Games, cfg.FullSims, cfg.CheapSims = 2, 16, 4
	games, samples := 0, 0
	st, err := selfplay.Run(context.Background(), mangala.Spec, mcts.Uniform{}, cfg, 4, 1, func(g selfplay.GameResult) {
		games++
		samples += len(g.Samples)
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("games:", games, st.Games)
	fmt.Println("every sample counted:", samples == st.Samples && samples > 0)
	fmt.Println("results add up:", st.WhiteWins+st.BlackWins+st.Draws == st.Games)
	// Output:
	// games: 4 4
	// every sample counted: true
	// results add up: true
}
