package train

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kumalak/data"
)

// Every file of a run folder has its own name inside the folder, and the
// names are the documented ones: existing run folders must keep working.
func TestDirNames(t *testing.T) {
	d := Dir(filepath.Join("runs", "x"))
	cases := []struct{ got, want string }{
		{d.Config(), "config.yaml"},
		{d.State(), "state.json"},
		{d.Metrics(), "metrics.jsonl"},
		{d.Best(), "best.kmodel"},
		{d.Latest(), "latest.kmodel"},
		{d.Export(), "export.kmodel"},
		{d.Anchors(), "anchors.json"},
		{d.LossPlot(), "loss.png"},
		{d.EloPlot(), "elo.png"},
		{d.SpeedPlot(), "speed.png"},
		{d.MistakePlot(), "mistakes.png"},
		{d.Shards(), "shards"},
		{d.Shard(3), "shards/" + data.ShardName(3)},
		{d.Models(), "models"},
		{d.Model(12), "models/iter-0012.kmodel"},
		{d.Optimizer(12), "optimizer-0012.kopt"},
		{d.GamesDir(), "games"},
		{d.Games(7, GateGames), "games/iter-0007-gate.jsonl"},
		{d.Games(7, BaselineGames), "games/iter-0007-baseline.jsonl"},
		{d.Cluster(), "cluster"},
		{d.ClusterRoster(), "cluster/workers.json"},
		{d.NATS(), "nats"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		rel, err := filepath.Rel(string(d), c.got)
		if err != nil || filepath.ToSlash(rel) != c.want {
			t.Errorf("%s: %q inside %s, want %q", c.got, rel, d, c.want)
		}
		if seen[c.got] {
			t.Errorf("%s named twice", c.got)
		}
		seen[c.got] = true
	}
	if got := DefaultDir("mangala"); got != Dir(filepath.Join("runs", "mangala")) {
		t.Errorf("DefaultDir(mangala) = %s", got)
	}
}

// The run-folder table of the package documentation names every file
// method of Dir.
func TestDocNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(Dir(""))
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		if name == "String" || name == "Exists" || name == "Shards" || name == "Models" || name == "GamesDir" {
			continue
		}
		if !strings.Contains(string(doc), "  "+name) {
			t.Errorf("the run-folder table in doc.go does not name Dir.%s", name)
		}
	}
}
