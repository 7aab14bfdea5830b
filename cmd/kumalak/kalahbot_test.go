package main

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestKalahDefaultBot: with no --model or --agent, kalah (no shipped
// model) plays in the engine and in serve's game list.
func TestKalahDefaultBot(t *testing.T) {
	if got := engineUntilBestmove(t, "kumalak\nnewgame kalah\nposition start\ngo sims 16\n"); !strings.Contains(got, "kalah") || !regexp.MustCompile(`(?m)^bestmove [1-6]\b`).MatchString(got) {
		t.Errorf("engine session:\n%s", got)
	}

	root := newRoot()
	var sout, serr syncBuffer
	root.SetArgs([]string{"serve", "--game", "kalah", "--addr", "127.0.0.1:0"})
	root.SetOut(&sout)
	root.SetErr(&serr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	var base string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && base == ""; time.Sleep(20 * time.Millisecond) {
		if m := regexp.MustCompile(`http://(\S+)`).FindStringSubmatch(sout.String()); m != nil {
			base = "http://" + m[1]
		}
	}
	if base == "" {
		t.Fatalf("serve printed no address: %s %s", sout.String(), serr.String())
	}
	resp, err := http.Post(base+"/api/move", "application/json", strings.NewReader(`{"game":"kalah","position":"start","sims":16}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /api/move kalah: %d %v %v", resp.StatusCode, got, err)
	}
	resp.Body.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}
