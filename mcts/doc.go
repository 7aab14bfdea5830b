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
// Nodes live in one arena indexed by int32, held in chunks of 65,536 nodes
// (the first grows to that size by doubling), so that it grows without
// copying a large tree; the node at index 0 is the root. A node is also the
// edge into it (action, prior, visits, value sum), and a node's children
// are contiguous (within one chunk): first..first+kids-1, created all at
// once when the node is opened. A node takes NodeBytes (32) bytes, and
// the arena never holds more than MaxNodes of them. Reset empties the
// arena; Advance compacts it in place: the chosen child's subtree slides
// to the front in arena order, the child at index 0, and everything the
// move made unreachable is free for the next searches, so a move costs one
// pass over the arena and nothing is allocated once it has grown.
// Positions are not stored: each simulation copies the root into one
// preallocated scratch state (CopyFrom) and replays the path, so once warm
// a simulation allocates nothing.
//
// When the arena is full the tree stops growing but Run goes on
// (Stats.Full): a leaf with no room for its children is valued without
// them (by the evaluator, or rollouts) and later visits to it back up that
// value again, so the search keeps refining the visits and values of the
// tree it has until its limit.
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
// # Stepping from outside
//
// Begin, Gather and Finish run the same search without the search's own
// Evaluator, so that one goroutine can step many searches and evaluate
// their leaves together (selfplay's steppers): Begin(lim) starts it,
// Gather writes the next leaves' observations and legal masks into the
// caller's rows (returning 0 when the search is over), Finish takes their
// priors and values. Run is Begin followed by Gather, Evaluate and Finish
// until Gather returns 0, so either way gives the same tree; a threaded
// search (SetThreads) runs only by Run. Reset and Advance withdraw rows
// gathered and never finished.
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
// By default none inside: a Search is used by one goroutine, holds no
// locks, and self-play's parallelism comes from many Searches sharing one
// batching Evaluator, which must then be safe for concurrent use. With
// SetThreads(n) a Run searches one shared tree on n goroutines that
// descend it at the same time, as Leela Chess Zero's and KataGo's
// searches do: visits, visits in flight and value sums change by atomic
// adds, a node's flags, mover and proof share one word changed by
// compare-and-swap, a leaf is opened by the one goroutine that claims it
// (the others count a collision and look elsewhere), and a descent puts
// its virtual loss on each node as it leaves it, so that the others steer
// clear of it at once. Each goroutine evaluates its own batch with its own
// Evaluator (or plays its rollouts). A Gumbel search's root bookkeeping is
// not shared: its goroutines take turns on the tree and evaluate at once.
// Budgets are reserved a batch at a time, so a threaded Run adds exactly
// its Sims or Visits. The sequential Run uses no atomic operation.
package mcts
