package engine

import (
	"context"
	"os"
	"testing"

	_ "kumalak/env/games" // registers togyz, mangala, mangala-kale
)

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
