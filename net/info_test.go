package net

import (
	"strings"
	"testing"
)

// A model's info names the file, game, network, kernel and training, and
// its card or that it has none.
func TestWriteInfo(t *testing.T) {
	m := kmodelTestModel(infTestConfigs[0])
	m.Meta.Card = nil
	var b strings.Builder
	m.WriteInfo(&b, "runs/x/best.kmodel")
	out := b.String()
	for _, w := range []string{
		"file          runs/x/best.kmodel\n",
		"game          " + m.Meta.Game + " (observation " + m.Meta.ObsVersion + ")\n",
		"network       " + m.Params.Config.Describe() + ", ",
		"kernel        inference on this machine: " + KernelName() + "\n",
		"trained       iteration ",
		"card          none (a model straight from a run; `kumalak export` adds one)\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
	m.Meta.Card = kmodelTestModel(kmodelTiny).Meta.Card
	b.Reset()
	m.WriteInfo(&b, "m.kmodel")
	var card strings.Builder
	m.Meta.Card.WriteText(&card)
	if strings.Contains(b.String(), "card          none") || !strings.HasSuffix(b.String(), card.String()) {
		t.Errorf("with a card:\n%s", b.String())
	}
}
