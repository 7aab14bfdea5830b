// Package analysis judges every move of a game record (Analyze): the
// mover's value and chance to win before and after the move, the best
// move and line, and a mark by the chance lost (Thresholds); a
// GameAnalysis writes itself as text (WriteText) or JSON.
//
// WinProb is the one place that decides which agents' values are
// probabilities; Config.Exact is the seam for a tablebase, Config.Verdict
// for an exact judge of a move.
//
// Perspective: each Eval is from the view of the player to move in the
// position searched, as in package agent; the chances are calibrated (the
// network's value, or alpha-beta's score through agent.Calibration).
//
// Concurrency: Analyze builds its own agent and uses it on the caller's
// goroutine.
package analysis
