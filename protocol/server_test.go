package protocol

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeHandler answers with fixed lines; its search waits for ctx when
// told to, else answers at once.
type fakeHandler struct {
	pos  Position
	opts []SetOption
	goes []Go // the searches run
}

func (h *fakeHandler) Hello() []Answer {
	return []Answer{ID{Key: IDName, Value: "fake"}, Option{Name: OptionDepth, Type: Spin, Default: "0", Max: 9}}
}
func (h *fakeHandler) NewGame(c NewGame) error {
	if c.Game == "chess" {
		return errors.New("no chess")
	}
	return nil
}
func (h *fakeHandler) Position(p Position) error { h.pos = p; return nil }
func (h *fakeHandler) SetOption(c SetOption) error {
	h.opts = append(h.opts, c)
	return nil
}
func (h *fakeHandler) Show() []Answer { return []Answer{Raw{Line: "board"}} }
func (h *fakeHandler) Search(ctx context.Context, g Go, out func(Answer)) BestMove {
	h.goes = append(h.goes, g)
	out(Info{Has: InfoDepth, Depth: 1})
	if g.Depth == 9 || g.Infinite { // a slow search: until stop
		<-ctx.Done()
	}
	return BestMove{Pit: len(h.pos.Moves) + 1}
}

// session runs Serve on h and returns a client on it.
func session(t *testing.T, h Handler) (*Client, chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), inR, outW, h)
		outW.Close()
	}()
	c := NewClient(inW, outR)
	t.Cleanup(func() { c.Close(); inW.Close() })
	return c, done
}

// upTo reads answers up to the first of type T.
func upTo[T Answer](t *testing.T, c *Client) []Answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var got []Answer
	for {
		a, err := c.Next(ctx.Done())
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		got = append(got, a)
		if _, ok := a.(T); ok {
			return got
		}
	}
}

func TestServeAndClient(t *testing.T) {
	h := &fakeHandler{}
	c, done := session(t, h)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	hs, err := c.Hello(ctx.Done())
	if err != nil || hs.Name != "fake" || len(hs.Options) != 1 {
		t.Fatalf("Hello: %+v, %v", hs, err)
	}
	if err := c.NewGame("chess"); err != nil {
		t.Fatal(err)
	}
	if err := c.Ready(ctx.Done()); err == nil || !strings.Contains(err.Error(), "error newgame: no chess") {
		t.Errorf("Ready after a refused newgame: %v", err)
	}
	best, err := c.Search(ctx, Position{Moves: []int{1, 2}}, Go{Depth: 2}, time.Second, func(Answer) {})
	if err != nil || best.Pit != 3 {
		t.Errorf("Search: %+v, %v", best, err)
	}
	// An infinite search: isready is answered, other commands are refused,
	// and stop ends it.
	c.Send(Go{Infinite: true})
	c.Send(IsReady{})
	upTo[ReadyOK](t, c)
	c.Send(Position{})
	if got := upTo[Error](t, c); got[len(got)-1] != (Error{Text: "position during an infinite search: send stop first"}) {
		t.Errorf("position during go infinite: %v", got)
	}
	c.Send(Stop{})
	if got := upTo[BestMove](t, c); got[len(got)-1] != (BestMove{Pit: 3}) {
		t.Errorf("bestmove after stop: %v", got)
	}
	// A search cut by the client's context: stop is sent, the answer kept.
	sctx, scancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer scancel()
	if best, err := c.Search(sctx, Position{}, Go{Depth: 9}, 2*time.Second, func(Answer) {}); err != nil || best.Pit != 1 {
		t.Errorf("Search cut by its context: %+v, %v", best, err)
	}
	c.Send(SetOption{Name: "depth", Value: "3"})
	c.Send(Show{})
	if got := upTo[Raw](t, c); got[len(got)-1] != (Raw{Line: "board"}) || len(h.opts) != 1 {
		t.Errorf("show: %v, options %v", got, h.opts)
	}
	c.Send(Quit{})
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after quit: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not end after quit")
	}
}

func TestServePonder(t *testing.T) {
	h := &fakeHandler{}
	c, _ := session(t, h)
	// go ponder runs as an infinite search; ponderhit replaces it by the
	// search of its limits, and only that one answers bestmove.
	c.Send(Position{Moves: []int{4}})
	c.Send(Go{Depth: 2, Ponder: true})
	c.Send(IsReady{})
	upTo[ReadyOK](t, c)
	c.Send(PonderHit{})
	got := upTo[BestMove](t, c)
	if got[len(got)-1] != (BestMove{Pit: 2}) {
		t.Errorf("bestmove after ponderhit: %v", got)
	}
	c.Send(IsReady{})
	for _, a := range upTo[ReadyOK](t, c) {
		if _, ok := a.(BestMove); ok {
			t.Errorf("a second bestmove after ponderhit: %v", a)
		}
	}
	if len(h.goes) != 2 || h.goes[0] != (Go{Infinite: true}) || h.goes[1] != (Go{Depth: 2}) {
		t.Errorf("searches run: %+v", h.goes)
	}
	// stop during go ponder: the ponder search answers; a ponderhit
	// without a ponder search is refused.
	c.Send(Go{MoveTime: time.Second, Ponder: true})
	c.Send(Stop{})
	if got := upTo[BestMove](t, c); got[len(got)-1] != (BestMove{Pit: 2}) {
		t.Errorf("bestmove after stop of go ponder: %v", got)
	}
	c.Send(PonderHit{})
	if got := upTo[Error](t, c); got[len(got)-1] != (Error{Text: "ponderhit: no go ponder search is running"}) {
		t.Errorf("ponderhit without go ponder: %v", got)
	}
}

func TestServeRefusesBadLines(t *testing.T) {
	var out strings.Builder
	in := "frobnicate\n\n   \ngo sims\n" + strings.Repeat("x", MaxLine+5) + "\nhelp\nisready\n"
	if err := Serve(context.Background(), strings.NewReader(in), &out, &fakeHandler{}); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	want := []string{`error unknown command "frobnicate" (try help)`, `error go: "sims" needs a number`, "error line too long (limit 65536 bytes)"}
	for i, w := range want {
		if i >= len(lines) || !strings.HasPrefix(lines[i], w) {
			t.Fatalf("lines %q: want %q at %d", lines, w, i)
		}
	}
	if lines[len(lines)-1] != "readyok" || !strings.HasPrefix(lines[3], "info string kumalak | uci") {
		t.Errorf("help and isready: %q", lines[3:])
	}
}

func TestClientEnded(t *testing.T) {
	c := NewClient(io.Discard, strings.NewReader("id name x\n"))
	if _, err := c.Hello(nil); !errors.Is(err, ErrEnded) {
		t.Errorf("Hello on an engine that ends: %v, want ErrEnded", err)
	}
	c.Close()
	if err := c.Send(IsReady{}); err == nil {
		t.Error("Send after Close succeeded")
	}
}

// failingReader returns its text, then err.
type failingReader struct {
	text string
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.text == "" {
		return 0, r.err
	}
	n := copy(p, r.text)
	r.text = r.text[n:]
	return n, nil
}

func TestClientReadsLines(t *testing.T) {
	broken := errors.New("pipe broke")
	tests := []struct {
		name    string
		out     io.Reader
		want    []Answer
		wantErr error // besides ErrEnded
	}{
		{"crlf and spaces", strings.NewReader("  readyok\r\nbestmove 3\r\n"),
			[]Answer{ReadyOK{}, BestMove{Pit: 3}}, nil},
		{"an overlong line is dropped, not the end", strings.NewReader("readyok\ninfo string " + strings.Repeat("x", 2<<20) + "\nbestmove 3\n"),
			[]Answer{ReadyOK{}, BestMove{Pit: 3}}, nil},
		{"a last line without newline", strings.NewReader("readyok\nbestmove 4"),
			[]Answer{ReadyOK{}, BestMove{Pit: 4}}, nil},
		{"a read error is kept", &failingReader{text: "readyok\n", err: broken},
			[]Answer{ReadyOK{}}, broken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewClient(io.Discard, tt.out)
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			done := ctx.Done()
			for _, want := range tt.want {
				a, err := c.Next(done)
				if err != nil {
					t.Fatalf("want %v: %v", want, err)
				}
				if a.Format() != want.Format() {
					t.Errorf("got %q, want %q", a.Format(), want.Format())
				}
			}
			_, err := c.Next(done)
			if !errors.Is(err, ErrEnded) {
				t.Fatalf("after the answers: %v, want ErrEnded", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("end: %v, want it to wrap %v", err, tt.wantErr)
			}
		})
	}
}
