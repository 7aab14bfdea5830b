package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"kumalak/bot/analysis"
	"kumalak/env"
)

// analyzeFlags are analyze's own flags.
type analyzeFlags struct {
	json  bool
	plot  string
	index int
	marks string
}

func newAnalyzeCmd() *cobra.Command {
	var g gameFlags
	var b botFlags
	var f analyzeFlags
	var jf judgeFlags
	c := &cobra.Command{
		Use:   "analyze [flags] (RECORD | - | MOVES...)",
		Short: "Judge every move of a game: values, the best move and line, inaccuracies, mistakes, blunders",
		Long: "analyze searches every position of a game with the bot (--model, or --agent with --game)\n" +
			"and prints, for each move, the mover's chance to win before and after it, the engine's\n" +
			"values, its best move and line, and a mark by the win probability the move lost:\n" +
			"inaccuracy (?!) from 5 points lost, mistake (?) from 10, blunder (??) from 20 (--marks).\n" +
			"The game is a record file (docs/RECORDS.md; every game in it, or --index N), - for\n" +
			"standard input, or moves on the command line from the start or --position: one\n" +
			"argument that is not move text (digits with togyz's x, move numbers, a result) is a file.\n" +
			"Alpha-beta's store lead becomes a chance through the game's calibration (a game without\n" +
			"one shows values only, marks only for proven results); it searches every root move\n" +
			"exactly (MultiPV), so a move's before and after come from one search at one depth and\n" +
			"the engine's best move is never marked. --json prints the analyses as a JSON array; --plot\n" +
			"draws white's chance (or value) over the game as a PNG. For mangala, --tablebase DIR\n" +
			"gives the positions in the tablebase their exact values and, like --judge DIR, prints\n" +
			"each player's moves that lost value (docs/TABLEBASE.md); --judge-extra N alone judges the\n" +
			"positions of up to N stones on the board by the solver (mangala, mangala-kale, kalah).",
		Example: "  kumalak analyze --agent mcts:sims=400 docs/examples/games.kgn\n" +
			"  kumalak analyze --model runs/togyz/best.kmodel --sims 200 --index 1 --json docs/examples/games.kgn\n" +
			"  kumalak analyze --game mangala --agent ab:depth=8 --plot mangala.png 4 3 6 1",
		RunE: func(c *cobra.Command, args []string) error {
			return runAnalyze(c, &g, &b, &f, &jf, args)
		},
	}
	g.add(c)
	b.add(c)
	fl := c.Flags()
	fl.BoolVar(&f.json, "json", false, "print the analyses as JSON instead of tables")
	fl.StringVar(&f.plot, "plot", "", "write a PNG of white's chance over the game to this file (one game)")
	fl.IntVar(&f.index, "index", 0, "analyse only this game of the file (1 = the first); 0: all")
	fl.StringVar(&f.marks, "marks", "0.05,0.1,0.2", "win probability lost for an inaccuracy, a mistake and a blunder")
	jf.add(c)
	return c
}

// runAnalyze reads the games, analyses each and prints the results.
func runAnalyze(c *cobra.Command, g *gameFlags, b *botFlags, f *analyzeFlags, jf *judgeFlags, args []string) error {
	bot, err := b.resolve("analyze")
	if err != nil {
		return err
	}
	thresholds, err := analysis.ParseThresholds(f.marks)
	if err != nil {
		return badInput("analyze", "--marks: %s", reason(err))
	}
	if len(args) == 0 {
		return badInput("analyze", "give a record file, - for standard input, or moves")
	}
	games, err := readGames(c, g, "analyze", bot.Game, args)
	if err != nil {
		return err
	}
	if games, err = analysis.Select(games, f.index, f.plot != ""); err != nil {
		return badInput("analyze", "%s", reason(err))
	}
	if err := bot.Check(games); err != nil {
		return badInput("analyze", "%s", reason(err))
	}
	if err := checkAgents("analyze", games[0].Spec, bot.Spec); err != nil { // checked here, built per game by analysis
		return err
	}
	ex, err := analysis.OpenTablebases(games[0].Spec, b.req.Tablebase, jf.dir, jf.cfg)
	if err != nil {
		return badInput("analyze", "%s", reason(err))
	}
	defer ex.Close()
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	defer stop()
	rep, err := analysis.AnalyzeAll(ctx, games, analysis.Config{Agent: bot.Spec, Seed: b.seed, Thresholds: thresholds}, ex)
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	if f.plot != "" {
		if err := rep.Analyses[0].Plot(f.plot); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
	}
	write := rep.WriteText
	if f.json {
		write = rep.WriteJSON
	}
	if err := write(c.OutOrStdout()); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// readGames returns the games of args (env.ReadGames): a record file,
// standard input (-), or moves from the start or --position. The game of
// moves and of a record without a Game tag is modelGame, else --game.
func readGames(c *cobra.Command, g *gameFlags, cmd, modelGame string, args []string) ([]*env.GameRecord, error) {
	if modelGame != "" {
		g.game = modelGame
	}
	games, err := env.ReadGames(env.GameArgs{Args: args, Stdin: c.InOrStdin(), Game: g.game, Position: g.position})
	if errors.Is(err, env.ErrPositionWithRecord) {
		return nil, badInput(cmd, "--position goes with moves, not with a record file (use its Position tag)")
	}
	if err != nil {
		return nil, badInput(cmd, "%v", err)
	}
	return games, nil
}
