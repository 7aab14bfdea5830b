package mangala

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/draw.golden")

// drawPositions are drawn into testdata/draw.golden.
var drawPositions = []struct {
	pos  string
	kale bool
}{
	{"4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w", false},
	{"1,2,3,4,5,6/7,8,9,0,0,0 2 1 - - b", false},
	{"0,0,0,0,0,0/0,0,0,0,0,0 24 24 - - b", false},
	{"3,0,5,5,5,2/0,3,0,3,3,3 10 6 3 2 b", true},
	{"0,0,0,0,0,0/4,4,4,4,4,4 10 14 - - w", true},
}

func TestDrawGolden(t *testing.T) {
	var sb strings.Builder
	for _, c := range drawPositions {
		b := mustParse(t, c.pos, c.kale)
		sb.WriteString(c.pos + "\n" + b.Draw() + "\n")
	}
	const path = "testdata/draw.golden"
	if *update {
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sb.String() != string(want) {
		t.Errorf("Draw output differs from %s (go test -run DrawGolden -update rewrites it):\n%s", path, sb.String())
	}
}

// TestDrawLayout pins the orientation: black's row reads 6..1, white's
// 1..6, black's store on the left, white's on the right.
func TestDrawLayout(t *testing.T) {
	b := mustParse(t, "1,2,3,4,5,6/7,8,9,0,0,0 2 1 - - b", false)
	lines := strings.Split(b.Draw(), "\n")
	want := []string{
		"mangala, black to move",
		"          b6  b5  b4  b3  b2  b1",
		"        +---+---+---+---+---+---+",
		"        |  0|  0|  0|  9|  8|  7|",
		"  b   1 +---+---+---+---+---+---+ 2   w",
		"        |  1|  2|  3|  4|  5|  6|",
		"        +---+---+---+---+---+---+",
		"          w1  w2  w3  w4  w5  w6",
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("line %d:\n%s\nwant:\n%s", i, b.Draw(), strings.Join(want, "\n"))
		}
	}
}
