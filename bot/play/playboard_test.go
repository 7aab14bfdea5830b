package play

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"kumalak/bot/words"
	"kumalak/env"
)

var update = flag.Bool("update", false, "rewrite the golden boards in testdata")

// TestBoardGolden pins the terminal board of every game from both seats:
// one layout, the person's row at the bottom from pit 1, the opponent's
// on top, each after three moves so that the rows differ
// (testdata/boards.golden; -update rewrites it).
func TestBoardGolden(t *testing.T) {
	var sb strings.Builder
	for _, game := range env.Games() {
		spec, err := env.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		st := spec.New()
		for ply := range 3 { // the first pit, the last, a middle one: rows that differ
			if st.Result() != env.Ongoing {
				break
			}
			legal := st.Legal(nil)
			st.Apply(legal[[]int{0, len(legal) - 1, len(legal) / 2}[ply]])
		}
		for _, seat := range []env.Player{env.White, env.Black} {
			sb.WriteString("== " + game + " " + st.String() + ", seen by " + seat.Name() + "\n")
			sb.WriteString(boardFor(words.New(language.English), st, seat))
			sb.WriteString("\n")
		}
	}
	path := filepath.Join("testdata", "boards.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := sb.String(); got != string(want) {
		t.Errorf("boards differ from %s (go test -run TestBoardGolden -update rewrites it):\n%s", path, got)
	}
}
