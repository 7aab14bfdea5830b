package arena

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadOpenings(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	if err := os.WriteFile(good, []byte("# two\n1 2\n\n 9 3 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open, err := ReadOpenings(good)
	if err != nil || fmt.Sprint(open) != "[[0 1] [8 2 3]]" {
		t.Errorf("%s: %v, %v", good, open, err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("1 2\n1 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		bad:                           `arena: openings line 2: "x" is not a pit number (file ` + bad + `)`,
		filepath.Join(dir, "missing"): "arena: openings: open " + filepath.Join(dir, "missing") + ": no such file or directory",
	} {
		if _, err := ReadOpenings(path); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if open, err := ReadOpenings(""); open != nil || err != nil {
		t.Errorf("no file: %v, %v; want none", open, err)
	}
}

func TestParseSPRT(t *testing.T) {
	s, err := ParseSPRT(" -5, 10", 0.05, 0.1)
	if err != nil || s != (SPRT{Elo0: -5, Elo1: 10, Alpha: 0.05, Beta: 0.1}) {
		t.Errorf("-5, 10: %+v, %v", s, err)
	}
	for in, want := range map[string]string{
		"10":     `arena: sprt "10": want elo0,elo1, e.g. 0,10`,
		"0,x":    `arena: sprt "0,x": want elo0,elo1, e.g. 0,10`,
		"10,0":   "arena: sprt elo0 10 must be below elo1 0",
		"0,3000": "arena: sprt elo bounds 0, 3000 out of range -2000..2000",
	} {
		_, err := ParseSPRT(in, 0.05, 0.05)
		if _, ok := errors.AsType[*ValueError](err); !ok || err.Error() != want {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
	if _, err := ParseSPRT("0,10", 0.5, 0.05); err == nil || !strings.Contains(err.Error(), "alpha") {
		t.Errorf("alpha 0.5: %v", err)
	}
}

// FuzzParseSPRT: a test ParseSPRT accepts is valid and has finite bounds.
func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,10", "-5, 5", "10,0", ",", "NaN,1", "1e3,2e3", "0,Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSPRT(in, 0.05, 0.05)
		if err != nil {
			return
		}
		lo, hi := s.Bounds()
		if s.Validate() != nil || !(s.Elo0 < s.Elo1) || math.IsNaN(lo) || math.IsNaN(hi) {
			t.Fatalf("%q: accepted %+v", in, s)
		}
	})
}
