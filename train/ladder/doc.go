// Package ladder is a training run's rating scale: the anchors (the fixed
// baselines, rated once by a round robin, eval.anchor = 0) and the ladder
// of rungs above them, and the fit that rates a network against both.
//
// The ladder: once the network rates eval.ladder_step above every anchor,
// the evaluated network is frozen as a rung (a copy of its model under
// the run folder's ladder/, playing at the evaluation's simulations),
// rated once against the anchors nearest it (Opponents), and kept with its
// rating in anchors.json (File). Each later evaluation plays the top rungs
// too (Top), so the rating keeps opponents near its own strength, where a
// game tells the most (the Fisher weight p(1-p) is largest at an even
// score), however far above the baselines the network climbs.
//
// A rung's rating carries its opponents' errors (Loadings), so that Rate's
// interval counts the correlation of rungs rated against the same anchors
// and the errors do not add up along the ladder.
//
// Package train decides when to play the games (its evaluation step);
// this package holds the file, the rungs and the arithmetic. Ratings are
// Elo from the rated network's view. Nothing here is safe for concurrent
// use on the same File or rungs.
package ladder
