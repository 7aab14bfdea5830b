package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"kumalak/env"
)

func newReplayCmd() *cobra.Command {
	var g gameFlags
	var asRecord bool
	var form string
	c := &cobra.Command{
		Use:   "replay [flags] (RECORD | - | MOVES...)",
		Short: "Play a game's moves and print the final position and result",
		Long: "replay plays a game and prints the final position string, then \"result R\" (1-0, 0-1,\n" +
			"1/2-1/2 or *), then the board and, for togyz, the record in standard notation. The game\n" +
			"is a record file with header tags (docs/RECORDS.md; every game in it), - for standard\n" +
			"input, or MOVES from the start (or --position): pit numbers from the mover's side;\n" +
			"togyz also takes the record form (\"76\", \"36x\": pit, landing pit, x for a tuzdyk),\n" +
			"whose landing pit is checked. Move numbers such as \"1.\" are skipped, and a result\n" +
			"(1-0, 0-1, 1/2-1/2, *) may end the moves; one argument that is not such move text is a\n" +
			"file. docs/RULES.md describes the notation.\n" +
			"--record prints the games as a record file instead; --format playok writes it in PlayOK's\n" +
			"form (the mover's kazan after a capture in parentheses, X for a tuzdyk), which every reader\n" +
			"reads back, as it reads PlayOK's own export (docs/RECORDS.md#playok-records).",
		Example: "  kumalak replay --game togyz 7 9 5 5\n  kumalak replay --game togyz 1. 21 65 2. 34 22x\n" +
			"  kumalak replay --game mangala 3 6 1\n  kumalak replay docs/examples/games.kgn\n" +
			"  kumalak replay --record --game togyz 1. 21 65 2. 34 22x\n" +
			"  kumalak replay --format playok docs/examples/games.kgn",
		RunE: func(c *cobra.Command, args []string) error {
			f, err := env.ParseForm(form)
			if err != nil {
				return badInput("replay", "--format %q: want %s", form, strings.Join(env.Forms, " or "))
			}
			games, err := readGames(c, &g, "replay", "", args)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asRecord || c.Flags().Changed("format") {
				if err := env.WriteRecordsIn(out, f, games...); err != nil {
					return fmt.Errorf("replay: %w", err)
				}
				return nil
			}
			if err := env.WriteFinals(out, games...); err != nil {
				return fmt.Errorf("replay: %w", err)
			}
			return nil
		},
	}
	g.add(c)
	c.Flags().BoolVar(&asRecord, "record", false, "print the games as a record file (tags and moves) instead of the final boards")
	c.Flags().StringVar(&form, "format", "kgn", "the form of the record printed (implies --record): "+strings.Join(env.Forms, " or "))
	return c
}
