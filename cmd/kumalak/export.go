package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"kumalak/net"
	"kumalak/train"
	"kumalak/train/export"
)

func newExportCmd() *cobra.Command {
	var run, out, onnxOut string
	str := export.Strength{Games: 40, Sims: 100, Parallel: 2, Seed: 1}
	c := &cobra.Command{
		Use:   "export",
		Short: "Export a run's best network as one self-describing .kmodel (and optionally ONNX)",
		Long: "export writes the run's best network with its recommended search settings and a model\n" +
			"card (game, training time, games and samples, Elo measured against the fixed baselines)\n" +
			"into one .kmodel file, a standard safetensors file. --onnx also writes the network as\n" +
			"ONNX (inputs obs and mask, outputs policy and value) for other runtimes. --vs plays the\n" +
			"exported model against more opponents (at --vs-sims simulations, --vs-games games each)\n" +
			"and adds the results to the card, as models/*.kmodel were measured against ab:depth=8.",
		Example: "  kumalak export --run runs/togyz\n  kumalak export --run runs/togyz --out togyz.kmodel --onnx togyz.onnx\n" +
			"  kumalak export --run runs/togyz --out togyz.kmodel --vs ab:depth=8 --vs-games 40 --vs-sims 100",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if run == "" {
				return badInput("export", "--run is required")
			}
			dir := train.Dir(run)
			cfg, err := train.LoadConfig(dir.Config())
			if err != nil {
				return usageError{err}
			}
			if str.Games < 2 || str.Sims < 1 || str.Parallel < 1 {
				return badInput("export", "--vs-games must be at least 2, --vs-sims and --parallel at least 1")
			}
			r := export.Request{Run: dir, Config: cfg, Out: out, ONNX: onnxOut, Strength: str, Now: time.Now()}
			if err := export.Run(c.Context(), r, c.OutOrStdout(), c.ErrOrStderr()); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			return nil
		},
	}
	c.Flags().StringVar(&run, "run", "", "run folder to export from (required)")
	c.Flags().StringVar(&out, "out", "", "model file to write (default "+train.Dir("<run>").Export()+")")
	c.Flags().StringVar(&onnxOut, "onnx", "", "also write the network as ONNX to this file")
	c.Flags().StringSliceVar(&str.Vs, "vs", nil, "agent specs to measure the exported model against, e.g. ab:depth=8 (results go into the card)")
	c.Flags().IntVar(&str.Games, "vs-games", str.Games, "games against each --vs opponent")
	c.Flags().IntVar(&str.Sims, "vs-sims", str.Sims, "the model's simulations per move in the --vs matches")
	c.Flags().IntVar(&str.Parallel, "parallel", str.Parallel, "--vs games played at once")
	return c
}

func newInfoCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "info FILE",
		Short:   "Print a model file's card: game, architecture, training, strength",
		Example: "  kumalak info runs/togyz/export.kmodel",
		Args:    cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			m, err := net.Load(args[0])
			if err != nil {
				return badInput("info", "%v", err)
			}
			m.WriteInfo(c.OutOrStdout(), args[0])
			return nil
		},
	}
}
