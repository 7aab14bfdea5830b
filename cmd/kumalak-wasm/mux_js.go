//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"

	"kumalak/bot/web"
	"kumalak/env"
	_ "kumalak/env/games" // registers every game: togyz, mangala, mangala-kale, kalah
)

// Game is one game of the site: its name, the agent spec that plays it
// and the model card shown with it (may be empty).
type Game struct {
	Game  string          `json:"game"`
	Agent string          `json:"agent"`
	Card  json.RawMessage `json:"card,omitempty"`
}

// newMux builds one server a game from the argument, a JSON list of Game.
func newMux(args []string) (*web.Mux, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("kumalak-wasm: %d arguments, want one: the JSON list of games", len(args))
	}
	var games []Game
	if err := json.Unmarshal([]byte(args[0]), &games); err != nil {
		return nil, fmt.Errorf("kumalak-wasm: the games: %w", err)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("kumalak-wasm: the games: the list is empty")
	}
	var servers []*web.Server
	for _, g := range games {
		if _, err := env.Lookup(g.Game); err != nil {
			return nil, fmt.Errorf("kumalak-wasm: %w", err)
		}
		cfg := web.DefaultConfig()
		cfg.Agent, cfg.Games, cfg.Card, cfg.Seed = g.Agent, []string{g.Game}, g.Card, seed
		s, err := web.NewServer(cfg)
		if err != nil {
			return nil, fmt.Errorf("kumalak-wasm: %s: %w", g.Game, err)
		}
		servers = append(servers, s)
	}
	return web.NewMux(servers...)
}
