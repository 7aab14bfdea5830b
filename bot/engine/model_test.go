package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/net"
	"kumalak/net/tinynet"
)

// tinyModel writes a small random network for game with the card.
func tinyModel(t *testing.T, game, card string) string {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	var c *net.Card
	if card != "" {
		c = new(net.Card)
		if err := json.Unmarshal([]byte(card), c); err != nil {
			t.Fatal(err)
		}
	}
	return tinynet.Save(t, tinynet.Model(tinynet.Game{Name: game, ObsVersion: spec.ObsVersion, ObsLen: spec.ObsLen, Actions: spec.NumActions}, 1, c))
}

// TestModelEngine serves a model through the engine protocol (the API:
// package web's TestModelBot).
func TestModelEngine(t *testing.T) {
	card := `{"search":{"sims":48},"elo":{"random":{"elo":100}}}`
	path := tinyModel(t, "togyz", card)
	spec := "model:path=" + path + ",sims=48"

	cfg := engineConfig(spec)
	cfg.Games = []string{"togyz"}
	s := startEngine(t, cfg)
	s.send("kumalak")
	if hello := s.expect("kumalakok", 5*time.Second); !hasPrefix(hello, "option name sims") {
		t.Errorf("model handshake %q", hello)
	}
	s.send("position start moves 9")
	s.send("go sims 100")
	got := s.expect("bestmove ", 10*time.Second)
	if !hasPrefix(got, "info nodes ") || !hasPrefix(got, "info move ") {
		t.Errorf("model search: %q", got)
	}
	if got := s.ask("newgame mangala"); len(got) != 1 || !strings.Contains(got[0], "not played here") {
		t.Errorf("newgame mangala on a togyz model: %q", got)
	}
}
