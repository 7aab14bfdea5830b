package engine

import (
	"testing"
	"time"
)

// TestEngineHashCarriesOver: the table size set holds for the agent of
// the next game, and the handshake then declares it as the default.
func TestEngineHashCarriesOver(t *testing.T) {
	s := startEngine(t, engineConfig("ab:depth=3"))
	if got := s.ask("setoption name hash value 32"); len(got) != 0 {
		t.Fatalf("setoption hash: %q", got)
	}
	s.ask("newgame mangala")
	s.send("kumalak")
	if got := s.expect("kumalakok", 5*time.Second); !hasPrefix(got, "option name hash type spin default 32 min 0 max 4096") {
		t.Errorf("after newgame mangala: %q", got)
	}
	s.ask("setoption name multipv value 2")
	s.ask("newgame togyz")
	s.send("go depth 2")
	if got := s.expect("bestmove", 5*time.Second); !hasPrefix(got, "info multipv 2 depth 2 ") {
		t.Errorf("multipv after newgame togyz: %q", got)
	}
}
