package onnx_test

import (
	"fmt"
	"math/rand/v2"

	"kumalak/net"
	"kumalak/net/onnx"
)

// A network as an ONNX model, for onnxruntime and other ONNX readers
// (`kumalak export --onnx` writes one with Write).
func Example() {
	p := net.NewParams(net.Config{InputLen: 4, Actions: 3, Width: 16, Blocks: 1, ValueHidden: 8})
	p.Init(rand.New(rand.NewPCG(1, 2)))
	b, err := onnx.Marshal(p)
	if err != nil {
		panic(err)
	}
	again, _ := onnx.Marshal(p)
	fmt.Println(len(b) > 0, string(b) == string(again))
	// Output:
	// true true
}
