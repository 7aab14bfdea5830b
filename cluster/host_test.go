package cluster

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
