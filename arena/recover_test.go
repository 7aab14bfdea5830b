package arena

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/protocol"
)

// The recovery tests run this test binary as an engine: with fakeEnv set
// to "<mode> <marker file>", TestFakeEngine plays mangala's first legal
// move, except that the first process (the one that makes the marker
// file) misbehaves at its third go: mode crash exits, hang never answers,
// illegal answers pit 99.
const fakeEnv = "KUMALAK_ARENA_FAKE_ENGINE"

func TestFakeEngine(t *testing.T) {
	arg := os.Getenv(fakeEnv)
	if arg == "" {
		t.Skip("run as the fake engine by the recovery tests")
	}
	mode, marker, _ := strings.Cut(arg, " ")
	h := &fakeEngine{mode: mode, st: mangala.Spec.New()}
	if f, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
		f.Close()
		h.bad = true
	}
	if err := protocol.Serve(context.Background(), os.Stdin, os.Stdout, h); err != nil {
		t.Fatal(err)
	}
	os.Exit(0)
}

// fakeEngine is the protocol.Handler of the fake engine.
type fakeEngine struct {
	mode string
	bad  bool // this process misbehaves at its third go
	goes int
	st   env.State
}

func (h *fakeEngine) Hello() []protocol.Answer {
	return []protocol.Answer{protocol.ID{Key: protocol.IDName, Value: "fake " + h.mode},
		protocol.ID{Key: protocol.IDGames, Value: "mangala"}}
}
func (h *fakeEngine) NewGame(protocol.NewGame) error     { h.st = mangala.Spec.New(); return nil }
func (h *fakeEngine) SetOption(protocol.SetOption) error { return nil }
func (h *fakeEngine) Show() []protocol.Answer            { return nil }
func (h *fakeEngine) Position(p protocol.Position) error {
	st, err := mangala.Spec.Start(p.Start)
	if err != nil {
		return err
	}
	for _, m := range p.Moves {
		if err := env.Play(st, m); err != nil {
			return err
		}
	}
	h.st = st
	return nil
}
func (h *fakeEngine) Search(ctx context.Context, g protocol.Go, out func(protocol.Answer)) protocol.BestMove {
	h.goes++
	if h.mode == "clock" && (g.Time[env.White] <= 0 || g.Time[env.Black] <= 0 || g.MoveTime != 0 || g.Inc[env.White] != 50*time.Millisecond) {
		return protocol.BestMove{Pit: 99} // the clock must come as wtime btime winc binc
	}
	if h.bad && h.goes == 3 {
		switch h.mode {
		case "crash":
			os.Exit(3)
		case "hang":
			time.Sleep(time.Hour)
		case "illegal":
			return protocol.BestMove{Pit: 99}
		}
	}
	var buf [env.MaxActions]env.Action
	return protocol.BestMove{Pit: h.st.Legal(buf[:0])[0].Pit()}
}

// TestMatchRecovers: an engine that crashes, hangs past its time or
// answers an illegal move loses that game, with the reason recorded, and
// is restarted; the match goes on to its end.
func TestMatchRecovers(t *testing.T) {
	cases := []struct{ mode, reason string }{
		{"crash", "engine exited"},
		{"hang", "engine hung: no bestmove within 300ms"},
		{"illegal", "engine played 99"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Setenv(fakeEnv, c.mode+" "+filepath.Join(t.TempDir(), "marker"))
			var buf bytes.Buffer
			cfg := DefaultConfig()
			cfg.Games, cfg.OpeningPlies, cfg.Seed = 4, 2, 3
			eng := fmt.Sprintf("engine:timeout=300ms,cmd=%s -test.run=^TestFakeEngine$", os.Args[0])
			m := &Match{Spec: mangala.Spec, A: eng, B: "random", Config: cfg, Records: &buf}
			res, err := m.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Counts.Games() != 4 || res.ForfeitsA != 1 || res.ForfeitsB != 0 {
				t.Fatalf("%d games, forfeits %d/%d, want 4 games and 1 forfeit by A", res.Counts.Games(), res.ForfeitsA, res.ForfeitsB)
			}
			recs := readRecords(t, &buf)
			var lost []Record
			for _, r := range recs {
				if r.Reason != "" {
					lost = append(lost, r)
				}
			}
			if len(lost) != 1 || !strings.Contains(lost[0].Reason, "forfeits") || !strings.Contains(lost[0].Reason, c.reason) {
				t.Fatalf("records of lost games: %+v, want one with %q", lost, c.reason)
			}
			r := lost[0]
			if r.Forfeit != r.A {
				t.Errorf("forfeit %q, want A's colour %q", r.Forfeit, r.A)
			}
			// Resumed from its log, the match counts the forfeit again.
			m.Done, m.Records = recs, nil
			if again, err := m.Run(context.Background()); err != nil || again.ForfeitsA != 1 || again.Counts != res.Counts {
				t.Errorf("resumed from the whole log: %+v, %v; want %+v", again, err, res)
			}
			m.Done = nil
			if want := "0-1"; r.A == "black" {
				want = "1-0"
				if r.Result != want {
					t.Errorf("A forfeited as black, result %s", r.Result)
				}
			} else if r.Result != want {
				t.Errorf("A forfeited as white, result %s", r.Result)
			}
			// The record replays to its final position.
			st, err := mangala.Spec.Start(r.Start)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range append(r.Opening, r.Moves...) {
				if err := env.Play(st, p); err != nil {
					t.Fatal(err)
				}
			}
			if st.String() != r.Final {
				t.Errorf("record replays to %s, says %s", st, r.Final)
			}
		})
	}
}

// TestMatchCapAdjudicates: a game still running at MaxPlies is scored by
// the stores, as self-play scores its capped games (env.Adjudicate).
func TestMatchCapAdjudicates(t *testing.T) {
	m, buf := toyMatch("greedy", "random", 6)
	m.Config.MaxPlies = 3
	if _, err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	capped := 0
	for _, r := range readRecords(t, buf) {
		if !strings.HasPrefix(r.Reason, "adjudicated by the stores") {
			continue
		}
		capped++
		st, err := m.Spec.Parse(r.Final)
		if err != nil {
			t.Fatal(err)
		}
		if want := env.Adjudicate(st).String(); r.Result != want {
			t.Errorf("capped game %d: result %s, the stores say %s (%s)", r.Index, r.Result, want, r.Final)
		}
	}
	if capped == 0 {
		t.Error("no game reached the cap")
	}
}
