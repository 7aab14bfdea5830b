package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kumalak/agent"
)

// hello sends the handshake and returns the engine's lines.
func (s *engineSession) hello() []string {
	s.t.Helper()
	s.send("kumalak")
	return s.expect("kumalakok", 5*time.Second)
}

// TestEngineLevel: a model engine offers level, limitstrength and (for a
// game whose levels are measured) elo; a level sets the search (the sims
// option's range is then the level's), and limitstrength plays the
// rating asked for, clamped into the levels' range.
func TestEngineLevel(t *testing.T) {
	s := startEngine(t, engineConfig("model"))
	s.ask("newgame mangala")
	lo, hi, ok := eloRange("mangala")
	if !ok {
		t.Fatal("mangala's levels are not measured")
	}
	hello := s.hello()
	for _, want := range []string{"option name level type spin default 0 min 0 max 10", "option name limitstrength type check default false",
		fmt.Sprintf("option name elo type spin default %d min %d max %d", lo, lo, hi)} {
		if !hasPrefix(hello, want) {
			t.Errorf("handshake lacks %q:\n%s", want, strings.Join(hello, "\n"))
		}
	}
	l2, _ := agent.LevelOf("mangala", 2)
	if got := s.ask("setoption name level value 2"); len(got) != 0 {
		t.Fatalf("setoption level 2: %q", got)
	}
	if hello := s.hello(); !hasPrefix(hello, fmt.Sprintf("option name sims type spin default 0 min 0 max %d", l2.Sims)) || !hasPrefix(hello, "option name level type spin default 2 ") {
		t.Errorf("at level 2 the handshake says:\n%s", strings.Join(hello, "\n"))
	}
	s.send("go")
	if got := s.expect("bestmove", 10*time.Second); bestMove(t, got) < 1 {
		t.Errorf("go at level 2: %q", got)
	}
	scale, _ := agent.LevelScaleOf("mangala")
	l5, _ := agent.LevelOf("mangala", 5)
	s.ask("setoption name limitstrength value true")
	s.ask(fmt.Sprintf("setoption name elo value %d", int(scale.Elo[4]+0.5)))
	if hello := s.hello(); !hasPrefix(hello, fmt.Sprintf("option name sims type spin default 0 min 0 max %d", l5.Sims)) {
		t.Errorf("at level 5's rating the handshake says:\n%s", strings.Join(hello, "\n"))
	}
	for cmd, want := range map[string]string{
		"setoption name level value 11":         "level",
		"setoption name elo value 99999":        "elo",
		"setoption name limitstrength value no": "not true or false",
	} {
		if got := s.ask(cmd); !hasPrefix(got, "error") || !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("%s: %q, want an error naming %q", cmd, got, want)
		}
	}
	s.ask("setoption name limitstrength value false")
	s.ask("setoption name level value 0")
	if hello := s.hello(); !hasPrefix(hello, fmt.Sprintf("option name sims type spin default 0 min 0 max %d", agent.MaxSims)) {
		t.Errorf("back at full strength the handshake says:\n%s", strings.Join(hello, "\n"))
	}
}

// TestEngineLevelOnlyModel: an engine that plays no model offers no
// strength options and refuses them as unknown.
func TestEngineLevelOnlyModel(t *testing.T) {
	s := startEngine(t, engineConfig("ab:depth=2"))
	if hello := s.hello(); hasPrefix(hello, "option name level") {
		t.Errorf("ab offers a level:\n%s", strings.Join(hello, "\n"))
	}
	if got := s.ask("setoption name level value 3"); !hasPrefix(got, "error") || !strings.Contains(got[0], "unknown option") {
		t.Errorf("setoption level for ab: %q", got)
	}
}

// TestEngineLevelFromSpec: an engine started at a level (kumalak engine
// --level 3) declares it as the level option's default, and a new level
// replaces it.
func TestEngineLevelFromSpec(t *testing.T) {
	s := startEngine(t, engineConfig("model:level=3"))
	s.ask("newgame mangala")
	l3, _ := agent.LevelOf("mangala", 3)
	hello := s.hello()
	if !hasPrefix(hello, "option name level type spin default 3 ") || !hasPrefix(hello, fmt.Sprintf("option name sims type spin default 0 min 0 max %d", l3.Sims)) {
		t.Errorf("started at level 3, the handshake says:\n%s", strings.Join(hello, "\n"))
	}
	if got := s.ask("setoption name level value 4"); len(got) != 0 {
		t.Errorf("setoption level 4: %q", got)
	}
}
