package solve

import (
	"fmt"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/kalah"
)

// The solver sows with its own fast code (Pits.Play for classic mangala,
// kgame.play for Kalah), apart from the rules engines (env/mangala,
// env/kalah). These tests hold the two to the same result, move by move,
// on every position of a few stones: all configurations up to a stone
// count, with each colour to move, every legal move.

// eachConfig calls f with every configuration of places places holding at
// most stones stones in all (f must not keep cfg).
func eachConfig(places, stones int, f func(cfg []uint8)) {
	cfg := make([]uint8, places)
	var fill func(k, left int)
	fill = func(k, left int) {
		if k == places {
			f(cfg)
			return
		}
		for v := 0; v <= left; v++ {
			cfg[k] = uint8(v)
			fill(k+1, left-v)
		}
		cfg[k] = 0
	}
	fill(0, stones)
}

// TestPlayAllSmallConfigs: Pits.Play against the mangala engine on every
// classic configuration of at most 7 stones (50,388 of them), and on every
// one of exactly 13 and 14 stones in two pits (laps).
func TestPlayAllSmallConfigs(t *testing.T) {
	n := 0
	eachConfig(nPits, 7, func(cfg []uint8) {
		checkPlay(t, Pits(cfg))
		n++
	})
	if n != 50388 { // C(19, 12): configurations of at most 7 stones in 12 places
		t.Fatalf("%d configurations, want 50388", n)
	}
	for a := range nPits {
		for b := range nPits {
			if a != b {
				var p Pits
				p[a], p[b] = 13, 1
				checkPlay(t, p)
				p[a], p[b] = 14, 0
				checkPlay(t, p)
			}
		}
	}
}

// TestKalahPlayAllSmallConfigs: kgame.play against kalah.Board on every
// configuration of a few stones, for 3, 4 and 6 houses and each capture
// rule.
func TestKalahPlayAllSmallConfigs(t *testing.T) {
	for _, c := range []struct {
		houses, stones int
	}{{3, 8}, {4, 6}, {6, 4}} {
		for _, capture := range []kalah.Capture{kalah.Opposite, kalah.Empty, kalah.None} {
			r := kalah.Rules{Houses: c.houses, Seeds: 4, Capture: capture}
			spec := kalah.NewSpec(r.Name(), r)
			g := &kgame{n: c.houses, capture: capture}
			eachConfig(2*c.houses, c.stones, func(cfg []uint8) {
				for who := env.White; who <= env.Black; who++ {
					checkKalahPlay(t, g, spec, cfg, who)
				}
			})
		}
	}
}

// checkKalahPlay compares kgame.play with the engine for every legal move
// of the houses cfg (in the view of who, to move).
func checkKalahPlay(t *testing.T, g *kgame, spec *env.Spec, cfg []uint8, who env.Player) {
	n := g.n
	var p kpos
	copy(p[:], cfg)
	rows := [2][]string{}
	for k, v := range cfg {
		owner := who
		if k >= n {
			owner = who.Other()
		}
		rows[owner] = append(rows[owner], fmt.Sprint(v))
	}
	s := fmt.Sprintf("%s/%s 0 0 - - %s", strings.Join(rows[0], ","), strings.Join(rows[1], ","), who)
	b, err := kalah.ParseAnyTotal(spec, s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	if b.Result() != env.Ongoing {
		return
	}
	var buf [env.MaxActions]env.Action
	for _, a := range b.Legal(buf[:0]) {
		c := *b
		c.Apply(a)
		got := g.play(&p, int(a))
		gain := c.Store(who) - c.Store(who.Other())
		over := c.Result() != env.Ongoing
		if got.gain != gain || got.over != over || !over && (got.extra != (c.ToMove() == who) || got.p != posOf(&c)) {
			t.Fatalf("%s, %s plays %d: solver gain %d extra %v over %v %v; engine gives %s", spec.Name, s, a.Pit(), got.gain, got.extra, got.over, got.p, &c)
		}
	}
}
