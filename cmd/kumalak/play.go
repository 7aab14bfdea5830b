package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"kumalak/agent"
	"kumalak/bot/play"
	"kumalak/env"
	"kumalak/net"
)

// botFlags choose the bot of play, engine and serve: a model file or an
// agent spec, with optional search limits.
type botFlags struct {
	model, agent string
	tablebase    string // mangala tablebase folder for the agents that take one
	sims, depth  int
	time         time.Duration
	seed         uint64
}

func (b *botFlags) add(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&b.model, "model", "", "model file (.kmodel) to play with: its game and, from its card, its search size (default: the game's shipped model)")
	fl.StringVar(&b.agent, "agent", "", "agent spec instead of a model, e.g. ab:depth=8 or mcts:sims=2000 (see kumalak arena --help)")
	fl.IntVar(&b.sims, "sims", 0, "simulations per move (mcts and model agents); 0: the model card's or the spec's")
	fl.DurationVar(&b.time, "time", 0, "time per move, e.g. 1s; replaces the spec's sims or depth")
	fl.IntVar(&b.depth, "depth", 0, "search depth in plies (ab agents)")
	fl.Uint64Var(&b.seed, "seed", 1, "seed of the bot's randomness")
	fl.StringVar(&b.tablebase, "tablebase", "", "mangala tablebase folder (kumalak tablebase build): exact leaves for mcts and model, the tb agent's dir")
}

// resolve returns the agent spec, the model's game ("" for an agent) and
// the model's card, or a usage error. With neither --model nor --agent the
// bot is the `model` agent without a path: each game's shipped model.
func (b *botFlags) resolve(cmd string) (spec, game string, card json.RawMessage, err error) {
	switch {
	case b.model != "" && b.agent != "":
		return "", "", nil, badInput(cmd, "give --model or --agent, not both")
	case b.sims < 0 || b.time < 0 || b.depth < 0:
		return "", "", nil, badInput(cmd, "--sims, --time and --depth must not be negative")
	}
	var sp agent.Spec
	if b.model != "" {
		if sp, game, card, err = modelSpec(cmd, b.model); err != nil {
			return "", "", nil, err
		}
	} else if b.agent == "" {
		sp = agent.Spec{Kind: "model"} // the game's shipped model (package models)
	} else if sp, err = agent.ParseSpec(b.agent); err != nil {
		return "", "", nil, badInput(cmd, "%v", err)
	}
	if sp, err = sp.WithLimits(agent.Limits{Sims: b.sims, Time: b.time, Depth: b.depth}); err != nil {
		return "", "", nil, badInput(cmd, "%v", err)
	}
	if sp, err = sp.WithTablebase(b.tablebase); err != nil {
		return "", "", nil, badInput(cmd, "--tablebase: %v", err)
	}
	return sp.String(), game, card, nil
}

// modelSpec reads a model file's metadata (net.LoadMeta: the agent built
// from the spec loads the model itself, once) and returns the agent spec
// that plays it with its card's recommended simulations (agent.ModelSims),
// its game and its card.
func modelSpec(cmd, path string) (sp agent.Spec, game string, card json.RawMessage, err error) {
	meta, err := net.LoadMeta(path)
	if err != nil {
		return sp, "", nil, badInput(cmd, "--model: %v", err)
	}
	sims := agent.ModelSims(meta.Card)
	if card, err = net.CardJSON(meta.Card); err != nil {
		return sp, "", nil, badInput(cmd, "--model %s: %v", path, err)
	}
	if sp, err = agent.ModelSpec(path, min(sims, agent.MaxSims)); err != nil {
		return sp, "", nil, badInput(cmd, "--model: %v", err)
	}
	return sp, meta.Game, card, nil
}

// pickGame returns the game to play: the model's, which --game may only
// repeat, else --game.
func pickGame(cmd, modelGame, flagGame string, flagSet bool) (*env.Spec, error) {
	game := flagGame
	if modelGame != "" {
		if flagSet && flagGame != modelGame {
			return nil, badInput(cmd, "--game %s, but the model plays %s", flagGame, modelGame)
		}
		game = modelGame
	}
	spec, err := env.Lookup(game)
	if err != nil {
		return nil, badInput(cmd, "%v", err)
	}
	return spec, nil
}

// buildAgent builds the bot, a bad spec being a usage error.
func buildAgent(cmd string, spec *env.Spec, s string, seed uint64) (agent.Agent, error) {
	a, err := agent.New(spec, s, seed)
	if err != nil {
		return nil, badInput(cmd, "%v", err)
	}
	return a, nil
}

// closeAgent ends an agent that holds a process (the engine kind).
func closeAgent(a agent.Agent) {
	_ = agent.Close(a) // the command is ending; nothing left to report to
}

func newPlayCmd() *cobra.Command {
	var g gameFlags
	var b botFlags
	var as string
	c := &cobra.Command{
		Use:   "play",
		Short: "Play a game against the bot in the terminal",
		Long: "play draws the board as the players see it from your seat (turned round when you play\n" +
			"black), says what each move did (stones sown, captures, a tuzdyk or castle made, an extra\n" +
			"turn) and reads your moves as pit numbers, counted from your own left (togyz also takes the\n" +
			"record form, e.g. 76, whose landing pit is checked). Commands: hint (the bot's suggestion\n" +
			"with your chance to win), undo (your last move and the bot's reply), board, new,\n" +
			"save FILE and load FILE (a record file, docs/RECORDS.md), help, quit. The bot is a model\n" +
			"file (--model, whose card sets the search size) or any agent spec (--agent with --game).",
		Example: "  kumalak play --model runs/togyz/best.kmodel --as b --time 2s\n" +
			"  kumalak play --agent ab:depth=8 --game mangala\n" +
			"  kumalak play --agent mcts --sims 3000 --game mangala-kale",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			s, modelGame, _, err := b.resolve("play")
			if err != nil {
				return err
			}
			human, err := parseSide(as)
			if err != nil {
				return err
			}
			spec, err := pickGame("play", modelGame, g.game, c.Flags().Changed("game"))
			if err != nil {
				return err
			}
			if _, err := spec.Start(g.position); err != nil {
				return badInput("play", "%v", err)
			}
			a, err := buildAgent("play", spec, s, b.seed)
			if err != nil {
				return err
			}
			defer closeAgent(a)
			cfg := play.Config{Spec: spec, Agent: a, Human: human, Start: g.position}
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt)
			defer stop()
			err = play.Run(ctx, c.InOrStdin(), c.OutOrStdout(), cfg)
			if errors.Is(err, context.Canceled) {
				return nil
			}
			return err
		},
	}
	g.add(c)
	b.add(c)
	c.Flags().StringVar(&as, "as", "w", "your side: w (white, moves first) or b (black)")
	return c
}

// parseSide reads --as.
func parseSide(s string) (env.Player, error) {
	switch strings.ToLower(s) {
	case "w", "white":
		return env.White, nil
	case "b", "black":
		return env.Black, nil
	}
	return 0, badInput("play", "--as %q: want w or b", s)
}
