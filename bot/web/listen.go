package web

import (
	"context"
	"errors"
	"fmt"
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
