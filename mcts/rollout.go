package mcts

import "kumalak/env"

// maxRolloutPlies ends a random playout that has not finished (valued 0):
// random games of these games are a few hundred plies at most.
const maxRolloutPlies = 4096

// rollouts plays Config.Rollouts random games from st on w's board and
// returns their mean result from White's view.
func (s *Search) rollouts(w *worker, st env.State) float32 {
	var sum float32
	for range s.cfg.Rollouts {
		w.play.CopyFrom(st)
		for range maxRolloutPlies {
			legal := w.play.Legal(w.legal[:0])
			if len(legal) == 0 {
				break
			}
			w.play.Apply(legal[w.rng.IntN(len(legal))])
		}
		sum += w.play.Result().Value(env.White)
	}
	return sum / float32(s.cfg.Rollouts)
}
