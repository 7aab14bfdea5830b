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

func TestLoopbackAddr(t *testing.T) {
	cases := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:4222", true}, {"127.1.2.3:0", true}, {"localhost:4222", true}, {"[::1]:4222", true},
		{"::1", true}, {"127.0.0.1", true},
		{"0.0.0.0:4222", false}, {":4222", false}, {"10.0.0.1:4222", false}, {"[::]:4222", false},
		{"127.example.com:4222", false}, {"", false},
	}
	for _, c := range cases {
		if got := LoopbackAddr(c.addr); got != c.want {
			t.Errorf("LoopbackAddr(%q) = %v, want %v", c.addr, got, c.want)
		}
	}
}

func TestParseNKeys(t *testing.T) {
	cases := []struct {
		text string
		want []WorkerKey
		err  string
	}{
		{"UA\n", []WorkerKey{{"UA", ""}}, ""},
		{"# workers\nUA w1\n\nUB  # any worker\n", []WorkerKey{{"UA", "w1"}, {"UB", ""}}, ""},
		{"UA w1 extra\n", nil, "line 1: want a key and at most a worker id"},
		{"# none\n\n", nil, "no keys"},
	}
	for _, c := range cases {
		got, err := ParseNKeys(strings.NewReader(c.text))
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%q: %v, %v, want %v", c.text, got, err, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.text, got, c.want)
			}
		}
	}
	if _, err := ReadNKeys(filepath.Join(t.TempDir(), "none")); err == nil || !strings.HasPrefix(err.Error(), "cluster: nkeys: ") {
		t.Errorf("a missing file: %v", err)
	}
}

// FuzzParseNKeys: ParseNKeys never panics, and every key it returns is one
// word, its worker id at most one.
func FuzzParseNKeys(f *testing.F) {
	for _, s := range []string{"UA\n", "UA w1 # c\n", "# only\n", "a b c\n", "\x00\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		keys, err := ParseNKeys(strings.NewReader(text))
		if err != nil {
			return
		}
		if len(keys) == 0 {
			t.Fatalf("%q: no keys and no error", text)
		}
		for _, k := range keys {
			if k.Public == "" || strings.ContainsAny(k.Public+k.Worker, " \t\n#") {
				t.Fatalf("%q: key %+v", text, k)
			}
		}
	})
}

// TestStartHost: beyond loopback without credentials a token is made in
// the token file, readable by its owner only, and reused; on loopback none
// is; the default address, when taken, gives way to another port.
func TestStartHost(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "cluster", "token")
	start := func(listen string) (*Server, string) {
		t.Helper()
		srv, made, err := StartHost(ServerConfig{Dir: filepath.Join(t.TempDir(), "nats"), Listen: listen}, tokenFile)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		return srv, made
	}
	if _, made := start("127.0.0.1:0"); made != "" {
		t.Errorf("loopback: token file %q made", made)
	}
	srv, made := start("0.0.0.0:0")
	info, err := os.Stat(tokenFile)
	if made != tokenFile || err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("beyond loopback: token file %q, %v, %v", made, info, err)
	}
	first, _ := os.ReadFile(tokenFile)
	srv.Close()
	start("0.0.0.0:0")
	if again, _ := os.ReadFile(tokenFile); string(again) != string(first) {
		t.Errorf("the token was made anew: %q, then %q", first, again)
	}

	// hold the default address (or find it held) and start there anyway
	if l, err := net.Listen("tcp", DefaultListen); err == nil {
		t.Cleanup(func() { l.Close() })
	}
	if srv, _ := start(DefaultListen); srv.Addr() == DefaultListen {
		t.Errorf("started on the held %s", DefaultListen)
	}
	if _, _, err := StartHost(ServerConfig{Dir: t.TempDir(), Listen: "10.255.255.1:x"}, tokenFile); err == nil {
		t.Error("a bad address: no error")
	}
}

// TestStartHostConcurrent: trainers that start at the same moment on the
// usual address each get a server, one there and the others on free
// ports; none waits for a bind that failed (once, all but one waited 30 s
// and failed: the address was free when probed, taken when bound).
func TestStartHostConcurrent(t *testing.T) {
	usual := freeAddr(t)
	const n = 3
	addrs := make(chan string, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := ServerConfig{Dir: filepath.Join(t.TempDir(), "nats", strconv.Itoa(i)), Listen: usual}
			srv, _, err := startHost(cfg, filepath.Join(t.TempDir(), "token"), usual)
			if err != nil {
				errs <- err
				return
			}
			t.Cleanup(srv.Close)
			addrs <- srv.Addr()
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
