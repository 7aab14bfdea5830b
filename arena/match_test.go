package arena

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"kumalak/agent"
	"kumalak/env"
	"kumalak/env/envtest"
)

// readRecords decodes the JSON lines of a match.
func readRecords(t *testing.T, b *bytes.Buffer) []Record {
	t.Helper()
	var recs []Record
	sc := bufio.NewScanner(b)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("record %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

func toyMatch(a, b string, games int) (*Match, *bytes.Buffer) {
	var buf bytes.Buffer
	c := DefaultConfig()
	c.Games, c.OpeningPlies, c.Seed = games, 2, 7
	return &Match{Spec: envtest.Kalah3, A: a, B: b, Config: c, Records: &buf}, &buf
}

// TestMatchPairsAndColours: games 2k and 2k+1 share an opening with the
// colours swapped, A's colour alternates, and the records replay.
func TestMatchPairsAndColours(t *testing.T) {
	m, buf := toyMatch("ab:depth=8", "random", 12)
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, buf)
	if len(recs) != 12 || res.Counts.Games() != 12 || res.Pairs.Total() != 6 || res.AWhite.Games() != 6 {
		t.Fatalf("%d records, result %+v", len(recs), res)
	}
	byIndex := map[int]Record{}
	for _, r := range recs {
		byIndex[r.Index] = r
	}
	for g := 0; g < 12; g++ {
		r := byIndex[g]
		wantA, white := "white", "ab:depth=8"
		if g%2 == 1 {
			wantA, white = "black", "random"
		}
		if r.A != wantA || r.White != white || r.Pair != g/2 || len(r.Opening) != 2 {
			t.Errorf("game %d: a %s, white %s, pair %d, opening %v", g, r.A, r.White, r.Pair, r.Opening)
		}
		if g%2 == 1 && fmt.Sprint(r.Opening) != fmt.Sprint(byIndex[g-1].Opening) {
			t.Errorf("pair %d: openings %v and %v", g/2, byIndex[g-1].Opening, r.Opening)
		}
		checkReplay(t, r)
	}
	if res.Counts.Score() < 0.75 {
		t.Errorf("ab:depth=8 scored %.2f against random", res.Counts.Score())
	}
}

// checkReplay replays a record and checks its result and final position.
func checkReplay(t *testing.T, r Record) {
	t.Helper()
	st, err := envtest.Kalah3.Start(r.Start)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(append([]int(nil), r.Opening...), r.Moves...) {
		if err := env.Play(st, p); err != nil {
			t.Fatalf("game %d: %v", r.Index, err)
		}
	}
	if st.String() != r.Final || st.Result().String() != r.Result {
		t.Errorf("game %d: replay ends %s %s, record %s %s", r.Index, st, st.Result(), r.Final, r.Result)
	}
	if r.Notation != strings.Trim(fmt.Sprint(append(r.Opening, r.Moves...)), "[]") {
		t.Errorf("game %d: notation %q", r.Index, r.Notation)
	}
}

// TestMatchDoesNotRepeatGames: deterministic agents still play different
// games, thanks to the openings. (The two games of a pair may show the same
// moves, played by different sides.)
func TestMatchDoesNotRepeatGames(t *testing.T) {
	m, buf := toyMatch("ab:depth=2", "ab:depth=3", 30)
	m.Config.OpeningPlies = 4
	if _, err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range readRecords(t, buf) {
		key := fmt.Sprint(r.A, r.Opening, r.Moves)
		if g, dup := seen[key]; dup {
			t.Errorf("games %d and %d are the same: %s", g, r.Index, key)
		}
		seen[key] = r.Index
	}
}

func TestMatchParallel(t *testing.T) {
	m, buf := toyMatch("greedy", "mcts:sims=30", 15)
	m.Config.Parallel = 4
	calls := 0
	m.Progress = func(p Progress) {
		calls++
		if p.Done != calls || p.Total != 15 || p.Counts.Games() != p.Done {
			t.Errorf("progress %+v after %d calls", p, calls)
		}
	}
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, buf)
	if len(recs) != 15 || calls != 15 || res.Counts.Games() != 15 || res.Pairs.Total() != 7 || res.Model != "trinomial" {
		t.Fatalf("%d records, %d progress calls, result %+v", len(recs), calls, res)
	}
	indices := map[int]bool{}
	for _, r := range recs {
		indices[r.Index] = true
	}
	if len(indices) != 15 {
		t.Errorf("game indices %v", indices)
	}
}

// A match of random agents played in parallel gives the same games every
// time: each worker's agents get the same pairs whatever the timing.
func TestMatchParallelReproducible(t *testing.T) {
	games := func() map[int]string {
		m, buf := toyMatch("random", "random", 40)
		m.Config.Parallel = 8
		if _, err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		out := map[int]string{}
		for _, r := range readRecords(t, buf) {
			out[r.Index] = fmt.Sprint(r.Moves, r.Result)
		}
		return out
	}
	first := games()
	for range 4 {
		if again := games(); !maps.Equal(first, again) {
			t.Fatalf("parallel random match not reproducible:\n%v\n%v", first, again)
		}
	}
}

func TestMatchSPRTStopsEarly(t *testing.T) {
	m, buf := toyMatch("ab:depth=4", "random", 400)
	s := NewSPRT(0, 100)
	m.Config.SPRT = &s
	m.Config.Parallel = 2
	res, err := m.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Verdict != AcceptH1 || res.Counts.Games() >= 400 || res.LLR < 2.94 {
		t.Fatalf("result %+v", res)
	}
	if n := len(readRecords(t, buf)); n != res.Counts.Games() {
		t.Errorf("%d records for %d games", n, res.Counts.Games())
	}
	if res.Model != "pentanomial" && res.Counts.Games()%2 == 0 {
		t.Errorf("model %s", res.Model)
	}
}

func TestMatchCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	m, _ := toyMatch("mcts:sims=200", "random", 100)
	m.Progress = func(p Progress) {
		if p.Done == 3 {
			cancel()
		}
	}
	res, err := m.Run(ctx)
	if err != context.Canceled || res.Counts.Games() < 3 || res.Counts.Games() >= 100 {
		t.Fatalf("err %v, %d games", err, res.Counts.Games())
	}
}

// cheat plays an illegal move.
type cheat struct{}

func (cheat) Move(context.Context, env.State) (env.Action, error) { return 200, nil }

func TestMatchErrors(t *testing.T) {
	m, _ := toyMatch("ab:depht=3", "random", 2)
	if _, err := m.Run(context.Background()); err == nil || !strings.Contains(err.Error(), `unknown key "depht"`) {
		t.Errorf("bad spec: %v", err)
	}
	m, _ = toyMatch("cheat", "random", 4)
	m.NewAgent = func(spec *env.Spec, s string, seed uint64) (agent.Agent, error) {
		if s == "cheat" {
			return cheat{}, nil
		}
		return agent.New(spec, s, seed)
	}
	if _, err := m.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "cheat failed 3 games in a row") ||
		!strings.Contains(err.Error(), "forfeits: played pit 201") {
		t.Errorf("illegal move: %v", err)
	}
	m, _ = toyMatch("random", "random", 0)
	if _, err := m.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "games 0") {
		t.Errorf("0 games: %v", err)
	}
}

func TestOpenings(t *testing.T) {
	start := envtest.Kalah3.New()
	open, err := makeOpenings(start, 15, 3, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range open {
		if seen[fmt.Sprint(o)] {
			t.Errorf("repeated opening %v", o)
		}
		seen[fmt.Sprint(o)] = true
		if err := checkOpenings(start, [][]env.Action{o}); err != nil || len(o) != 3 {
			t.Errorf("opening %v: %v", o, err)
		}
	}
	// More openings than exist: repeats are allowed, none fails.
	if open, err := makeOpenings(start, 20, 1, 1, nil); err != nil || len(open) != 20 {
		t.Errorf("20 one-ply openings: %d, %v", len(open), err)
	}
	got, err := ParseOpenings(strings.NewReader("# comment\n1 2\n\n3\n"))
	if err != nil || fmt.Sprint(got) != "[[0 1] [2]]" {
		t.Errorf("ParseOpenings: %v %v", got, err)
	}
	if _, err := ParseOpenings(strings.NewReader("1 x\n")); err == nil {
		t.Error("bad opening accepted")
	}
	if err := checkOpenings(start, [][]env.Action{{0, 0}}); err == nil {
		t.Error("illegal opening accepted") // pit 1 ends in the store, then is empty
	}
}
