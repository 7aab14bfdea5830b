package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"kumalak/env"
	"kumalak/protocol"
)

// EngineClient is an agent played by another program speaking the kumalak
// engine protocol (docs/ENGINE.md, package protocol) on its standard input
// and output. It implements Agent, Analyzer, Limiter, Observer and
// Resetter; Close ends the program. Like every agent it is not safe for
// concurrent use, except that Close may be called at any time.
type EngineClient struct {
	spec    *env.Spec
	cfg     EngineClientConfig
	cmd     *exec.Cmd
	client  *protocol.Client
	stdin   io.WriteCloser
	ended   chan struct{} // closed after the program has exited
	waitErr error         // the exit status, set before ended closes
	stderr  *tail
	hello   protocol.Handshake
	max     Limits

	closeOnce sync.Once
	failed    error // a broken engine: every later Move returns it

	root  string    // position string the move list starts from
	moves []int     // pits played from root, as sent
	cur   env.State // the position root+moves reaches; nil when not tracking
	probe env.State // scratch for Played
	ana   Analysis
	clock *Clock // the clock of the next move (SetClock), sent instead of the limits
}

// SetClock makes the next move's go send the clock (wtime btime winc binc
// and movestogo) instead of the configured limits: the engine manages its
// own time.
func (e *EngineClient) SetClock(c Clock, ply int) { e.clock = &c }

// NewEngineClient starts the engine program, checks the handshake,
// starts a game of spec and waits until the engine is ready. The limits
// of cfg must be within those the engine declares. On any failure the
// program is ended and the error says why, with the end of its stderr.
func NewEngineClient(spec *env.Spec, cfg EngineClientConfig) (*EngineClient, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &EngineClient{spec: spec, cfg: cfg, ended: make(chan struct{}), stderr: &tail{max: 4096}, probe: spec.New()}
	if err := e.start(); err != nil {
		return nil, err
	}
	if err := e.handshake(); err != nil {
		e.Close()
		return nil, e.describe(err)
	}
	return e, nil
}

// start runs the program with its pipes and the client reading it.
func (e *EngineClient) start() error {
	e.cmd = exec.Command(e.cfg.Command[0], e.cfg.Command[1:]...)
	var err error
	if e.stdin, err = e.cmd.StdinPipe(); err != nil {
		return fmt.Errorf("agent: engine %s: %w", e.cfg.Command[0], err)
	}
	stdout, err := e.cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("agent: engine %s: %w", e.cfg.Command[0], err)
	}
	e.cmd.Stderr = e.stderr
	if e.cfg.Stderr != nil {
		e.cmd.Stderr = io.MultiWriter(e.stderr, e.cfg.Stderr)
	}
	if err := e.cmd.Start(); err != nil {
		return fmt.Errorf("agent: engine %s: %w", e.cfg.Command[0], err)
	}
	out := &endReader{r: stdout, end: func() {
		e.waitErr = e.cmd.Wait()
		close(e.ended)
	}}
	e.client = protocol.NewClient(e.stdin, out)
	return nil
}

// endReader calls end once when its reader fails (the program's output
// has ended), before passing the error on.
type endReader struct {
	r    io.Reader
	end  func()
	once sync.Once
}

func (r *endReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil {
		r.once.Do(r.end)
	}
	return n, err
}

// handshake reads the engine's id and options, checks the limits against
// them and starts a game.
func (e *EngineClient) handshake() error {
	ctx, cancel := context.WithTimeout(context.Background(), e.cfg.Startup)
	defer cancel()
	var err error
	if e.hello, err = e.client.Hello(ctx.Done()); err != nil {
		return e.explain(err)
	}
	if len(e.hello.Games) > 0 && !slices.Contains(e.hello.Games, e.spec.Name) {
		return fmt.Errorf("engine plays %s, not %s", strings.Join(e.hello.Games, ", "), e.spec.Name)
	}
	e.max = engineLimits(e.hello)
	if err := e.SetLimits(e.cfg.Limits); err != nil {
		return err
	}
	e.Reset()
	if e.failed != nil {
		return e.failed
	}
	return e.explain(e.client.Ready(ctx.Done()))
}

// explain adds the exit status to an error of the ended engine.
func (e *EngineClient) explain(err error) error {
	if errors.Is(err, protocol.ErrEnded) {
		<-e.ended
		return fmt.Errorf("engine exited (%v)", e.waitErr)
	}
	if err == protocol.ErrNoAnswer {
		return errors.New("engine did not answer in time")
	}
	return err
}

// describe wraps err with the engine's name and the end of its stderr.
func (e *EngineClient) describe(err error) error {
	msg := fmt.Sprintf("agent: engine %s: %v", e.cfg.Command[0], err)
	if t := e.stderr.String(); t != "" {
		msg += "; stderr: " + t
	}
	return errors.New(msg)
}

// Name returns the name the engine gave in its handshake ("id name").
func (e *EngineClient) Name() string { return e.hello.Name }

// Analysis returns what the engine's info lines said about its last move.
func (e *EngineClient) Analysis() Analysis { return e.ana }

// MaxLimits returns the limits the engine declared options for (all
// three, with generous bounds, when it declared none).
func (e *EngineClient) MaxLimits() Limits { return e.max }

// Limits returns the limits sent with every go.
func (e *EngineClient) Limits() Limits { return e.cfg.Limits }

// SetLimits sets the limits sent with every go; zero sends a bare go.
func (e *EngineClient) SetLimits(l Limits) error {
	if err := l.check(e.max); err != nil {
		return fmt.Errorf("engine %q: %w", e.hello.Name, err)
	}
	e.cfg.Limits = l
	return nil
}

// Reset starts a new game: the engine is sent newgame, and the next Move
// first waits for its readyok.
func (e *EngineClient) Reset() {
	e.cur, e.moves = nil, e.moves[:0]
	if e.failed != nil {
		return
	}
	if err := e.client.NewGame(e.spec.Name); err != nil {
		e.failed = e.describe(err)
	}
}

// Played records a move so that the next position is sent as the last
// root and its moves, which lets the engine keep its search tree; a move
// that does not follow from the tracked position starts a new root. Move
// tracks the engine's own moves, so telling it those again is harmless.
func (e *EngineClient) Played(a env.Action, next env.State) {
	if e.cur != nil && env.Same(e.cur, next) {
		return // the engine's own move, which Move has tracked
	}
	if e.cur == nil || len(e.moves) >= 1000 {
		e.track(next)
		return
	}
	e.probe.CopyFrom(e.cur)
	if err := env.Play(e.probe, a.Pit()); err != nil || !env.Same(e.probe, next) {
		e.track(next)
		return
	}
	e.cur.CopyFrom(next)
	e.moves = append(e.moves, a.Pit())
}

// track makes st the root of the move list.
func (e *EngineClient) track(st env.State) {
	if e.cur == nil {
		e.cur = e.spec.New()
	}
	e.cur.CopyFrom(st)
	e.root, e.moves = st.String(), e.moves[:0]
}

// Close ends the engine: quit, then a kill when it has not exited within
// the grace time. It is safe to call more than once.
func (e *EngineClient) Close() error {
	var err error
	e.closeOnce.Do(func() {
		e.client.Close()
		_ = e.stdin.Close() // only fails when already closed
		select {
		case <-e.ended:
		case <-time.After(e.cfg.Grace):
			err = e.cmd.Process.Kill()
			<-e.ended
		}
	})
	return err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write keeps the end of p and never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the kept text, trimmed, on one line.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(string(t.buf)), " ")
}
