package train

import (
	"path/filepath"
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
		{d.Shards(), "shards"},
		{d.Shard(3), "shards/" + data.ShardName(3)},
		{d.Models(), "models"},
		{d.Model(12), "models/iter-0012.kmodel"},
		{d.GamesDir(), "games"},
		{d.Games(7, GateGames), "games/iter-0007-gate.jsonl"},
		{d.Games(7, BaselineGames), "games/iter-0007-baseline.jsonl"},
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
