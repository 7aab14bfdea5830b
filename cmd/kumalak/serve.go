package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"kumalak/bot/web"
	"kumalak/env"
)

func newServeCmd() *cobra.Command {
	var b botFlags
	var game, addr string
	cfg := web.DefaultConfig()
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the bot over HTTP: a web page to play it and a JSON API",
		Long: "serve runs a web server: GET / is a page where you play the bot (any game it plays, either\n" +
			"side, with undo and the bot's evaluation); the JSON API is GET /api/info, POST /api/state\n" +
			"(a game record -> the position, legal moves, result) and POST /api/move (a record -> the bot's\n" +
			"move, value, win probability, per-move figures and the new position). A model serves its own\n" +
			"game; an agent serves every game, or the one --game names.",
		Example: "  kumalak serve --model runs/togyz/best.kmodel --addr 127.0.0.1:8080\n" +
			"  kumalak serve --agent ab:depth=8\n" +
			"  kumalak serve --agent mcts --sims 2000 --game mangala --addr :9000",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			bot, err := b.resolve("serve")
			if err != nil {
				return err
			}
			cfg.Agent, cfg.Card, cfg.Seed = bot.Spec, bot.Card, b.seed
			if cfg.Games, err = bot.Games(game); err != nil {
				return badInput("serve", "%s", reason(err))
			}
			srv, err := web.NewServer(cfg)
			if err != nil {
				return badInput("serve", "%v", err)
			}
			defer srv.Close()
			return serve(c, srv, addr, cfg.Timeout)
		},
	}
	b.add(c)
	fl := c.Flags()
	fl.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; :0 picks a free port)")
	fl.StringVar(&game, "game", "", "serve only this game: "+strings.Join(env.Games(), ", ")+" (default: all an agent plays)")
	fl.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "time limit of one request")
	fl.DurationVar(&cfg.MaxTime, "max-time", cfg.MaxTime, "largest time per move a request may ask for (below --timeout)")
	fl.IntVar(&cfg.MaxSims, "max-sims", cfg.MaxSims, "largest simulations a request may ask for")
	fl.IntVar(&cfg.Searches, "searches", cfg.Searches, "searches run at once; more requests wait")
	return c
}

// serve serves h on addr (web.ListenAndServe) until an interrupt or
// SIGTERM.
func serve(c *cobra.Command, h http.Handler, addr string, timeout time.Duration) error {
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := web.ListenAndServe(ctx, addr, h, timeout, c.OutOrStdout())
	if le, ok := errors.AsType[*web.ListenError](err); ok {
		return badInput("serve", "--addr %s: %v", addr, le.Err)
	}
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
