// Package selfplay plays the games a network learns from: many concurrent
// games of MCTS against itself, each move's search turned into a training
// sample (data.Sample).
//
// # Concurrency
//
// A Pool plays Config.Games games at a time on Config.Steppers goroutines
// (one per core by default). A stepper owns a share of the games, each
// with its own search (mcts.Search, reused across moves with Advance and
// across games with Reset), position and random source, and steps them in
// turn: every game's search descends to its next leaf (Search.Begin,
// Gather), the leaves' observations are written straight into one batch,
// the batch goes to the Evaluator in one call, and each game takes its
// rows back (Search.Finish) before the next round. No goroutine parks per
// leaf, and a batching evaluator such as net.Batcher sees whole batches;
// several steppers share the Evaluator, which must be safe for concurrent
// use. With Steppers -1 each game runs on a goroutine of its own, whose
// searches call the Evaluator one leaf at a time (the older way: many
// games waiting at once fill the batcher's batches), which plays the same
// games. Finished games are handed to the caller's callback from the
// goroutine that called Run, one at a time, so the callback needs no locks.
// Games reach the callback in game order (0, 1, 2, ...), a game that
// finishes early waiting for those before it, so a seed reproduces a run's
// samples in order whatever the workers' timing. Progress may be read from
// any goroutine while Run runs.
//
// Game i of a Run draws all its randomness from the stream (seed, i): the
// opening's temperature sampling, the root noise, the playout cap and the
// resign-off draw. With a deterministic evaluator a game is therefore the
// same whichever worker plays it, however many workers or steppers there
// are, and whether its searches are stepped or Run.
//
// # Perspective of the targets
//
// Every target is from the view of the player to move in the sample's
// position (its mover): Outcome is the final result for that player,
// RootValue the search's value for that player, Score the final store
// difference that player minus the opponent, divided by the stones in play
// (from env.FinalScorer when the game implements it, else env.Scorer, else 0;
// for a resigned or capped game, the stores where it stopped). The score
// never contradicts the outcome: a win scores at least one stone, a loss at
// most minus one, a draw 0 (a resigner may be ahead in stones).
// With ExactTargets and an oracle (Pool.SetOracle, a tablebase), a
// sample whose position the oracle knows takes its exact result as the
// outcome instead; the score still comes from the stores, made to agree.
// The mover is recorded at each position and compared with the result's
// players; nothing assumes that turns alternate, because in mangala a player
// may move twice in a row.
//
// # Playout-cap randomisation
//
// Each move gets a full search (FullSims simulations, Dirichlet root noise)
// with probability FullFraction, else a cheap one (CheapSims, no noise).
// Only full searches become samples: the policy target is the visit
// distribution of a search worth learning from, while cheap moves make
// games long enough, quickly, to learn values from. Both kinds search one
// tree that keeps its subtree from move to move (the cheap ones ask mcts
// for no root noise), so every search builds on the earlier visits. With
// HonestBudget a budget counts the visits kept from the previous move
// (mcts.Limits.Visits, KataGo's way), else it adds that many simulations.
// Positions counts the simulations actually run, which the solver can cut
// short when it proves the root; Stats.SimsPerSample is their cost per
// recorded sample.
//
// A position with a single legal move is played at once: no search, no
// sample (GameResult.Forced counts them).
//
// # Search kinds
//
// With Search.Kind puct, the target is the visit distribution and the
// full searches' root gets Dirichlet noise. With gumbel (Gumbel AlphaZero),
// the target is the improved policy of the completed Q values, which is
// worth recording from a small budget (full_fraction 1, full_sims 16 to
// 64), the Gumbel draws replace the root noise, and the move played is the
// one sequential halving kept (TempPlies and Temp do not apply). Both
// targets put no weight on moves proven lost unless all are, and spread a
// proven draw over the drawing moves.
//
// # Move choice
//
// With OpeningPlies, a game first plays a number of uniformly random legal
// moves drawn from 0..OpeningPlies (no search, no sample: the samples start
// where the searches do), so that self-play of a drawish game does not
// keep replaying the one line its sharp policy prefers.
//
// For the first TempPlies plies the move is sampled from the visit counts
// raised to 1/Temp; afterwards the most visited move is played (a proven
// win always, as mcts.Search.Choose decides). A Gumbel search picks its
// move itself.
//
// # Resignation
//
// A player resigns, before moving, when its root value has been below
// -ResignThreshold on ResignPlies consecutive own moves; the game is then a
// win for the opponent and its samples carry that result. In a fraction
// ResignOffFraction of games resignation is disabled: the game is played
// out, and if a player met the resign condition the game records whether
// that player went on to win or draw (a false resignation). Stats reports
// the rate, which tells whether the threshold is safe.
//
// # Capped games
//
// A game that reaches MaxPlies is stopped and scored by comparing the
// stores (the same ones the score targets use: env.FinalScorer, else
// env.Scorer), or as a draw for games without stores; GameResult and Stats
// mark such games as capped.
package selfplay
