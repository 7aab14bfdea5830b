package site

import (
	"errors"
	"strings"
	"testing"
)

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestReportText: the files with their sizes, the bundle apart from what a
// host serves, the totals, the games' bots and where to open the page.
func TestReportText(t *testing.T) {
	r := Report{Dir: "out", Games: []Game{{Game: "togyz", Agent: "model:sims=800"}},
		Files: []File{{"index.html", 1000, 400}, {WasmFile, 3_000_000, 900_000}, {BundleFile, 4_000_000, 0}}}
	var sb strings.Builder
	if err := r.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"wrote out: 3 files\n",
		"  index.html                  1000 bytes,       400 gzipped\n",
		"  kumalak-bundle.js        4000000 bytes (read only from file://)\n",
		"served over http(s): 3.0 MB, 0.9 MB gzipped (the wasm 0.9 MB gzipped)\n",
		"  togyz         model:sims=800\n",
		"open out/index.html in a browser",
	} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, sb.String())
		}
	}
	if err := r.WriteText(failWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("a failing writer: %v", err)
	}
}
