package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"kumalak/agent"
	"kumalak/env"
	"kumalak/protocol"
)

// lastInfo returns the last "info depth|visits" line of a search's lines.
func lastInfo(t *testing.T, lines []string) protocol.Info {
	t.Helper()
	for i := len(lines) - 1; i >= 0; i-- {
		a, err := protocol.ParseAnswer(lines[i])
		if in, ok := a.(protocol.Info); err == nil && ok {
			return in
		}
	}
	t.Fatalf("no info line in %q", lines)
	return protocol.Info{}
}

// TestEngineLimitsOfOtherDimensions pins two bugs: sims sent to an
// alpha-beta engine replaced its depth by the default 6, and depth sent to
// an MCTS engine its simulations by the default 800.
func TestEngineLimitsOfOtherDimensions(t *testing.T) {
	ab := startEngine(t, engineConfig("ab:depth=3"))
	ab.send("go sims 400")
	got := ab.expect("bestmove ", 5*time.Second)
	if got[0] != "info string sims ignored: agent ab has no such limit" || lastInfo(t, got).Depth != 3 {
		t.Errorf("ab:depth=3, go sims 400: %q, want sims ignored and depth 3", got)
	}
	if got := ab.ask("setoption name sims value 400"); len(got) != 1 || !strings.HasPrefix(got[0], `error setoption: unknown option "sims"`) {
		t.Errorf("setoption sims on ab: %q", got)
	}
	ab.send("go")
	if got := ab.expect("bestmove ", 5*time.Second); lastInfo(t, got).Depth != 3 {
		t.Errorf("ab:depth=3, go after setoption sims: %q, want depth 3", got)
	}

	mc := startEngine(t, engineConfig("mcts:sims=50"))
	mc.send("go depth 5")
	got = mc.expect("bestmove ", 5*time.Second)
	if n := lastInfo(t, got).Visits; got[0] != "info string depth ignored: agent mcts has no such limit" || n < 50 || n > 200 {
		t.Errorf("mcts:sims=50, go depth 5: %q, want depth ignored and about 50 visits", got)
	}
	mc.ask("setoption name sims value 120")
	mc.send("go depth 5")
	if n := lastInfo(t, mc.expect("bestmove ", 5*time.Second)).Visits; n < 120 || n > 300 {
		t.Errorf("option sims 120, go depth 5: %d visits, want about 120", n)
	}
}

// TestEngineOptionRanges checks that every option offered declares
// exactly the range it accepts, from the agents' own constants.
func TestEngineOptionRanges(t *testing.T) {
	cases := []struct {
		spec string
		want map[string]int64 // option → max
	}{
		{"ab:depth=3", map[string]int64{"time": agent.MaxTime.Milliseconds(), "depth": agent.MaxDepth, "threads": 1,
			"hash": agent.MaxHash, "multipv": agent.MaxMultiPV}},
		{"mcts:sims=50", map[string]int64{"sims": agent.MaxSims, "time": agent.MaxTime.Milliseconds(), "threads": int64(agent.MaxThreads()),
			"hash": agent.MaxHash, "multipv": agent.MaxMultiPV}},
		{"random", map[string]int64{"threads": 1}},
	}
	for _, c := range cases {
		s := startEngine(t, engineConfig(c.spec))
		s.send("kumalak")
		got := map[string]int64{}
		for _, line := range s.expect("kumalakok", 5*time.Second) {
			a, err := protocol.ParseAnswer(line)
			if o, ok := a.(protocol.Option); err == nil && ok && o.Type == protocol.Spin {
				got[o.Name] = o.Max
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: spin options %v, want %v", c.spec, got, c.want)
		}
		for name, max := range got {
			if r := s.ask(fmt.Sprintf("setoption name %s value %d", name, max)); len(r) != 0 {
				t.Errorf("%s: %s at its max %d refused: %q", c.spec, name, max, r)
			}
			if r := s.ask(fmt.Sprintf("setoption name %s value %d", name, max+1)); len(r) != 1 || !strings.HasPrefix(r[0], "error setoption") {
				t.Errorf("%s: %s above its max accepted: %q", c.spec, name, r)
			}
		}
		if _, ok := got["hash"]; ok { // a search would make the 4 GiB table
			s.ask("setoption name hash value 1")
		}
		if _, ok := got["depth"]; ok {
			s.ask("setoption name depth value " + strconv.Itoa(agent.MaxDepth))
			s.ask("setoption name time value 30")
			s.send("go")
			if got := s.expect("bestmove ", 5*time.Second); hasPrefix(got, "error") {
				t.Errorf("%s: go at the largest depth offered: %q", c.spec, got)
			}
		}
	}
}

// TestServerWritesWhatClientReads runs a session through Serve and
// pins that every line the server writes is an answer the client reads
// back unchanged: ParseAnswer, then Format, gives the line itself.
func TestServerWritesWhatClientReads(t *testing.T) {
	for _, spec := range []string{"ab:depth=3", "mcts:sims=100", "random"} {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- Serve(context.Background(), inR, outW, engineConfig(spec))
			outW.Close()
		}()
		sc := bufio.NewScanner(outR)
		script := []string{"uci", "kumalak", "isready", "newgame mangala", "position start moves 4", "go", "help",
			"go movetime 50", "go sims 30 depth 2", "position fen 0,0,0,0,0,0/0,0,0,0,0,1 24 23 - - w", "go", "bogus", "quit"}
		go func() {
			for _, l := range script {
				io.WriteString(inW, l+"\n")
			}
		}()
		n := 0
		for sc.Scan() {
			line := sc.Text()
			a, err := protocol.ParseAnswer(line)
			if _, raw := a.(protocol.Raw); err != nil || raw || a.Format() != line {
				t.Errorf("%s: the server wrote %q, which reads as %#v, %v", spec, line, a, err)
			}
			n++
		}
		if err := <-done; err != nil || n < 20 {
			t.Errorf("%s: %d lines, %v", spec, n, err)
		}
		inW.Close()
	}
}

// TestClientPlaysServerInProcess plays through protocol.Client against
// Serve over pipes.
func TestClientPlaysServerInProcess(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		_ = Serve(context.Background(), inR, outW, engineConfig("ab:depth=2"))
		outW.Close()
	}()
	c := protocol.NewClient(inW, outR)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h, err := c.Hello(ctx.Done())
	if err != nil || h.Name != "kumalak ab:depth=2" || len(h.Games) != len(env.Games()) {
		t.Fatalf("handshake %+v, %v", h, err)
	}
	if o, ok := h.Option(protocol.OptionDepth); !ok || o.Max != agent.MaxDepth {
		t.Errorf("depth option %+v", o)
	}
	if err := c.NewGame("togyz"); err != nil {
		t.Fatal(err)
	}
	var infos int
	best, err := c.Search(context.Background(), protocol.Position{Moves: []int{7, 3}}, protocol.Go{Depth: 2}, time.Second,
		func(protocol.Answer) { infos++ })
	if err != nil || best.Pit < 1 || best.Pit > 9 || infos == 0 {
		t.Errorf("search: %+v, %d info lines, %v", best, infos, err)
	}
}

// TestGoLimitsLag: the clock's budget of a go with wtime is cut by the
// lag the engine's searches showed past their budgets, and a movetime is
// kept as given.
func TestGoLimitsLag(t *testing.T) {
	g := protocol.Go{Time: [2]time.Duration{10 * time.Second, 10 * time.Second}, Inc: [2]time.Duration{100 * time.Millisecond, 100 * time.Millisecond}}
	plain := goLimits(g, env.White, 20, 0).Time
	lagged := goLimits(g, env.White, 20, 60*time.Millisecond).Time
	if plain <= 0 || lagged > plain-60*time.Millisecond {
		t.Errorf("budget %v without lag, %v with 60 ms of it: want at least 60 ms less", plain, lagged)
	}
	g.MoveTime = 300 * time.Millisecond
	if got := goLimits(g, env.White, 20, 60*time.Millisecond).Time; got != g.MoveTime {
		t.Errorf("movetime 300ms read as %v", got)
	}
	if got := agent.NextLag(80*time.Millisecond, 200*time.Millisecond, 150*time.Millisecond); got != 60*time.Millisecond {
		t.Errorf("NextLag after a move within its budget: %v, want 60ms (80 ms decayed by a quarter)", got)
	}
}
