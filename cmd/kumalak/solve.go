package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"kumalak/solve"
)

func newSolveCmd() *cobra.Command {
	var g gameFlags
	var tbDir string
	var limit time.Duration
	cfg := solve.DefaultConfig()
	c := &cobra.Command{
		Use:   "solve",
		Short: "Compute the exact value of a mangala or kalah position and of each of its moves",
		Long: "solve searches a mangala or mangala-kale position to the end of the game (alpha-beta,\n" +
			"MTD(f), a transposition table, iterative deepening for move order) and prints the final\n" +
			"store difference under perfect play from the mover's view, the result for the mover, and\n" +
			"every legal move's value. With --time it stops after that long and prints the bounds\n" +
			"proved. --tablebase answers classic positions within its stone count at once.\n" +
			"kalah positions (any board; `kalah:houses=4,seeds=3`) go to the kalah solver: MTD(f) on the\n" +
			"final margin, a two-slot-bucket table shared by --threads threads, history and table move\n" +
			"order, enhanced transposition cut-offs, futility bounds from the stones on the board and,\n" +
			"for 6 houses, a kalah tablebase (kumalak tablebase build --game kalah). Classic mangala\n" +
			"positions go to the same engine (its tablebase: --game mangala).\n" +
			"--state FILE makes a kalah or classic mangala solve resumable: it resumes from FILE when\n" +
			"it exists (the same game and position) and saves there, atomically and checksummed, every\n" +
			"--save-every and when it stops (finished, --time, Ctrl-C or SIGTERM); a run killed at any\n" +
			"moment loses at most the work since the last save. Progress goes to stderr.\n" +
			"--value-only (kalah, classic mangala) stops once the value and the best moves are proved;\n" +
			"the other moves keep the bounds that put them below the value.\n" +
			"--bounds FILE carries a kalah or classic mangala solve to another machine: a small text file\n" +
			"of the bounds proved on the root and the positions --bounds-plies below it, read when it\n" +
			"exists (several: --bounds a,b, merged; the first is written) and saved like --state. A\n" +
			"mangala solve also reads the bounds shipped in the binary (solve/proofs; --shipped-bounds).",
		Example: "  kumalak solve --game mangala --position '0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w' --tablebase tb/mangala\n" +
			"  kumalak solve --game mangala-kale --position '0,0,2,0,0,1/0,1,0,1,0,0 21 22 - - b' --time 30s\n" +
			"  kumalak solve --game kalah:houses=4,seeds=3 --threads 2\n" +
			"  kumalak solve --game kalah:houses=5,seeds=3 --value-only\n" +
			"  kumalak solve --game mangala --tablebase tb/mangala --state solve-mangala.state --save-every 10m --threads 2\n" +
			"  kumalak solve --game mangala --tablebase tb/mangala --bounds solve/proofs/mangala.bounds --save-every 5m --value-only",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			spec, st, err := g.state("solve")
			if err != nil {
				return err
			}
			if err := solve.Solvable(spec); err != nil {
				return badInput("solve", "--game %s: %v", spec.Name, err)
			}
			if limit < 0 {
				return badInput("solve", "--time %v is negative", limit)
			}
			if err := cfg.Validate(); err != nil {
				return badInput("solve", "--tt-bits, --threads, --save-every, --bounds-plies: %v", err)
			}
			if err := cfg.CheckFor(st); err != nil {
				return badInput("solve", "--value-only, --state, --bounds: %v", err)
			}
			if cfg.State != "" || len(cfg.Bounds) > 0 {
				cfg.Log = solve.StampedLog(c.ErrOrStderr(), time.Now())
			}
			if tbDir != "" {
				tb, err := solve.OpenFor(spec, tbDir)
				if err != nil {
					return badInput("solve", "--tablebase: %v", err)
				}
				defer tb.Close()
				cfg.Tablebase = tb
			}
			s, err := solve.New(cfg)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			r, err := s.SolveContext(ctx, st, limit)
			if ctx.Err() != nil && c.Context().Err() == nil {
				fmt.Fprintln(c.ErrOrStderr(), "interrupted: the bounds proved so far")
			}
			if err != nil {
				return badInput("solve", "%v", err)
			}
			r.WriteText(c.OutOrStdout(), st)
			return nil
		},
	}
	g.add(c)
	c.Flags().Lookup("game").DefValue = "mangala"
	g.game = "mangala"
	fl := c.Flags()
	fl.StringVar(&tbDir, "tablebase", "", "folder of a classic mangala tablebase (kumalak tablebase build)")
	fl.DurationVar(&limit, "time", 0, "stop after this long and print the bounds proved (0: until exact)")
	fl.IntVar(&cfg.TTBits, "tt-bits", 22, "log2 of the transposition table's slots (16 bytes each)")
	fl.IntVar(&cfg.Threads, "threads", 1, "kalah, classic mangala: threads searching with one shared table (lazy SMP)")
	fl.StringVar(&cfg.State, "state", "", "kalah, classic mangala: resume from and save to this file (a resumable solve)")
	fl.BoolVar(&cfg.ValueOnly, "value-only", false, "kalah, classic mangala: stop once the value and the best moves are proved")
	fl.DurationVar(&cfg.SaveEvery, "save-every", 10*time.Minute, "with --state or --bounds: save this often (0: only when it stops)")
	fl.StringSliceVar(&cfg.Bounds, "bounds", nil, "kalah, classic mangala: bounds files to start from (merged); the first is written (docs/TABLEBASE.md)")
	fl.IntVar(&cfg.BoundsPlies, "bounds-plies", solve.DefaultBoundsPlies, fmt.Sprintf("with --bounds: the plies below the root whose proved bounds are written (1..%d)", solve.MaxBoundsPlies))
	fl.BoolVar(&cfg.Shipped, "shipped-bounds", true, "read the bounds shipped in the binary for the game (solve/proofs); false solves from scratch")
	return c
}
