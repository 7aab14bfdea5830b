package agent

import "testing"

func TestParseCmdTakesTheRest(t *testing.T) {
	name, o, err := parse("engine:sims=5,cmd=./bin/kumalak engine --agent ab:depth=3,tt=8")
	if err != nil || name != "engine" {
		t.Fatalf("parse: %q %v", name, err)
	}
	if got := o.str("cmd", ""); got != "./bin/kumalak engine --agent ab:depth=3,tt=8" {
		t.Fatalf("cmd = %q", got)
	}
	if got := o.str("sims", ""); got != "5" {
		t.Fatalf("sims = %q", got)
	}
	if _, _, err := parse("ab:depth=3,,tt=1"); err == nil {
		t.Fatal("empty option accepted")
	}
}
