package engine

import (
	"bufio"
	"context"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"kumalak/agent"
	"kumalak/bot/bottest"
	"kumalak/env"
)

// engineSession drives Engine through pipes.
type engineSession struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan struct{} // closed when Engine has returned err
	err   error
}

func startEngine(t *testing.T, cfg Config) *engineSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &engineSession{t: t, in: inW, lines: make(chan string, 1024), done: make(chan struct{})}
	go func() {
		s.err = Serve(context.Background(), inR, outW, cfg)
		outW.Close()
		close(s.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			t.Error("the engine did not end after its input closed")
		}
	})
	return s
}

func (s *engineSession) send(cmd string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, cmd+"\n"); err != nil {
		s.t.Fatalf("send %q: %v", cmd, err)
	}
}

// expect reads lines up to the first that starts with prefix and returns
// them all; it fails the test when none comes within d.
func (s *engineSession) expect(prefix string, d time.Duration) []string {
	s.t.Helper()
	var got []string
	timeout := time.After(d)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended waiting for %q; got %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-timeout:
			s.t.Fatalf("no %q within %v; got %q", prefix, d, got)
		}
	}
}

// sync sends isready and returns the lines before readyok: the engine
// answers in order, so everything sent before has been read.
func (s *engineSession) sync() []string {
	s.t.Helper()
	s.send("isready")
	got := s.expect("readyok", 5*time.Second)
	return got[:len(got)-1]
}

// ask sends cmd then isready and returns the lines before readyok.
func (s *engineSession) ask(cmd string) []string {
	s.t.Helper()
	s.send(cmd)
	s.send("isready")
	got := s.expect("readyok", 5*time.Second)
	return got[:len(got)-1]
}

func engineConfig(agentSpec string) Config {
	cfg := DefaultConfig()
	cfg.Agent, cfg.Seed = agentSpec, 1
	return cfg
}

// infoField returns the word after key in an info line, or "".
func infoField(line, key string) string {
	f := strings.Fields(line)
	for i := 1; i+1 < len(f); i++ {
		if f[i] == key {
			return f[i+1]
		}
	}
	return ""
}

func hasPrefix(lines []string, prefix string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// bestMove returns the pit of the bestmove line that ends lines.
func bestMove(t *testing.T, lines []string) int {
	t.Helper()
	f := strings.Fields(lines[len(lines)-1])
	pit, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatalf("bestmove line %q", lines[len(lines)-1])
	}
	return pit
}

func TestEngineSession(t *testing.T) {
	s := startEngine(t, engineConfig("ab:depth=3"))
	s.send("kumalak")
	hello := s.expect("kumalakok", 5*time.Second)
	for _, want := range []string{"id name kumalak ab:depth=3", "id author ", "id games kalah mangala mangala-kale togyz",
		"option name game type combo default togyz", "option name time type spin", "option name depth type spin"} {
		if !hasPrefix(hello, want) {
			t.Errorf("handshake %q lacks %q", hello, want)
		}
	}
	if hasPrefix(hello, "option name sims") {
		t.Error("ab was offered a sims option")
	}
	bad := map[string]string{
		"frobnicate":                         `error unknown command "frobnicate"`,
		"position":                           "error position: want position start",
		"position fen 1,2/3 0 0 - - w":       "error position: togyz: position",
		"position start moves 7 x":           `error position: move 2 ("x"): not a pit number`,
		"position start moves 7 10":          "error position: move 2 (pit 10): illegal move: pit 10 out of range 1..9",
		"go sims":                            `error go: "sims" needs a number`,
		"go sims -4":                         `error go: sims "-4"`,
		"go ponder 3":                        `error go: "3" needs a number`,
		"ponderhit":                          "error ponderhit: no go ponder search is running",
		"setoption name ponder value maybe":  `error setoption: option ponder: value "maybe" is not true or false`,
		"setoption name bogus value 1":       `error setoption: unknown option "bogus"`,
		"setoption name depth value many":    "error setoption: option depth: value \"many\" is not a whole number in 0..60",
		"setoption name sims value 400":      `error setoption: unknown option "sims" (options: game, time, depth, hash, multipv, threads, ponder)`,
		"setoption name threads value 4":     `error setoption: option threads: value "4" is not a whole number in 1..1`,
		"setoption sims 4":                   "error setoption: want setoption name",
		"newgame chess":                      `error newgame: game "chess" not played here`,
		"newgame togyz mangala":              "error newgame: want newgame [game]",
		"setoption name game value checkers": `error setoption: game "checkers"`,
		strings.Repeat("position ", 10000):   "error line too long",
		"position start moves 2 99":          "error position: move 2 (pit 99)",
	}
	for cmd, want := range bad {
		if got := s.ask(cmd); len(got) != 1 || !strings.HasPrefix(got[0], want) {
			t.Errorf("%.40s: got %q, want one line starting %q", cmd, got, want)
		}
	}

	s.ask("position start moves 7 3")
	spec, _ := env.Lookup("togyz")
	want, _ := spec.Replay("start", []int{7, 3})
	if got := s.ask("d"); !slices.Contains(got, "fen "+want.String()) || !slices.Contains(got, "result *") {
		t.Errorf("d after position start moves 7 3: %q, want fen %s", got, want)
	}
	s.send("go depth 2")
	got := s.expect("bestmove ", 5*time.Second)
	if len(got) == 0 || !strings.HasPrefix(got[len(got)-1], "bestmove ") || !hasPrefix(got, "info depth 2 seldepth ") || !hasPrefix(got, "info move ") {
		t.Fatalf("go depth 2: %q", got)
	}
	if _, err := env.CheckMove(want, bestMove(t, got)); err != nil {
		t.Errorf("bestmove: %v", err)
	}

	if got := s.ask("position fen 0,0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1,1 82 71 - - w"); len(got) != 0 {
		t.Errorf("a finished position was refused: %q", got)
	}
	s.send("go") // the search answers in its own goroutine: wait for its bestmove, not for readyok
	if got := s.expect("bestmove", 5*time.Second); !slices.Equal(got, []string{"info string game is over (1-0)", "bestmove none"}) {
		t.Errorf("go on a finished game: %q", got)
	}

	// mangala: pit 4 ends in the store, so white moves again.
	s.ask("newgame mangala")
	s.ask("position start moves 4")
	if got := s.ask("d"); !slices.Contains(got, "fen 4,4,4,1,5,5/4,4,4,4,4,4 1 0 - - w") {
		t.Errorf("mangala after 4: %q", got)
	}
	s.ask("setoption name depth value 1")
	s.send("go")
	if got := s.expect("bestmove ", 5*time.Second); !hasPrefix(got, "info depth 1 ") {
		t.Errorf("go with option depth 1: %q", got)
	}
	s.send("quit")
	select {
	case <-s.done:
		if s.err != nil {
			t.Errorf("Engine after quit: %v", s.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after quit")
	}
}

func TestEngineUCIHandshakeAndOptions(t *testing.T) {
	cfg := engineConfig("mcts:sims=50")
	cfg.Games, cfg.Game = []string{"mangala", "mangala-kale"}, "mangala-kale"
	s := startEngine(t, cfg)
	s.send("uci")
	hello := s.expect("uciok", 5*time.Second)
	if !hasPrefix(hello, "option name sims type spin") || !hasPrefix(hello, "option name game type combo default mangala-kale var mangala var mangala-kale") {
		t.Errorf("handshake %q", hello)
	}
	if got := s.ask("newgame togyz"); len(got) != 1 || !strings.Contains(got[0], "not played here") {
		t.Errorf("newgame togyz on a mangala engine: %q", got)
	}
	s.ask("setoption name sims value 120")
	s.send("go")
	got := s.expect("bestmove ", 5*time.Second)
	last := got[len(got)-2] // the final report, whatever a slow machine wrote before it
	if !strings.HasPrefix(last, "info ") || !strings.HasPrefix(got[len(got)-1], "bestmove ") {
		t.Fatalf("go with option sims 120: %q", got)
	}
	if nodes, visits := infoField(last, "nodes"), infoField(last, "visits"); nodes != "120" || visits != "120" {
		t.Errorf("final info %q: want 120 simulations and visits", last)
	}
}

func TestEngineInfiniteAndStop(t *testing.T) {
	for _, spec := range []string{"mcts:sims=100", "ab:depth=4"} {
		t.Run(spec, func(t *testing.T) {
			s := startEngine(t, engineConfig(spec))
			s.send("position start moves 1")
			s.send("go infinite")
			s.expect("info ", 3*time.Second)
			got := s.ask("go depth 3")
			if len(got) == 0 || !hasPrefix(got, "error go during an infinite search") {
				t.Errorf("go during an infinite search: %q", got)
			}
			// The engine answers in order: a bestmove before readyok
			// would be one before stop.
			got = append(got, s.expect("info ", 3*time.Second)...) // a second iteration
			got = append(got, s.sync()...)
			if hasPrefix(got, "bestmove") {
				t.Fatalf("bestmove before stop: %q", got)
			}
			began := time.Now()
			s.send("stop")
			got = s.expect("bestmove ", 4*time.Second)
			if d := time.Since(began); d > 3*time.Second {
				t.Errorf("bestmove %v after stop", d)
			}
			if pit := bestMove(t, got); pit < 1 || pit > 9 {
				t.Errorf("bestmove %d", pit)
			}
			if hasPrefix(got, "info string stopped before") {
				t.Errorf("an infinite search stopped after two info lines had no move: %q", got)
			}
			s.send("go movetime 150")
			began = time.Now()
			s.expect("bestmove ", 3*time.Second)
			if d := time.Since(began); d < 50*time.Millisecond || d > 2*time.Second {
				t.Errorf("go movetime 150 took %v", d)
			}
		})
	}
}

// TestEngineStopFiniteSearch stops a deep alpha-beta search at once: a
// legal move comes back even when no iteration had finished.
func TestEngineStopFiniteSearch(t *testing.T) {
	s := startEngine(t, engineConfig("ab:depth=40,tt=1"))
	s.send("go depth 40")
	s.sync() // the search has begun
	began := time.Now()
	s.send("stop")
	got := s.expect("bestmove ", 3*time.Second)
	if d := time.Since(began); d > 3*time.Second {
		t.Errorf("bestmove %v after stop", d)
	}
	if pit := bestMove(t, got); pit < 1 || pit > 9 {
		t.Errorf("bestmove %q", got)
	}
	if got := s.ask("position start moves 5"); len(got) != 0 {
		t.Errorf("position after a stopped search: %q", got)
	}
}

// TestEngineClientPlaysServer runs this test binary as an engine
// (TestEngineProcess) and plays whole games through agent.Engine.
func TestEngineClientPlaysServer(t *testing.T) {
	t.Setenv(engineEnv, "ab:depth=2")
	spec, _ := env.Lookup("mangala")
	cfg := agent.DefaultEngineClientConfig()
	cfg.Command = []string{os.Args[0], "-test.run=^TestEngineProcess$"}
	eng, err := agent.NewEngineClient(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if eng.Name() != "kumalak test engine" {
		t.Errorf("engine name %q", eng.Name())
	}
	_, rnd := bottest.Agent(t, "mangala", "random")
	for game := 0; game < 2; game++ {
		eng.Reset()
		st := spec.New()
		players := [2]agent.Agent{eng, rnd}
		for ply := 0; st.Result() == env.Ongoing; ply++ {
			a, err := players[st.ToMove()].Move(context.Background(), st)
			if err != nil {
				t.Fatalf("game %d ply %d: %v", game, ply, err)
			}
			if err := env.Play(st, a.Pit()); err != nil {
				t.Fatalf("game %d ply %d: %v", game, ply, err)
			}
			eng.Played(a, st)
		}
		if an := eng.Analysis(); an.Depth == 0 && len(an.PV) == 0 {
			t.Errorf("no analysis from the engine: %+v", an)
		}
	}
	a, err := agent.New(spec, "engine:depth=1,cmd="+os.Args[0]+" -test.run=^TestEngineProcess$", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close(a)
	if _, err := a.Move(context.Background(), spec.New()); err != nil {
		t.Fatal(err)
	}
	// The engine declares depth 0..60 and no sims: the client holds its
	// limits to that.
	if l, ok := a.(agent.Limiter); !ok || l.MaxLimits() != (agent.Limits{Time: agent.MaxTime, Depth: agent.MaxDepth}) {
		t.Errorf("the client's largest limits: %+v", a)
	}
	for s, want := range map[string]string{"engine:depth=61,cmd=": "depth 61 out of range 0..60", "engine:sims=5,cmd=": "takes no sims limit"} {
		if _, err := agent.New(spec, s+os.Args[0]+" -test.run=^TestEngineProcess$", 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", s, err, want)
		}
	}
}
