package solve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
)

// boardOf returns the position whose mover, who, sees the pits p, with
// the stones off the board in white's store.
func boardOf(t testing.TB, p Pits, who env.Player, kale bool) *mangala.Board {
	t.Helper()
	rows := [2][]string{}
	for k, v := range p {
		owner := who
		if k >= rowPits {
			owner = who.Other()
		}
		rows[owner] = append(rows[owner], fmt.Sprint(v))
	}
	s := fmt.Sprintf("%s/%s %d 0 - - %s", strings.Join(rows[0], ","), strings.Join(rows[1], ","), mangala.Stones-p.Stones(), who)
	b, err := mangala.Parse(s, kale)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return b
}

// randomPits returns a configuration of s stones spread at random.
func randomPits(rng *rand.Rand, s int) Pits {
	var p Pits
	for range s {
		p[rng.IntN(nPits)]++
	}
	return p
}

// The tablebase shared by the tests: levels 0..sharedStones, built once.
const sharedStones = 10

var shared struct {
	once sync.Once
	dir  string
	err  error
}

// sharedDir returns the folder of the shared tablebase, building it on
// first use.
func sharedDir(t testing.TB) string {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "solve-tb-")
		if shared.err == nil {
			_, shared.err = Build(context.Background(), BuildConfig{Dir: shared.dir, Stones: sharedStones})
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.dir
}

// openShared opens the shared tablebase up to stones.
func openShared(t testing.TB, stones int) *Tablebase {
	t.Helper()
	tb, err := Open(sharedDir(t), stones)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}
