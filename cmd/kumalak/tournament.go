package main

import (
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"kumalak/agent"
	"kumalak/arena"
)

func newTournamentCmd() *cobra.Command {
	var f matchFlags
	var players, models []string
	var prior float64
	var anchor string
	var sims, reach int
	c := &cobra.Command{
		Use:   "tournament",
		Short: "Play a round robin between agents and print an Elo table",
		Long: "tournament plays a match of --games paired games between every two --players (all on\n" +
			"the same openings) and rates them by a maximum-likelihood Bradley-Terry fit, anchored on\n" +
			"--anchor = 0 (default: random when it plays, else the first player), with 95% intervals\n" +
			"relative to the anchor.\n" +
			"--models a.kmodel,b.kmodel adds model files as players (model:path=FILE, at --sims when given), and an\n" +
			"--anchor that is not among the players joins them: a ladder of models rated on one scale, so networks\n" +
			"of different runs compare (anchor them on a fixed player, e.g. ab:depth=6).\n" +
			"--reach K pairs only the players at most K apart in the order given (a ladder: list them weakest\n" +
			"first, so each meets those nearest its strength); 0 pairs every two.\n" +
			"Every game is saved under --out twice: as a line of JSON (.jsonl) and in a record file\n" +
			"(.kgn, docs/RECORDS.md) that replay and analyze read.\n\n" + agent.Help(),
		Example: "  kumalak tournament --game togyz --players random --players greedy --players ab:depth=4 --games 40\n" +
			"  kumalak tournament --game togyz --anchor ab:depth=2 --models togyz.kmodel,runs/togyz/best.kmodel --sims 50 --games 10",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			players, err := arena.ModelPlayers(players, models, anchor, sims)
			if err != nil {
				return badInput("tournament", "--models, --sims: %s", reason(err))
			}
			spec, cfg, err := f.config("tournament")
			if err != nil {
				return err
			}
			if err := checkAgents("tournament", spec, players...); err != nil {
				return err
			}
			t := &arena.Tournament{Spec: spec, Players: players, Config: cfg, Prior: prior, Anchor: anchor, Reach: reach}
			return runTournament(c, &f, t)
		},
	}
	f.add(c, 40, "games per pairing, each pair of agents playing this many (in pairs: one opening, colours swapped)")
	c.Flags().StringArrayVar(&players, "players", nil, "an agent spec; repeat for each player (at least two)")
	c.Flags().StringSliceVar(&models, "models", nil, "model files to add as players, comma-separated or repeated (model:path=FILE)")
	c.Flags().IntVar(&sims, "sims", 0, "simulations per move of the --models players (0: each model card's, else 400)")
	c.Flags().StringVar(&anchor, "anchor", "", "the player rated 0; joins the players when not among them (default: random when it plays, else the first)")
	c.Flags().IntVar(&reach, "reach", 0, "pair only the players at most this many apart in the --players order (0: every two)")
	c.Flags().Float64Var(&prior, "prior", 1, "virtual draws added to each pairing before the fit (keeps a clean sweep finite)")
	return c
}

// runTournament plays t (arena.Event.PlayTournament).
func runTournament(c *cobra.Command, f *matchFlags, t *arena.Tournament) error {
	if err := t.Validate(); err != nil {
		return badInput("tournament", "%s", reason(err))
	}
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
	defer stop()
	res, err := f.event(c).PlayTournament(ctx, t)
	return f.eventError("tournament", err, fmt.Sprintf("%d matches", len(res.Matches)))
}
