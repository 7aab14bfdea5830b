package arena

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestResume: a match resumed from the first games of its log plays only
// the others, counts all, and its log and the earlier one hold every game
// once; resumed from the whole log it plays nothing.
func TestResume(t *testing.T) {
	full, fullBuf := toyMatch("ab:depth=2", "random", 10)
	want, err := full.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	all := readRecords(t, fullBuf)
	for _, keep := range []int{0, 3, 4, 10} {
		m, buf := toyMatch("ab:depth=2", "random", 10)
		m.Done = all[:keep]
		var first int
		m.Progress = func(p Progress) {
			if first == 0 {
				first = p.Done
			}
		}
		res, err := m.Run(context.Background())
		if err != nil {
			t.Fatalf("resumed after %d games: %v", keep, err)
		}
		played := readRecords(t, buf)
		if res.Counts.Games() != 10 || len(played) != 10-keep || (keep > 0 && first != keep) {
			t.Fatalf("resumed after %d games: %d counted, %d played, first progress %d", keep, res.Counts.Games(), len(played), first)
		}
		var idx []int
		for _, r := range append(slices.Clone(all[:keep]), played...) {
			idx = append(idx, r.Index)
		}
		slices.Sort(idx)
		if !slices.Equal(idx, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
			t.Errorf("resumed after %d games: games %v", keep, idx)
		}
		if keep == 10 && res.Counts != want.Counts {
			t.Errorf("from the whole log: %+v, want %+v", res.Counts, want.Counts)
		}
	}
	// A longer match extends the log: the same openings come first.
	m, _ := toyMatch("ab:depth=2", "random", 14)
	m.Done = all
	if res, err := m.Run(context.Background()); err != nil || res.Counts.Games() != 14 {
		t.Errorf("extended to 14 games: %d, %v", res.Counts.Games(), err)
	}
}

// TestResumeRefuses: games of another match are refused, naming the game
// and what differs.
func TestResumeRefuses(t *testing.T) {
	base, buf := toyMatch("ab:depth=2", "random", 4)
	if _, err := base.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, buf)
	cases := []struct {
		name, want string
		edit       func(m *Match, r []Record)
	}{
		{"other agent", `White "ab:depth=3"`, func(m *Match, r []Record) {
			for i := range r {
				r[i].White = strings.Replace(r[i].White, "depth=2", "depth=3", 1)
				r[i].Black = strings.Replace(r[i].Black, "depth=2", "depth=3", 1)
			}
		}},
		{"other seed", "opening", func(m *Match, r []Record) { m.Config.Seed = 99 }},
		{"twice", "twice", func(m *Match, r []Record) { r[1] = r[0] }},
		{"out of range", "out of this match's 2 games", func(m *Match, r []Record) { m.Config.Games = 2 }},
		{"other game", "game", func(m *Match, r []Record) { r[0].Game = "togyz" }},
		{"unfinished", "not a finished game", func(m *Match, r []Record) { r[0].Result = "*" }},
		{"pair", "pair", func(m *Match, r []Record) { r[0].Pair = 1 }},
		{"clock", "time control", func(m *Match, r []Record) { r[0].TimeControl = "60+1" }},
		{"forfeit", "forfeit", func(m *Match, r []Record) { r[0].Forfeit = "both" }},
	}
	for _, c := range cases {
		m, out := toyMatch("ab:depth=2", "random", 4)
		done := slices.Clone(recs)
		c.edit(m, done)
		m.Done = done
		_, err := m.Run(context.Background())
		if _, ok := errors.AsType[*ResumeError](err); !ok || !strings.Contains(err.Error(), c.want) || out.Len() != 0 {
			t.Errorf("%s: %v (%d bytes logged), want a ResumeError with %q and nothing played", c.name, err, out.Len(), c.want)
		}
	}
}

func TestReadLog(t *testing.T) {
	base, buf := toyMatch("ab:depth=2", "random", 4)
	if _, err := base.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	log := buf.String()
	recs, torn, err := ReadLog(strings.NewReader(log))
	if err != nil || torn || len(recs) != 4 {
		t.Fatalf("whole log: %d records, torn %v, %v", len(recs), torn, err)
	}
	cut := log[:len(log)-30]
	if recs, torn, err = ReadLog(strings.NewReader(cut)); err != nil || !torn || len(recs) != 3 {
		t.Errorf("last line cut: %d records, torn %v, %v; want 3 and torn", len(recs), torn, err)
	}
	lines := strings.SplitAfter(log, "\n")
	bad := lines[0] + "{\"game\": 3}\n" + strings.Join(lines[1:], "")
	if _, _, err = ReadLog(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad middle line: %v, want an error naming line 2", err)
	}
	unknown := strings.Replace(log, `"game"`, `"gmae"`, 1)
	if _, _, err = ReadLog(strings.NewReader(unknown)); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("an unknown field: %v", err)
	}
	if recs, torn, err = ReadLog(strings.NewReader("\n\n")); err != nil || torn || len(recs) != 0 {
		t.Errorf("blank lines: %d, %v, %v", len(recs), torn, err)
	}
}

// FuzzReadLog: any bytes give records, a torn end or an error, never a
// panic; what it reads back it reads the same way again once rewritten.
func FuzzReadLog(f *testing.F) {
	base, buf := toyMatch("ab:depth=2", "random", 2)
	if _, err := base.Run(context.Background()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add(buf.Bytes()[:buf.Len()/2])
	f.Add([]byte("{}\n{\"index\": -1}\n[1]\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, _, err := ReadLog(bytes.NewReader(b))
		if err != nil {
			return
		}
		var out bytes.Buffer
		for i := range recs {
			if err := writeJSON(&out, &recs[i]); err != nil {
				t.Fatal(err)
			}
		}
		again, torn, err := ReadLog(&out)
		if err != nil || torn || len(again) != len(recs) {
			t.Fatalf("rewritten: %d of %d records, torn %v, %v", len(again), len(recs), torn, err)
		}
	})
}

// TestResumeSPRTDecided: when the games of the log already decide the
// SPRT, the resumed match plays nothing and reports the verdict.
func TestResumeSPRTDecided(t *testing.T) {
	m, buf := toyMatch("ab:depth=4", "random", 400)
	s := NewSPRT(0, 100)
	m.Config.SPRT = &s
	first, err := m.Run(context.Background())
	if err != nil || !first.Stopped {
		t.Fatalf("first run: %+v, %v", first, err)
	}
	again, out := toyMatch("ab:depth=4", "random", 400)
	again.Config.SPRT = &s
	again.Done = readRecords(t, buf)
	res, err := again.Run(context.Background())
	if err != nil || !res.Stopped || res.Verdict != first.Verdict || res.Counts != first.Counts || out.Len() != 0 {
		t.Errorf("resumed: %+v, %v, %d bytes played; want the first run's verdict and nothing played", res, err, out.Len())
	}
}
