//go:build tools

package main

import (
	_ "github.com/advancedclimatesystems/gonnx"
	_ "github.com/chromedp/chromedp"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/nlpodyssey/safetensors"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "go.yaml.in/yaml/v3"
	_ "gonum.org/v1/gonum/blas/blas32"
	_ "gonum.org/v1/plot"
	_ "gorgonia.org/gorgonia"
	_ "gorgonia.org/tensor"
)
