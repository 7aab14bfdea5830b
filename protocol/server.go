package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Handler is the engine behind Serve: the game, its positions, its options
// and its search. Serve calls it from one goroutine, and calls nothing
// else while a Search runs.
type Handler interface {
	// Hello returns the id and option answers of the handshake.
	Hello() []Answer
	// NewGame, Position and SetOption change the state; an error leaves
	// it as it was and is answered by an error line.
	NewGame(NewGame) error
	Position(Position) error
	SetOption(SetOption) error
	// Show returns the lines that draw the current position.
	Show() []Answer
	// Search searches the current position until the limits of g or
	// until ctx ends, writing its progress with out (which is safe to
	// call from any goroutine), and returns the move; Pit 0 on a
	// finished game.
	Search(ctx context.Context, g Go, out func(Answer)) BestMove
}

// Serve speaks the engine protocol for h: it reads commands from in, one
// per line, and writes answers to out, until Quit, the end of in, or ctx
// ends (nil error), or until out fails. Hello, IsReady, Stop, Help and
// Quit are answered here; the rest go to h, a Go in a goroutine of its
// own so that Stop and IsReady are answered while it thinks. A command
// that changes the state waits for a finite search, and is refused during
// an infinite one. The goroutine reading in may stay blocked in Read
// after Serve returns, until in is closed or yields.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Handler) error {
	s := &server{h: h, out: &writer{w: out}}
	defer s.halt()
	lines, stop := make(chan string), make(chan struct{})
	defer close(stop)
	go readLines(in, lines, stop)
	for s.out.Err() == nil {
		select {
		case <-ctx.Done():
			return s.out.Err()
		case line, ok := <-lines:
			if !ok || s.do(line) {
				return s.out.Err()
			}
		}
	}
	return s.out.Err()
}

// tooLong stands for a line over MaxLine on the lines channel.
const tooLong = "\x00"

// readLines sends the lines of in to ch until the end of in (then it
// closes ch) or until stop closes.
func readLines(in io.Reader, ch chan<- string, stop <-chan struct{}) {
	r := NewLineReader(in)
	for {
		line, long, err := r.Next()
		if err != nil {
			close(ch)
			return
		}
		if long {
			line = tooLong
		}
		select {
		case ch <- line:
		case <-stop:
			return
		}
	}
}

// server is the state of one Serve.
type server struct {
	h   Handler
	out *writer
	job *job // the running or last search
}

// job is one search started by go.
type job struct {
	infinite bool
	ponder   *Go  // go ponder: the search to run on ponderhit
	hit      bool // ponderhit came: the search is replaced, its bestmove not written
	stopped  bool // stop was sent (set by the command loop)
	cancel   context.CancelFunc
	done     chan struct{} // closed after bestmove is written
}

// endless reports whether the job is an infinite search not yet told to
// stop: one that waiting for would never end.
func (j *job) endless() bool {
	if !j.infinite || j.stopped {
		return false
	}
	select {
	case <-j.done:
		return false
	default:
		return true
	}
}

// do carries out one line and reports whether it was quit.
func (s *server) do(line string) (quit bool) {
	if line == tooLong {
		s.out.write(Error{Text: fmt.Sprintf("line too long (limit %d bytes)", MaxLine)})
		return false
	}
	if strings.TrimSpace(line) == "" {
		return false
	}
	c, err := ParseCommand(line)
	if err != nil {
		s.refuse(err)
		return false
	}
	switch c := c.(type) {
	case Quit:
		return true
	case Stop:
		s.stop()
	case PonderHit:
		s.ponderHit()
	case IsReady:
		s.out.write(ReadyOK{})
	case Hello:
		s.out.write(s.h.Hello()...)
		s.out.write(HelloOK(c))
	case Help:
		for _, l := range usage() {
			s.out.write(InfoString{Text: l})
		}
	default:
		s.idle(c)
	}
	return false
}

// refuse answers a bad line.
func (s *server) refuse(err error) {
	var pe *ParseError
	if errors.As(err, &pe) {
		s.out.write(Error{Text: pe.Text()})
		return
	}
	s.out.write(Error{Text: err.Error()})
}

// idle carries out a command that needs the search to be over: it waits
// for a finite search and refuses during an infinite one.
func (s *server) idle(c Command) {
	if s.job != nil && s.job.endless() {
		s.out.write(Error{Text: c.word() + " during an infinite search: send " + wordStop + " first"})
		return
	}
	s.wait()
	var err error
	switch c := c.(type) {
	case NewGame:
		err = s.h.NewGame(c)
	case Position:
		err = s.h.Position(c)
	case SetOption:
		err = s.h.SetOption(c)
	case Show:
		s.out.write(s.h.Show()...)
	case Go:
		s.start(c)
	}
	if err != nil {
		s.out.write(Error{Text: c.word() + ": " + err.Error()})
	}
}

// start runs the search of g in a goroutine, which writes bestmove; an
// infinite search writes it only after stop. A ponder search is an
// infinite one until ponderhit, which starts g without Ponder.
func (s *server) start(g Go) {
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{infinite: g.Infinite || g.Ponder, cancel: cancel, done: make(chan struct{})}
	run := g
	if g.Ponder {
		then := g
		then.Ponder = false
		j.ponder, run = &then, Go{Infinite: true}
	}
	s.job = j
	go func() {
		defer close(j.done)
		defer cancel()
		best := s.h.Search(ctx, run, func(a Answer) { s.out.write(a) })
		if j.infinite {
			<-ctx.Done() // j.hit is set before the cancel that ends ctx
		}
		if !j.hit {
			s.out.write(best)
		}
	}()
}

// ponderHit turns the running ponder search into the search of its go.
func (s *server) ponderHit() {
	j := s.job
	if j == nil || j.ponder == nil || j.stopped || j.hit || !j.endless() {
		s.out.write(Error{Text: wordPonderHit + ": no " + wordGo + " " + wordPonder + " search is running"})
		return
	}
	j.hit = true
	j.cancel()
	<-j.done
	s.start(*j.ponder)
}

// stop ends the running search, which then writes bestmove.
func (s *server) stop() {
	if s.job != nil {
		s.job.stopped = true
		s.job.cancel()
	}
}

// wait waits for the running search to write bestmove.
func (s *server) wait() {
	if s.job != nil {
		<-s.job.done
	}
}

// halt stops the search and waits for it.
func (s *server) halt() {
	s.stop()
	s.wait()
}

// usage is the command list that help answers.
func usage() []string {
	return []string{
		wordHello + " | " + wordUCI + ": handshake: id and option lines, then " + wordHelloOK + " (" + wordUCIOK + ")",
		wordIsReady + ": " + wordReadyOK,
		setOptionUsage,
		wordNewGame + " [game]",
		positionUsage,
		goUsage,
		wordStop + ": end the search now: " + wordBestMove + " follows",
		wordPonderHit + ": the pondered move was played: the " + wordGo + " " + wordPonder + " search goes on under its limits",
		wordShow + ": draw the board",
		wordQuit,
	}
}

// writer writes whole lines for the command loop and the search
// goroutine; it keeps the first error.
type writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// Err returns the first write error.
func (w *writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// write writes one line per answer.
func (w *writer) write(as ...Answer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, a := range as {
		if w.err != nil {
			return
		}
		if _, err := io.WriteString(w.w, a.Format()+"\n"); err != nil {
			w.err = fmt.Errorf("protocol: engine output: %w", err)
		}
	}
}
