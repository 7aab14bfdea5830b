// Package agent holds the players of kumalak behind one small interface:
// Agent.Move picks a move for the side to move. Agents are built from spec
// strings such as "ab:depth=6" or "mcts:sims=800,rollouts=1" by New; the
// spec language is this package's alone: ParseSpec reads a string into a
// Spec (kind, Limits, other keys) and Spec.String writes it back, and Help
// lists every kind and its keys.
//
// Limits: a search is bounded in up to three dimensions (Limits: sims,
// time, depth), each kind having its own (ab: depth and time; mcts and
// model: sims and time; engine: what the external engine declares).
// Callers set them through the Limiter interface, or SetLimits, which
// keeps an agent's own limits when asked for a dimension it lacks (sims
// for alpha-beta, depth for MCTS); MaxSims, MaxTime and MaxDepth are the
// ranges every check and every advertised option uses.
//
// The kinds:
//
//   - random: a uniformly random legal move.
//   - greedy: the move with the best immediate store difference for the
//     mover (env.Scorer), a kept turn counting as a bonus; ties broken at
//     random.
//   - ab: alpha-beta negamax with iterative deepening, a fixed-size
//     transposition table keyed by env.Hasher, TT-move, capture-first and
//     history move ordering; the evaluation is the store difference plus a
//     small bonus per legal move of the mover (mobility), and a store
//     holding more than half the stones counts as a win.
//   - mcts: PUCT search (package mcts) with uniform priors and random
//     rollouts.
//   - model: a policy/value network (package net) guiding the same search;
//     NewNetwork builds one over any mcts.Evaluator (the training loop's
//     shared batcher).
//     With level=N (1..MaxLevel) or elo=E it plays a strength level
//     (Level, level.go): fewer simulations, fewer root moves considered
//     (a Gumbel root) and a chance choice among the moves its search
//     values within a margin of its best, so that a weaker level errs as
//     a person does, never far below its own best; elo= interpolates the
//     levels measured for the game (LevelScaleOf, docs/PLAYING.md, "Levels").
//   - engine: another program speaking the engine protocol of
//     docs/ENGINE.md (EngineClient, on protocol.Client), so the arena can
//     play external engines.
//   - tb: perfect play of a game the solver takes (package solve;
//     env.Facts.Solver: mangala, mangala-kale, kalah): inside the
//     tablebase (dir=) a move of the best exact value, outside it the exact solver for a time,
//     the best proven bound when the time runs out; its analysis is exact,
//     in stones. mcts and model take tablebase=DIR as their search's
//     oracle (mcts.Oracle), which proves wins, draws and losses; at a root
//     inside the tablebase they play the most visited move of the best
//     exact value (stones included), so their endgames are perfect too.
//     Spec.WithTablebase gives a folder to every kind that takes one.
//
// Perspective: every score and value is from the view of the player to move
// at the position it belongs to. Turns do not always alternate (mangala's
// extra turn), so the alpha-beta search compares players: it negates a
// child's score only when the child's mover differs from the parent's.
//
// Optional interfaces: Analyzer reports what the last search found (value,
// principal variation, per-move figures), Resetter starts a new game, and
// Observer is told every move played so a search can keep its tree.
//
// Concurrency: an agent is not safe for concurrent use; build one per game
// or per worker. Each agent draws its randomness from a *rand.Rand seeded by
// New's seed, so a run is reproducible.
package agent
