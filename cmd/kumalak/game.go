package main

import (
	"fmt"
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
	c.Flags().StringVar(&g.game, "game", "togyz", "game: "+strings.Join(env.Games(), ", "))
	c.Flags().StringVar(&g.position, "position", "", "position string (RULES.md form; default: the start)")
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

// drawer is implemented by every game's board.
type drawer interface{ Draw() string }

// draw returns the board drawn for a person, falling back to its string.
func draw(st env.State) string {
	if d, ok := st.(drawer); ok {
		return d.Draw()
	}
	return st.String() + "\n"
}

// legalList returns the legal moves as pit numbers, e.g. "1 2 5 9".
func legalList(st env.State) string {
	var buf [32]env.Action
	moves := st.Legal(buf[:0])
	parts := make([]string, len(moves))
	for i, a := range moves {
		parts[i] = fmt.Sprint(a.Pit())
	}
	return strings.Join(parts, " ")
}

// sideName returns "white" or "black".
func sideName(p env.Player) string {
	if p == env.White {
		return "white"
	}
	return "black"
}
