package main

import (
	"github.com/spf13/cobra"

	"kumalak/env"
)

func newPerftCmd() *cobra.Command {
	var g gameFlags
	var depth int
	c := &cobra.Command{
		Use:   "perft",
		Short: "Count the leaf nodes of the game tree to each depth",
		Long: "perft prints one line per depth from 1 to --depth: the depth, the node count,\n" +
			"the time taken and the nodes per second. docs/RULES.md gives the counts\n" +
			"from the start position.",
		Example: "  kumalak perft --game togyz --depth 7\n  kumalak perft --game mangala-kale --depth 8 --position '4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w'",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if depth < 1 || depth > 20 {
				return badInput("perft", "--depth %d out of range 1..20", depth)
			}
			_, st, err := g.state("perft")
			if err != nil {
				return err
			}
			env.WritePerft(c.OutOrStdout(), st, depth)
			return nil
		},
	}
	g.add(c)
	c.Flags().IntVar(&depth, "depth", 5, "deepest depth to count (1..20)")
	return c
}
