package engine

import (
	"context"
	"os"
	"testing"

	"kumalak/agent"
	"kumalak/env"
	_ "kumalak/env/games" // registers togyz, mangala, mangala-kale
)

// newAgent builds an agent with a fixed seed.
func newAgent(spec *env.Spec, s string) (agent.Agent, error) { return agent.New(spec, s, 7) }

// mustAgent builds an agent or fails the test.
func mustAgent(t *testing.T, game, s string) (*env.Spec, agent.Agent) {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newAgent(spec, s)
	if err != nil {
		t.Fatal(err)
	}
	return spec, a
}

// engineEnv makes this test binary an engine (TestEngineProcess) for the
// engine client tests: its value is the agent spec.
const engineEnv = "KUMALAK_BOT_ENGINE"

// TestEngineProcess serves the engine protocol on stdin and stdout when
// run by the client tests; otherwise it skips.
func TestEngineProcess(t *testing.T) {
	spec := os.Getenv(engineEnv)
	if spec == "" {
		t.Skip("run as an engine by the engine client tests")
	}
	cfg := DefaultConfig()
	cfg.Agent, cfg.Name = spec, "kumalak test engine"
	if err := Serve(context.Background(), os.Stdin, os.Stdout, cfg); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(0)
}
