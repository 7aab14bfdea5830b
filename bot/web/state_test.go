package web

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"kumalak/env"
)

// TestStateRecordAndPlies: a record in the game's notation reads back to
// its moves, and each ply says what it did: its token, store gain,
// capture, extra turn and tuzdyk.
func TestStateRecordAndPlies(t *testing.T) {
	ts := newTestServer(t, "random", nil)
	var v View
	if code, body := post(t, ts, "/api/state", `{"game":"togyz","moves":[7,3,2,8,4,9,1,6]}`, &v); code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	if !strings.HasPrefix(v.Notation, "1. 7") || len(v.Plies) != 8 {
		t.Fatalf("notation %q, plies %+v", v.Notation, v.Plies)
	}
	var toks []string
	gains := [2]int{}
	for i, p := range v.Plies {
		toks = append(toks, p.Token)
		if p.Pit != v.Moves[i] || p.Mover != []string{"w", "b"}[i%2] || p.Captured > p.Gain {
			t.Errorf("ply %d: %+v", i+1, p)
		}
		gains[i%2] += p.Gain
	}
	if gains != v.Stores {
		t.Errorf("gains %v, stores %v", gains, v.Stores)
	}
	for _, tok := range toks {
		if !strings.Contains(v.Notation, tok) {
			t.Errorf("token %q not in %q", tok, v.Notation)
		}
	}
	var back View
	if code, body := post(t, ts, "/api/state", `{"game":"togyz","record":"[Event \"test\"]\n`+v.Notation+`"}`, &back); code != http.StatusOK {
		t.Fatalf("record %q: %d %s", v.Notation, code, body)
	}
	if !slices.Equal(back.Moves, v.Moves) || back.Position != v.Position {
		t.Errorf("record read back as %v, want %v", back.Moves, v.Moves)
	}
	if code, body := post(t, ts, "/api/state", `{"game":"togyz","record":"1. 76 98x"}`, nil); code != http.StatusBadRequest || !strings.Contains(body, "move 2") {
		t.Errorf("bad record: %d %s", code, body)
	}
	for _, rec := range []string{"1.", "0.", "*", "1. 1-0"} {
		if code, body := post(t, ts, "/api/state", `{"game":"mangala","record":"`+rec+`"}`, nil); code != http.StatusBadRequest || !strings.Contains(body, "no moves and no tags") {
			t.Errorf("record %q: %d %s, want no moves and no tags", rec, code, body)
		}
	}
	if code, body := post(t, ts, "/api/state", `{"game":"togyz","record":"1. 76","moves":[7]}`, nil); code != http.StatusBadRequest || !strings.Contains(body, "not both") {
		t.Errorf("record and moves: %d %s", code, body)
	}

	// the record's Game and Position tags name its game and start; the
	// request's are the defaults.
	setup := "0,0,0,0,0,1/4,4,4,4,4,4 20 3 - - w"
	tagCases := []struct{ body, game, start string }{
		{`{"game":"togyz","record":"[Game \"mangala\"]\n4 3"}`, "mangala", ""},
		{`{"game":"mangala","record":"[Position \"` + setup + `\"]\n6"}`, "mangala", setup},
		{`{"game":"mangala","position":"` + setup + `","record":"6"}`, "mangala", setup},
	}
	for _, c := range tagCases {
		var got View
		if code, body := post(t, ts, "/api/state", c.body, &got); code != http.StatusOK || got.Game != c.game || c.start != "" && got.Start != c.start {
			t.Errorf("%s: %d %s: game %s from %s", c.body, code, body, got.Game, got.Start)
		}
	}
	if code, body := post(t, ts, "/api/state", `{"game":"mangala","record":"4 *\n\n3"}`, nil); code != http.StatusBadRequest || !strings.Contains(body, "one game") {
		t.Errorf("two games: %d %s", code, body)
	}

	// mangala: 4 ends in the store (an extra turn, nothing captured);
	// from a set-up position, 6 empties white's side and collects black's.
	if code, body := post(t, ts, "/api/state", `{"game":"mangala","moves":[4]}`, &v); code != http.StatusOK ||
		v.Plies[0] != (PlyInfo{Mover: "w", Pit: 4, Token: "4", Gain: 1, Extra: true}) {
		t.Errorf("mangala 4: %d %s %+v", code, body, v.Plies)
	}
	if code, body := post(t, ts, "/api/state", `{"game":"mangala","position":"0,0,0,0,0,1/4,4,4,4,4,4 20 3 - - w","moves":[6]}`, &v); code != http.StatusOK ||
		v.Plies[0].Gain != 25 || v.Plies[0].Captured != 24 || v.Plies[0].Extra || v.Start != "0,0,0,0,0,1/4,4,4,4,4,4 20 3 - - w" {
		t.Errorf("mangala set-up win: %d %s %+v", code, body, v)
	}
}

// FuzzRecordView holds the record path of /api/state to its round trip:
// a record that reads gives a view whose notation reads back to the same
// moves, with one ply described per move.
func FuzzRecordView(f *testing.F) {
	for _, s := range []string{"1. 76 98 2. 33 12", "[Game \"togyz\"]\n1. 7", "4 4", "1. 76 98x", "6 1 2 3", ""} {
		f.Add("togyz", s)
		f.Add("mangala", s)
	}
	srv := &Server{games: env.Games()}
	f.Fuzz(func(t *testing.T, game, rec string) {
		spec, err := env.Lookup(game)
		if err != nil {
			return
		}
		start, moves, e := srv.readRecord(spec.New(), rec)
		if e != nil {
			return
		}
		st := env.Clone(start)
		if err := env.Replay(st, moves); err != nil {
			t.Fatalf("%q read to %v, which does not replay: %v", rec, moves, err)
		}
		v, err := NewViewFrom(start, st, moves)
		if err != nil {
			t.Fatal(err)
		}
		_, back, e := srv.readRecord(start, v.Notation)
		if e != nil || !slices.Equal(back, moves) || len(v.Plies) != len(moves) {
			t.Fatalf("%q: notation %q reads back as %v, %v; want %v", rec, v.Notation, back, e, moves)
		}
	})
}
