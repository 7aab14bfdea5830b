package engine

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// docSession is one example session of docs/ENGINE.md: the agent spec of
// its "# kumalak engine --agent SPEC" line and its lines, "> command" and
// "< answer".
type docSession struct {
	agent string
	lines []string
}

// readDocSessions reads the example sessions of docs/ENGINE.md: indented
// blocks starting with "# kumalak engine --agent" (the command run).
func readDocSessions(t *testing.T) []docSession {
	t.Helper()
	b, err := os.ReadFile("../../docs/ENGINE.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []docSession
	var cur *docSession
	for _, l := range strings.Split(string(b), "\n") {
		line, indented := strings.CutPrefix(l, "    ")
		switch {
		case indented && strings.HasPrefix(line, "# kumalak engine --agent "):
			out = append(out, docSession{agent: strings.TrimPrefix(line, "# kumalak engine --agent ")})
			cur = &out[len(out)-1]
		case cur != nil && indented && (strings.HasPrefix(line, "> ") || strings.HasPrefix(line, "< ")):
			cur.lines = append(cur.lines, line)
		case cur != nil && strings.TrimSpace(l) != "":
			cur = nil
		}
	}
	return out
}

// volatile are the fields that vary from run to run: elapsed time and
// speed.
var volatile = regexp.MustCompile(`\b(time|nps|threads type spin default \d+ min 1 max) \d+`)

func normal(line string) string { return volatile.ReplaceAllString(line, "$1 #") }

// shape is a line with its numbers blanked and its pv cut: what stays the
// same in a search by time.
var number = regexp.MustCompile(`-?\d+(\.\d+)?`)

func shape(line string) string {
	line, _, _ = strings.Cut(line, " pv ")
	return number.ReplaceAllString(line, "#")
}

// timed reports whether a command starts a search whose lines depend on
// the clock: by time, infinite or ponder.
func timed(cmd string) bool {
	f := strings.Fields(cmd)
	return len(f) > 0 && f[0] == "go" && slices.ContainsFunc(f[1:], func(w string) bool {
		return w == "infinite" || w == "ponder" || w == "movetime" || w == "wtime" || w == "btime"
	})
}

// TestEngineDocSessions replays the example sessions of docs/ENGINE.md
// against the engine, line by line. Time and nps may differ; searches by
// the clock (movetime, infinite, ponder) are checked by the shapes of
// their lines, and stop and ponderhit are sent once the search has
// printed an info line; after them the last info line is the deepest.
func TestEngineDocSessions(t *testing.T) {
	sessions := readDocSessions(t)
	if len(sessions) < 2 {
		t.Fatalf("%d example sessions in docs/ENGINE.md, want 2", len(sessions))
	}
	for _, ds := range sessions {
		t.Run(ds.agent, func(t *testing.T) {
			s := startEngine(t, engineConfig(ds.agent))
			lines := ds.lines
			for len(lines) > 0 {
				cmd := strings.TrimPrefix(lines[0], "> ")
				lines = lines[1:]
				if !timed(cmd) {
					s.send(cmd)
					lines = expectExact(t, s, cmd, lines)
					continue
				}
				lines = expectTimed(t, s, cmd, lines)
			}
			select { // the session ends with quit: the output ends, with no more lines
			case l, ok := <-s.lines:
				if ok {
					t.Errorf("a line after the session: %q", l)
				}
			case <-time.After(5 * time.Second):
				t.Error("the engine did not end after the session")
			}
		})
	}
}

// expectExact reads the answers of cmd, which lines begin with, and
// returns the lines after them; "< …" skips answers up to the next one
// given.
func expectExact(t *testing.T, s *engineSession, cmd string, lines []string) []string {
	t.Helper()
	skip := false
	for len(lines) > 0 && strings.HasPrefix(lines[0], "< ") {
		want := strings.TrimPrefix(lines[0], "< ")
		lines = lines[1:]
		if want == "…" {
			skip = true
			continue
		}
		for {
			got := s.expect("", 10*time.Second)[0]
			if normal(got) == normal(want) {
				break
			}
			if progress(cmd, got) { // a slow machine's mid-search report
				continue
			}
			if !skip {
				t.Fatalf("after %q: got %q, want %q", cmd, got, want)
			}
		}
		skip = false
	}
	return lines
}

// progress reports whether got is an info line a search may write while
// it runs, whatever the docs show: a go's report of its analysis so far,
// written when a slice outlasts the engine's reporting interval.
func progress(cmd, got string) bool {
	return strings.HasPrefix(cmd, "go") && strings.HasPrefix(got, "info ") && !strings.HasPrefix(got, "info string")
}

// expectTimed sends cmd and the commands up to its bestmove, and checks
// the answers by their shapes.
func expectTimed(t *testing.T, s *engineSession, cmd string, lines []string) []string {
	t.Helper()
	s.send(cmd)
	want := map[string]bool{}
	var got []string
	for len(lines) > 0 {
		l := lines[0]
		lines = lines[1:]
		if next, ok := strings.CutPrefix(l, "> "); ok {
			got = append(got, s.expect("info ", 10*time.Second)...) // the search has searched
			s.send(next)
			continue
		}
		want[shape(strings.TrimPrefix(l, "< "))] = true
		if strings.HasPrefix(l, "< bestmove") {
			break
		}
	}
	got = append(got, s.expect("bestmove", 10*time.Second)...)
	seen := map[string]bool{}
	deepest, last := -1, -1
	for _, l := range got {
		seen[shape(l)] = true
		if f := strings.Fields(l); len(f) > 2 && f[0] == "info" && f[1] == "depth" {
			d := atoi(f[2])
			deepest, last = max(deepest, d), d
		}
	}
	for w := range want {
		if !seen[w] {
			t.Errorf("after %q: no line like %q in %q", cmd, w, got)
		}
	}
	for g := range seen {
		if !want[g] {
			t.Errorf("after %q: line %q not in the docs", cmd, g)
		}
	}
	if !strings.Contains(cmd, "ponder") && last < deepest {
		t.Errorf("after %q: the last info line has depth %d, an earlier one %d", cmd, last, deepest)
	}
	return lines
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
