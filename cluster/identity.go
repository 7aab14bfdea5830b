package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/schollz/progressbar/v3"
)

// TokenSource says where a client's token for a standalone server comes
// from: given, in a file, or else, for a standalone server's URL, the
// environment's KUMALAK_NATS_TOKEN.
type TokenSource struct {
	Token string // the token itself
	File  string // a file holding it (ReadToken)
	URL   string // the server's; "" or NoServer: the embedded server, which takes no token
}

// TokenEnv is the environment variable a standalone server's token is
// read from when none is given.
const TokenEnv = "KUMALAK_NATS_TOKEN"

// ErrTokenSource is wrapped by Secret when both a token and a file are given.
var ErrTokenSource = errors.New("a token and a token file: give one")

// Secret returns the token: Token, File's, or, for a standalone server,
// getenv(TokenEnv). An exported token is not meant for the embedded server.
func (s TokenSource) Secret(getenv func(string) string) (string, error) {
	switch {
	case s.Token != "" && s.File != "":
		return "", fmt.Errorf("cluster: %w", ErrTokenSource)
	case s.Token != "":
		return s.Token, nil
	case s.File != "":
		return ReadToken(s.File)
	case s.URL == "" || s.URL == NoServer:
		return "", nil
	}
	return getenv(TokenEnv), nil
}

// Identity is who a worker is: its id, the run it joins ("" = the
// server's current run) and the credentials it signs in with, if any.
type Identity struct {
	ID, Run string
	Creds   *WorkerCreds
}

// IdentityError is a worker identity that cannot be: Field names the
// setting at fault, "creds" or "id".
type IdentityError struct {
	Field string
	Err   error
}

func (e *IdentityError) Error() string { return "cluster: worker " + e.Field + ": " + e.Err.Error() }

func (e *IdentityError) Unwrap() error { return e.Err }

// ErrOtherWorker is wrapped by ResolveIdentity's error when the
// credentials are for another worker or run than the ones asked.
var ErrOtherWorker = errors.New("not the worker or run asked")

// ResolveIdentity returns a worker's identity: from the credentials file
// creds when given, whose worker and run must equal id and run when those
// are not "", else id (default DefaultWorkerID) and run. Its errors are
// IdentityErrors.
func ResolveIdentity(creds, id, run string) (Identity, error) {
	if creds != "" {
		cr, err := ReadWorkerCreds(creds)
		if err != nil {
			return Identity{}, &IdentityError{"creds", err}
		}
		if (id != "" && id != cr.Worker) || (run != "" && run != cr.Run) {
			return Identity{}, &IdentityError{"creds", fmt.Errorf("%s are for worker %s of run %s, %w", creds, cr.Worker, cr.Run, ErrOtherWorker)}
		}
		return Identity{ID: cr.Worker, Run: cr.Run, Creds: &cr}, nil
	}
	if id == "" {
		id = DefaultWorkerID()
	}
	if err := ValidWorker(id); err != nil {
		return Identity{}, &IdentityError{"id", err}
	}
	return Identity{ID: id, Run: run}, nil
}

// DefaultWorkerID is WorkerID of this host and process.
func DefaultWorkerID() string {
	host, _ := os.Hostname() // "" on error: WorkerID names it "worker"
	return WorkerID(host, os.Getpid())
}

// WorkerRun is one worker process's session: how it connects, and the
// worker it runs.
type WorkerRun struct {
	Conn   ConnConfig // its Refused is RunWorker's own
	Worker WorkerConfig
	// Started is called once connected, with the worker and the server's
	// URL (its secrets redacted); nil = nothing.
	Started func(w *Worker, url string)
}

// RunWorker connects by r.Conn (Connect) and runs a worker of r.Worker
// on the connection until ctx ends or the games asked for are played,
// returning nil, or until the server refuses the credentials on a
// reconnection: they were revoked, so the worker stops as at ctx's end
// but publishes nothing more (its connection is closed), and RunWorker
// returns the refusal. The worker is returned for its Progress once it
// was made (nil before).
func RunWorker(ctx context.Context, r WorkerRun) (*Worker, error) {
	ctx, cut := context.WithCancelCause(ctx)
	defer cut(nil)
	var conn atomic.Pointer[nats.Conn]
	cc := r.Conn
	cc.Refused = func(err error) {
		cut(err)
		if nc := conn.Load(); nc != nil {
			nc.Close()
		}
	}
	nc, err := Connect(ctx, cc)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	conn.Store(nc)
	w, err := NewWorker(nc, r.Worker)
	if err != nil {
		return nil, err
	}
	if r.Started != nil {
		r.Started(w, nc.ConnectedUrlRedacted())
	}
	if err := w.Run(ctx); err != nil {
		return w, err
	}
	if err := context.Cause(ctx); !errors.Is(err, context.Canceled) {
		return w, err // nil when the games asked for were played
	}
	return w, nil
}

// Status is the progress line of a running worker: the network playing,
// samples, batches published and waiting.
func (p WorkerProgress) Status() string {
	return fmt.Sprintf("worker net v%d  %d samples  %d batches  queued %d", p.Network, p.Samples, p.Batches, p.Queued)
}

// Summary is the account of a stopped worker: its run, games, samples
// and batches published, re-sent and lost.
func (p WorkerProgress) Summary() string {
	return fmt.Sprintf("run %s, %d games, %d samples, %d batches published (%d re-sent), %d samples lost",
		p.Run, p.Games, p.Samples, p.Batches, p.Duplicates, p.Lost)
}

// ProgressBar returns a progress bar on out of the worker's finished
// games, of games in all (0: no end, a spinner), its line the network,
// samples, batches and queue (WorkerProgress.Status): draw redraws it
// from Progress (safe on any goroutine, one at a time; a ticker calls
// it), finish ends it with a line break.
func (w *Worker) ProgressBar(out io.Writer, games int) (draw, finish func()) {
	total := games
	if total == 0 {
		total = -1
	}
	bar := progressbar.NewOptions(total, progressbar.OptionSetWriter(out), progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(24), progressbar.OptionThrottle(250*time.Millisecond),
		progressbar.OptionSetDescription("worker"), progressbar.OptionSpinnerType(14),
		// No spinner goroutine of the library's own (it reads the bar unlocked):
		// draw renders, and the spinner turns at each render.
		progressbar.OptionSetSpinnerChangeInterval(0))
	draw = func() {
		p := w.Progress()
		bar.Describe(p.Status())
		_ = bar.Set64(p.Games)
	}
	finish = func() {
		_ = bar.Finish()
		_, _ = io.WriteString(out, "\n")
	}
	return draw, finish
}
