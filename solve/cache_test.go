package solve

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"kumalak/env"
)

func TestAutoSize(t *testing.T) {
	for _, c := range []struct {
		v      string
		n      int
		auto   bool
		hasErr bool
	}{
		{"auto", AutoStones, true, false},
		{"auto:8", 8, true, false},
		{"auto:0", 0, true, false},
		{"auto:" + "99", 0, false, true},
		{"auto:-1", 0, false, true},
		{"auto:x", 0, false, true},
		{"automatic", 0, false, false}, // a folder's name
		{"tb/mangala", 0, false, false},
		{"off", 0, false, false},
		{"", 0, false, false},
	} {
		n, auto, err := AutoSize(c.v)
		if n != c.n || auto != c.auto || (err != nil) != c.hasErr {
			t.Errorf("AutoSize(%q) = %d, %v, %v; want %d, %v, error %v", c.v, n, auto, err, c.n, c.auto, c.hasErr)
		}
	}
}

// cacheIn points the cache at a folder of the test's and its log at a
// buffer, and forgets the folders checked before.
func cacheIn(t *testing.T) (string, *bytes.Buffer) {
	t.Helper()
	root := t.TempDir()
	t.Setenv(EnvCache, root)
	var log bytes.Buffer
	old, oldBar := CacheLog, CacheBar
	CacheLog = &log
	CacheBar = func(w io.Writer, n int64) (func(int64), func()) { // the bar's count, as a line
		var got atomic.Int64
		return func(k int64) { got.Add(k) }, func() { fmt.Fprintf(w, "bar %d of %d\n", got.Load(), n) }
	}
	t.Cleanup(func() { CacheLog, CacheBar = old, oldBar })
	cacheMu.Lock()
	clear(ready)
	cacheMu.Unlock()
	return root, &log
}

// TestTablebaseDir: off, none and "" are none; a folder is itself; auto is
// the cache's folder for classic mangala, built once with a notice, and
// none for a game whose searches probe no tablebase.
func TestTablebaseDir(t *testing.T) {
	root, log := cacheIn(t)
	mangala, _ := env.Lookup("mangala")
	togyz, _ := env.Lookup("togyz")
	for _, v := range []string{"", "off", "none"} {
		if d, err := TablebaseDir(mangala, v); d != "" || err != nil {
			t.Errorf("TablebaseDir(%q) = %q, %v; want none", v, d, err)
		}
	}
	if d, err := TablebaseDir(mangala, "tb/x"); d != "tb/x" || err != nil {
		t.Errorf("a folder: %q, %v", d, err)
	}
	if d, err := TablebaseDir(togyz, "auto"); d != "" || err != nil {
		t.Errorf("auto for togyz: %q, %v; want none", d, err)
	}
	if _, err := TablebaseDir(mangala, "auto:77"); err == nil {
		t.Error("auto:77 accepted")
	}
	d, err := TablebaseDir(mangala, "auto:6")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "tablebase", MangalaTB); d != want {
		t.Fatalf("auto:6 in %s, want %s", d, want)
	}
	bar := regexp.MustCompile(`bar (\d+) of (\d+)\n`).FindStringSubmatch(log.String())
	if !strings.Contains(log.String(), "building the 6-stone mangala tablebase once") || !strings.Contains(log.String(), EnvTablebase+"=off") ||
		bar == nil || bar[1] != bar[2] || bar[1] == "0" {
		t.Errorf("the build's notice: %q", log.String())
	}
	tb, err := Open(d, -1)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Stones() != 6 {
		t.Errorf("built levels 0..%d, want 0..6", tb.Stones())
	}
	tb.Close()
	log.Reset()
	if _, err := TablebaseDir(mangala, "auto:6"); err != nil || log.Len() != 0 {
		t.Errorf("a second use built again (%v): %q", err, log.String())
	}
}

// TestOpenSettingAuto: auto:N opens the levels 0..N alone though the
// cache holds more (another command's auto:M), so that a bot's play does
// not hang on what the cache holds; a folder opens every level in it.
func TestOpenSettingAuto(t *testing.T) {
	cacheIn(t)
	mangala, _ := env.Lookup("mangala")
	d, err := Cached(t.Context(), mangala, 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    string
		want int
	}{{"auto:4", 4}, {"auto:6", 6}, {d, 6}} {
		tb, err := OpenSetting(mangala, c.v)
		if err != nil {
			t.Fatalf("%s: %v", c.v, err)
		}
		if tb.Stones() != c.want {
			t.Errorf("%s: levels 0..%d, want 0..%d", c.v, tb.Stones(), c.want)
		}
		tb.Close()
	}
	if tb, err := OpenSetting(mangala, "off"); tb != nil || err != nil {
		t.Errorf("off: %v, %v; want none", tb, err)
	}
	if _, err := OpenSetting(mangala, filepath.Join(d, "missing")); err == nil || !strings.Contains(err.Error(), "tablebase ") {
		t.Errorf("a missing folder: %v", err)
	}
	togyz, _ := env.Lookup("togyz")
	if _, err := OpenSetting(togyz, d); err == nil || !strings.Contains(err.Error(), "togyz has no tablebases") {
		t.Errorf("a folder for togyz: %v", err)
	}
}

// TestTablebaseDirUnwritable: a cache that cannot be made leaves the bot
// without a tablebase, with a word, rather than without a game.
func TestTablebaseDirUnwritable(t *testing.T) {
	root, log := cacheIn(t)
	blocker := filepath.Join(root, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvCache, blocker) // a file where the folder should be
	mangala, _ := env.Lookup("mangala")
	if d, err := TablebaseDir(mangala, "auto:4"); d != "" || err != nil {
		t.Errorf("an unwritable cache: %q, %v; want none and no error", d, err)
	}
	if !strings.Contains(log.String(), "playing without a tablebase") {
		t.Errorf("no word of it: %q", log.String())
	}
	if _, err := Cached(t.Context(), mangala, 4); err == nil {
		t.Error("Cached into a file: no error")
	}
}

// TestCachedRepairs: a level of the cache cut short (a disk that filled,
// a file damaged) is built again, with a word, in the next process.
func TestCachedRepairs(t *testing.T) {
	_, log := cacheIn(t)
	mangala, _ := env.Lookup("mangala")
	d, err := Cached(t.Context(), mangala, 5)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(d, LevelName(MangalaTB, 5))
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, good[:len(good)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	cacheMu.Lock()
	clear(ready) // a new process
	cacheMu.Unlock()
	log.Reset()
	if _, err := Cached(t.Context(), mangala, 5); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "is damaged; building it again") {
		t.Errorf("no word of the repair: %q", log.String())
	}
	if back, _ := os.ReadFile(path); !bytes.Equal(back, good) {
		t.Error("the repaired level differs from the first build")
	}
	togyz, _ := env.Lookup("togyz")
	if _, err := Cached(t.Context(), togyz, 5); err == nil || !strings.Contains(err.Error(), "has no tablebases") {
		t.Errorf("a cache of togyz: %v", err)
	}
}
