// Package learn trains the network of package net with gorgonia. It is the
// only package that imports gorgonia, so that inference (net) and everything
// that plays (agent, bot) build without the training stack.
//
// A Trainer builds the expression graph of net's architecture and its loss
// once, for exactly Config.Batch rows, and reuses it: Step copies a
// data.Batch into the graph's inputs, runs forward and backward, and the
// package's own AdamW updates the weights in place. Params copies the
// weights out as a *net.Params, which net.Save writes and net.NewInfer runs;
// Forward evaluates the training graph itself, for checks.
//
// # Loss and optimizer
//
// The loss of a batch is the policy cross-entropy against the search's
// visit distribution, plus Config.ValueWeight times the squared value error,
// plus Config.ScoreWeight times the squared error of an auxiliary score head
// (a training-only part, in no model file). Illegal actions get a large
// negative logit and their target mass is dropped, so the trained policy
// matches net.Infer's masked softmax.
//
// The optimizer is Adam with bias correction and decoupled weight decay
// (AdamW, Loshchilov & Hutter 2019): each step multiplies every weight
// matrix, not the biases, by 1 - rate*WeightDecay, and the decay is no part
// of the loss or of Adam's moments. An L2 term in the loss, which this
// package used before, goes through Adam's normalisation instead, and drove
// weights into the subnormal floats: a tiny network (829 weights) trained
// 20,000 steps on random targets with gorgonia's Adam and L2 1e-4 ended
// with 772 subnormal weights; with AdamW (weight decay 0.01) and no flush,
// none, the smallest 1e-4 in magnitude. Subnormals slow every
// multiplication by them one to two orders of magnitude on x86, so, as a
// guard, every weight and moment below 1e-30 in magnitude is set to zero
// after each update. gorgonia's solvers keep their moments private; this
// optimizer's state is a Checkpoint, with a versioned, checksummed file
// format, so that a resumed run continues exactly.
//
// # Learning rate
//
// Config.Rate gives the scheduled rate at the run's progress p in [0, 1]
// (cosine, step or constant from LR down to MinLR); the caller sets p with
// Trainer.SetProgress. The first WarmupSteps steps ramp linearly up to it,
// and when the schedule asks for more than the last step's rate (a run's
// horizon extended) the rate climbs to it over WarmupSteps steps again.
//
// # Speed
//
// Two things make a step fast on a CPU. gorgonia hands its matrix products
// to a BLAS (gorgonia.Use); where the CPU has AVX2 and FMA this package
// installs one whose Sgemm packs its operands into panels and runs a 4×16
// register-blocked kernel (gemm.go), and splits the product's blocks among
// the cores: the default network's step then trains 2.0 times as many
// samples per CPU-second as with gonum's at batch 256, 2.6 times at 1024
// (docs/notes/2026-12-02-training-throughput.md). And
// Config.Parallel copies of the graph (2 by default) compute one step's
// gradient at once, each on its share of the batch, on the same weight
// arrays; their gradients are averaged by rows, so the step is the one a
// single graph takes, to float32 rounding (TestParallelMatchesOneGraph),
// and gorgonia's own ops, which run one after another, use both cores.
//
// # Determinism and concurrency
//
// Equal parameters, config, progress and batches give bit-identical weights
// whatever GOMAXPROCS is, and so does a Trainer rebuilt from Params and
// Checkpoint: every element of a matrix product is one sum in a fixed
// order, whichever goroutine computes it, and the replicas' gradients are
// summed in replica order. A Trainer is not safe for concurrent use; it
// works on its own copy of the parameters it was built from.
package learn
