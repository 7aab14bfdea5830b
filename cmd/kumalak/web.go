package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"kumalak/bot/web/site"
)

func newWebCmd() *cobra.Command {
	var f site.Config
	c := &cobra.Command{
		Use:   "web",
		Short: "Write a static web site that plays the bot in the browser, with no server",
		Long: "web writes a static site into --out: the page kumalak serve shows (index.html, its scripts and\n" +
			"styles) and the bot itself, kumalak.wasm (rules, search and network, built from this source\n" +
			"for GOOS=js GOARCH=wasm), run in a Web Worker; wasm_exec.js, copied from the Go toolchain that\n" +
			"built it; site.js, the games and their bots; the --model files; and kumalak-bundle.js, the same\n" +
			"as one script, for the page opened from disk (file://). Upload the folder to any static host,\n" +
			"or open index.html. The site plays every game serve plays; the bots are the shipped models\n" +
			"(package models) unless --model names another, and a game with none shipped (a Kalah board\n" +
			"other than 6,4) plays the model agent's stand-in, MCTS with random rollouts, as serve does.\n" +
			"Building the wasm needs the kumalak source tree and the go command: run web inside\n" +
			"the source (or give --src) with go on the PATH (or --go), or give a built --wasm.",
		Example: "  kumalak web --out site\n" +
			"  kumalak web --out site --games togyz --sims 800\n" +
			"  kumalak web --out site --model togyz=runs/togyz/best.kmodel",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			rep, err := site.Write(c.Context(), f)
			if e, ok := errors.AsType[*site.InputError](err); ok {
				return badInput("web", "%s", e.Reason)
			}
			if err != nil {
				return fmt.Errorf("web: %w", err)
			}
			if err := rep.WriteText(c.OutOrStdout()); err != nil {
				return fmt.Errorf("web: %w", err)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.Out, "out", "", "folder to write the site into (made if missing; its files are replaced)")
	fl.StringSliceVar(&f.Games, "games", nil, "games of the site (default: every game, as serve)")
	fl.StringArrayVar(&f.Models, "model", nil, "GAME=FILE: play GAME with this .kmodel instead of the shipped model (repeatable)")
	fl.IntVar(&f.Sims, "sims", 0, "the bots' simulations per move; 0: each model card's (the player may choose others)")
	fl.DurationVar(&f.Time, "time", 0, "the bots' time per move instead, e.g. 1s (a search stops at the first limit reached)")
	fl.StringVar(&f.Src, "src", "", "the kumalak source tree the wasm is built from (default: the one holding the working folder)")
	fl.StringVar(&f.Go, "go", "go", "the go command that builds the wasm; its GOROOT gives wasm_exec.js")
	fl.StringVar(&f.Wasm, "wasm", "", "use this kumalak.wasm (built by the same --go) instead of building one")
	fl.BoolVar(&f.Bundle, "bundle", true, "also write kumalak-bundle.js, for the page opened from file://")
	return c
}
