// Package onnx exports a network of package net as an ONNX model, for
// runtimes outside Go. It is the only package that imports the ONNX
// protobuf definitions, so that inference builds without them.
//
// Write and Marshal produce an opset-13 graph (IR version 7) with inputs
// "obs" [N, InputLen] and "mask" [N, Actions] and outputs "policy"
// [N, Actions] and "value" [N, 1], holding every tensor of net.Params as an
// initializer under its own name. For a row with at least one legal action
// it computes what net.Infer.Run does, to within float32 rounding; a row
// with no legal action gets a uniform policy instead of zeros.
//
// The test runs the export in onnxruntime-node and compares it with
// net.Infer; it needs `npm ci --prefix net/onnx/testdata` once (CI does it)
// and is skipped without it, except under CI=true.
package onnx
