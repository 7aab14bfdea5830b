package main

import (
	"strings"

	"github.com/spf13/cobra"

	"kumalak/env"
	_ "kumalak/env/games" // registers every game
)

// gameFlags are the --game and --position flags shared by several commands.
type gameFlags struct {
	game     string
	position string
}

func (g *gameFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&g.game, "game", env.DefaultGame, "game: "+strings.Join(env.Games(), ", "))
	c.Flags().StringVar(&g.position, "position", "", "position string (the form of docs/RULES.md; default: the start)")
}

// state returns the game's spec and the chosen position, or a usage error.
func (g *gameFlags) state(cmd string) (*env.Spec, env.State, error) {
	spec, err := env.Lookup(g.game)
	if err != nil {
		return nil, nil, badInput(cmd, "%v", err)
	}
	st, err := spec.Start(g.position)
	if err != nil {
		return nil, nil, badInput(cmd, "%v", err)
	}
	return spec, st, nil
}
