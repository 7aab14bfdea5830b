package agent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"kumalak/env"
)

// engineKeys are the keys of the engine kind.
// Engine is an agent played by another program speaking the kumalak
// engine protocol (docs/ENGINE.md) on its standard input and output. It
// implements Agent, Analyzer, Observer and Resetter; Close ends the
// program. Like every agent it is not safe for concurrent use, except that
// Close may be called at any time.
type Engine struct {
	spec    *env.Spec
	cfg     EngineConfig
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string   // the engine's output, closed when it ends
	stop    chan struct{} // closed by Close: the reader drops the rest
	ended   chan struct{} // closed after the program has exited
	waitErr error         // the exit status, set before ended closes
	stderr  *tail
	name    string

	wmu       sync.Mutex // guards writes to stdin and closed
	closed    bool
	closeOnce sync.Once
	failed    error // a broken engine: every later Move returns it
	pending   int   // readyok answers still to come (after Reset)

	root  string    // position string the move list starts from
	moves []string  // pits played from root, as sent
	cur   env.State // the position root+moves reaches; nil when not tracking
	probe env.State // scratch for Played
	ana   Analysis
}

// NewEngine starts the engine program, checks the handshake (kumalak …
// kumalakok), starts a game of spec and waits until the engine is ready.
// On any failure the program is ended and the error says why, with the
// end of its stderr.
func NewEngine(spec *env.Spec, cfg EngineConfig) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{spec: spec, cfg: cfg, lines: make(chan string, 64), stop: make(chan struct{}),
		ended: make(chan struct{}), stderr: &tail{max: 4096}, probe: spec.New()}
	if err := e.start(); err != nil {
		return nil, err
	}
	if err := e.handshake(); err != nil {
		e.Close()
		return nil, e.describe(err)
	}
	return e, nil
}

// start runs the program with its pipes and the goroutine reading it.
func (e *Engine) start() error {
	e.cmd = exec.Command(e.cfg.Command[0], e.cfg.Command[1:]...)
	var err error
	if e.stdin, err = e.cmd.StdinPipe(); err != nil {
		return fmt.Errorf("engine %s: %w", e.cfg.Command[0], err)
	}
	stdout, err := e.cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("engine %s: %w", e.cfg.Command[0], err)
	}
	e.cmd.Stderr = e.stderr
	if e.cfg.Stderr != nil {
		e.cmd.Stderr = io.MultiWriter(e.stderr, e.cfg.Stderr)
	}
	if err := e.cmd.Start(); err != nil {
		return fmt.Errorf("engine %s: %w", e.cfg.Command[0], err)
	}
	go e.read(stdout)
	return nil
}

// read passes the engine's lines on until its output ends, then waits for
// the program's exit.
func (e *Engine) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		select {
		case e.lines <- strings.TrimSpace(sc.Text()):
		case <-e.stop:
		}
	}
	close(e.lines)
	e.waitErr = e.cmd.Wait()
	close(e.ended)
}

// handshake sends kumalak and newgame and waits for kumalakok and readyok.
func (e *Engine) handshake() error {
	ctx, cancel := context.WithTimeout(context.Background(), e.cfg.Startup)
	defer cancel()
	if err := e.send("kumalak"); err != nil {
		return err
	}
	for {
		line, err := e.next(ctx.Done())
		if err != nil {
			return fmt.Errorf("handshake: %w", err)
		}
		if name, ok := strings.CutPrefix(line, "id name "); ok {
			e.name = name
		}
		if line == "kumalakok" {
			break
		}
	}
	e.Reset()
	if e.failed != nil {
		return e.failed
	}
	return e.ready(ctx.Done())
}

// ready reads up to the readyok answers still pending; an error line in
// between is the engine refusing a command.
func (e *Engine) ready(done <-chan struct{}) error {
	for e.pending > 0 {
		line, err := e.next(done)
		switch {
		case err != nil:
			return err
		case line == "readyok":
			e.pending--
		case strings.HasPrefix(line, "error "):
			return fmt.Errorf("engine refused: %s", line)
		}
	}
	return nil
}

// next returns the engine's next line, or an error when it has ended or
// done closes first.
func (e *Engine) next(done <-chan struct{}) (string, error) {
	select {
	case line, ok := <-e.lines:
		if !ok {
			<-e.ended
			return "", fmt.Errorf("engine exited (%v)", e.waitErr)
		}
		return line, nil
	case <-done:
		return "", errors.New("engine did not answer in time")
	}
}

// send writes one command line.
func (e *Engine) send(line string) error {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	if e.closed {
		return errors.New("engine closed")
	}
	if _, err := io.WriteString(e.stdin, line+"\n"); err != nil {
		return fmt.Errorf("write %q: %w", line, err)
	}
	return nil
}

// describe wraps err with the engine's name and the end of its stderr.
func (e *Engine) describe(err error) error {
	msg := fmt.Sprintf("engine %s: %v", e.cfg.Command[0], err)
	if t := e.stderr.String(); t != "" {
		msg += "; stderr: " + t
	}
	return errors.New(msg)
}

// Name returns the name the engine gave in its handshake ("id name").
func (e *Engine) Name() string { return e.name }

// Analysis returns what the engine's info lines said about its last move.
func (e *Engine) Analysis() Analysis { return e.ana }

// Reset starts a new game: the engine is sent newgame, and the next Move
// first waits for its readyok.
func (e *Engine) Reset() {
	e.cur, e.moves = nil, e.moves[:0]
	if e.failed != nil {
		return
	}
	if err := e.send("newgame " + e.spec.Name); err != nil {
		e.failed = e.describe(err)
		return
	}
	if err := e.send("isready"); err != nil {
		e.failed = e.describe(err)
		return
	}
	e.pending++
}

// Played records a move so that the next position is sent as the last
// root and its moves, which lets the engine keep its search tree; a move
// that does not follow from the tracked position starts a new root. Move
// tracks the engine's own moves, so telling it those again is harmless.
func (e *Engine) Played(a env.Action, next env.State) {
	if e.cur != nil && e.cur.String() == next.String() {
		return // the engine's own move, which Move has tracked
	}
	if e.cur == nil || len(e.moves) >= 1000 {
		e.track(next)
		return
	}
	e.probe.CopyFrom(e.cur)
	if err := env.Play(e.probe, a.Pit()); err != nil || e.probe.String() != next.String() {
		e.track(next)
		return
	}
	e.cur.CopyFrom(next)
	e.moves = append(e.moves, strconv.Itoa(a.Pit()))
}

// track makes st the root of the move list.
func (e *Engine) track(st env.State) {
	if e.cur == nil {
		e.cur = e.spec.New()
	}
	e.cur.CopyFrom(st)
	e.root, e.moves = st.String(), e.moves[:0]
}

// Close ends the engine: quit, then a kill when it has not exited within
// the grace time. It is safe to call more than once.
func (e *Engine) Close() error {
	var err error
	e.closeOnce.Do(func() {
		_ = e.send("quit") // the engine may be gone already: the kill below settles it
		e.wmu.Lock()
		e.closed = true
		_ = e.stdin.Close() // only fails when already closed
		e.wmu.Unlock()
		close(e.stop)
		select {
		case <-e.ended:
		case <-time.After(e.cfg.Grace):
			err = e.cmd.Process.Kill()
			<-e.ended
		}
	})
	return err
}

// Move sends the position and go, reads info lines into the analysis and
// returns the bestmove, checked for legality. When ctx ends first the
// engine is told stop and its answer, if it comes within the grace time,
// is still played. A dead engine, a refused command, "bestmove none" and
// an illegal move are errors; after the engine has died every Move fails.
func (e *Engine) Move(ctx context.Context, st env.State) (env.Action, error) {
	if st.Result() != env.Ongoing {
		return 0, ErrGameOver
	}
	if e.failed != nil {
		return 0, e.failed
	}
	if err := e.ready(ctx.Done()); err != nil {
		return 0, e.fail(err)
	}
	if err := e.send(e.positionCommand(st)); err != nil {
		return 0, e.fail(err)
	}
	if err := e.send(e.goCommand()); err != nil {
		return 0, e.fail(err)
	}
	a, err := e.await(ctx, st)
	if err != nil {
		return 0, err
	}
	e.cur.Apply(a) // positionCommand made cur st; await checked a
	e.moves = append(e.moves, strconv.Itoa(a.Pit()))
	return a, nil
}

// fail marks the engine broken by err, which it returns described.
func (e *Engine) fail(err error) error {
	e.failed = e.describe(err)
	return e.failed
}

// positionCommand writes st as the tracked root and moves when st is the
// tracked position, else as its own position string.
func (e *Engine) positionCommand(st env.State) string {
	if e.cur == nil || e.cur.String() != st.String() {
		e.track(st)
	}
	if len(e.moves) == 0 {
		return "position fen " + e.root
	}
	return "position fen " + e.root + " moves " + strings.Join(e.moves, " ")
}

// goCommand writes go with the configured limits.
func (e *Engine) goCommand() string {
	cmd := "go"
	if e.cfg.Sims > 0 {
		cmd += " sims " + strconv.Itoa(e.cfg.Sims)
	}
	if e.cfg.MoveTime > 0 {
		cmd += " movetime " + strconv.FormatInt(max(1, e.cfg.MoveTime.Milliseconds()), 10)
	}
	if e.cfg.Depth > 0 {
		cmd += " depth " + strconv.Itoa(e.cfg.Depth)
	}
	return cmd
}

// await reads the engine's answer to go.
func (e *Engine) await(ctx context.Context, st env.State) (env.Action, error) {
	e.ana = Analysis{PV: e.ana.PV[:0], Moves: e.ana.Moves[:0]}
	var refused string
	done := ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case <-done:
			done = nil
			if err := e.send("stop"); err != nil {
				return 0, e.fail(err)
			}
			t := time.NewTimer(e.cfg.Grace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			return 0, e.fail(fmt.Errorf("no bestmove within %v of stop (%w)", e.cfg.Grace, ctx.Err()))
		case line, ok := <-e.lines:
			if !ok {
				<-e.ended
				return 0, e.fail(fmt.Errorf("engine exited (%v)", e.waitErr))
			}
			switch {
			case strings.HasPrefix(line, "error "):
				refused = line
			case strings.HasPrefix(line, "info "):
				e.parseInfo(strings.Fields(line)[1:])
			case strings.HasPrefix(line, "bestmove"):
				return e.bestMove(st, line, refused)
			}
		}
	}
}

// bestMove reads "bestmove P" and checks P against st.
func (e *Engine) bestMove(st env.State, line, refused string) (env.Action, error) {
	f := strings.Fields(line)
	if refused != "" {
		return 0, e.describe(fmt.Errorf("engine refused the position or go: %s", refused))
	}
	if len(f) != 2 {
		return 0, e.describe(fmt.Errorf("malformed answer %q", line))
	}
	pit, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, e.describe(fmt.Errorf("engine gave no move: %q", line))
	}
	a, err := env.CheckMove(st, pit)
	if err != nil {
		return 0, e.describe(fmt.Errorf("engine played %d in %s: %w", pit, st, err))
	}
	if len(e.ana.PV) == 0 || e.ana.PV[0] != a {
		e.ana.PV = append(e.ana.PV[:0], a)
	}
	return a, nil
}

// parseInfo reads the fields of one info line: "depth D nodes N visits N
// value V winprob P pv 7 3 …", or "move P share S value V" for one root
// move. Unknown or malformed fields are skipped.
func (e *Engine) parseInfo(f []string) {
	if len(f) > 0 && f[0] == "string" {
		return
	}
	if len(f) > 0 && f[0] == "move" {
		e.parseMoveStat(f)
		return
	}
	for i := 0; i+1 < len(f); i += 2 {
		v := f[i+1]
		switch f[i] {
		case "depth":
			e.ana.Depth, _ = strconv.Atoi(v)
		case "nodes", "visits":
			e.ana.Nodes, _ = strconv.ParseInt(v, 10, 64)
		case "value":
			e.ana.Value = parseF32(v, e.ana.Value)
			e.ana.WinProb = winProb(e.ana.Value)
		case "winprob":
			e.ana.WinProb = parseF32(v, e.ana.WinProb)
		case "pv":
			e.ana.PV = e.ana.PV[:0]
			for _, p := range f[i+1:] {
				if n, err := strconv.Atoi(p); err == nil && n >= 1 && n <= e.spec.NumActions {
					e.ana.PV = append(e.ana.PV, env.Action(n-1))
				}
			}
			return
		}
	}
}

// parseMoveStat reads "move P share S value V".
func (e *Engine) parseMoveStat(f []string) {
	if len(f) < 2 {
		return
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > e.spec.NumActions {
		return
	}
	s := MoveStat{Action: env.Action(n - 1)}
	for i := 2; i+1 < len(f); i += 2 {
		switch f[i] {
		case "share":
			s.Share = parseF32(f[i+1], 0)
		case "value":
			s.Value = parseF32(f[i+1], 0)
		}
	}
	e.ana.Moves = append(e.ana.Moves, s)
}

// parseF32 reads a number, or returns def.
func parseF32(s string, def float32) float32 {
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return def
	}
	return float32(f)
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
