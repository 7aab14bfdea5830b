package web

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServe answers requests until the context ends, then returns nil,
// having closed the listener; a listener that fails ends it with an error.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, time.Second) }()
	resp, err := http.Get("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Errorf("body %q", body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after the context ended: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the context ended")
	}
	if _, err := http.Get("http://" + ln.Addr().String()); err == nil {
		t.Error("still serving after the shutdown")
	}
	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln2.Close()
	if err := Serve(context.Background(), ln2, h, time.Second); err == nil {
		t.Error("Serve on a closed listener: no error")
	}
}

// ListenAndServe says where it serves and serves there until the context
// ends; an address it cannot listen on is a *ListenError.
func TestListenAndServe(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	if err := ListenAndServe(context.Background(), "not an address", h, time.Second, io.Discard); !errors.As(err, new(*ListenError)) {
		t.Errorf("a bad address: %v, want a *ListenError", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ListenAndServe(ctx, "127.0.0.1:0", h, time.Second, pw) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "serving on http://127.0.0.1:") {
		t.Fatalf("announced %q, %v", line, err)
	}
	url := strings.Fields(line)[2]
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("after the context ended: %v", err)
	}
}
