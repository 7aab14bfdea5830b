// Package learn trains the network of package net with gorgonia. It is the
// only package that imports gorgonia, so that inference (net) and everything
// that plays (agent, bot) build without the training stack.
//
// A Trainer builds the expression graph of net's architecture and its loss
// once, for exactly Config.Batch rows, and reuses it: Step copies a
// data.Batch into the graph's inputs, runs forward and backward and lets a
// gorgonia solver (Adam or momentum SGD) update the weights in place. Params
// copies the weights out as a *net.Params, which net.Save writes and
// net.NewInfer runs; Forward evaluates the training graph itself, for checks.
//
// # Loss and learning rate
//
// The loss of a batch is the policy cross-entropy against the search's
// visit distribution, plus Config.ValueWeight times the squared value error,
// plus Config.ScoreWeight times the squared error of an auxiliary score head
// (a training-only part, never saved), plus Config.L2 times the sum of
// squared weight matrices. Illegal actions get a large negative logit and
// their target mass is dropped, so the trained policy matches net.Infer's
// masked softmax. The rate warms up linearly after every (re)start and
// follows a cosine decay over the global step (Config.LearningRate).
//
// # Determinism and concurrency
//
// Equal parameters, config and batches give bit-identical weights whatever
// GOMAXPROCS is. A Trainer is not safe for concurrent use; it works on its
// own copy of the parameters it was built from.
package learn
