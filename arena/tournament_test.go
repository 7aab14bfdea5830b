package arena

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"kumalak/env/envtest"
	"kumalak/rating"
)

// TestBradleyTerryConsistent: results that fit the logistic model exactly
// (75% twice in a chain, 90% across) give those differences back.
func TestBradleyTerryConsistent(t *testing.T) {
	pts := [][]float64{{0, 75, 90}, {25, 0, 75}, {10, 25, 0}}
	games := [][]float64{{0, 100, 100}, {100, 0, 100}, {100, 100, 0}}
	elo, errs := BradleyTerry(pts, games, 2, 0)
	d := rating.EloFromScore(0.75)
	want := []float64{2 * d, d, 0}
	for i := range want {
		if !near(elo[i], want[i], 1e-6) {
			t.Errorf("elo %v, want %v", elo, want)
			break
		}
	}
	if errs[2] != 0 || !(errs[0] > errs[1] && errs[1] > 0) {
		t.Errorf("errs %v: want 0 for the anchor, more for the farther player", errs)
	}
}

// TestBradleyTerryTwoPlayers: with two players the fit is the match's Elo,
// and the interval is the binomial one, 1.96·sqrt(1/(n·c²·p·(1-p))).
func TestBradleyTerryTwoPlayers(t *testing.T) {
	elo, errs := BradleyTerry([][]float64{{0, 30}, {10, 0}}, [][]float64{{0, 40}, {40, 0}}, 1, 0)
	c := math.Ln10 / 400
	wantErr := rating.Z95 / math.Sqrt(40*c*c*0.75*0.25)
	if !near(elo[0], rating.EloFromScore(0.75), 1e-6) || elo[1] != 0 || !near(errs[0], wantErr, 1e-6) {
		t.Errorf("elo %v errs %v, want %v ± %v", elo, errs, rating.EloFromScore(0.75), wantErr)
	}
	// A clean sweep needs the prior to stay finite: 40 wins and one virtual
	// draw score 40.5/41.
	elo, _ = BradleyTerry([][]float64{{0, 40}, {0, 0}}, [][]float64{{0, 40}, {40, 0}}, 1, 1)
	if !near(elo[0], rating.EloFromScore(40.5/41), 1e-6) {
		t.Errorf("sweep with prior: %v, want %v", elo[0], rating.EloFromScore(40.5/41))
	}
}

func TestTournamentAnchorsOnRandom(t *testing.T) {
	c := DefaultConfig()
	c.Games, c.OpeningPlies, c.Parallel = 16, 2, 2
	calls := 0
	tour := &Tournament{Spec: envtest.Kalah3, Players: []string{"ab:depth=6", "greedy", "random"}, Config: c, Prior: 1,
		Progress: func(p Progress) {
			calls++
			if p.Total != 48 || p.Done != calls {
				t.Errorf("progress %+v after %d calls", p, calls)
			}
		}}
	res, err := tour.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Anchor != "random" || len(res.Matches) != 3 || len(res.Standings) != 3 || calls != 48 {
		t.Fatalf("result %+v", res)
	}
	if top := res.Standings[0]; top.Player != "ab:depth=6" || top.Elo <= 0 || top.Games != 32 || top.Score < 0.7 {
		t.Errorf("top %+v", top)
	}
	for _, s := range res.Standings {
		if s.Player == "random" && (s.Elo != 0 || s.Err != 0) {
			t.Errorf("anchor %+v", s)
		}
	}
	// Without random, the first player is the anchor.
	tour.Players, tour.Progress = []string{"greedy", "ab:depth=2"}, nil
	res, err = tour.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Anchor != "greedy" {
		t.Errorf("anchor %s", res.Anchor)
	}
	// A named anchor is rated 0 with no error, the others relative to it.
	tour.Players, tour.Anchor = []string{"random", "greedy", "ab:depth=2"}, "ab:depth=2"
	res, err = tour.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Anchor != "ab:depth=2" {
		t.Errorf("anchor %s", res.Anchor)
	}
	for _, s := range res.Standings {
		if zero := s.Player == "ab:depth=2"; zero != (s.Elo == 0 && s.Err == 0) || !zero && s.Err <= 0 {
			t.Errorf("standing %+v with anchor ab:depth=2", s)
		}
	}
}

func TestTournamentErrors(t *testing.T) {
	c := DefaultConfig()
	for _, tc := range []struct {
		players []string
		want    string
	}{{[]string{"random"}, "at least two"}, {[]string{"random", "random"}, "given twice"}, {[]string{"random", "ab:x=1"}, `unknown key "x"`}, {[]string{"random", "greedy", "anchor=ab"}, `anchor "ab" is not a player`}} {
		tour := &Tournament{Spec: envtest.Kalah3, Players: tc.players, Config: c}
		if p := tc.players[len(tc.players)-1]; strings.HasPrefix(p, "anchor=") {
			tour.Players, tour.Anchor = tc.players[:len(tc.players)-1], strings.TrimPrefix(p, "anchor=")
		}
		if _, err := tour.Run(context.Background()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.players, err, tc.want)
		}
	}
}

// TestTournamentResume: a tournament resumed from part of its log plays
// only the missing games of each pairing; a game of no pairing is refused.
func TestTournamentResume(t *testing.T) {
	c := DefaultConfig()
	c.Games, c.OpeningPlies, c.Parallel = 4, 2, 2
	players := []string{"random", "greedy", "ab:depth=2"}
	var buf bytes.Buffer
	full := &Tournament{Spec: envtest.Kalah3, Players: players, Config: c, Prior: 1, Records: &buf}
	if _, err := full.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	all := readRecords(t, &buf)
	if len(all) != 12 {
		t.Fatalf("%d records, want 12", len(all))
	}
	var more bytes.Buffer
	tr := &Tournament{Spec: envtest.Kalah3, Players: players, Config: c, Prior: 1, Records: &more, Done: all[:7]}
	res, err := tr.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(readRecords(t, &more)); n != 5 {
		t.Errorf("resumed after 7 games: played %d, want 5", n)
	}
	for _, m := range res.Matches {
		if m.Counts.Games() != 4 {
			t.Errorf("%s vs %s: %d games, want 4", m.A, m.B, m.Counts.Games())
		}
	}
	stray := slices.Clone(all[:1])
	stray[0].White = "ab:depth=5"
	tr = &Tournament{Spec: envtest.Kalah3, Players: players, Config: c, Prior: 1, Done: stray}
	if _, err := tr.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "not a pairing") {
		t.Errorf("a game of no pairing: %v", err)
	}
}

// TestTournamentReach: with Reach 1 only neighbours in Players meet (a
// ladder), the rating still spans them all; a game of a pairing farther
// apart is refused on resume, and a negative reach is an error.
func TestTournamentReach(t *testing.T) {
	c := DefaultConfig()
	c.Games, c.OpeningPlies, c.Parallel = 4, 2, 2
	players := []string{"random", "greedy", "ab:depth=2", "ab:depth=4"}
	var buf bytes.Buffer
	calls := 0
	tour := &Tournament{Spec: envtest.Kalah3, Players: players, Config: c, Prior: 1, Reach: 1, Records: &buf,
		Progress: func(p Progress) {
			if calls++; p.Total != 12 {
				t.Errorf("progress total %d, want 12 (3 pairings of 4 games)", p.Total)
			}
		}}
	if n := tour.Pairings(); n != 3 {
		t.Errorf("%d pairings at reach 1, want 3", n)
	}
	res, err := tour.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 3 || calls != 12 || len(res.Standings) != 4 {
		t.Fatalf("%d matches, %d games, %d standings", len(res.Matches), calls, len(res.Standings))
	}
	for i, m := range res.Matches {
		if m.A != players[i] || m.B != players[i+1] {
			t.Errorf("match %d: %s vs %s, want neighbours", i, m.A, m.B)
		}
	}
	for _, s := range res.Standings {
		if s.Player != "random" && !(s.Err > 0 && s.Err < 1e6) {
			t.Errorf("%+v: want a finite interval through the ladder", s)
		}
	}
	if tour.Reach = 2; tour.Pairings() != 5 {
		t.Errorf("%d pairings at reach 2, want 5", tour.Pairings())
	}
	far := readRecords(t, &buf)[:1]
	far[0].White, far[0].Black = "random", "ab:depth=4"
	tour.Reach, tour.Done, tour.Progress, tour.Records = 1, far, nil, nil
	if _, err := tour.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "more than the reach 1") {
		t.Errorf("a game of players 3 apart at reach 1: %v", err)
	}
	tour.Reach, tour.Done = -1, nil
	if _, err := tour.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "reach -1") {
		t.Errorf("reach -1: %v", err)
	}
}
