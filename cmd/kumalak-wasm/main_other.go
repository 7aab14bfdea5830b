//go:build !(js && wasm)

package main

import (
	"flag"
	"fmt"
	"os"
)

// main, on a platform other than the browser's, measures the speed the
// site's figures are compared with: the same measurement as the page's
// (KUMALAK_KERNEL=portable selects net's portable kernel).
func main() {
	fl := flag.NewFlagSet("kumalak-wasm", flag.ContinueOnError)
	speed := fl.Bool("speed", false, "measure the shipped model's rows/s and simulations/s, print JSON")
	game := fl.String("game", "togyz", "game of the measurement")
	batch := fl.Int("batch", 8, "rows a network call")
	rows := fl.Int("rows", 20000, "network rows")
	sims := fl.Int("sims", 2000, "simulations of each of the 4 searches")
	if err := fl.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if !*speed {
		fmt.Fprintln(os.Stderr, "kumalak-wasm: this is the bot of the static web site, built for GOOS=js GOARCH=wasm by `kumalak web`; here it only measures: -speed")
		os.Exit(2)
	}
	sp, err := measure(*game, *batch, *rows, *sims)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(sp.JSON())
}
