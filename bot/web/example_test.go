package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"kumalak/bot/web"
	_ "kumalak/env/games" // registers every game
)

// ExampleServer asks the HTTP API for the position a record reaches: the
// record's Game tag names the game, and the answer gives the moves as pit
// numbers and the position's legal moves.
func ExampleServer() {
	cfg := web.DefaultConfig()
	cfg.Agent = "random"
	srv, err := web.NewServer(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	resp, err := ts.Client().Post(ts.URL+"/api/state", "application/json",
		strings.NewReader(`{"record":"[Game \"mangala\"]\n\n4 3"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var v web.View
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &v); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Game, v.Moves, v.ToMove, v.Legal)
	// Output: mangala [4 3] b [1 2 3 4 5 6]
}
