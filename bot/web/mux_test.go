package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMux serves togyz and the mangalas by servers of their own: info
// lists every game with its agent, and each request is answered by its
// game's server.
func TestMux(t *testing.T) {
	newServer := func(agentSpec string, games ...string) *Server {
		cfg := DefaultConfig()
		cfg.Agent, cfg.Games, cfg.Seed = agentSpec, games, 1
		s, err := NewServer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	m, err := NewMux(newServer("greedy", "mangala", "mangala-kale"), newServer("ab:depth=2", "togyz"))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(m)
	t.Cleanup(func() {
		ts.Close()
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	var info InfoResponse
	if code, body := call(t, ts, http.MethodGet, "/api/info", "", "", &info); code != 200 {
		t.Fatalf("info: %d %s", code, body)
	}
	var got []string
	for _, g := range info.Games {
		got = append(got, g.Name+"="+g.Agent)
	}
	if strings.Join(got, " ") != "mangala=greedy mangala-kale=greedy togyz=ab:depth=2" || info.Agent != "ab:depth=2" || info.Default != "togyz" {
		t.Errorf("info games %v, agent %q, default %q", got, info.Agent, info.Default)
	}
	cases := []struct {
		path, body string
		code       int
		want       string
	}{
		{"/api/move", `{"game":"mangala","moves":[]}`, 200, `"agent":"greedy"`},
		{"/api/move", `{"game":"togyz","moves":[7]}`, 200, `"agent":"ab:depth=2"`},
		{"/api/move", `{"moves":[]}`, 200, `"agent":"ab:depth=2"`}, // the default game: togyz
		{"/api/state", `{"game":"mangala-kale","moves":[4]}`, 200, `"game":"mangala-kale"`},
		{"/api/state", `{"game":"chess"}`, 400, `game \"chess\" not served`},
		{"/api/state", `{"game":`, 400, "bad_json"},
		{"/api/move", `{"game":"mangala","moves":[9]}`, 400, "illegal_move"},
		{"/api/nothing", `{}`, 404, "not_found"},
	}
	for _, c := range cases {
		code, body := post(t, ts, c.path, c.body, nil)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("%s %s: %d %s, want %d with %s", c.path, c.body, code, body, c.code, c.want)
		}
	}
	if code, body := call(t, ts, http.MethodGet, "/", "", "", nil); code != 200 || !strings.Contains(body, "site.js") {
		t.Errorf("the page: %d %.80s", code, body)
	}
	if _, err := NewMux(); err == nil {
		t.Error("NewMux() with no server: no error")
	}
	s := newServer("greedy", "mangala")
	defer s.Close()
	if _, err := NewMux(s, s); err == nil || !strings.Contains(err.Error(), "mangala served twice") {
		t.Errorf("a game served twice: %v", err)
	}
}

// FuzzMux sends any body to the routed paths: the answer is JSON, 200 or
// an error, never a panic.
func FuzzMux(f *testing.F) {
	cfg := DefaultConfig()
	cfg.Agent, cfg.Games, cfg.Seed = "greedy", []string{"mangala"}, 1
	a, err := NewServer(cfg)
	if err != nil {
		f.Fatal(err)
	}
	cfg.Agent, cfg.Games = "random", []string{"togyz", "mangala-kale"}
	b, err := NewServer(cfg)
	if err != nil {
		f.Fatal(err)
	}
	m, err := NewMux(a, b)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = m.Close() })
	for _, s := range []string{`{"game":"mangala","moves":[1]}`, `{"game":"togyz","record":"1. 76"}`, `{"game":7}`, `[`, ``} {
		f.Add("/api/state", s)
		f.Add("/api/move", s)
	}
	f.Fuzz(func(t *testing.T, path, body string) {
		if path != "/api/state" && path != "/api/move" {
			path = "/api/state"
		}
		w := httptest.NewRecorder()
		m.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %q: %d, not JSON: %s", path, body, w.Code, w.Body)
		}
	})
}
