package main

import (
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"kumalak/bot/engine"
	"kumalak/env"
)

func newEngineCmd() *cobra.Command {
	var b botFlags
	var game, name string
	c := &cobra.Command{
		Use:   "engine",
		Short: "Speak the kumalak engine protocol on standard input and output (for tournament programs)",
		Long: "engine plays as a program for tournament managers and GUIs: a line protocol in the\n" +
			"manner of UCI (kumalak/uci, isready, setoption, newgame, position, go, stop, quit), specified\n" +
			"in docs/ENGINE.md. A model plays its own game; an agent plays every game (--game sets the\n" +
			"first). The agent kind engine:cmd=... of arena and tournament is its client.",
		Example: "  kumalak engine --model runs/togyz/best.kmodel\n" +
			"  kumalak engine --agent ab --depth 8\n" +
			"  kumalak arena --a engine:cmd='./bin/kumalak engine --agent ab --depth 3' --b random",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			bot, err := b.resolve("engine")
			if err != nil {
				return err
			}
			spec, err := bot.GameFor(game, c.Flags().Changed("game"))
			if err != nil {
				return badInput("engine", "%s", reason(err))
			}
			if err := checkAgents("engine", spec, bot.Spec); err != nil {
				return err
			}
			cfg := engine.DefaultConfig()
			cfg.Agent, cfg.Game, cfg.Seed, cfg.Name = bot.Spec, spec.Name, b.seed, name
			if bot.Game != "" {
				cfg.Games = []string{bot.Game}
			}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
			defer stop()
			return engine.Serve(ctx, c.InOrStdin(), c.OutOrStdout(), cfg)
		},
	}
	b.add(c)
	c.Flags().StringVar(&game, "game", env.DefaultGame, "game at the start: "+strings.Join(env.Games(), ", "))
	c.Flags().StringVar(&name, "name", "", `name sent in "id name" (default "kumalak <agent spec>")`)
	return c
}
