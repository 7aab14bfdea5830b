package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"github.com/spf13/cobra"

	"kumalak/env"
	"kumalak/solve"
)

func newTablebaseCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "tablebase",
		Short: "Build endgame tablebases (exact values of every small mangala position)",
		Args:  cobra.NoArgs,
	}
	c.AddCommand(newTablebaseBuildCmd())
	return c
}

func newTablebaseBuildCmd() *cobra.Command {
	var game string
	var cfg solve.BuildConfig // Dir, Stones, Workers; Game from --game
	var quiet bool
	c := &cobra.Command{
		Use:   "build",
		Short: "Compute the exact value of every pit configuration with at most --stones stones",
		Long: "build writes one file per stone count 0..--stones into --out (mangala-NN.tb, kalah-NN.tb), each\n" +
			"holding the mover's exact future gain of every configuration with that many stones\n" +
			"on the board, one signed byte each. It uses every core; a build that was killed keeps\n" +
			"its finished levels and resumes at the first missing one when run again.",
		Example: "  kumalak tablebase build --game mangala --stones 16 --out tb/mangala\n" +
			"  kumalak tablebase build --game kalah --stones 12 --out tb/kalah",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			spec, err := env.Lookup(game)
			if err != nil {
				return badInput("tablebase", "--game: %v", err)
			}
			kind, err := solve.TablebaseOf(spec)
			if err != nil {
				return badInput("tablebase", "--game %q: %v", game, err)
			}
			cfg.Game = kind
			if err := cfg.Validate(); err != nil {
				return badInput("tablebase", "%v", err)
			}
			return buildTablebase(c, cfg, quiet)
		},
	}
	fl := c.Flags()
	fl.StringVar(&game, "game", solve.MangalaTB, "game: "+solve.MangalaTB+", kalah (6 houses, any seeds) or kalah:capture=empty")
	fl.IntVar(&cfg.Stones, "stones", 16, fmt.Sprintf("largest stone count on the board (0..%d)", solve.MaxStones))
	fl.StringVar(&cfg.Dir, "out", "tb/mangala", "folder of the level files")
	fl.IntVar(&cfg.Workers, "workers", runtime.NumCPU(), "goroutines computing a level")
	fl.BoolVar(&quiet, "quiet", false, "no progress bar")
	return c
}

// buildTablebase runs the build (solve.BuildReported) with a progress
// bar on standard error unless quiet.
func buildTablebase(c *cobra.Command, cfg solve.BuildConfig, quiet bool) error {
	var bar io.Writer
	if !quiet {
		bar = c.ErrOrStderr()
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	defer stop()
	err := solve.BuildReported(ctx, cfg, c.OutOrStdout(), bar)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("tablebase: interrupted; finished levels are kept in %s, run again to resume", cfg.Dir)
	}
	if err != nil {
		return fmt.Errorf("tablebase: %w", err)
	}
	return nil
}
