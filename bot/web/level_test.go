package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"kumalak/agent"
)

// TestServerLevels: a model bot offers its levels in /api/info, with the
// measured ratings of each game; a move at a level searches as the level
// says (its own simulations, the time asked for), pooled apart from the
// bot's own agents; a level out of range, beside sims, or of a bot that
// plays none is refused with code bad_level.
func TestServerLevels(t *testing.T) {
	ts := newTestServer(t, "model", func(c *Config) { c.Games = []string{"mangala"} })
	var info InfoResponse
	if code, body := call(t, ts, "GET", "/api/info", "", "", &info); code != 200 || info.Levels != agent.MaxLevel {
		t.Fatalf("info: %d %s", code, body)
	}
	scale, ok := agent.LevelScaleOf("mangala")
	if g := info.Games[0]; !ok || len(g.LevelElo) != agent.MaxLevel || g.LevelElo[2] != int(scale.Elo[2]+0.5) || g.LevelAnchor != scale.Anchor {
		t.Errorf("info's mangala: %+v, want the measured levels %+v", g, scale)
	}
	l2, _ := agent.LevelOf("mangala", 2)
	for range 2 { // the second from the pool
		var r MoveResponse
		if code, body := post(t, ts, "/api/move", `{"game":"mangala","level":2,"time_ms":5000}`, &r); code != 200 {
			t.Fatalf("move at level 2: %d %s", code, body)
		}
		if r.Agent != "model:time=5s,level=2" || r.Nodes != int64(l2.Sims) {
			t.Errorf("move at level 2: agent %q, %d simulations; want level 2's %d", r.Agent, r.Nodes, l2.Sims)
		}
	}
	var r MoveResponse
	if code, body := post(t, ts, "/api/move", `{"game":"mangala","sims":30}`, &r); code != 200 || r.Nodes != 30 || r.Agent != "model:sims=30" {
		t.Errorf("move at full strength after a level: %d %s", code, body)
	}
	for body, want := range map[string]string{
		`{"level":11}`:          "level 11 out of range 0..10",
		`{"level":-1}`:          "level -1 out of range",
		`{"level":3,"sims":50}`: "level 3 sets the search",
	} {
		code, raw := post(t, ts, "/api/move", body, nil)
		var e struct{ Error, Code string }
		if err := json.Unmarshal([]byte(raw), &e); err != nil || code != 400 || e.Code != "bad_level" || !strings.Contains(e.Error, want) {
			t.Errorf("%s: %d %s, want bad_level %q", body, code, raw, want)
		}
	}
	at3 := newTestServer(t, "model:level=3", func(c *Config) { c.Games = []string{"mangala"} })
	if code, body := post(t, at3, "/api/move", `{"level":2}`, &r); code != 200 || r.Agent != "model:level=2" || r.Nodes != int64(l2.Sims) {
		t.Errorf("level 2 of a bot at level 3: %d %s", code, body)
	}
	ab := newTestServer(t, "ab:depth=2", nil)
	info = InfoResponse{}
	if code, body := call(t, ab, "GET", "/api/info", "", "", &info); code != 200 || info.Levels != 0 || info.Games[0].LevelElo != nil {
		t.Errorf("ab's info: %d %s", code, body)
	}
	code, raw := post(t, ab, "/api/move", `{"level":1}`, nil)
	if code != 400 || !strings.Contains(raw, "bad_level") || !strings.Contains(raw, "plays no levels") {
		t.Errorf("a level of ab: %d %s", code, raw)
	}
}

// TestBrowserLevel: the page offers the model bot's levels, names the
// level chosen with its rating, and asks for the bot's own moves at it
// (hints stay at full strength).
func TestBrowserLevel(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Agent, cfg.Seed, cfg.Games = "model", 1, []string{"mangala"}
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var levels []int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/move" {
			b, _ := io.ReadAll(r.Body)
			var req MoveRequest
			_ = json.Unmarshal(b, &req)
			mu.Lock()
			levels = append(levels, req.Level)
			mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	p := openPage(t, ts, 1200, 900)
	if n := p.Text(`String(document.querySelectorAll("#level option").length) + (document.getElementById("levelbox").hidden ? " hidden" : "")`); n != "11" {
		t.Fatalf("level selector: %s options, want 11 shown", n)
	}
	p.Run("level 2, as black", chromedp.Evaluate[chromedp.Void](`(() => {
		const l = document.getElementById("level");
		l.value = "2";
		l.dispatchEvent(new Event("change"));
		const s = document.getElementById("side");
		s.value = "b";
		s.dispatchEvent(new Event("change"));
	})()`), p.Wait(`document.getElementById("botmove").textContent !== "" && document.querySelector("#board .pit.legal") !== null`))
	scale, _ := agent.LevelScaleOf("mangala")
	if got, want := p.Text(`document.getElementById("agent").textContent`), fmt.Sprintf("level 2 (rated +%d, random = 0)", int(scale.Elo[1]+0.5)); !strings.Contains(got, want) {
		t.Errorf("bot line %q, want it to name %q", got, want)
	}
	p.Run("hint", chromedp.Click(chromedp.CSS("#hint")), p.Wait(`document.getElementById("hinttext").textContent !== ""`))
	mu.Lock()
	defer mu.Unlock()
	if len(levels) < 2 || levels[0] != 2 || levels[len(levels)-1] != 0 {
		t.Errorf("move requests' levels %v: want the bot's moves at 2, the hint at 0", levels)
	}
	p.CheckConsole()
}
