package analysis

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestPlyTicks: the ply axis is labelled at whole numbers, about ten of
// them at most.
func TestPlyTicks(t *testing.T) {
	for _, hi := range []float64{3, 10, 37, 120, 333} {
		ticks := plyTicks{}.Ticks(0, hi)
		if len(ticks) == 0 || len(ticks) > 11 {
			t.Errorf("0..%v: %d ticks", hi, len(ticks))
		}
		for _, tk := range ticks {
			if tk.Value != math.Trunc(tk.Value) || tk.Label != strconv.Itoa(int(tk.Value)) {
				t.Errorf("0..%v: tick %+v is no whole ply", hi, tk)
			}
		}
	}
}

// TestWhiteSide: the mover's chance or value turned into white's.
func TestWhiteSide(t *testing.T) {
	p := float32(0.7)
	probs := &GameAnalysis{Probabilities: true}
	values := &GameAnalysis{}
	cases := []struct {
		an    *GameAnalysis
		mover string
		want  float64
	}{
		{probs, "white", 0.7},
		{probs, "black", 1 - float64(p)},
		{values, "white", 0.5},
		{values, "black", -0.5},
	}
	for _, c := range cases {
		if got := whiteSide(c.an, Eval{Value: 0.5, WinProb: &p}, c.mover); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("probabilities %v, mover %s: %v, want %v", c.an.Probabilities, c.mover, got, c.want)
		}
	}
}

// TestPlot writes the chart of an analysis as a PNG, and fails on a path it
// cannot write.
func TestPlot(t *testing.T) {
	an, err := Analyze(context.Background(), Config{Game: stagedGames(t)[0], Agent: "ab:depth=4"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "game.png")
	if err := an.Plot(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Errorf("Plot wrote %d bytes (%v), want a PNG", len(b), err)
	}
	if err := an.Plot(filepath.Join(t.TempDir(), "missing", "game.png")); err == nil {
		t.Error("Plot into a missing folder: no error")
	}
}
