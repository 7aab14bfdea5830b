package tinynet

import (
	"testing"

	"kumalak/net"
)

// TestModel: the network fits its game, a seed gives the same weights, and
// the saved file loads back as the model.
func TestModel(t *testing.T) {
	g := Game{Name: "toy", ObsVersion: "toy/1", ObsLen: 10, Actions: 3}
	cases := []struct {
		seed uint64
		card *net.Card
	}{{1, nil}, {2, &net.Card{Game: "toy"}}}
	for _, c := range cases {
		m := Model(g, c.seed, c.card)
		again := Model(g, c.seed, c.card)
		if m.Params.Config.InputLen != 10 || m.Params.Config.Actions != 3 || m.Meta.Game != "toy" || m.Meta.Card != c.card {
			t.Errorf("seed %d: %+v %+v", c.seed, m.Params.Config, m.Meta)
		}
		if m.Params.Tensors[0].Data[0] != again.Params.Tensors[0].Data[0] {
			t.Errorf("seed %d: two draws differ", c.seed)
		}
		back, err := net.LoadFor(Save(t, m), "toy", "toy/1")
		if err != nil || back.Params.Tensors[0].Data[0] != m.Params.Tensors[0].Data[0] {
			t.Errorf("seed %d: loaded back %v", c.seed, err)
		}
	}
}
