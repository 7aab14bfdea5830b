package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"kumalak/env"
)

func newShowCmd() *cobra.Command {
	var g gameFlags
	c := &cobra.Command{
		Use:   "show",
		Short: "Draw a position as the players see it, with its legal moves",
		Example: "  kumalak show --game togyz\n" +
			"  kumalak show --game mangala-kale --position '0,5,5,5,5,4/4,4,4,4,4,4 0 0 - - b'",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, st, err := g.state("show")
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			fmt.Fprint(out, env.Drawing(st))
			fmt.Fprintf(out, "position %s\n", st)
			if r := st.Result(); r.String() != "*" {
				fmt.Fprintf(out, "game over: %s\n", r)
				return nil
			}
			fmt.Fprintf(out, "%s to move; legal moves: %s\n", st.ToMove().Name(), legalList(st))
			return nil
		},
	}
	g.add(c)
	return c
}
