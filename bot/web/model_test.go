package web

import (
	"encoding/json"
	"strings"
	"testing"

	"kumalak/bot/bottest"
)

// TestModelBot serves a model through the API (the engine protocol: package
// engine's TestModelEngine).
func TestModelBot(t *testing.T) {
	card := `{"search":{"sims":48},"elo":{"random":{"elo":100}}}`
	path := bottest.TinyModel(t, "togyz", card)
	spec := "model:path=" + path + ",sims=48"

	ts := newTestServer(t, spec, func(c *Config) { c.Games, c.Card = []string{"togyz"}, json.RawMessage(card) })
	var info InfoResponse
	call(t, ts, "GET", "/api/info", "", "", &info)
	if len(info.Games) != 1 || !strings.Contains(string(info.Card), `"sims":48`) {
		t.Errorf("info %+v", info)
	}
	var r MoveResponse
	if code, body := post(t, ts, "/api/move", `{"moves":[1,2],"sims":64}`, &r); code != 200 || r.Nodes < 64 || len(r.Moves) == 0 {
		t.Errorf("model move: %d %s", code, body)
	}
	if code, _ := post(t, ts, "/api/move", `{"game":"mangala"}`, nil); code != 400 {
		t.Errorf("mangala on a togyz model server: %d", code)
	}
}
