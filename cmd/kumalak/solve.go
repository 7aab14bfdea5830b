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
	var checkFile, line = "", false
	var cc solve.CheckConfig
	cfg := solve.DefaultConfig()
	c := &cobra.Command{
		Use:   "solve",
		Short: "Compute the exact value of a mangala or kalah position and of each of its moves",
		Long: "solve searches a mangala, mangala-kale or kalah position to the end of the game and prints the\n" +
			"final store difference under perfect play from the mover's view, the result and every move's\n" +
			"value (with --time, the bounds proved by then). Kalah and classic mangala solves run on\n" +
			"--threads threads; --state FILE makes one resumable, --bounds FILE carries it to another machine\n" +
			"as a small text file of proved bounds (the shipped solve/proofs are read too), --value-only\n" +
			"stops at the value, --line then plays a perfect line to the end. --check FILE proves a bounds file's\n" +
			"root and first-move bounds again: each from its children's by the rules, the leaves by a new search\n" +
			"from scratch (--reference: the reference alpha-beta search). docs/TABLEBASE.md has the details.",
		Example: "  kumalak solve --game mangala --position '0,2,0,1,3,0/1,0,2,0,0,1 20 18 - - w' --tablebase tb/mangala --line\n" +
			"  kumalak solve --game mangala-kale --position '0,0,2,0,0,1/0,1,0,1,0,0 21 22 - - b' --time 30s\n  kumalak solve --game kalah:houses=4,seeds=3 --threads 2\n  kumalak solve --game kalah:houses=5,seeds=3 --value-only\n" +
			"  kumalak solve --game mangala --tablebase tb/mangala --state solve-mangala.state --save-every 10m --threads 2\n  kumalak solve --game mangala --tablebase tb/mangala --bounds solve/proofs/mangala.bounds --save-every 5m --value-only\n" +
			"  kumalak solve --check shipped --game mangala --threads 2",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			spec, st, err := g.state("solve")
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if checkFile != "" {
				cc.TablebaseDir, cc.TTBits, cc.Threads, cc.Time, cc.Log = tbDir, cfg.TTBits, cfg.Threads, limit, solve.StampedLog(c.ErrOrStderr(), time.Now())
				r, err := solve.CheckFile(ctx, checkFile, spec, cc)
				if err != nil {
					return badInput("solve", "--check: %v", err)
				}
				r.WriteText(c.OutOrStdout())
				return r.Err()
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
			r, err := s.SolveContext(ctx, st, limit)
			if ctx.Err() != nil && c.Context().Err() == nil {
				fmt.Fprintln(c.ErrOrStderr(), "interrupted: the bounds proved so far")
			}
			if err != nil {
				return badInput("solve", "%v", err)
			}
			r.WriteText(c.OutOrStdout(), st)
			if line && r.Exact() {
				return s.WriteLine(ctx, c.OutOrStdout(), st)
			}
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
	fl.StringVar(&checkFile, "check", "", "prove this bounds file's root bounds again, independently of the solve that wrote it (shipped: those of --game)")
	fl.BoolVar(&line, "line", false, "kalah, classic mangala: then play a perfect line to the end, each position solved (the form of solve/proofs/mangala.line)")
	fl.BoolVar(&cc.Reference, "reference", false, "with --check: the leaves by the reference alpha-beta search (classic mangala)")
	return c
}
