// Package mcts is AlphaZero's PUCT search, or Gumbel AlphaZero's root
// search (Config.Kind), over any env game. It asks an
// Evaluator (the network, or Uniform) for priors and values of leaf
// positions, or, with a nil Evaluator, plays random rollouts (pure MCTS).
//
// # Use
//
// New, then per move: Reset (or Advance) to the position, Run with Limits,
// Policy for the visit distribution (self-play's policy target), Choose for
// the move, Apply it and Advance to keep the subtree under it. The package
// Example does it on a togyz endgame.
//
// # Selection
//
// From a node whose mover is p, the child maximising
//
//	Q + CPuct * P * sqrt(N) / (1 + n)
//
// is followed, where Q is the child's mean value from p's view, P its
// prior, n its visits and N the node's visits. An unvisited child is valued
// at the node's own Q (p's view) minus FPUReduction. Dirichlet(NoiseAlpha)
// noise is mixed into the root's priors (weight NoiseWeight) once per root,
// when the root first has children; nodes below the root never get noise.
//
// # Gumbel search
//
// With Kind gumbel (Danihelka et al., "Policy improvement by planning with
// Gumbel", ICLR 2022), each Run draws g(a) ~ GumbelScale * Gumbel(0, 1) for
// every root action and spends its simulations by sequential halving: the
// top GumbelM actions by g + logit(P) each get an equal share of the
// first phase, then the better half by g + logit(P) + sigma(completed Q)
// go on, phase after phase (ceil(log2 m) phases, at least 2 actions), in
// the visit schedule of DeepMind's mctx. Choose plays the action left (the
// best of the most visited), and Policy writes the improved policy
// softmax(logit(P) + sigma(completed Q)) with
//
//	sigma(q) = (CVisit + max_b N(b)) * CScale * q
//
// where completed Q is a visited child's Q, or for an unvisited one the
// value mix of the node's own value and its visited children's Q weighted
// by prior, rescaled from [-1, 1] to [0, 1]. Below the root a child is
// chosen by the paper's deterministic rule, argmax pi'(a) - N(a)/(1+sum N),
// pi' the improved policy at that node (or by PUCT with GumbelPUCT). There
// is no Dirichlet noise and no temperature: the Gumbel draws explore. The
// halving is planned for the simulations a Run may add (from Limits.Sims
// or Limits.Visits), counting each root child's visits from the Run's
// start, so it works on a reused tree too; a time-only limit is refused.
//
// # Budgets
//
// Limits.Sims counts the simulations a Run adds. Limits.Visits counts the
// root's visits, those kept by Advance included (KataGo's honest budget):
// a move whose subtree was already searched costs only the difference.
//
// # Policy targets and proofs
//
// Policy never gives weight to a child proven lost for the mover unless
// every child is lost; a root proven won puts the whole target on the move
// Choose plays, and a root proven drawn spreads it evenly over its drawing
// moves.
//
// # Perspective
//
// Every node records whose turn it is (its mover) when it is first
// reached. Values are stored as sums from White's view and converted to a
// player's view by comparing players: a leaf value v for its mover m is
// added as v if m is White and -v otherwise, and Q for a player p is read
// back the same way. Nothing assumes that turns alternate, so mangala's
// extra turn (a child with the same mover as its parent) needs no special
// case. Evaluator values, RootValue, Stats and ChildStats are from the
// mover's (root mover's) view. Terminal positions are valued exactly by
// Result().Value.
//
// # The arena
//
// Nodes live in one []node indexed by int32; the node at index 0 is the
// root. A node is also the edge into it (action, prior, visits, value sum),
// and a node's children are contiguous: first..first+kids-1, created all at
// once when the node is opened. Reset empties the arena; Advance copies the
// chosen child's subtree breadth-first into a second arena with the child
// at index 0, then swaps the two, so a move costs the size of the kept
// subtree and nothing is allocated once both arenas have grown. When the
// arena reaches MaxNodes, Run stops (Stats.Full). Positions are not stored:
// each simulation copies the root into one preallocated scratch state
// (CopyFrom) and replays the path, so once warm a simulation allocates
// nothing.
//
// # Batching
//
// Run gathers up to Batch leaves before one Evaluate call. Each gathered
// path carries a virtual loss: a visit in flight counts as a visit valued
// -VirtualLoss for the player choosing it, steering the next descents
// elsewhere. A descent that reaches a leaf already gathered (a collision)
// is dropped; after Batch collisions the batch is evaluated as it is.
// Terminal and proven leaves are backed up at once without the evaluator.
// After the call, leaves are expanded, values backed up and the virtual
// loss removed. With Batch 1 the search is plain sequential PUCT.
//
// # Solver
//
// A terminal node is proven with its result. With Solver, proofs climb the
// tree: a node is a proven win for its mover when some child is a proven
// win for that same player (whoever moves at the child), a proven draw or
// loss once all its children are proven and none wins. Proven nodes are
// valued exactly and not searched below; proven losses are never selected.
// Each proof records its depth in plies (shortest win, longest loss), and
// Choose plays the shortest proven win, so a won endgame is played out
// rather than wandered around. Run stops when the root is proven.
//
// An Oracle (SetOracle), such as a Mangala endgame tablebase, proves the
// positions it knows the moment the search first reaches them, as if the
// game had ended there, so the solver proves their ancestors; the root is
// never proven by it (a proof depth of 0 is recorded for such leaves).
//
// # Concurrency
//
// None inside: a Search is used by one goroutine and holds no locks.
// Parallelism comes from many Searches (self-play games) sharing one
// batching Evaluator, which must then be safe for concurrent use.
package mcts
