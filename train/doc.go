// Package train is the training loop: self-play → train → evaluate →
// checkpoint, repeated until the run's iteration count or time budget is
// reached, in one run folder that it owns (Dir).
//
// # The iteration
//
// Iteration N (Run.iterate) does, in order:
//
//  1. Self-play: Config.Games games with the best network, played by one
//     selfplay.Pool whose workers share one net.Batcher for the whole run
//     (pointed at each new best network). The samples are written as the
//     iteration's shard and added to the replay window (data.Window).
//     With Options.NATS, the batches that workers on other machines
//     (package cluster) published since the last iteration join the
//     shard after the local samples; their ids go to the ledger file
//     right after the shard, and they are acknowledged only after the
//     checkpoint (step 4), so that a kill loses none and doubles none (see
//     package cluster, "Exactly once"). Each promoted network is then
//     published to the workers.
//  2. Train: the latest network continues on batches drawn from the window,
//     ceil(new samples × SampleReuse / batch) steps, at most MaxSteps, with
//     one learn.Trainer (AdamW) kept from iteration to iteration. The
//     result is the candidate, saved to the models folder.
//  3. Evaluate: the gate (Eval.Gate "always", "score" or "sprt") plays the
//     candidate against the best network and decides its promotion; every
//     BaselineEvery iterations the best network (after promotion) plays the
//     fixed baselines, and with Eval.AnchorGames > 0 it is rated on the
//     baselines' scale (eval.anchor = 0), the anchors being measured once per
//     run. Every game is recorded.
//  4. Checkpoint: the candidate becomes latest (and best when promoted), the
//     trainer's state is saved, the iteration's metrics line is appended,
//     the plots are redrawn (at the first checkpoint of a process, one
//     with a baseline evaluation, the run's last, and otherwise at most
//     every 30 s: drawing reads the whole metrics log), and the state is
//     written, last: writing
//     state.json is the commit point of the iteration. The previous
//     iteration's trainer state, shards that fell out of the window (beyond
//     KeepShards) and candidates beyond KeepModels (except the best and
//     those measured against the baselines) are pruned afterwards.
//
// Every random choice draws from a seed derived from Config.Seed, the
// iteration and the part (self-play, training, evaluation), never the clock.
//
// # The learning rate's schedule
//
// The rate follows Train.Schedule (cosine by default) from Train.LR down to
// Train.MinLR over the run's horizon, after a linear warm-up over
// Train.WarmupSteps steps. The schedule's clock is the run's progress
// (Run.progress): with Iterations, the iterations done (counting the
// current one's steps) over Iterations; with Budget, the training time
// (State.ElapsedSec plus the current iteration's time so far) over Budget;
// with both, whichever is further along, since either ends the run. So the
// last steps of a run are taken at about MinLR whatever it is limited by.
// A time budget makes the schedule, like the run's length, depend on the
// machine's speed; an iteration limit keeps it a function of the seed.
//
// Extending a run (resuming a finished one with a larger --budget or
// --iterations) re-stretches the schedule: the progress falls back, say to
// 1/2 when the budget doubles, and the rest of the run follows the longer
// schedule from there, as a run planned that long from the start would.
// The rate does not jump there from MinLR: the trainer re-warms, climbing
// linearly from its last rate to the scheduled one over WarmupSteps steps.
//
// # The run folder
//
// Dir names every file; nothing else spells a file name.
//
//	file                            Dir method               written                         holds
//	config.yaml                     Config                   when the run starts             the resolved Config, read back by --resume
//	state.json                      State                    last in every checkpoint        State: iterations, steps, samples, games, time, best
//	metrics.jsonl                   Metrics                  every checkpoint, appended      one Metrics line per completed iteration
//	best.kmodel                     Best                     at the start, on promotion      the network self-play and gating use
//	latest.kmodel                   Latest                   at the start, every checkpoint  the network training continues from
//	anchors.json                    Anchors                  first baseline evaluation, rung net.Anchors: the baselines' and rungs' ratings, eval.anchor = 0; the ladder's rungs
//	ladder/iter-NNNN.kmodel         Ladder                   when a network becomes a rung   a frozen network of the run, an anchor (its SHA-256 in anchors.json)
//	loss.png                        LossPlot                 at most 30 s apart              the losses against training time
//	elo.png                         EloPlot                  at most 30 s apart              the strength against training time
//	speed.png                       SpeedPlot                at most 30 s apart              self-play's simulations and network rows per second against training time
//	mistakes.png                    MistakePlot              checkpoints, with a tablebase   the network's mistake rate in tablebase positions
//	shards/shard-NNNNNN.kshard      Shard(N)                 step 1 of iteration N           its self-play samples (package data)
//	models/iter-NNNN.kmodel         Model(N)                 step 2 of iteration N           its candidate network
//	optimizer-NNNN.kopt             Optimizer(N)             checkpoint N, before the state  learn.Checkpoint: moments, steps, schedule state, score head
//	games/iter-NNNN-gate.jsonl      Games(N, GateGames)      step 3, appended                candidate against best, a record per game
//	games/iter-NNNN-baseline.jsonl  Games(N, BaselineGames)  step 3, appended                best against the baselines
//	games/iter-NNNN-ladder.jsonl    Games(N, LadderGames)    step 3, appended                best against the ladder's rungs; a new rung's rating games
//	export.kmodel                   Export                   by `kumalak export` only        the best network with its net.Card
//	cluster/                        Cluster                  with Options.NATS               run-id, the ledger batches-NNNNNN.txt (step 1)
//	cluster/workers.json            ClusterRoster            by `kumalak worker-credentials` the workers' public keys, issued and revoked (no secret)
//	nats/                           NATS                     by the embedded NATS server     its JetStream storage (stream, buckets)
//
// Every file but the appended ones (metrics.jsonl, games/) and the plots is
// replaced atomically: a temporary file, synced, renamed over the old one.
//
// # The resume invariant
//
// A run killed at any moment (kill -9, power loss) loses at most the
// iteration in progress, and `kumalak train --resume` (Open with
// Options.Resume) continues from the last state.json as if the kill had come
// just after it:
//
//   - state.json is replaced atomically, so it names the last completed
//     iteration N and the best iteration B ≤ N, whatever else was on disk.
//   - The window is rebuilt from the shards: those of iterations after N are
//     deleted first, and the shards left must hold exactly State.Samples
//     samples in all, or the resume is refused. Pruning keeps every shard the
//     window needs, so the rebuilt window equals the one the run had.
//   - The networks come back from latest.kmodel and best.kmodel when their
//     metadata names iterations N and B. A kill inside checkpoint N+1 may
//     have replaced either by candidate N+1 already; then they are read from
//     models/ (Model(N), Model(B): the checkpoint never prunes those) or, for
//     iteration 0, drawn again from the seed.
//   - The trainer is rebuilt from latest's weights and Optimizer(N): Adam's
//     moments, the step count (which must equal State.Steps), the schedule's
//     re-warm state and the weights of the training-only score head. The
//     file is checksummed; a damaged one stops the resume with an error
//     naming it (deleting it lets the run go on with fresh moments and a
//     new warm-up, as it does for run folders written before the file
//     existed).
//   - What iteration N+1 wrote besides is dropped: its candidate, its
//     optimizer state, its game records, its ledger file and its metrics
//     line (and a torn last line); so is Optimizer(N-1) if a kill came
//     before its deletion. Its worker batches were never acknowledged: the
//     server delivers them again to the resumed run.
//     So are the ladder's rungs it froze (anchors.json rewritten without
//     them, their models deleted). Plots and the rest of anchors.json are
//     kept: the plots are redrawn at the next checkpoint, and the anchors
//     are the run's, whichever iteration measured them. A rung whose model
//     no longer matches its SHA-256 stops the run, naming it.
//   - Each iteration's training first resets the window's sampling
//     permutation (data.Window.ResetSampling), so its batches depend on the
//     window and the iteration's seed alone, not on the draws of a process
//     that was killed.
//
// What a kill costs, then, is the time of the unfinished iteration (State
// counts completed iterations only). A run limited by iterations whose
// self-play is deterministic (one game at a time: with many, the order in
// which games finish orders the shard) trains after a kill and --resume to
// bit-identical weights as without one (TestResumedRunMatchesUninterrupted).
//
// # Concurrency
//
// A Run is used by one goroutine; its self-play pool and evaluation matches
// run their own goroutines inside each step. Cancelling Train's context
// stops at the next move or training step and drops the iteration whole.
package train
