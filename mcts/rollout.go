package mcts

import "kumalak/env"

// maxRolloutPlies ends a random playout that has not finished (valued 0):
// random games of these games are a few hundred plies at most.
const maxRolloutPlies = 4096

// rollouts plays Config.Rollouts random games from scratch's position and
// returns their mean result from White's view.
func (s *Search) rollouts() float32 {
	var sum float32
	for range s.cfg.Rollouts {
		s.play.CopyFrom(s.scratch)
		for range maxRolloutPlies {
			legal := s.play.Legal(s.legal[:0])
			if len(legal) == 0 {
				break
			}
			s.play.Apply(legal[s.rng.IntN(len(legal))])
		}
		sum += s.play.Result().Value(env.White)
	}
	return sum / float32(s.cfg.Rollouts)
}
