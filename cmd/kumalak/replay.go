package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"kumalak/env"
)

func init() { commands = append(commands, newReplayCmd) }

func newReplayCmd() *cobra.Command {
	var g gameFlags
	c := &cobra.Command{
		Use:   "replay [flags] MOVES...",
		Short: "Play a sequence of moves and print the final position and result",
		Long: "replay plays MOVES from the start (or --position) and prints the final position\n" +
			"string, then \"result R\" (1-0, 0-1, 1/2-1/2 or *), then the board and, for togyz,\n" +
			"the record in standard notation. Moves are pit numbers from the mover's side;\n" +
			"togyz also takes the record form (\"76\", \"36x\": pit, landing pit, x for a tuzdyk),\n" +
			"whose landing pit is checked. Move numbers such as \"1.\" are skipped, and a result\n" +
			"(1-0, 0-1, 1/2-1/2, *) may end the moves. docs/RULES.md describes the notation.",
		Example: "  kumalak replay --game togyz 7 9 5 5\n  kumalak replay --game togyz 1. 21 65 2. 34 22x\n  kumalak replay --game mangala 3 6 1",
		RunE: func(c *cobra.Command, args []string) error {
			spec, st, err := g.state("replay")
			if err != nil {
				return err
			}
			start := env.Clone(st)
			moves, err := replay(st, args)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			fmt.Fprintln(out, st.String())
			fmt.Fprintf(out, "result %s\n", st.Result())
			fmt.Fprint(out, env.Drawing(st))
			if spec.Notation != nil {
				rec, err := spec.FormatMoves(start, moves)
				if err != nil {
					return fmt.Errorf("replay: %w", err)
				}
				fmt.Fprintf(out, "record %s %s\n", rec, st.Result())
			}
			return nil
		},
	}
	g.add(c)
	return c
}

// replay plays the move tokens, read as one record of the game's notation
// (env.Spec.ParseMoves), on st and returns the actions played, or a usage
// error naming the first bad move, e.g.
// "replay: togyz: move 4 (12x): no tuzdyk was made".
func replay(st env.State, tokens []string) ([]env.Action, error) {
	moves, err := st.Spec().ParseMoves(st, strings.Join(tokens, " "))
	if err != nil {
		return nil, badInput("replay", "%v", err)
	}
	for _, a := range moves {
		st.Apply(a)
	}
	return moves, nil
}
