// Package chart draws a training run's charts: the losses, the strength
// (against each baseline, or on the anchors' scale with the ladder's
// rungs), self-play's speed and the network's mistakes, each against the
// run's training time.
//
// It knows nothing of the run folder or of metrics.jsonl: package train
// hands it one Point per iteration and the paths to draw to (Files), at
// its checkpoints. Drawing uses gonum's plot; the format follows each
// path's extension (PNG, SVG, PDF, ...). Draw is safe for concurrent use:
// it keeps nothing.
package chart
