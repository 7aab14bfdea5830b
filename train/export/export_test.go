package export

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "kumalak/env/games"
	"kumalak/net"
	"kumalak/train"
)

// TestWriteAndMeasure: a tiny run's best network is written with its card
// (the run, its iterations, the baselines' Elo and the anchors), the run
// folder unchanged; Measure adds a match against an agent spec to the card,
// and refuses a model without a card.
func TestWriteAndMeasure(t *testing.T) {
	cfg, err := train.LoadConfig("../../configs/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Iterations = 1
	d := train.Dir(t.TempDir())
	r, err := train.Open(cfg, train.Options{Dir: d})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Train(context.Background())
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "best.kmodel")
	now := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	card, err := Write(d, out, cfg, now)
	if err != nil {
		t.Fatal(err)
	}
	if card.Game != cfg.Game || card.Run != filepath.Base(d.String()) || card.TrainedConfig != filepath.Join(filepath.Base(d.String()), "config.yaml") || card.Iterations != 1 || !card.Exported.Equal(now) || len(card.Elo) == 0 || card.Anchors == nil {
		t.Fatalf("card %+v", card)
	}
	if m, err := net.Load(out); err != nil || m.Meta.Card == nil || m.Meta.Card.Iterations != 1 {
		t.Fatalf("the written model: %v", err)
	}
	card, err = Measure(context.Background(), out, Strength{Vs: []string{"random"}, Games: 2, Sims: 2, Parallel: 2, Seed: 1}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if m := card.Elo["random"]; m.Games != 2 || m.Sims != 2 {
		t.Errorf("measured against random: %+v", m)
	}
	if m, err := net.Load(out); err != nil || m.Meta.Card.Elo["random"].Games != 2 {
		t.Errorf("the measure was not saved: %v", err)
	}
	if _, err := Measure(context.Background(), d.Best(), Strength{Vs: []string{"random"}, Games: 2, Sims: 2, Parallel: 1}, nil); err == nil || !strings.Contains(err.Error(), "no card") {
		t.Errorf("a model without a card: %v", err)
	}
	// Run: the model at the run's Export path by default, measured, with
	// its ONNX copy, each file named, then the card.
	var w strings.Builder
	onnxPath := filepath.Join(t.TempDir(), "m.onnx")
	req := Request{Run: d, Config: cfg, ONNX: onnxPath, Now: now, Strength: Strength{Vs: []string{"random"}, Games: 2, Sims: 2, Parallel: 2, Seed: 1}}
	if err := Run(context.Background(), req, &w, nil); err != nil {
		t.Fatal(err)
	}
	if want := "wrote " + d.Export() + "\nwrote " + onnxPath + "\n"; !strings.HasPrefix(w.String(), want) || !strings.Contains(w.String(), "random") {
		t.Errorf("export.Run wrote\n%s\nwant it to start %q and hold the card", w.String(), want)
	}
	if m, err := net.Load(d.Export()); err != nil || m.Meta.Card.Elo["random"].Games != 2 {
		t.Errorf("export.Run's model: %v", err)
	}
	if info, err := os.Stat(onnxPath); err != nil || info.Size() == 0 {
		t.Errorf("export.Run's ONNX file: %v", err)
	}
}

// TestPortable pins the card's paths: inside the working folder relative,
// elsewhere the last element; other words as they are.
func TestPortable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"kumalak train --config /w/main/configs/x.yaml --run /w/runs/r --init=/w/main/models/m.kmodel --budget 5m",
			"kumalak train --config configs/x.yaml --run r --init=models/m.kmodel --budget 5m"},
		{"/w/runs/kale-C", "kale-C"},
		{"runs/togyz", "runs/togyz"},
		{"kumalak train --run /w/main", "kumalak train --run ."},
		{"kumalak train --run /w/mainly", "kumalak train --run mainly"},
		{"", ""},
	} {
		if got := portable(c.in, "/w/main"); got != c.want {
			t.Errorf("portable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
