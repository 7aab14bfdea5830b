package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kumalak/agent"
	"kumalak/env"
)

// newTestServer serves agent spec s over httptest.
func newTestServer(t *testing.T, s string, tweak func(*Config)) *httptest.Server {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Agent, cfg.Seed = s, 1
	if tweak != nil {
		tweak(&cfg)
	}
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	return ts
}

// call sends a request and decodes a JSON answer into out (when not nil);
// it returns the status and the raw body.
func call(t *testing.T, ts *httptest.Server, method, path, ctype, body string, out any) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	return resp.StatusCode, string(raw)
}

func post(t *testing.T, ts *httptest.Server, path, body string, out any) (int, string) {
	t.Helper()
	return call(t, ts, http.MethodPost, path, "application/json", body, out)
}

func TestServerInfoAndState(t *testing.T) {
	ts := newTestServer(t, "ab:depth=2", func(c *Config) { c.Card = json.RawMessage(`{"sims":64,"elo":1500}`) })
	var info InfoResponse
	if code, body := call(t, ts, http.MethodGet, "/api/info", "", "", &info); code != 200 {
		t.Fatalf("info: %d %s", code, body)
	}
	if info.Agent != "ab:depth=2" || len(info.Games) != len(env.Games()) || string(info.Card) != `{"sims":64,"elo":1500}` || info.Limits.MaxBody != 64<<10 ||
		info.Limits.MaxDepth != agent.MaxDepth {
		t.Errorf("info %+v", info)
	}
	// The facts the page draws and writes each game by: no game name is
	// compared in the page.
	for _, g := range info.Games {
		spec, _ := env.Lookup(g.Name)
		if g.Notation != (spec.Notation != nil) || g.Alternate == spec.Facts.ExtraTurn || g.Example == "" {
			t.Errorf("%s: notation %v, alternate %v, example %q", g.Name, g.Notation, g.Alternate, g.Example)
		}
	}
	if info.Default != env.DefaultGame {
		t.Errorf("default game %q, want %q", info.Default, env.DefaultGame)
	}
	var v View
	if code, body := post(t, ts, "/api/state", `{"game":"togyz","position":"start","moves":[]}`, &v); code != 200 {
		t.Fatalf("state: %d %s", code, body)
	}
	if v.ToMove != "w" || len(v.Legal) != 9 || v.Pits[0][0] != 9 || v.Pits[1][8] != 9 || v.Result != "*" || v.Over || v.Ply != 0 {
		t.Errorf("start view %+v", v)
	}
	spec, _ := env.Lookup("togyz")
	want, _ := spec.Replay("", []int{7, 3})
	if post(t, ts, "/api/state", `{"moves":[7,3]}`, &v); v.Position != want.String() || v.Ply != 2 || !slices.Equal(v.Moves, []int{7, 3}) {
		t.Errorf("after 7 3: %+v, want %s", v, want)
	}
	tuzdyk := "9,9,9,9,9,9,9,9,9/9,9,0,9,9,9,9,9,15 3 0 3 - b"
	if code, body := post(t, ts, "/api/state", `{"game":"togyz","position":"`+tuzdyk+`"}`, &v); code != 200 || v.Special != [2]int{3, 0} || v.Stores != [2]int{3, 0} {
		t.Errorf("tuzdyk view: %d %s", code, body)
	}
	over := "0,0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1,1 82 71 - - w"
	if post(t, ts, "/api/state", `{"position":"`+over+`"}`, &v); !v.Over || v.Winner != "w" || v.Result != "1-0" || len(v.Legal) != 0 {
		t.Errorf("finished view %+v", v)
	}
}

// TestExampleRecords: every game's example record reads back as the moves
// it was written from, in its notation (togyz's numbered pairs with their
// marks, the others' pit numbers).
func TestExampleRecords(t *testing.T) {
	for _, name := range env.Games() {
		spec, _ := env.Lookup(name)
		ex := exampleRecord(spec)
		moves, err := spec.ParseMoves(spec.New(), ex)
		if err != nil || len(moves) != 4 {
			t.Errorf("%s: example %q reads as %v, %v", name, ex, moves, err)
		}
	}
	togyz, _ := env.Lookup("togyz")
	if ex := exampleRecord(togyz); !strings.HasPrefix(ex, "1. ") {
		t.Errorf("togyz example %q: want numbered pairs", ex)
	}
}

func TestServerMove(t *testing.T) {
	ts := newTestServer(t, "ab:depth=3", nil)
	var r MoveResponse
	code, body := post(t, ts, "/api/move", `{"game":"mangala","position":"start","moves":[3]}`, &r)
	if code != 200 {
		t.Fatalf("move: %d %s", code, body)
	}
	spec, _ := env.Lookup("mangala")
	before, _ := spec.Replay("start", []int{3})
	if _, err := env.CheckMove(before, r.Move); err != nil {
		t.Errorf("move %d: %v", r.Move, err)
	}
	if r.Before != before.String() || r.State.Ply != 2 || !slices.Equal(r.State.Moves, []int{3, r.Move}) || r.PV[0] != r.Move ||
		r.Depth != 3 || r.Nodes == 0 || len(r.Moves) == 0 || r.WinProb < 0 || r.WinProb > 1 || r.Agent != "ab:depth=3" {
		t.Errorf("answer %s", body)
	}
	code, body = post(t, ts, "/api/move", `{"game":"togyz","sims":100,"time_ms":40,"depth":2}`, &r)
	if code != 200 || r.Agent != "ab:depth=2,time=40ms" || !slices.Equal(r.Ignored, []string{"sims"}) {
		t.Errorf("move with limits: %d %s", code, body)
	}
	// The line in togyz notation: a token a move, the first the move
	// played and its landing pit ("76"), never a pit number alone.
	if toks := strings.Fields(r.Line); len(toks) != len(r.PV) || len(toks) == 0 ||
		!strings.HasPrefix(toks[0], strconv.Itoa(r.Move)) || len(toks[0]) < 2 {
		t.Errorf("line %q for pv %v", r.Line, r.PV)
	}
}

func TestServerBadRequests(t *testing.T) {
	ts := newTestServer(t, "random", func(c *Config) { c.MaxMoves = 50 })
	big := `{"moves":[` + strings.Repeat("1,", 40000) + `1]}`
	cases := []struct {
		method, path, ctype, body string
		code                      int
		errCode, msg              string
	}{
		{"POST", "/api/state", "application/json", `{"game":`, 400, "bad_json", "bad JSON"},
		{"POST", "/api/state", "application/json", `{"game":"togyz","colour":"w"}`, 400, "bad_json", `unknown field "colour"`},
		{"POST", "/api/state", "application/json", `{"game":"togyz"} {}`, 400, "bad_json", "data after the JSON object"},
		{"POST", "/api/state", "application/json", `{"moves":"7 3"}`, 400, "bad_json", `field "moves" is a string, want a list of whole numbers`},
		{"POST", "/api/state", "application/json", big, 413, "too_large", "request body over 65536 bytes"},
		{"POST", "/api/state", "text/plain", `{}`, 415, "bad_content_type", "want application/json"},
		{"POST", "/api/state", "application/json", `{"game":"chess"}`, 400, "bad_game", `game "chess" not served`},
		{"POST", "/api/state", "application/json", `{"position":"9,9/9,9 0 0 - - w"}`, 400, "bad_position", "togyz: position"},
		{"POST", "/api/state", "application/json", `{"game":"mangala","moves":[1,2,3,0]}`, 400, "illegal_move", "move 4 (pit 0)"},
		{"POST", "/api/state", "application/json", `{"moves":[` + strings.Repeat("1,", 50) + `1]}`, 400, "too_many_moves", "51 moves, limit 50"},
		{"POST", "/api/move", "application/json", `{"sims":-1}`, 400, "bad_limit", "sims -1 out of range"},
		{"POST", "/api/move", "application/json", `{"time_ms":999999}`, 400, "bad_limit", "time_ms 999999 out of range"},
		{"POST", "/api/move", "application/json", `{"position":"0,0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1,1 82 71 - - w"}`, 409, "game_over", "the game is over (1-0)"},
		{"GET", "/api/move", "", "", 405, "method_not_allowed", "GET /api/move: use POST"},
		{"POST", "/api/info", "application/json", "{}", 405, "method_not_allowed", "use GET"},
		{"GET", "/api/nope", "", "", 404, "not_found", "no API /api/nope"},
		{"DELETE", "/", "", "", 405, "method_not_allowed", "use GET"},
	}
	for _, c := range cases {
		code, body := call(t, ts, c.method, c.path, c.ctype, c.body, nil)
		var e struct{ Error, Code string }
		if err := json.Unmarshal([]byte(body), &e); err != nil || code != c.code || e.Code != c.errCode || !strings.Contains(e.Error, c.msg) {
			t.Errorf("%s %s %.40s: %d %s; want %d %s %q", c.method, c.path, c.body, code, body, c.code, c.errCode, c.msg)
		}
	}
	resp, err := ts.Client().Get(ts.URL + "/api/move")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Allow") != "POST" {
		t.Errorf("405 without Allow: POST: %v", resp.Header)
	}
}

func TestServerPage(t *testing.T) {
	ts := newTestServer(t, "random", nil)
	for path, want := range map[string]string{"/": `<svg id="board"`, "/app.js": "/api/move", "/style.css": ".pit.legal"} {
		resp, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(want)) || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d, %d bytes, CSP %q", path, resp.StatusCode, len(body), resp.Header.Get("Content-Security-Policy"))
		}
	}
	if code, _ := call(t, ts, "GET", "/missing.txt", "", "", nil); code != 404 {
		t.Errorf("missing file: %d", code)
	}
}

func TestServerTimeout(t *testing.T) {
	ts := newTestServer(t, "ab:depth=40,tt=1", func(c *Config) { c.Timeout, c.MaxTime = 200*time.Millisecond, 100*time.Millisecond })
	began := time.Now()
	// A search cut by the request's time limit answers the best move of its
	// last finished iteration.
	code, body := post(t, ts, "/api/move", `{}`, nil)
	if code != 200 || !strings.Contains(body, `"move":`) {
		t.Errorf("slow search: %d %s", code, body)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("answered after %v", d)
	}
	if code, body := post(t, ts, "/api/move", `{"time_ms":50}`, nil); code != 200 {
		t.Errorf("after a timeout, a bounded search: %d %s", code, body)
	}
}

// TestServerConcurrent sends requests at once: each gets a legal move, and
// under -race the pool shows no sharing.
func TestServerConcurrent(t *testing.T) {
	ts := newTestServer(t, "mcts:sims=100", func(c *Config) { c.Searches, c.IdleAgents = 2, 2 })
	spec, _ := env.Lookup("togyz")
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			moves := []int{1 + i%9}
			var r MoveResponse
			code, body := post(t, ts, "/api/move", `{"moves":[`+string(rune('1'+i%9))+`]}`, &r)
			if code != 200 {
				t.Errorf("request %d: %d %s", i, code, body)
				return
			}
			st, _ := spec.Replay("", moves)
			if _, err := env.CheckMove(st, r.Move); err != nil || r.Nodes < 100 {
				t.Errorf("request %d: move %d (%v), %d simulations", i, r.Move, err, r.Nodes)
			}
		})
	}
	wg.Wait()
}

func TestNewServerErrors(t *testing.T) {
	for name, tweak := range map[string]func(*Config){
		"bad agent":  func(c *Config) { c.Agent = "alphago" },
		"no agent":   func(c *Config) { c.Agent = "" },
		"bad game":   func(c *Config) { c.Games = []string{"go"} },
		"bad card":   func(c *Config) { c.Card = json.RawMessage("{") },
		"time limit": func(c *Config) { c.MaxTime = c.Timeout },
		"body limit": func(c *Config) { c.MaxBody = 10 },
	} {
		cfg := DefaultConfig()
		cfg.Agent = "random"
		tweak(&cfg)
		if _, err := NewServer(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestServerLimitsOfOtherDimensions pins the HTTP side of the same bugs:
// sims asked of an alpha-beta bot left it at depth 6, not its own 3.
func TestServerLimitsOfOtherDimensions(t *testing.T) {
	ts := newTestServer(t, "ab:depth=3", nil)
	var r MoveResponse
	code, body := post(t, ts, "/api/move", `{"game":"togyz","sims":100}`, &r)
	if code != 200 || r.Depth != 3 || r.Agent != "ab:depth=3" || !reflect.DeepEqual(r.Ignored, []string{"sims"}) {
		t.Errorf("ab:depth=3 asked for sims 100: %d %s", code, body)
	}
	code, body = post(t, ts, "/api/move", `{"game":"togyz"}`, &r)
	if code != 200 || r.Depth != 3 || r.Agent != "ab:depth=3" {
		t.Errorf("ab:depth=3 after a request with limits: %d %s", code, body)
	}
	code, body = post(t, ts, "/api/move", fmt.Sprintf(`{"game":"togyz","depth":%d}`, agent.MaxDepth+1), &r)
	if code != 400 {
		t.Errorf("depth above %d: %d %s", agent.MaxDepth, code, body)
	}
	mc := newTestServer(t, "mcts:sims=60", nil)
	code, body = post(t, mc, "/api/move", `{"game":"mangala","depth":5}`, &r)
	if code != 200 || r.Agent != "mcts:sims=60" || r.Nodes < 60 || r.Nodes > 200 || !reflect.DeepEqual(r.Ignored, []string{"depth"}) {
		t.Errorf("mcts:sims=60 asked for depth 5: %d %s", code, body)
	}
}

// TestServerFieldTypes: a request field of the wrong type is refused with
// the field's JSON name and what it holds, never Go's struct or type names.
func TestServerFieldTypes(t *testing.T) {
	ts := newTestServer(t, "random", nil)
	for path, req := range map[string]any{"/api/state": StateRequest{}, "/api/move": MoveRequest{}} {
		typ := reflect.TypeOf(req)
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			bad, want := `"x"`, `is a string, want a whole number`
			switch f.Type.Kind() {
			case reflect.String:
				bad, want = `7`, `is a number, want a string`
			case reflect.Slice:
				want = `is a string, want a list of whole numbers`
			}
			body := fmt.Sprintf(`{%q:%s}`, name, bad)
			code, got := call(t, ts, "POST", path, "application/json", body, nil)
			var e struct{ Error, Code string }
			if err := json.Unmarshal([]byte(got), &e); err != nil || code != 400 || e.Code != "bad_json" ||
				!strings.Contains(e.Error, fmt.Sprintf("field %q %s", name, want)) ||
				strings.Contains(e.Error, "Go ") || strings.Contains(e.Error, typ.Name()) {
				t.Errorf("POST %s %s: %d %s; want 400 bad_json naming field %q: %s", path, body, code, got, name, want)
			}
		}
	}
	for body, want := range map[string]string{
		`{"moves":["7"]}`: `field "moves" is a string, want a whole number`, // an element of the list
		`{"moves":[1.5]}`: `field "moves" is the number 1.5, want a whole number`,
		`{"sims":1e99}`:   `field "sims" is the number 1e99, want a whole number`,
		`[1,2]`:           `the body is an array, want an object`,
		`"togyz"`:         `the body is a string, want an object`,
	} {
		_, got := call(t, ts, "POST", "/api/move", "application/json", body, nil)
		var e struct{ Error string }
		if err := json.Unmarshal([]byte(got), &e); err != nil || !strings.Contains(e.Error, want) {
			t.Errorf("POST /api/move %s: %s, want %q", body, got, want)
		}
	}
}
