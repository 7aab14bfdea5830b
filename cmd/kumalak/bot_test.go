package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"kumalak/bot/bottest"
)

// kumalakIn is kumalak with a script on standard input.
func kumalakIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetIn(strings.NewReader(stdin))
	return run(root), out.String(), errb.String()
}

func TestArenaAndTournament(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := kumalak(t, "arena", "--game", "mangala-kale", "--a", "ab:depth=2", "--b", "random",
		"--games", "4", "--out", dir, "--seed", "3")
	if code != 0 {
		t.Fatalf("arena: exit %d\n%s", code, errs)
	}
	for _, w := range []string{"W/D/L", "score", "elo"} {
		if !strings.Contains(out, w) {
			t.Errorf("arena output lacks %q:\n%s", w, out)
		}
	}
	recs, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(recs) != 1 {
		t.Fatalf("arena records: %v", recs)
	}
	b, _ := os.ReadFile(recs[0])
	if n := strings.Count(string(b), "\n"); n != 4 {
		t.Errorf("%d records, want 4", n)
	}
	code, out, errs = kumalak(t, "arena", "--game", "togyz", "--a", "ab:depth=3", "--b", "random",
		"--games", "40", "--sprt", "0,200", "--out", dir)
	if code != 0 || !strings.Contains(strings.ToLower(out), "sprt") {
		t.Fatalf("arena --sprt: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = kumalak(t, "tournament", "--game", "mangala", "--players", "random",
		"--players", "greedy", "--players", "ab:depth=2", "--games", "2", "--out", dir)
	if code != 0 || !strings.Contains(out, "ab:depth=2") || !strings.Contains(out, "random") {
		t.Fatalf("tournament: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = kumalak(t, "arena", "--game", "togyz", "--a", "ab:depth=99", "--b", "random")
	if code != 2 || !strings.Contains(errs, "depth") {
		t.Errorf("bad agent spec: exit %d %q", code, errs)
	}
}

func TestPlayScripted(t *testing.T) {
	script := "hint\n9\nbogus\n99\nundo\n3\nboard\nquit\n"
	code, out, errs := kumalakIn(t, script, "play", "--agent", "greedy", "--game", "mangala", "--seed", "2", "--lang", "en")
	if code != 0 {
		t.Fatalf("play: exit %d\n%s\n%s", code, out, errs)
	}
	for _, w := range []string{"your row, white's, is at the bottom", "your move (white)", "hint"} {
		if !strings.Contains(strings.ToLower(out), w) {
			t.Errorf("play output lacks %q:\n%s", w, out)
		}
	}
}

// TestPlayLanguages: play speaks the language of --lang, else of the
// environment's locale, shows the rules in it, and names the languages
// there are for one it does not speak.
func TestPlayLanguages(t *testing.T) {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANGUAGE"} {
		t.Setenv(v, "")
	}
	t.Setenv("LANG", "ru_RU.UTF-8")
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"kk", []string{"Тоғызқұмалақ: сіз ақпен ойнайсыз, kumalak қарамен ойнайды.", "қазан", "# Тоғызқұмалақ", "тұздық", "сау болыңыз"}},
		{"", []string{"Тогыз кумалак: вы играете белыми, kumalak — чёрными.", "# Тогыз кумалак", "туздык", "до свидания"}},
		{"tr", []string{"Dokuz Kumalak: sen beyazsın", "hazine", "# Dokuz Kumalak", "tuzdık", "hoşça kal"}},
	} {
		args := []string{"play", "--agent", "greedy", "--game", "togyz"}
		if tc.lang != "" {
			args = append(args, "--lang", tc.lang)
		}
		code, out, errs := kumalakIn(t, "rules\nquit\n", args...)
		if code != 0 {
			t.Fatalf("play --lang %q: exit %d\n%s", tc.lang, code, errs)
		}
		bottest.InOrder(t, out, tc.want...)
	}
	code, _, errs := kumalakIn(t, "", "play", "--agent", "greedy", "--lang", "de")
	if want := `play: --lang "de": want one of en (English), kk (Қазақша), ru (Русский), tr (Türkçe)`; code != 2 || !strings.Contains(errs, want) {
		t.Errorf("play --lang de: exit %d %q, want 2 and %q", code, errs, want)
	}
}

func TestEngineScripted(t *testing.T) {
	script := "kumalak\nisready\nnewgame togyz\nposition start moves 7 9\ngo depth 3\nfrobnicate\nposition fen 4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w\nquit\n"
	code, out, errs := kumalakIn(t, script, "engine", "--agent", "ab")
	if code != 0 {
		t.Fatalf("engine: exit %d\n%s\n%s", code, out, errs)
	}
	if !regexp.MustCompile(`(?m)^bestmove [1-9]( ponder [1-9])?$`).MatchString(out) || !strings.Contains(out, "readyok") {
		t.Errorf("engine session:\n%s", out)
	}
	if !strings.Contains(out, "error") {
		t.Errorf("no error line for an unknown command or a mangala position in togyz:\n%s", out)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServe(t *testing.T) {
	root := newRoot()
	var out, errb syncBuffer
	root.SetArgs([]string{"serve", "--agent", "ab:depth=2", "--game", "togyz", "--addr", "127.0.0.1:0"})
	root.SetOut(&out)
	root.SetErr(&errb)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	addr := regexp.MustCompile(`http://(\S+)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			base = "http://" + m[1]
			break
		}
	}
	if base == "" {
		cancel()
		t.Fatalf("serve printed no address: %s %s", out.String(), errb.String())
	}
	resp, err := http.Post(base+"/api/move", "application/json", strings.NewReader(`{"game":"togyz","position":"start","moves":[7]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST /api/move: %d %v %v", resp.StatusCode, got, err)
	}
	resp.Body.Close()
	resp, err = http.Post(base+"/api/move", "application/json", strings.NewReader(`{"game":"togyz","position":"1,2,3"}`))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 400 {
		t.Errorf("bad position: status %d, want 400", resp.StatusCode)
	}
	resp.Body.Close()
	page, err := http.Get(base + "/")
	if err != nil || page.StatusCode != 200 {
		t.Fatalf("GET /: %v %v", page, err)
	}
	page.Body.Close()
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

// engineUntilBestmove runs `kumalak engine` with no model or agent named,
// sends first, then quit once a bestmove is out, and returns the output.
func engineUntilBestmove(t *testing.T, first string) string {
	t.Helper()
	root := newRoot()
	var out, errb syncBuffer
	root.SetArgs([]string{"engine"})
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetIn(&gatedReader{first: first, rest: "quit\n", out: &out, gate: "bestmove"})
	if code := run(root); code != 0 {
		t.Fatalf("engine: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	return out.String()
}

// TestEngineShipped: with no --model or --agent the engine plays the shipped
// togyz model.
func TestEngineShipped(t *testing.T) {
	got := engineUntilBestmove(t, "kumalak\nposition start\ngo sims 16\n")
	if !strings.Contains(got, "id name kumalak model") || !regexp.MustCompile(`(?m)^bestmove [1-9]`).MatchString(got) {
		t.Errorf("engine session:\n%s", got)
	}
	if strings.Contains(got, "stopped before the search") {
		t.Errorf("the search did not finish its 16 simulations:\n%s", got)
	}
}

// gatedReader is an engine's standard input: first, then, once out holds
// gate (or a minute has passed), rest, then the end.
type gatedReader struct {
	first, rest, gate string
	out               *syncBuffer
	opened            bool
}

func (g *gatedReader) Read(p []byte) (int, error) {
	if g.first != "" {
		n := copy(p, g.first)
		g.first = g.first[n:]
		return n, nil
	}
	if !g.opened {
		for end := time.Now().Add(time.Minute); !strings.Contains(g.out.String(), g.gate) && time.Now().Before(end); {
			time.Sleep(5 * time.Millisecond)
		}
		g.opened = true
	}
	if g.rest == "" {
		return 0, io.EOF
	}
	n := copy(p, g.rest)
	g.rest = g.rest[n:]
	return n, nil
}

// TestArenaResume: a match killed mid-write (its log's last line torn)
// goes on with --resume to its planned games, and to more; a log of other
// agents is refused with exit 2.
func TestArenaResume(t *testing.T) {
	dir := t.TempDir()
	args := []string{"arena", "--game", "mangala", "--a", "ab:depth=2", "--b", "greedy", "--games", "6", "--out", dir, "--quiet", "--seed", "5"}
	if code, _, errs := kumalak(t, args...); code != 0 {
		t.Fatalf("arena: exit %d\n%s", code, errs)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("logs %v", logs)
	}
	b, _ := os.ReadFile(logs[0])
	lines := strings.SplitAfter(string(b), "\n")
	torn := strings.Join(lines[:2], "") + lines[2][:len(lines[2])/2]
	if err := os.WriteFile(logs[0], []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := kumalak(t, append(args, "--resume", logs[0])...)
	if code != 0 || !strings.Contains(out, "resumed  2 games") || !strings.Contains(out, "cut short") || !strings.Contains(out, "6 games") {
		t.Fatalf("arena --resume: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = kumalak(t, append(args[:len(args)-3], "--games", "8", "--seed", "5", "--resume", logs[0])...)
	if code != 0 || !strings.Contains(out, "resumed  6 games") || !strings.Contains(out, "8 games") {
		t.Fatalf("arena --resume to 8 games: exit %d\n%s\n%s", code, out, errs)
	}
	b, _ = os.ReadFile(logs[0])
	if n := strings.Count(string(b), "\n"); n != 8 {
		t.Errorf("%d lines in the log, want 8", n)
	}
	kgn, _ := os.ReadFile(strings.TrimSuffix(logs[0], ".jsonl") + ".kgn")
	if n := strings.Count(string(kgn), "[Round "); n != 8 {
		t.Errorf("%d records in the .kgn, want 8", n)
	}
	code, _, errs = kumalak(t, "arena", "--game", "mangala", "--a", "ab:depth=3", "--b", "greedy", "--games", "8", "--seed", "5", "--quiet", "--resume", logs[0])
	if code != 2 || !regexp.MustCompile(`game \d+ of the log`).MatchString(errs) || !strings.Contains(errs, "ab:depth=2") {
		t.Errorf("other agents: exit %d, %s", code, errs)
	}
	code, _, errs = kumalak(t, "arena", "--game", "mangala", "--a", "ab:depth=2", "--quiet", "--resume", filepath.Join(dir, "none.jsonl"))
	if code != 2 || !strings.Contains(errs, "none.jsonl") {
		t.Errorf("no such log: exit %d, %s", code, errs)
	}
	// A tournament the same way.
	tdir := t.TempDir()
	targs := []string{"tournament", "--game", "mangala", "--players", "random", "--players", "greedy", "--players", "ab:depth=2", "--games", "2", "--quiet", "--out", tdir}
	if code, _, errs := kumalak(t, targs...); code != 0 {
		t.Fatalf("tournament: exit %d\n%s", code, errs)
	}
	tlogs, _ := filepath.Glob(filepath.Join(tdir, "*.jsonl"))
	b, _ = os.ReadFile(tlogs[0])
	lines = strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(tlogs[0], []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = kumalak(t, append(targs, "--resume", tlogs[0])...)
	if code != 0 || !strings.Contains(out, "resumed  3 games") || !strings.Contains(out, "ab:depth=2") {
		t.Fatalf("tournament --resume: exit %d\n%s\n%s", code, out, errs)
	}
	if b, _ = os.ReadFile(tlogs[0]); strings.Count(string(b), "\n") != 6 {
		t.Errorf("tournament log after resuming:\n%s", b)
	}
}
