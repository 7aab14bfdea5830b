package main

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kumalak/agent"
	"kumalak/env"
)

// TestTournamentLadder: --reach 1 pairs only neighbours, here a level
// between two baselines, and still rates all three; a negative reach is
// refused.
func TestTournamentLadder(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := kumalak(t, "tournament", "--game", "mangala", "--players", "random", "--players", "model:level=1",
		"--players", "greedy", "--reach", "1", "--games", "2", "--out", dir, "--quiet")
	if code != 0 {
		t.Fatalf("tournament --reach 1: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "random vs model:level=1") || !strings.Contains(out, "model:level=1 vs greedy") || strings.Contains(out, "random vs greedy") {
		t.Errorf("tournament --reach 1 played other pairings:\n%s", out)
	}
	code, _, errs = kumalak(t, "tournament", "--game", "mangala", "--players", "random", "--players", "greedy", "--reach", "-1")
	if code != 2 || !strings.Contains(errs, "reach -1") {
		t.Errorf("--reach -1: exit %d %q", code, errs)
	}
}

// levelsDoc is the home of the levels' measured ratings.
const levelsDoc = "../../docs/PLAYING.md"

// levelRow is one row of a game's table in docs/PLAYING.md ("Levels").
type levelRow struct {
	level       int
	elo, err    float64
	games       int
	search      agent.Level
	measuredRow string
}

// readLevelTables reads the tables of docs/PLAYING.md ("Levels")'s "Measured
// ratings": under each "#### GAME (ANCHOR = 0)" heading, rows
// "| level | rating | ±95% | games | sims | considered | margin | temp | solver |".
func readLevelTables(t *testing.T) (map[string][]levelRow, map[string]string) {
	t.Helper()
	b, err := os.ReadFile(levelsDoc)
	if err != nil {
		t.Fatal(err)
	}
	tables, anchors := map[string][]levelRow{}, map[string]string{}
	head := regexp.MustCompile(`^#### (\S+) \((.+) = 0\)$`)
	row := regexp.MustCompile(`^\| (\d+) \| ([+−-]?\d+) \| ±(\d+) \| (\d+) \| (\d+) \| (all|\d+) \| ([\d.]+) \| ([\d.]+) \| (yes|no) \|$`)
	game := ""
	for _, line := range strings.Split(string(b), "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			game, anchors[m[1]] = m[1], m[2]
			continue
		}
		m := row.FindStringSubmatch(line)
		if m == nil || game == "" {
			continue
		}
		r := levelRow{measuredRow: line}
		r.level, _ = strconv.Atoi(m[1])
		r.elo, _ = strconv.ParseFloat(strings.Replace(m[2], "−", "-", 1), 64)
		r.err, _ = strconv.ParseFloat(m[3], 64)
		r.games, _ = strconv.Atoi(m[4])
		r.search.Sims, _ = strconv.Atoi(m[5])
		if m[6] != "all" {
			r.search.Consider, _ = strconv.Atoi(m[6])
		}
		margin, _ := strconv.ParseFloat(m[7], 32)
		temp, _ := strconv.ParseFloat(m[8], 32)
		r.search.Margin, r.search.Temp, r.search.Solver = float32(margin), float32(temp), m[9] == "yes"
		tables[game] = append(tables[game], r)
	}
	return tables, anchors
}

// TestLevelsDoc: docs/PLAYING.md ("Levels") has a table for every game whose levels
// the agent rates (and only those), with every level in order, its
// search the agent's, its rating the agent's (elo=) and strictly
// increasing.
func TestLevelsDoc(t *testing.T) {
	tables, anchors := readLevelTables(t)
	if len(tables) == 0 {
		t.Fatalf("%s: no level tables", levelsDoc)
	}
	for _, game := range env.Games() {
		scale, rated := agent.LevelScaleOf(game)
		rows, documented := tables[game]
		if rated != documented {
			t.Errorf("%s: rated by the agent %v, documented %v", game, rated, documented)
			continue
		}
		if !rated {
			continue
		}
		if anchors[game] != scale.Anchor {
			t.Errorf("%s: the doc's anchor %q, the agent's %q", game, anchors[game], scale.Anchor)
		}
		if len(rows) != agent.MaxLevel {
			t.Errorf("%s: %d rows, want levels 1..%d", game, len(rows), agent.MaxLevel)
		}
		for i, r := range rows {
			want, err := agent.LevelOf(game, i+1)
			if r.level != i+1 || err != nil || r.search != want {
				t.Errorf("%s: row %q, want level %d searching %+v", game, r.measuredRow, i+1, want)
			}
			if math.Abs(r.elo-scale.Elo[i]) > 0.5 || math.Abs(r.err-scale.Err[i]) > 0.5 || r.games <= 0 {
				t.Errorf("%s: row %q, the agent rates level %d %.0f ± %.0f", game, r.measuredRow, i+1, scale.Elo[i], scale.Err[i])
			}
			if i > 0 && !(r.elo > rows[i-1].elo) {
				t.Errorf("%s: level %d rated %.0f, not above level %d's %.0f", game, i+1, r.elo, i, rows[i-1].elo)
			}
		}
	}
}

// TestPlayLevel: play --level plays the shipped model at that level and
// names it; a level out of range, beside --sims or --elo, or of a bot
// that is no model is refused, naming the flag.
func TestPlayLevel(t *testing.T) {
	code, out, errs := kumalakIn(t, "3\nquit\n", "play", "--game", "mangala", "--level", "2", "--as", "w")
	if code != 0 || !strings.Contains(out, "kumalak (level 2) plays") {
		t.Fatalf("play --level 2: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = kumalakIn(t, "quit\n", "play", "--game", "mangala", "--level", "10", "--time", "50ms", "--as", "b")
	if code != 0 || !strings.Contains(out, "kumalak (level 10) plays") {
		t.Fatalf("play --level 10 --time 50ms: exit %d\n%s\n%s", code, out, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--level", "11"}, "--level 11 out of range 1..10"},
		{[]string{"--level", "3", "--sims", "100"}, "--level sets the search"},
		{[]string{"--level", "3", "--elo", "500"}, "give --level or --elo"},
		{[]string{"--level", "3", "--agent", "ab:depth=4"}, "--level needs the model bot"},
		{[]string{"--elo", "x"}, "elo=x: not a number"},
		{[]string{"--elo", "99999"}, "out of range"},
	} {
		code, _, errs := kumalakIn(t, "quit\n", append([]string{"play", "--game", "mangala"}, tc.args...)...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("play %v: exit %d %q, want %q", tc.args, code, errs, tc.want)
		}
	}
}
