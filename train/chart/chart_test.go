package chart

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"kumalak/net"
	"kumalak/rating"
	"kumalak/train/ladder"
)

// TestDraw: the charts are drawn from a few iterations, on the anchors'
// scale with a rung and without anchors; the mistake chart only when an
// iteration was judged; a bad path is an error naming the package.
func TestDraw(t *testing.T) {
	ps := []Point{
		{Minutes: 0.5, Trained: true, LossTotal: 3, LossPolicy: 2, LossValue: 1, SelfPlayed: true, SimsPerSec: 9000, RowsPerSec: 8000, RowsPerCPU: 5000},
		{Minutes: 1, Trained: true, LossTotal: 2.5, LossPolicy: 1.8, LossValue: 0.7, SelfPlayed: true, SimsPerSec: 9100, RowsPerSec: 8100,
			Baseline: map[string]rating.Match{"greedy": {Games: 4, Wins: 4, Score: 1, Elo: 9999, EloLo: 200, EloHi: 9999}}, Rating: &rating.Rating{Elo: 300, Err: 80}},
	}
	a := &net.Anchors{Zero: "random", Ratings: map[string]float64{"random": 0, "greedy": 250, "iter-0002": 300}}
	rungs := []ladder.Rung{{Name: "iter-0002", ElapsedSec: 60, Elo: 300, Err: 80}}
	for _, c := range []struct {
		name     string
		a        *net.Anchors
		judged   bool
		mistakes bool
	}{{"rated", a, false, false}, {"unrated, judged", nil, true, true}} {
		dir := t.TempDir()
		f := Files{Loss: filepath.Join(dir, "loss.png"), Elo: filepath.Join(dir, "elo.svg"), Speed: filepath.Join(dir, "speed.png"), Mistakes: filepath.Join(dir, "mistakes.png")}
		ps[1].Judged, ps[1].MistakeRate, ps[1].LostPerMistake = c.judged, 0.1, 2
		if err := Draw(ps, c.a, rungs, f); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, p := range []string{f.Loss, f.Elo, f.Speed} {
			if st, err := os.Stat(p); err != nil || st.Size() == 0 {
				t.Errorf("%s: %s not drawn: %v", c.name, p, err)
			}
		}
		if _, err := os.Stat(f.Mistakes); (err == nil) != c.mistakes {
			t.Errorf("%s: mistake chart drawn: %v, want %v", c.name, err == nil, c.mistakes)
		}
	}
	bad := Files{Loss: filepath.Join(t.TempDir(), "no", "such", "loss.png")}
	if err := Draw(ps, a, rungs, bad); err == nil {
		t.Error("a chart into a missing folder: no error")
	}
}

// TestEloTicks: ticks every 50 labelled every 100, every 100 labelled
// every 200 on a range over 1500.
func TestEloTicks(t *testing.T) {
	var labels []string
	for _, tk := range (eloTicks{}).Ticks(-60, 160) {
		labels = append(labels, tk.Label)
	}
	if want := []string{"", "0", "", "100", ""}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	if ts := (eloTicks{}).Ticks(0, 2000); len(ts) != 21 || ts[2].Label != "200" || ts[1].Label != "" {
		t.Errorf("wide ticks %+v", ts)
	}
}
