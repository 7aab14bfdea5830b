package train

import (
	"context"
	"os"
	"strings"
	"testing"

	"kumalak/solve/solvetest"
)

func TestMain(m *testing.M) { os.Exit(solvetest.Main(m)) }

// TestTinyRunJudgesMistakes: a tiny mangala run with a tablebase plays
// self-play with exact leaves and targets, and reports the network's
// mistake rate in metrics.jsonl, the summary and its own plot.
func TestTinyRunJudgesMistakes(t *testing.T) {
	tbDir := solvetest.Dir(t)
	cfg := tinyConfig("mangala")
	cfg.Iterations, cfg.Eval.AnchorGames, cfg.Eval.BaselineGames = 1, 0, 4
	cfg.Tablebase, cfg.SelfPlay.ExactTargets = tbDir, true
	dir := Dir(t.TempDir())
	r := openRun(t, cfg, dir, false)
	if err := r.Train(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms, err := ReadMetrics(dir.Metrics())
	if err != nil || len(ms) != 1 {
		t.Fatalf("metrics %v: %v", ms, err)
	}
	mm := ms[0].Eval.Mistakes
	if mm == nil || mm.Moves == 0 || mm.Judged == 0 || mm.Judged > mm.Moves || mm.Mistakes > mm.Judged {
		t.Fatalf("mistakes %+v", mm)
	}
	if !strings.Contains(ms[0].Summary(), "mistakes ") {
		t.Errorf("summary %q has no mistakes", ms[0].Summary())
	}
	if _, err := os.Stat(dir.MistakePlot()); err != nil {
		t.Errorf("no mistake plot: %v", err)
	}
}

// TestTablebaseConfig: a tablebase is for mangala, exact targets need one.
func TestTablebaseConfig(t *testing.T) {
	c := tinyConfig("togyz")
	c.Tablebase = "tb"
	if _, err := c.Resolve(); err != nil || c.Validate() == nil {
		t.Error("a tablebase accepted for togyz")
	}
	c = tinyConfig("mangala")
	c.SelfPlay.ExactTargets = true
	if _, err := c.Resolve(); err != nil || c.Validate() == nil {
		t.Error("exact targets accepted without a tablebase")
	}
}
