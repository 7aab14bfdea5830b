package engine

import (
	"strings"
	"testing"
	"time"

	"kumalak/bot/bottest"
)

// TestModelEngine serves a model through the engine protocol (the API:
// package web's TestModelBot).
func TestModelEngine(t *testing.T) {
	card := `{"search":{"sims":48},"elo":{"random":{"elo":100}}}`
	path := bottest.TinyModel(t, "togyz", card)
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
