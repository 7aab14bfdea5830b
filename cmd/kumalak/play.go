package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/spf13/cobra"

	"kumalak/agent"
	"kumalak/bot/choose"
	"kumalak/bot/play"
	"kumalak/bot/words"
	"kumalak/env"
	"kumalak/solve"
)

// botFlags choose the bot of play, engine and serve: a model file or an
// agent spec, with optional search limits.
type botFlags struct {
	req  choose.Request
	seed uint64
}

func (b *botFlags) add(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&b.req.Model, "model", "", "model file (.kmodel) to play with: its game and, from its card, its search size (default: the game's shipped model)")
	fl.StringVar(&b.req.Agent, "agent", "", "agent spec instead of a model, e.g. ab:depth=8 or mcts:sims=2000 (see kumalak arena --help)")
	fl.IntVar(&b.req.Sims, "sims", 0, "simulations per move (mcts and model agents); 0: the model card's or the spec's")
	fl.DurationVar(&b.req.Time, "time", 0, "time per move, e.g. 1s; replaces the spec's sims or depth")
	fl.IntVar(&b.req.Depth, "depth", 0, "search depth in plies (ab agents)")
	fl.Uint64Var(&b.seed, "seed", 1, "seed of the bot's randomness")
	fl.StringVar(&b.req.Tablebase, "tablebase", solve.DefaultTablebase(), "tablebase folder (kumalak tablebase build): mangala's are exact leaves for mcts and model, kalah's speed their exact solver, either is the tb agent's dir; auto: the game's 16-stone one in the user's cache, built once on first use (auto:N for N stones; $"+solve.EnvTablebase+" sets the default); off: none")
	fl.IntVar(&b.req.Level, "level", 0, fmt.Sprintf("strength level of the model bot, 1 (a beginner's) to %d (full strength), docs/PLAYING.md, Levels; 0: full strength", agent.MaxLevel))
	fl.StringVar(&b.req.Elo, "elo", "", "play the model bot at this rating on the game's Elo scale, between its measured levels' (docs/PLAYING.md, Levels)")
}

// resolve returns the bot the flags choose (choose.Resolve), or a usage
// error. With neither --model nor --agent the bot is the `model` agent
// without a path: each game's shipped model.
func (b *botFlags) resolve(cmd string) (choose.Bot, error) {
	bot, err := choose.Resolve(b.req)
	if err != nil {
		return bot, badInput(cmd, "%s", reason(err))
	}
	return bot, nil
}

func newPlayCmd() *cobra.Command {
	var g gameFlags
	var b botFlags
	var as, lang string
	c := &cobra.Command{
		Use:   "play",
		Short: "Play a game against the bot in the terminal",
		Long: "play draws the board as the players see it from your seat (turned round when you play\n" +
			"black), says what each move did (stones sown, captures, a tuzdyk or castle made, an extra\n" +
			"turn) and reads your moves as pit numbers, counted from your own left (togyz also takes the\n" +
			"record form, e.g. 76, whose landing pit is checked). Commands: hint (the bot's suggestion\n" +
			"and who stands better), undo (your last move and the bot's reply), board, rules, details\n" +
			"(the engine's numbers), new, save FILE and load FILE (a record file, docs/RECORDS.md),\n" +
			"help, quit. It speaks English, Kazakh, Russian or Turkish: --lang, else the environment's\n" +
			"locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE). The bot is a model file (--model, whose card\n" +
			"sets the search size) or any agent spec (--agent with --game).",
		Example: "  kumalak play --model runs/togyz/best.kmodel --as b --time 2s\n" +
			"  kumalak play --game togyz --level 3\n" +
			"  kumalak play --lang kk\n" +
			"  kumalak play --agent ab:depth=8 --game mangala\n" +
			"  kumalak play --agent mcts --sims 3000 --game mangala-kale",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			bot, err := b.resolve("play")
			if err != nil {
				return err
			}
			human, err := env.ParsePlayer(as)
			if err != nil {
				return badInput("play", "--as %q: want w or b", as)
			}
			tag, err := words.Choose(lang, os.Getenv)
			if err != nil {
				return badInput("play", "--lang %q: want one of %s", lang, words.Names())
			}
			spec, err := bot.GameFor(g.game, c.Flags().Changed("game"))
			if err != nil {
				return badInput("play", "%s", reason(err))
			}
			if _, err := spec.Start(g.position); err != nil {
				return badInput("play", "%v", err)
			}
			a, err := agent.New(spec, bot.Spec, b.seed)
			if err != nil {
				return badInput("play", "%v", err)
			}
			defer func() { _ = agent.Close(a) }() // the command is ending; nothing left to report to
			cfg := play.Config{Spec: spec, Agent: a, Human: human, Start: g.position, Level: b.req.Level, Elo: b.req.Elo, Words: words.New(tag)}
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
	c.Flags().StringVar(&lang, "lang", "", "the language to speak: en, kk, ru or tr (default: the environment's locale, else en)")
	return c
}
