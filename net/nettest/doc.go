// Package nettest holds the random inputs of the tests of net and the
// packages under it (net/learn, net/onnx): observation rows shaped like
// stone encodings with their legal masks, and small normal noise for
// parameters. It imports only the standard library, so that net's own
// tests may use it too.
package nettest
