package bottest

import (
	"encoding/json"
	"strings"
	"testing"

	"kumalak/agent"
	"kumalak/env"
	_ "kumalak/env/games" // registers togyz, mangala, mangala-kale, kalah
	"kumalak/net"
	"kumalak/net/tinynet"
)

// Seed is the seed of the agents NewAgent builds.
const Seed = 7

// NewAgent builds the agent of spec string s with the seed Seed.
func NewAgent(spec *env.Spec, s string) (agent.Agent, error) { return agent.New(spec, s, Seed) }

// Agent looks game up and builds its agent s (NewAgent), or fails the test.
func Agent(t testing.TB, game, s string) (*env.Spec, agent.Agent) {
	t.Helper()
	spec := Spec(t, game)
	a, err := NewAgent(spec, s)
	if err != nil {
		t.Fatal(err)
	}
	return spec, a
}

// Spec looks game up, or fails the test.
func Spec(t testing.TB, game string) *env.Spec {
	t.Helper()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// TinyModel writes a small random network for game (tinynet) with the
// model card card, in JSON ("": none), into the test's temporary folder,
// and returns its path.
func TinyModel(t testing.TB, game, card string) string {
	t.Helper()
	spec := Spec(t, game)
	var c *net.Card
	if card != "" {
		c = new(net.Card)
		if err := json.Unmarshal([]byte(card), c); err != nil {
			t.Fatal(err)
		}
	}
	return tinynet.Save(t, tinynet.Model(tinynet.Game{Name: game, ObsVersion: spec.ObsVersion, ObsLen: spec.ObsLen, Actions: spec.NumActions}, 1, c))
}

// InOrder checks that the parts appear in out in this order.
func InOrder(t testing.TB, out string, parts ...string) {
	t.Helper()
	rest := out
	for _, p := range parts {
		i := strings.Index(rest, p)
		if i < 0 {
			t.Fatalf("output lacks %q after the earlier parts; output:\n%s", p, out)
		}
		rest = rest[i+len(p):]
	}
}
