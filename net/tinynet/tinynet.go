// Package tinynet builds the small random networks that the tests of
// agent, bot and cluster play and serve: one residual block of width 16,
// seeded, for a game's observation and actions. Only tests import it.
package tinynet

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"kumalak/net"
)

// Game is what a network must know of its game.
type Game struct {
	Name, ObsVersion string
	ObsLen, Actions  int
}

// Model returns a random network for g, its weights drawn from seed, with
// the card (nil for none).
func Model(g Game, seed uint64, card *net.Card) *net.Model {
	p := net.NewParams(net.Config{InputLen: g.ObsLen, Actions: g.Actions, Width: 16, Blocks: 1, ValueHidden: 8})
	p.Init(rand.New(rand.NewPCG(seed, 2)))
	return &net.Model{Params: p, Meta: net.Meta{Game: g.Name, ObsVersion: g.ObsVersion, Card: card}}
}

// Save writes m to a temporary folder of t, as GAME.kmodel, and returns
// its path.
func Save(t testing.TB, m *net.Model) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), m.Meta.Game+".kmodel")
	if err := net.Save(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}
