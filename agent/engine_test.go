package agent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"kumalak/env"
	"kumalak/env/mangala"
	"kumalak/env/togyz"
)

// The engine tests run this test binary as the engine: with
// KUMALAK_FAKE_ENGINE set to a mode, TestFakeEngine speaks a small part of
// the protocol in that mode instead of testing.
const fakeEnv = "KUMALAK_FAKE_ENGINE"

// fake starts an engine client on the fake engine in mode.
func fake(t *testing.T, spec *env.Spec, mode string, tweak func(*EngineClientConfig)) (*EngineClient, error) {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	cfg := DefaultEngineClientConfig()
	cfg.Command = []string{os.Args[0], "-test.run=^TestFakeEngine$"}
	cfg.Startup, cfg.Grace = 5*time.Second, 500*time.Millisecond
	if tweak != nil {
		tweak(&cfg)
	}
	e, err := NewEngineClient(spec, cfg)
	if err == nil {
		t.Cleanup(func() { e.Close() })
	}
	return e, err
}

func TestFakeEngine(t *testing.T) {
	mode := os.Getenv(fakeEnv)
	if mode == "" {
		t.Skip("run as the fake engine by the engine tests")
	}
	runFake(mode)
	os.Exit(0)
}

// runFake answers commands on stdin. The modes: good (the first legal
// move, with info lines), illegal (pit 99), none (error, bestmove none),
// crash (exits on go), slow (answers go only after stop), mute (never
// answers go), nohello (never answers the handshake), refuse (refuses
// newgame), stubborn (ignores quit).
func runFake(mode string) {
	var spec *env.Spec
	var st env.State
	sc := bufio.NewScanner(os.Stdin)
	say := func(format string, args ...any) { fmt.Printf(format+"\n", args...) }
	first := func() int { return st.Legal(nil)[0].Pit() }
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "kumalak":
			if mode == "nohello" {
				continue
			}
			say("id name fake %s", mode)
			if mode == "mangalaonly" {
				say("id games mangala mangala-kale")
			}
			say("kumalakok")
		case "newgame":
			if mode == "refuse" {
				say("error newgame: no such game")
				continue
			}
			spec, _ = env.Lookup(f[1])
			st = spec.New()
		case "isready":
			say("readyok")
		case "position":
			st = fakePosition(spec, f[1:])
		case "go":
			fmt.Fprintln(os.Stderr, strings.Join(f, " ")) // the tests read the go line from stderr
			switch mode {
			case "crash":
				fmt.Fprintln(os.Stderr, "boom")
				os.Exit(3)
			case "mute", "slow":
				continue
			case "illegal":
				say("bestmove 99")
			case "none":
				say("error position: no")
				say("bestmove none")
			default:
				say("info multipv 1 depth 3 seldepth 5 nodes 120 score 2.5000 wdl 600 50 350 value 0.2500 winprob 0.6250 hashfull 7 pv %d 1", first())
				say("info multipv 2 depth 3 score -9.0000 value -0.5000 winprob 0.2500 pv 9")
				say("info move %d share 0.7500 value 0.2500", first())
				say("bestmove %d", first())
			}
		case "stop":
			if mode == "slow" {
				say("bestmove %d", first())
			}
		case "quit":
			if mode != "stubborn" {
				return
			}
		}
	}
	if mode == "stubborn" {
		time.Sleep(time.Minute) // until killed
	}
}

// fakePosition reads "fen <position string> [moves ...]".
func fakePosition(spec *env.Spec, f []string) env.State {
	i := len(f)
	for k, w := range f {
		if w == "moves" {
			i = k
		}
	}
	st, err := spec.Parse(strings.Join(f[1:i], " "))
	if err != nil {
		fmt.Println("error position:", err)
		return spec.New()
	}
	for _, m := range f[min(i+1, len(f)):] {
		var pit int
		fmt.Sscan(m, &pit)
		if env.Play(st, pit) != nil {
			fmt.Println("error position: bad move", m)
		}
	}
	return st
}

func TestEnginePlaysAndParsesInfo(t *testing.T) {
	e, err := fake(t, togyz.Spec, "good", func(c *EngineClientConfig) { c.Limits = Limits{Sims: 50, Time: 1500 * time.Millisecond, Depth: 4} })
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "fake good" {
		t.Errorf("Name = %q, want the id name", e.Name())
	}
	st := togyz.Spec.New()
	for ply := 0; ply < 6; ply++ {
		a, err := e.Move(context.Background(), st)
		if err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		if want := st.Legal(nil)[0]; a != want {
			t.Fatalf("ply %d: move %d, want the fake's %d", ply, a.Pit(), want.Pit())
		}
		an := e.Analysis()
		if an.Depth != 3 || an.Nodes != 120 || an.Value != 0.25 || an.WinProb != 0.625 || len(an.PV) != 2 || an.PV[0] != a {
			t.Fatalf("analysis %+v: want depth 3, nodes 120, value 0.25, winprob 0.625, pv starting %d", an, a.Pit())
		}
		if an.SelDepth != 5 || an.HashFull != 7 || an.Score != 2.5 || !an.HasWDL || an.WDL != [3]float32{0.6, 0.05, 0.35} {
			t.Fatalf("analysis %+v: want seldepth 5, hashfull 7, score 2.5, wdl .6 .05 .35", an)
		}
		if len(an.Moves) != 1 || an.Moves[0] != (MoveStat{Action: a, Share: 0.75, Value: 0.25}) {
			t.Fatalf("move stats %+v", an.Moves)
		}
		st.Apply(a)
	}
	if got := e.stderr.String(); !strings.Contains(got, "go sims 50 movetime 1500 depth 4") {
		t.Errorf("go lines %q: want the configured limits", got)
	}
	if err := e.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := e.Move(context.Background(), st); err == nil {
		t.Error("Move after Close succeeded")
	}
}

// TestEngineSendsMovesAfterPlayed checks that a record followed by Played
// goes out as the root and its moves, and that a move that does not
// follow starts a new root.
func TestEngineSendsMovesAfterPlayed(t *testing.T) {
	e, err := fake(t, mangala.Spec, "good", nil)
	if err != nil {
		t.Fatal(err)
	}
	start := mangala.Spec.New()
	e.track(start)
	next := env.Clone(start)
	next.Apply(2)
	e.Played(2, next)
	if got, want := e.position(next).Format(), "position fen "+start.String()+" moves 3"; got != want {
		t.Errorf("position command %q, want %q", got, want)
	}
	a, err := e.Move(context.Background(), next)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, a.Pit()}; fmt.Sprint(e.moves) != fmt.Sprint(want) {
		t.Errorf("moves after Move %v, want %v", e.moves, want)
	}
	after := env.Clone(next)
	after.Apply(a)
	e.Played(a, after) // the engine's own move again: no change
	if len(e.moves) != 2 {
		t.Errorf("moves %v after Played of the engine's own move, want 2", e.moves)
	}
	elsewhere := mangala.Spec.New()
	elsewhere.Apply(5)
	e.Played(0, elsewhere) // does not follow from the tracked position
	if e.root != elsewhere.String() || len(e.moves) != 0 {
		t.Errorf("root %q moves %v: want a new root at %q", e.root, e.moves, elsewhere)
	}
	if got := e.position(start).Format(); got != "position fen "+start.String() {
		t.Errorf("another position: %q, want its own position string", got)
	}
}

func TestEngineErrors(t *testing.T) {
	st := togyz.Spec.New()
	cases := []struct {
		mode, want string
		broken     bool // later moves fail too
	}{
		{"illegal", "engine played 99", false},
		{"none", "engine refused the position or go: error position: no", false},
		{"crash", "engine exited", true},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			e, err := fake(t, togyz.Spec, c.mode, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Move(context.Background(), st)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Move: %v, want an error with %q", err, c.want)
			}
			if c.mode == "crash" && !strings.Contains(err.Error(), "stderr: go boom") {
				t.Errorf("error %q: want the engine's stderr", err)
			}
			if (e.failed != nil) != c.broken {
				t.Errorf("engine marked broken: %v, want %v", e.failed != nil, c.broken)
			}
		})
	}
}

func TestEngineStartupErrors(t *testing.T) {
	// Only the engine that never answers waits out a short startup limit; the
	// others get the default, generous for a loaded machine.
	quick := func(c *EngineClientConfig) { c.Startup = 300 * time.Millisecond }
	for mode, want := range map[string]string{"nohello": "did not answer in time", "refuse": "engine refused: error newgame",
		"mangalaonly": "engine plays mangala, mangala-kale, not togyz"} {
		opt := quick
		if mode != "nohello" {
			opt = nil
		}
		if _, err := fake(t, togyz.Spec, mode, opt); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", mode, err, want)
		}
	}
	cfg := DefaultEngineClientConfig()
	cfg.Command = []string{"/no/such/engine"}
	if _, err := NewEngineClient(togyz.Spec, cfg); err == nil {
		t.Error("a missing program started")
	}
	if _, err := NewEngineClient(togyz.Spec, DefaultEngineClientConfig()); err == nil {
		t.Error("an empty command was accepted")
	}
}

func TestEngineStopOnContext(t *testing.T) {
	e, err := fake(t, togyz.Spec, "slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	a, err := e.Move(ctx, togyz.Spec.New())
	if err != nil || a != 0 {
		t.Fatalf("Move after stop: %d, %v; want the engine's answer to stop", a.Pit(), err)
	}

	mute, err := fake(t, togyz.Spec, "mute", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	began := time.Now()
	_, err = mute.Move(ctx2, togyz.Spec.New())
	if !errors.Is(err, context.DeadlineExceeded) && (err == nil || !strings.Contains(err.Error(), "no bestmove")) {
		t.Fatalf("mute engine: %v, want no bestmove after stop", err)
	}
	if d := time.Since(began); d > 3*time.Second {
		t.Errorf("gave up after %v, want about the grace time", d)
	}
}

func TestEngineCloseKillsStubborn(t *testing.T) {
	e, err := fake(t, togyz.Spec, "stubborn", nil)
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if err := e.Close(); err != nil {
		t.Logf("Close: %v", err)
	}
	select {
	case <-e.ended:
	default:
		t.Fatal("the engine still runs after Close")
	}
	if d := time.Since(began); d < e.cfg.Grace || d > 3*time.Second {
		t.Errorf("Close took %v, want the grace time %v and a kill", d, e.cfg.Grace)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestEngineGameOverAndReset(t *testing.T) {
	e, err := fake(t, togyz.Spec, "good", nil)
	if err != nil {
		t.Fatal(err)
	}
	over, err := togyz.Spec.Parse("0,0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1,1 82 71 - - w")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Move(context.Background(), over); !errors.Is(err, ErrGameOver) {
		t.Errorf("Move on a finished game: %v, want ErrGameOver", err)
	}
	e.Reset()
	if _, err := e.Move(context.Background(), togyz.Spec.New()); err != nil {
		t.Errorf("Move after Reset: %v", err)
	}
}

func TestEngineKindSpec(t *testing.T) {
	t.Setenv(fakeEnv, "good")
	a, err := New(togyz.Spec, "engine:sims=64,movetime=250ms,depth=2,cmd="+os.Args[0]+" -test.run=^TestFakeEngine$", 1)
	if err != nil {
		t.Fatal(err)
	}
	e := a.(*EngineClient)
	defer e.Close()
	if e.cfg.Limits != (Limits{Sims: 64, Time: 250 * time.Millisecond, Depth: 2}) || len(e.cfg.Command) != 2 {
		t.Errorf("config %+v", e.cfg)
	}
	if e.MaxLimits() != engineMax {
		t.Errorf("MaxLimits %+v of an engine that declares no options, want %+v", e.MaxLimits(), engineMax)
	}
	for _, bad := range []string{"engine", "engine:cmd='unclosed", "engine:movetime=soon,cmd=x", "engine:sims=-1,cmd=x", "engine:depth=1001,cmd=x"} {
		if _, err := New(togyz.Spec, bad, 1); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestSplitCommand(t *testing.T) {
	got, err := splitCommand(`./bin/kumalak engine  --agent 'ab:depth=3' --name "my bot"`)
	want := []string{"./bin/kumalak", "engine", "--agent", "ab:depth=3", "--name", "my bot"}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}
