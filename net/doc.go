// Package net is the policy/value network: its architecture and parameters
// (arch.go), fast inference in plain Go (infer.go), model files and their
// card (kmodel.go, card.go), and a batching evaluator for concurrent
// searches (batcher.go, poscache.go). It sees observations as []float32 and
// never imports a game.
//
// Training lives in net/learn (gorgonia) and ONNX export in net/onnx, so
// that net, and everything that only plays, builds without either: net
// imports neither gorgonia nor the ONNX protobuf module, and a test pins it.
//
// # Architecture
//
// A residual MLP over the observation x of Config.InputLen features:
//
//	h      = relu(x·in.w + in.b)                                    Width
//	block  h = relu(h + relu(h·bK.fc1.w + bK.fc1.b)·bK.fc2.w + bK.fc2.b)   Blocks times
//	logits = h·policy.w + policy.b                                  Actions
//	value  = tanh(relu(h·value.w1 + value.b1)·value.w2 + value.b2)  1
//
// The policy is the softmax of the logits over the legal actions only:
// illegal actions (mask 0) get exactly probability 0, and a row with no
// legal action gets all zeros. Observations, policy and value are from the
// view of the player to move. Weights are row-major [in, out], so a layer is
// y = x·w + b.
//
// # Inference
//
// Infer runs the network in float32 on the calling goroutine with no
// allocation after NewInfer. Layers wider than 16 outputs add one row of w
// per non-zero input (gonum's SSE Saxpy), skipping the zeros that ReLU and
// sparse observations leave; the indices of non-zero inputs are gathered by
// a branch-free loop first, so the sparsity costs no mispredicted branches.
// Narrow layers (the policy and value outputs) take one dot product per
// output. Rows are independent: a row gives bit-identical results alone or
// in any batch. blas32.Gemm was measured and not used: gonum's float32 Gemm
// runs the same axpy kernel row by row, and for larger matrices starts
// goroutines and allocates.
//
// # Model files (.kmodel)
//
// A .kmodel file is a standard safetensors file: an 8-byte little-endian
// header length, a JSON header, then the tensor bytes. It holds every
// tensor of Params under its name (in.w, in.b, b0.fc1.w, …, value.b2) as
// F32, little-endian, row-major, with Tensor.Shape as its shape. The
// header's "__metadata__" map holds strings only:
//
//	format          "kmodel"
//	format_version  "1" (FormatVersion); other versions are refused
//	game            game name, e.g. "togyz"
//	obs_version     version of the game's observation encoding
//	input_len       Config.InputLen, decimal
//	actions         Config.Actions
//	width           Config.Width
//	blocks          Config.Blocks
//	value_hidden    Config.ValueHidden
//	steps           optimizer steps taken, decimal
//	samples         training samples seen, decimal
//	parent          the model this one was trained from, or ""
//	created         creation time, RFC 3339 UTC with nanoseconds, or ""
//	iteration       training-loop iteration, decimal
//	card            the model card (Card) as JSON, or "" for none; unknown
//	                fields are ignored, so older and newer cards load, but
//	                a known field of the wrong type is ErrCorrupt
//	checksum        "sha256:" + hex SHA-256 of the tensors' bytes, tensor
//	                after tensor in Params order, followed by every other
//	                metadata key in sorted order as key NUL value NUL
//
// The checksum covers the metadata too, so any damaged byte is caught. Save
// writes atomically (temporary file in the same directory, fsync, rename,
// fsync of the directory). Load refuses a truncated, damaged or foreign file
// with ErrCorrupt and another format version with ErrFormatVersion, and
// never panics, whatever the bytes; LoadFor also refuses, with
// ErrWrongModel, a model for another game or observation encoding.
//
// # Batching
//
// Batcher gathers rows from many goroutines into batches for one worker
// goroutine that owns an Infer; callers block until their rows are copied
// back. The worker takes everything queued when it becomes free, after
// yielding once so that callers just answered can queue again; it waits up
// to MaxWait only while fewer than MinBatch rows are queued. An optional
// direct-mapped cache, keyed by a 128-bit hash of a row's observation and
// mask bits, answers repeated positions without the network. SetParams
// swaps in a new network between batches and empties the cache.
//
// # Concurrency
//
// Params, Infer and posCache are not safe for concurrent use; a Batcher is.
// NewInfer, NewBatcher and SetParams copy the parameters, so training may go
// on changing a Params while inference uses the copy.
package net
