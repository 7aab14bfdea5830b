package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// ErrEnded is returned once the engine's output has ended.
var ErrEnded = errors.New("protocol: the engine's output ended")

// ErrNoAnswer is returned when the engine does not answer in time.
var ErrNoAnswer = errors.New("protocol: the engine did not answer in time")

// Client is the controller's side of the protocol: it writes commands to
// an engine and reads its answers. Its methods are not safe for
// concurrent use, except Send and Close.
type Client struct {
	wmu     sync.Mutex // guards w and closed
	w       io.Writer
	closed  bool
	lines   chan string   // the engine's lines, closed when its output ends
	readErr error         // why the output ended, if not at its end; set before lines closes
	stop    chan struct{} // closed by Close: the reader drops the rest
	once    sync.Once
	pending int // readyok answers still to come
}

// Handshake is what the engine said in answer to Hello.
type Handshake struct {
	Name    string   // id name
	Author  string   // id author
	Games   []string // id games
	Options []Option
}

// Option returns the declared option called name.
func (h Handshake) Option(name string) (Option, bool) {
	for _, o := range h.Options {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// NewClient talks to the engine that reads w and writes r. A goroutine
// reads r until its end or Close.
func NewClient(w io.Writer, r io.Reader) *Client {
	c := &Client{w: w, lines: make(chan string, 64), stop: make(chan struct{})}
	go c.read(r)
	return c
}

// read passes the engine's lines on until its output ends, dropping
// lines over MaxLine (no answer is that long).
func (c *Client) read(r io.Reader) {
	lr := NewLineReader(r)
	for {
		line, long, err := lr.Next()
		if err != nil {
			if err != io.EOF {
				c.readErr = fmt.Errorf("protocol: read the engine's output: %w", err)
			}
			close(c.lines)
			return
		}
		if long {
			continue
		}
		select {
		case c.lines <- line:
		case <-c.stop:
		}
	}
}

// Send writes one command.
func (c *Client) Send(cmd Command) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.closed {
		return errors.New("protocol: client closed")
	}
	line := cmd.Format()
	if _, err := io.WriteString(c.w, line+"\n"); err != nil {
		return fmt.Errorf("protocol: write %q: %w", line, err)
	}
	return nil
}

// Close sends Quit, then stops writing and drops the engine's further
// output. It is safe to call more than once; the engine may be gone.
func (c *Client) Close() {
	c.once.Do(func() {
		_ = c.Send(Quit{}) // the engine may have ended already
		c.wmu.Lock()
		c.closed = true
		c.wmu.Unlock()
		close(c.stop)
	})
}

// ErrBadAnswer is returned by Next for a bestmove line that does not
// parse: the answer a search waits for has come, unreadable.
var ErrBadAnswer = errors.New("protocol: the engine's answer does not parse")

// Next returns the engine's next answer, skipping lines that do not parse
// (a malformed info or option line), except a bestmove line: that fails at
// once with ErrBadAnswer, the line quoted, rather than leaving the
// controller waiting for an answer that has come. ErrEnded when its output has ended (wrapping the read error,
// if that is why), ErrNoAnswer when done closes first.
func (c *Client) Next(done <-chan struct{}) (Answer, error) {
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				if c.readErr != nil {
					return nil, fmt.Errorf("%w: %w", ErrEnded, c.readErr)
				}
				return nil, ErrEnded
			}
			a, err := ParseAnswer(line)
			if err == nil {
				return a, nil
			}
			if f := strings.Fields(line); strings.ToLower(f[0]) == wordBestMove {
				return nil, fmt.Errorf("%w: %q: %w", ErrBadAnswer, line, err)
			}
		case <-done:
			return nil, ErrNoAnswer
		}
	}
}

// Hello sends the handshake and reads the engine's id and option lines up
// to its HelloOK.
func (c *Client) Hello(done <-chan struct{}) (Handshake, error) {
	var h Handshake
	if err := c.Send(Hello{}); err != nil {
		return h, err
	}
	for {
		a, err := c.Next(done)
		if err != nil {
			return h, fmt.Errorf("handshake: %w", err)
		}
		switch a := a.(type) {
		case ID:
			h.setID(a)
		case Option:
			h.Options = append(h.Options, a)
		case HelloOK:
			return h, nil
		}
	}
}

// setID keeps an id answer.
func (h *Handshake) setID(a ID) {
	switch a.Key {
	case IDName:
		h.Name = a.Value
	case IDAuthor:
		h.Author = a.Value
	case IDGames:
		h.Games = strings.Fields(a.Value)
	}
}

// NewGame sends NewGame and IsReady without waiting: the next Ready or
// Search first reads the ReadyOK.
func (c *Client) NewGame(game string) error {
	if err := c.Send(NewGame{Game: game}); err != nil {
		return err
	}
	if err := c.Send(IsReady{}); err != nil {
		return err
	}
	c.pending++
	return nil
}

// Ready reads up to the ReadyOK answers still pending; an error line in
// between is the engine refusing a command.
func (c *Client) Ready(done <-chan struct{}) error {
	for c.pending > 0 {
		a, err := c.Next(done)
		if err != nil {
			return err
		}
		switch a := a.(type) {
		case ReadyOK:
			c.pending--
		case Error:
			return fmt.Errorf("engine refused: %s", a.Format())
		}
	}
	return nil
}

// Search sends the position and go and reads the answers up to
// BestMove, passing the info lines to info as they come. When ctx ends
// first the engine is told Stop, and its BestMove still counts if it
// comes within grace; else the error wraps ErrNoAnswer. An error line
// before BestMove fails the search (the engine stays usable); an engine
// whose output ends gives ErrEnded.
func (c *Client) Search(ctx context.Context, pos Position, g Go, grace time.Duration, info func(Answer)) (BestMove, error) {
	if err := c.Ready(ctx.Done()); err != nil {
		return BestMove{}, err
	}
	if err := c.Send(pos); err != nil {
		return BestMove{}, err
	}
	if err := c.Send(g); err != nil {
		return BestMove{}, err
	}
	var refused string
	done, stopped := ctx.Done(), false
	for {
		a, err := c.Next(done)
		switch {
		case errors.Is(err, ErrNoAnswer) && !stopped:
			if err := c.Send(Stop{}); err != nil {
				return BestMove{}, err
			}
			gctx, cancel := context.WithTimeout(context.Background(), grace)
			defer cancel()
			done, stopped = gctx.Done(), true
			continue
		case errors.Is(err, ErrNoAnswer):
			return BestMove{}, fmt.Errorf("no bestmove within %v of stop (%w): %w", grace, ctx.Err(), err)
		case err != nil:
			return BestMove{}, err
		}
		switch a := a.(type) {
		case Error:
			refused = a.Format()
		case Info, MoveInfo, InfoString:
			info(a)
		case BestMove:
			if refused != "" {
				return a, fmt.Errorf("engine refused the position or go: %s", refused)
			}
			return a, nil
		}
	}
}
