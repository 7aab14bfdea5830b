package solve

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"kumalak/env"
)

// A solve's report: the value or the bounds, the result only when the
// bounds prove it, the best moves marked, the repetitions' note only
// when there were some.
func TestResultText(t *testing.T) {
	spec, err := env.Lookup("mangala")
	if err != nil {
		t.Fatal(err)
	}
	st := spec.New()
	cases := []struct {
		name string
		r    Result
		want []string
		none []string
	}{
		{"exact", Result{Lo: 2, Hi: 2, Moves: []MoveValue{{Action: 0, Lo: 2, Hi: 2}, {Action: 3, Lo: -1, Hi: -1}, {Action: 5, Lo: -4, Hi: 3}},
			Stats: Stats{Nodes: 1000, Elapsed: time.Second}},
			[]string{"position " + st.String() + "\n", "value +2 (final store difference for white, to move)\n", "result white wins\n",
				"move 1 +2  best\n", "move 4 -1\n", "move 6 -4..+3\n", "nodes 1000  tablebase hits 0  table hits 0  repetitions 0  1.000s  1000 nodes/s\n"},
			[]string{"note:"}},
		{"bounds", Result{Lo: -3, Hi: 5, Moves: []MoveValue{{Action: 0, Lo: 5, Hi: 5}}, Stats: Stats{Repetitions: 2}},
			[]string{"value -3..+5 (bounds proved;", "result not proved yet for white\n", "move 1 +5\n", "note: positions repeated"}, []string{"best"}},
		{"lost", Result{Lo: -1, Hi: -1}, []string{"result white loses\n"}, nil},
		{"drawn", Result{}, []string{"result draw\n"}, nil},
	}
	for _, c := range cases {
		var b strings.Builder
		c.r.WriteText(&b, st)
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, b.String())
			}
		}
		for _, w := range c.none {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: %q in\n%s", c.name, w, b.String())
			}
		}
	}
}

// The tablebase of a game is its facts' kind; a game without one is
// refused with ErrNoTablebase.
func TestTablebaseOf(t *testing.T) {
	for _, c := range []struct{ game, want string }{
		{"mangala", MangalaTB}, {"kalah", "kalah"}, {"kalah:capture=empty", "kalah-empty"},
		{"mangala-kale", ""}, {"togyz", ""}, {"kalah:houses=4,seeds=3", ""},
	} {
		spec, err := env.Lookup(c.game)
		if err != nil {
			t.Fatal(err)
		}
		got, err := TablebaseOf(spec)
		if got != c.want || (c.want == "") != errors.Is(err, ErrNoTablebase) {
			t.Errorf("%s: %q, %v; want %q", c.game, got, err, c.want)
		}
	}
}

// A level's line: its time when built, "kept" when its file was there.
func TestLevelStatString(t *testing.T) {
	for _, c := range []struct {
		s    LevelStat
		want string
	}{
		{LevelStat{Stones: 3, Entries: 120, Bytes: 184, Took: 1500 * time.Millisecond}, "level  3           120 entries           184 bytes  1.50s"},
		{LevelStat{Stones: 12, Entries: 5, Bytes: 69, Kept: true}, "level 12             5 entries            69 bytes  kept"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

// A solve whose context ends stops with the bounds proved so far.
func TestSolveContext(t *testing.T) {
	spec, err := env.Lookup("kalah")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{TTBits: 16, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	r, err := s.SolveContext(ctx, spec.New(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(t0); r.Exact() || took > 30*time.Second {
		t.Errorf("Kalah(6,4) from the start: exact %v after %s; want bounds soon after the context ended", r.Exact(), took)
	}
}

// A stamped log line starts with the time since t0, to the second.
func TestStampedLog(t *testing.T) {
	var b strings.Builder
	StampedLog(&b, time.Now().Add(-65*time.Second))("saved")
	if got := b.String(); got != "1m5s  saved\n" {
		t.Errorf("%q", got)
	}
}
