package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Serve serves h on ln until ctx ends, then shuts down, letting the
// requests in flight finish within timeout, the longest a request may take
// (Config.Timeout). Its HTTP server bounds the reading of a request and the
// writing of an answer, so that a slow client cannot hold a connection.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, timeout time.Duration) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: timeout + 10*time.Second, IdleTimeout: time.Minute}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("web: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("web: shutdown: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("web: %w", err)
	}
	return nil
}

// ListenError is ListenAndServe's error when the address cannot be
// listened on (taken, or not host:port).
type ListenError struct {
	Addr string
	Err  error
}

func (e *ListenError) Error() string { return fmt.Sprintf("web: listen %s: %v", e.Addr, e.Err) }

func (e *ListenError) Unwrap() error { return e.Err }

// ListenAndServe listens on addr (host:port; port 0 picks a free one),
// says where on out ("serving on http://ADDR (Ctrl-C to stop)") and
// serves h until ctx ends (Serve).
func ListenAndServe(ctx context.Context, addr string, h http.Handler, timeout time.Duration, out io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &ListenError{addr, err}
	}
	fmt.Fprintf(out, "serving on http://%s (Ctrl-C to stop)\n", ln.Addr())
	return Serve(ctx, ln, h, timeout)
}
