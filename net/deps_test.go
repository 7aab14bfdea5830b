package net

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestNoTrainingStack pins that inference, and every package that only
// plays, builds without gorgonia and the ONNX protobuf module: those belong
// to net/learn and net/onnx.
func TestNoTrainingStack(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goBin, "list", "-deps", "kumalak/net", "kumalak/agent", "kumalak/bot/...").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	forbidden := []string{"gorgonia.org/", "github.com/advancedclimatesystems/gonnx", "google.golang.org/protobuf", "kumalak/net/learn", "kumalak/net/onnx"}
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if strings.HasPrefix(pkg, f) {
				t.Errorf("net, agent or bot depend on %s", pkg)
			}
		}
	}
	if !strings.Contains(string(out), "kumalak/net\n") {
		t.Fatalf("go list -deps did not list kumalak/net:\n%s", out)
	}
}
