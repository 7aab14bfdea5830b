package cluster

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOpenHost: the rules for the trainer's server. "off" gives none; ""
// the embedded one, whose usual address gives way when held, and which
// takes no token or key of the trainer's (an ErrHostConfig); a URL a
// standalone server, reached with the trainer's own inbox prefix.
func TestOpenHost(t *testing.T) {
	ctx := testCtx(t)
	open := func(cfg HostConfig) *Host {
		t.Helper()
		h, err := OpenHost(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close)
		return h
	}
	if h := open(HostConfig{URL: NoServer}); h.Conn != nil || h.Server != nil || h.About() != "" {
		t.Errorf("off: %+v", h)
	}
	// hold the default address (or find it held) and start there anyway
	if l, err := net.Listen("tcp", DefaultListen); err == nil {
		t.Cleanup(func() { l.Close() })
	}
	emb := open(HostConfig{Server: ServerConfig{Dir: filepath.Join(t.TempDir(), "nats"), Listen: DefaultListen}})
	if emb.Server == nil || emb.Server.Addr() == DefaultListen || !emb.Conn.IsConnected() {
		t.Errorf("embedded on the held %s: %+v", DefaultListen, emb)
	}
	if a := emb.About(); !strings.Contains(a, "nats: serving on "+emb.Server.URL()) || !strings.Contains(a, "--creds") {
		t.Errorf("embedded: %q", a)
	}
	for what, cfg := range map[string]HostConfig{
		"a token":     {Server: ServerConfig{Dir: t.TempDir()}, Conn: ConnConfig{Token: "t"}},
		"an NKey":     {Server: ServerConfig{Dir: t.TempDir()}, Conn: ConnConfig{NKeySeed: "x.nk"}},
		"bad address": {Server: ServerConfig{Dir: t.TempDir(), Listen: "10.255.255.1:x"}},
	} {
		if _, err := OpenHost(ctx, cfg); !errors.Is(err, ErrHostConfig) {
			t.Errorf("embedded with %s: %v, want ErrHostConfig", what, err)
		}
	}
	s := startServer(t, ServerConfig{})
	ext := open(HostConfig{URL: s.URL(), Conn: ConnConfig{Token: trainerToken}})
	if ext.Server != nil || ext.Conn.Opts.InboxPrefix != TrainerInbox || !strings.HasPrefix(ext.About(), "nats: using ") {
		t.Errorf("standalone: inbox %q, %q", ext.Conn.Opts.InboxPrefix, ext.About())
	}
	if _, err := OpenHost(ctx, HostConfig{URL: s.URL(), Conn: ConnConfig{Token: "wrong"}}); !errors.Is(err, ErrRefused) {
		t.Errorf("standalone, wrong token: %v", err)
	}
}

// TestOpenHostConcurrent: trainers that start at the same moment on the
// usual address each get a server, one there and the others on free
// ports; none waits for a bind that failed (once, all but one waited 30 s
// and failed: the address was free when probed, taken when bound).
func TestOpenHostConcurrent(t *testing.T) {
	usual := freeAddr(t)
	const n = 3
	addrs := make(chan string, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := HostConfig{Server: ServerConfig{Dir: filepath.Join(t.TempDir(), "nats", strconv.Itoa(i)), Listen: usual}}
			h, err := startEmbedded(cfg, usual)
			if err != nil {
				errs <- err
				return
			}
			t.Cleanup(h.Close)
			addrs <- h.Server.Addr()
		}()
	}
	start := time.Now()
	wg.Wait()
	close(addrs)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := map[string]bool{}
	for a := range addrs {
		if seen[a] {
			t.Errorf("two servers on %s", a)
		}
		seen[a] = true
	}
	if !seen[usual] {
		t.Errorf("none on the usual %s: %v", usual, seen)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("starting took %v", d)
	}
}

// TestStartServerAddrInUse: a server on an address another holds fails
// at once with ErrAddrInUse.
func TestStartServerAddrInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	start := time.Now()
	srv, err := StartServer(ServerConfig{Dir: t.TempDir(), Listen: l.Addr().String()})
	if err == nil {
		srv.Close()
		t.Fatalf("started on the held %s", l.Addr())
	}
	if !errors.Is(err, ErrAddrInUse) {
		t.Errorf("%v: not ErrAddrInUse", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("failing took %v", d)
	}
}

// freeAddr returns a loopback address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func TestWorkerID(t *testing.T) {
	for _, c := range []struct {
		host string
		pid  int
		want string
	}{
		{"vm-1", 42, "vm-1-42"},
		{"box.lan", 7, "box_lan-7"},
		{"", 3, "worker-3"},
		{strings.Repeat("h", 70), 1, strings.Repeat("h", 64)},
	} {
		got := WorkerID(c.host, c.pid)
		if got != c.want || ValidWorker(got) != nil {
			t.Errorf("WorkerID(%q, %d) = %q (%v), want %q", c.host, c.pid, got, ValidWorker(got), c.want)
		}
	}
}

func TestReadToken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(path, []byte("  abc123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if tok, err := ReadToken(path); err != nil || tok != "abc123" {
		t.Errorf("ReadToken: %q, %v", tok, err)
	}
	if _, err := ReadToken(path + ".none"); err == nil || !strings.HasPrefix(err.Error(), "cluster: token: ") {
		t.Errorf("a missing file: %v", err)
	}
}
