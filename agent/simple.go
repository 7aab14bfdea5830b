package agent

import (
	"context"
	"fmt"
	"math/rand/v2"

	"kumalak/env"
)

// random plays a uniformly random legal move.
type random struct {
	rng *rand.Rand
	buf []env.Action
}

func newRandom(spec *env.Spec, _ *options, rng *rand.Rand) (Agent, error) {
	return &random{rng: rng, buf: make([]env.Action, 0, spec.NumActions)}, nil
}

// Move returns a random legal move.
func (r *random) Move(_ context.Context, st env.State) (env.Action, error) {
	moves := st.Legal(r.buf[:0])
	if len(moves) == 0 {
		return 0, ErrGameOver
	}
	return moves[r.rng.IntN(len(moves))], nil
}

// greedy plays the move with the best immediate store difference for the
// mover; a move that keeps the turn earns a bonus, a move that ends the game
// counts as a win or a loss, and ties are broken at random.
type greedy struct {
	rng     *rand.Rand
	extra   float64
	scratch env.State
	buf     []env.Action
}

func newGreedy(spec *env.Spec, o *options, rng *rand.Rand) (Agent, error) {
	if _, ok := spec.New().(env.Scorer); !ok {
		return nil, fmt.Errorf("greedy needs a game with stores (env.Scorer); %s has none", spec.Name)
	}
	extra, err := o.float("extra", 1, -100, 100)
	if err != nil {
		return nil, err
	}
	return &greedy{rng: rng, extra: extra, scratch: spec.New(), buf: make([]env.Action, 0, spec.NumActions)}, nil
}

// Move returns the greedy move.
func (g *greedy) Move(_ context.Context, st env.State) (env.Action, error) {
	moves := st.Legal(g.buf[:0])
	if len(moves) == 0 {
		return 0, ErrGameOver
	}
	me := st.ToMove()
	var best env.Action
	bestScore, ties := 0.0, 0
	for _, a := range moves {
		g.scratch.CopyFrom(st)
		g.scratch.Apply(a)
		s := g.score(me, st.Spec().Stones)
		switch {
		case ties == 0 || s > bestScore:
			best, bestScore, ties = a, s, 1
		case s == bestScore:
			ties++
			if g.rng.IntN(ties) == 0 {
				best = a
			}
		}
	}
	return best, nil
}

// score rates the scratch position for me: the store difference, the
// kept-turn bonus, or a decisive score for a finished game.
func (g *greedy) score(me env.Player, stones int) float64 {
	if r := g.scratch.Result(); r != env.Ongoing {
		return float64(r.Value(me)) * float64(2*stones)
	}
	sc := g.scratch.(env.Scorer)
	s := float64(sc.Store(me) - sc.Store(me.Other()))
	if g.scratch.ToMove() == me {
		s += g.extra
	}
	return s
}
