package cluster

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"kumalak/data"
)

// Entry is one batch recorded in a ledger: which worker sent how many samples.
type Entry struct {
	ID      string // the batch's message id
	Worker  string // the worker that played it
	Network int    // network version it was played with
	Samples int    // samples it held
}

// Marks say which messages of the sample stream the trainer has handled
// (taken, dropped as stale, rejected or recognised as duplicates), as of
// one checkpoint. They make a redelivered batch recognisable whatever the
// timing: the hub restarts its consumer just after Position, so that
// nothing at or before it is ever delivered to it again, and a batch
// stored twice (a worker's re-send after the stream's duplicate window) is
// recognised by its session's sequence.
type Marks struct {
	// Stream identifies the stream the position counts in (its creation
	// time): a stream made anew (a lost disk) starts from its beginning.
	Stream string `json:"stream"`
	// Position is a stream sequence: every message of the run up to it was handled.
	Position uint64 `json:"position"`
	// Sessions holds, per worker session ("<worker>.<session>", the batch
	// id without its sequence), the highest batch sequence handled.
	Sessions map[string]SessionMark `json:"sessions"`
	// Legacy is set when the marks were rebuilt from the ledger files of a
	// run of an older build, which kept no position: the hub then starts
	// at its consumer's acknowledgement floor. Never written.
	Legacy bool `json:"-"`
}

// SessionMark is the highest batch sequence of one worker session handled,
// and when (the trainer's clock) it was raised last.
type SessionMark struct {
	Seq uint64    `json:"seq"`
	At  time.Time `json:"at"`
}

// SessionKeep is how long a worker session is remembered after its last
// batch: longer than a batch can wait in the stream.
const SessionKeep = StreamMaxAge + DedupWindow

// splitID splits a batch id "<worker>.<session>.<seq>" into its session
// and sequence; ok is false for an id of another shape.
func splitID(id string) (session string, seq uint64, ok bool) {
	i := strings.LastIndexByte(id, '.')
	if i <= 0 || !strings.Contains(id[:i], ".") {
		return "", 0, false
	}
	seq, err := strconv.ParseUint(id[i+1:], 10, 64)
	if err != nil || strconv.FormatUint(seq, 10) != id[i+1:] {
		return "", 0, false
	}
	return id[:i], seq, true
}

// covers reports whether the marks of batch id's session already cover it.
func (m *Marks) covers(id string) bool {
	s, seq, ok := splitID(id)
	if !ok {
		return false
	}
	old, ok := m.Sessions[s]
	return ok && old.Seq >= seq
}

// raise records batch id as handled at time now.
func (m *Marks) raise(id string, now time.Time) {
	s, seq, ok := splitID(id)
	if !ok {
		return
	}
	if m.Sessions == nil {
		m.Sessions = map[string]SessionMark{}
	}
	if old, ok := m.Sessions[s]; !ok || seq > old.Seq {
		m.Sessions[s] = SessionMark{Seq: seq, At: now}
	}
}

// clone returns a deep copy of m.
func (m Marks) clone() Marks {
	m.Sessions = maps.Clone(m.Sessions)
	return m
}

// Ledger records, per training iteration, the ids of the batches whose
// samples went into that iteration's shard, and the Marks as of that
// iteration. A file "batches-000042.txt" holds iteration 42's entries, one
// a line: id, worker, network, samples, tab-separated; "marks-000042.json"
// the marks. The trainer writes both after the shard and before its
// checkpoint; files of an iteration after the checkpoint belong to an
// interrupted iteration and are dropped on open. It is not safe for
// concurrent use.
type Ledger struct {
	dir   string
	marks Marks // as of the newest iteration recorded or loaded
}

func ledgerName(it int) string { return "batches-" + pad(it) + ".txt" }
func marksName(it int) string  { return "marks-" + pad(it) + ".json" }

// LedgerFile returns the path of iteration it's ledger file in dir.
func LedgerFile(dir string, it int) string { return filepath.Join(dir, ledgerName(it)) }

// MarksFile returns the path of iteration it's marks file in dir.
func MarksFile(dir string, it int) string { return filepath.Join(dir, marksName(it)) }

// OpenLedger opens (creating) the ledger in dir for a run whose checkpoint
// is iteration upTo: it drops the files of later iterations and loads the
// newest marks at or before upTo. A run of an older build, with ledger
// files but no marks, gets marks rebuilt from its ledger files (Legacy).
func OpenLedger(dir string, upTo int) (*Ledger, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cluster: ledger: %w", err)
	}
	l := &Ledger{dir: dir}
	files, err := ledgerFiles(dir, "batches-*.txt", parseLedgerName)
	if err != nil {
		return nil, err
	}
	marks, err := ledgerFiles(dir, "marks-*.json", parseMarksName)
	if err != nil {
		return nil, err
	}
	files, err = dropAfter(files, upTo)
	if err != nil {
		return nil, err
	}
	if marks, err = dropAfter(marks, upTo); err != nil {
		return nil, err
	}
	switch {
	case len(marks) > 0:
		newest := marks[len(marks)-1]
		b, err := os.ReadFile(newest.path)
		if err != nil {
			return nil, fmt.Errorf("cluster: ledger: %w", err)
		}
		if err := json.Unmarshal(b, &l.marks); err != nil {
			return nil, fmt.Errorf("cluster: ledger %s: %w", newest.path, err)
		}
	case len(files) > 0:
		l.marks.Legacy = true
		now := time.Now()
		for _, f := range files {
			es, err := ReadLedgerFile(f.path)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				l.marks.raise(e.ID, now)
			}
		}
	}
	return l, nil
}

// dropAfter removes the files of iterations after upTo and returns the rest.
func dropAfter(files []ledgerFile, upTo int) ([]ledgerFile, error) {
	kept := files[:0]
	for _, f := range files {
		if f.it <= upTo {
			kept = append(kept, f)
		} else if err := os.Remove(f.path); err != nil {
			return nil, fmt.Errorf("cluster: ledger: %w", err)
		}
	}
	return kept, nil
}

// ReadLedgerFile reads the entries of one ledger file.
func ReadLedgerFile(path string) ([]Entry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cluster: ledger: %w", err)
	}
	var es []Entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("cluster: ledger %s line %d: want 4 fields, got %d", path, n, len(f))
		}
		netv, err1 := strconv.Atoi(f[2])
		k, err2 := strconv.Atoi(f[3])
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("cluster: ledger %s line %d: %w", path, n, err)
		}
		es = append(es, Entry{ID: f[0], Worker: f[1], Network: netv, Samples: k})
	}
	return es, sc.Err()
}

// Marks returns the marks as of the newest iteration recorded or loaded.
func (l *Ledger) Marks() Marks { return l.marks.clone() }

// Record writes iteration it's entries, then its marks, each atomically,
// and removes marks files before the previous iteration's. Sessions whose
// last batch is more than SessionKeep older than the newest are left out.
func (l *Ledger) Record(it int, es []Entry, m Marks) error {
	var buf bytes.Buffer
	for _, e := range es {
		fmt.Fprintf(&buf, "%s\t%s\t%d\t%d\n", e.ID, e.Worker, e.Network, e.Samples)
	}
	if err := data.WriteFile(LedgerFile(l.dir, it), buf.Bytes()); err != nil {
		return fmt.Errorf("cluster: ledger: %w", err)
	}
	m = m.clone()
	var newest time.Time
	for _, s := range m.Sessions {
		if s.At.After(newest) {
			newest = s.At
		}
	}
	maps.DeleteFunc(m.Sessions, func(_ string, s SessionMark) bool { return newest.Sub(s.At) > SessionKeep })
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("cluster: ledger: %w", err)
	}
	if err := data.WriteFile(MarksFile(l.dir, it), b); err != nil {
		return fmt.Errorf("cluster: ledger: %w", err)
	}
	l.marks = m
	old, err := ledgerFiles(l.dir, "marks-*.json", parseMarksName)
	if err != nil {
		return err
	}
	for _, f := range old {
		if f.it < it-1 {
			if err := os.Remove(f.path); err != nil {
				return fmt.Errorf("cluster: ledger: %w", err)
			}
		}
	}
	return nil
}

// Prune removes the ledger files of iterations before first (the trainer
// passes the iteration after the newest shard it pruned, so that a file
// lives as long as its shard).
func (l *Ledger) Prune(first int) error {
	files, err := ledgerFiles(l.dir, "batches-*.txt", parseLedgerName)
	if err != nil {
		return err
	}
	for _, f := range files {
		if f.it < first {
			if err := os.Remove(f.path); err != nil {
				return fmt.Errorf("cluster: ledger: %w", err)
			}
		}
	}
	return nil
}

// ledgerFile is one iteration's ledger or marks file.
type ledgerFile struct {
	it   int
	path string
}

// ledgerFiles returns the files in dir matching pattern whose names parse,
// oldest first.
func ledgerFiles(dir, pattern string, parse func(string) (int, bool)) ([]ledgerFile, error) {
	names, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return nil, fmt.Errorf("cluster: ledger: %w", err)
	}
	files := make([]ledgerFile, 0, len(names))
	for _, p := range names {
		if it, ok := parse(filepath.Base(p)); ok {
			files = append(files, ledgerFile{it, p})
		}
	}
	slices.SortFunc(files, func(a, b ledgerFile) int { return a.it - b.it })
	return files, nil
}

func parseLedgerName(name string) (int, bool) {
	it, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "batches-"), ".txt"))
	return it, err == nil && it >= 0 && ledgerName(it) == name
}

func parseMarksName(name string) (int, bool) {
	it, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "marks-"), ".json"))
	return it, err == nil && it >= 0 && marksName(it) == name
}

// RunID returns the run id kept in dir/run-id, making a new random one
// ("r" and 12 hex digits) the first time.
func RunID(dir string) (string, error) {
	path := filepath.Join(dir, "run-id")
	b, err := os.ReadFile(path)
	if err == nil {
		id := strings.TrimSpace(string(b))
		return id, ValidName("run", id)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("cluster: run id: %w", err)
	}
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("cluster: run id: %w", err)
	}
	id := "r" + hex.EncodeToString(r[:])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("cluster: run id: %w", err)
	}
	// Written whole under a temporary name, then linked into place, which
	// fails when another process (a trainer, a credentials command) made
	// the id meanwhile: then that one is the run's.
	tmp, err := os.CreateTemp(dir, ".run-id-*")
	if err != nil {
		return "", fmt.Errorf("cluster: run id: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(id + "\n")
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		return "", fmt.Errorf("cluster: run id: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
		return RunID(dir)
	} else if err != nil {
		return "", fmt.Errorf("cluster: run id: %w", err)
	}
	return id, nil
}
