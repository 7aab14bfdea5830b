package main

import (
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
			env.WritePosition(c.OutOrStdout(), st)
			return nil
		},
	}
	g.add(c)
	return c
}
