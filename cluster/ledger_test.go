package cluster

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestLedgerMarks: the marks of the checkpointed iteration come back on
// open, later iterations' files go, and a ledger of an older build (batch
// files, no marks) gives legacy marks rebuilt from its ids.
func TestLedgerMarks(t *testing.T) {
	dir := t.TempDir()
	l, err := OpenLedger(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if m := l.Marks(); m.Position != 0 || m.Legacy || len(m.Sessions) != 0 {
		t.Fatalf("a new ledger's marks: %+v", m)
	}
	now := time.Unix(1700000000, 0).UTC()
	for it := 1; it <= 4; it++ {
		m := l.Marks()
		m.Stream, m.Position = "s1", uint64(10*it)
		m.raise("w1.abc."+string(rune('0'+it)), now)
		if err := l.Record(it, []Entry{{ID: "w1.abc." + string(rune('0'+it)), Worker: "w1", Samples: 5}}, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(MarksFile(dir, 2)); !os.IsNotExist(err) {
		t.Fatalf("marks of iteration 2 kept after 4 (%v): only the last two stay", err)
	}
	// The checkpoint says iteration 3: iteration 4 was interrupted.
	l, err = OpenLedger(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	m := l.Marks()
	if m.Position != 30 || m.Stream != "s1" || !m.covers("w1.abc.3") || m.covers("w1.abc.4") || m.Legacy {
		t.Fatalf("marks after resuming at 3: %+v", m)
	}
	for _, p := range []string{LedgerFile(dir, 4), MarksFile(dir, 4)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s of the interrupted iteration kept (%v)", p, err)
		}
	}
	// An older build's run: ledger files only.
	old := t.TempDir()
	if err := os.WriteFile(LedgerFile(old, 1), []byte("w2.xyz.7\tw2\t0\t9\nodd-id\tw2\t0\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err = OpenLedger(old, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m := l.Marks(); !m.Legacy || !m.covers("w2.xyz.7") || !m.covers("w2.xyz.1") || m.covers("w2.xyz.8") {
		t.Fatalf("legacy marks: %+v", m)
	}
}

func TestSplitID(t *testing.T) {
	for _, tt := range []struct {
		id      string
		session string
		seq     uint64
		ok      bool
	}{
		{"w1.abc.12", "w1.abc", 12, true},
		{"w1.abc.0", "w1.abc", 0, true},
		{"w1.12", "", 0, false},
		{"w1.abc.012", "", 0, false},
		{"w1.abc.x", "", 0, false},
		{"", "", 0, false},
		{".abc.1", ".abc", 1, true},
	} {
		s, seq, ok := splitID(tt.id)
		if s != tt.session || seq != tt.seq || ok != tt.ok {
			t.Errorf("splitID(%q) = %q, %d, %v; want %q, %d, %v", tt.id, s, seq, ok, tt.session, tt.seq, tt.ok)
		}
	}
}

// TestRunIDRace: processes that make a run's id at once (a trainer and a
// credentials command) all get the same one.
func TestRunIDRace(t *testing.T) {
	for range 20 {
		dir := t.TempDir()
		ids := make([]string, 8)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id, err := RunID(dir)
				if err != nil {
					t.Error(err)
				}
				ids[i] = id
			}()
		}
		wg.Wait()
		for _, id := range ids[1:] {
			if id != ids[0] {
				t.Fatalf("run ids %v: not one", ids)
			}
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".run-id-*")); len(left) > 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	}
}
