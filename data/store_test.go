package data

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"kumalak/data/datatest"
)

func TestShardName(t *testing.T) {
	if got := ShardName(42); got != "shard-000042.kshard" {
		t.Errorf("ShardName(42) = %q", got)
	}
	for _, it := range []int{0, 7, 999999, 1234567} {
		if got, ok := ParseShardName(ShardName(it)); !ok || got != it {
			t.Errorf("ParseShardName(ShardName(%d)) = %d, %v", it, got, ok)
		}
	}
	for _, bad := range []string{"shard-42.kshard", "shard-0000042.kshard", "shard-+00042.kshard",
		"shard--00042.kshard", "xshard-000042.kshard", "shard-000042.kshard.tmp-1", ".shard-000042.kshard.tmp-99",
		"shard-000042.ksharda", "shard-00004a.kshard"} {
		if _, ok := ParseShardName(bad); ok {
			t.Errorf("ParseShardName(%q) accepted it", bad)
		}
	}
}

// runWindow plays a run of iters iterations into dir with AddShard and
// returns the live window.
func runWindow(t *testing.T, dir string, cfg WindowConfig, iters int) *Window {
	t.Helper()
	w, err := NewWindow(cfg, testLayout)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	for it := range iters {
		n := 20 + rng.IntN(120)
		h := Header{Iteration: it, Source: "test"}
		if err := w.AddShard(dir, h, makeSamples(rng, testLayout, int(w.Total()), n)); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func sameWindow(t *testing.T, got, want *Window) {
	t.Helper()
	if got.Total() != want.Total() || got.Len() != want.Len() {
		t.Fatalf("loaded Total %d Len %d, want %d %d", got.Total(), got.Len(), want.Total(), want.Len())
	}
	checkSamples(t, windowSamples(got), windowSamples(want))
}

func TestLoadWindowAfterRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := WindowConfig{MinSamples: 200, Exponent: 0.75, Growth: 0.4, MaxSamples: 800}
	live := runWindow(t, dir, cfg, 40)
	if live.Len() >= int(live.Total()) || live.Len() != cfg.Size(live.Total()) {
		t.Fatalf("the run should have outgrown its window: Len %d Total %d", live.Len(), live.Total())
	}
	loaded, err := LoadWindow(dir, cfg, testLayout)
	if err != nil {
		t.Fatal(err)
	}
	sameWindow(t, loaded, live)

	kept, err := Prune(dir, cfg, 2)
	if err != nil || len(kept) == 0 {
		t.Fatalf("Prune(keep 2) removed %v, %v", kept, err)
	}
	removed, err := Prune(dir, cfg, 0)
	if err != nil || len(removed) != 2 {
		t.Fatalf("Prune(keep 0) after Prune(keep 2) removed %v, %v; want the 2 kept", removed, err)
	}
	if again, err := Prune(dir, cfg, 0); err != nil || len(again) != 0 {
		t.Fatalf("second Prune removed %v, %v", again, err)
	}
	loaded, err = LoadWindow(dir, cfg, testLayout)
	if err != nil {
		t.Fatal(err)
	}
	sameWindow(t, loaded, live)

	// The loaded window carries on like the live one.
	more := makeSamples(rand.New(rand.NewPCG(8, 8)), testLayout, int(live.Total()), 300)
	live.Add(more)
	loaded.Add(more)
	sameWindow(t, loaded, live)
}

func TestPrunedShardsAreOutsideWindow(t *testing.T) {
	dir := t.TempDir()
	cfg := WindowConfig{MinSamples: 200, Exponent: 0.75, Growth: 0.4, MaxSamples: 800}
	live := runWindow(t, dir, cfg, 30)
	removed, err := Prune(dir, cfg, 0)
	if err != nil {
		t.Fatal(err)
	}
	oldest := int(live.Total()) - live.Len()
	for _, p := range removed {
		if _, _, err := ReadShard(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s still readable after Prune", p)
		}
	}
	infos, err := ListShards(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := infos[0].Header
	if start := int(first.RunTotal) - first.Count; start > oldest {
		t.Errorf("oldest shard left starts at sample %d, after the window's oldest %d", start, oldest)
	}
	if len(infos) > 1 && int(infos[1].Header.RunTotal)-infos[1].Header.Count <= oldest {
		t.Errorf("second shard left starts at or before the window start %d: the first should be gone", oldest)
	}
}

func TestLoadWindowEmptyAndMissing(t *testing.T) {
	w, err := LoadWindow(t.TempDir(), smallConfig(), testLayout)
	if err != nil || w.Len() != 0 || w.Total() != 0 {
		t.Errorf("empty dir: Len %v, err %v", w, err)
	}
	if _, err := LoadWindow(filepath.Join(t.TempDir(), "nope"), smallConfig(), testLayout); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing dir: err = %v, want fs.ErrNotExist", err)
	}
}

func TestLoadWindowIgnoresCrashLeftovers(t *testing.T) {
	dir := t.TempDir()
	live := runWindow(t, dir, smallConfig(), 5)
	// A crash in WriteShard leaves its temporary file, perhaps half written.
	b, err := os.ReadFile(filepath.Join(dir, ShardName(4)))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "."+ShardName(5)+".tmp-123456")
	if err := os.WriteFile(tmp, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadWindow(dir, smallConfig(), testLayout)
	if err != nil {
		t.Fatal(err)
	}
	sameWindow(t, loaded, live)
	if _, err := Prune(dir, smallConfig(), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Errorf("Prune touched the temporary file of a writer: %v", err)
	}
}

func TestLoadWindowRejects(t *testing.T) {
	cases := map[string]struct {
		damage func(t *testing.T, dir string)
		want   error
	}{
		"corrupt newest payload": {func(t *testing.T, dir string) { datatest.FlipByte(t, filepath.Join(dir, ShardName(9)), -3) }, nil},
		"corrupt old header":     {func(t *testing.T, dir string) { datatest.FlipByte(t, filepath.Join(dir, ShardName(0)), 20) }, ErrChecksum},
		"truncated old shard":    {func(t *testing.T, dir string) { truncate(t, filepath.Join(dir, ShardName(1)), 40) }, ErrTruncated},
		"misnamed shard": {func(t *testing.T, dir string) {
			mustRename(t, filepath.Join(dir, ShardName(9)), filepath.Join(dir, "shard-9.kshard"))
		}, nil},
		"renumbered shard": {func(t *testing.T, dir string) {
			mustRename(t, filepath.Join(dir, ShardName(9)), filepath.Join(dir, ShardName(10)))
		}, ErrCorrupt},
		"shard of another game": {func(t *testing.T, dir string) {
			s := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 5)
			h := Header{Layout: testLayout, Iteration: 11, RunTotal: 1 << 20}
			h.Game = "mangala"
			if err := WriteShard(filepath.Join(dir, ShardName(11)), h, s); err != nil {
				t.Fatal(err)
			}
		}, ErrLayout},
		"run totals overlap": {func(t *testing.T, dir string) {
			s := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 5)
			h := Header{Layout: testLayout, Iteration: 11, RunTotal: 6}
			if err := WriteShard(filepath.Join(dir, ShardName(11)), h, s); err != nil {
				t.Fatal(err)
			}
		}, ErrCorrupt},
	}
	for name, c := range cases {
		dir := t.TempDir()
		runWindow(t, dir, smallConfig(), 10)
		c.damage(t, dir)
		_, err := LoadWindow(dir, smallConfig(), testLayout)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", name, err, c.want)
		}
	}
}

func truncate(t *testing.T, path string, n int64) {
	t.Helper()
	if err := os.Truncate(path, n); err != nil {
		t.Fatal(err)
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func TestAddShardRefusesOverwrite(t *testing.T) {
	dir := t.TempDir()
	w := runWindow(t, dir, smallConfig(), 3)
	before := windowSamples(w)
	err := w.AddShard(dir, Header{Iteration: 2}, makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 5))
	if err == nil {
		t.Fatal("AddShard overwrote the shard of iteration 2")
	}
	checkSamples(t, windowSamples(w), before)
	bad := Header{Iteration: 3, Layout: Layout{Game: "mangala", ObsVersion: "m/1", ObsLen: 14, NumActions: 6}}
	if err := w.AddShard(dir, bad, nil); !errors.Is(err, ErrLayout) {
		t.Errorf("AddShard with another layout: err = %v, want ErrLayout", err)
	}
}

func TestPruneNeedsRunTotal(t *testing.T) {
	dir := t.TempDir()
	s := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 5)
	if err := WriteShard(filepath.Join(dir, ShardName(0)), Header{Layout: testLayout}, s); err != nil {
		t.Fatal(err)
	}
	if _, err := Prune(dir, smallConfig(), 0); err == nil {
		t.Error("Prune went ahead without a run total")
	}
	if _, err := Prune(dir, smallConfig(), -1); err == nil {
		t.Error("Prune took keep -1")
	}
	infos, err := ListShards(dir)
	if err != nil || len(infos) != 1 || infos[0].Header.Game != "togyz" {
		t.Errorf("ListShards = %v, %v", infos, err)
	}
}
