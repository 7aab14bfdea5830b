// Package export makes a training run's result a model to ship: the run's
// best network with its model card (Write: game, training time, games and
// samples, the Elo measured against the run's baselines and its anchors),
// and more strength measured into the card (Measure: matches against
// agent specs such as ab:depth=8, as models/*.kmodel were measured).
//
// It reads the run folder (package train's Dir), never changes it, and
// writes one .kmodel; `kumalak export` wires it. Nothing here keeps state
// between calls.
package export
