package cluster

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/renameio/v2"
)

// LedgerKeep is how many iterations' batch ids a Ledger remembers, to
// recognise a batch redelivered after a crash between checkpoint and ack.
const LedgerKeep = 32

// Entry is one batch recorded in a ledger: which worker sent how many samples.
type Entry struct {
	ID      string // the batch's message id
	Worker  string // the worker that played it
	Network int    // network version it was played with
	Samples int    // samples it held
}

// Ledger records, per training iteration, the ids of the batches whose
// samples went into that iteration's shard. A file "batches-000042.txt"
// holds iteration 42's entries, one a line: id, worker, network, samples,
// tab-separated. The trainer writes it after the shard and before its
// checkpoint; a file of an iteration after the checkpoint belongs to an
// interrupted iteration and is dropped on open. It is not safe for
// concurrent use.
type Ledger struct {
	dir  string
	seen map[string]int // batch id -> iteration
}

func ledgerName(it int) string { return "batches-" + pad(it) + ".txt" }

// LedgerFile returns the path of iteration it's ledger file in dir.
func LedgerFile(dir string, it int) string { return filepath.Join(dir, ledgerName(it)) }

// OpenLedger opens (creating) the ledger in dir for a run whose checkpoint
// is iteration upTo: it drops the files of later iterations and remembers
// the ids of the last LedgerKeep ones.
func OpenLedger(dir string, upTo int) (*Ledger, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cluster: ledger: %w", err)
	}
	l := &Ledger{dir: dir, seen: map[string]int{}}
	files, err := ledgerFiles(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := l.load(f.path, f.it, upTo); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (l *Ledger) load(path string, it, upTo int) error {
	switch {
	case it > upTo:
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("cluster: ledger: %w", err)
		}
		return nil
	case it <= upTo-LedgerKeep:
		return nil
	}
	es, err := ReadLedgerFile(path)
	if err != nil {
		return err
	}
	for _, e := range es {
		l.seen[e.ID] = it
	}
	return nil
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

// Seen returns the iteration whose shard holds batch id, if the ledger
// remembers it.
func (l *Ledger) Seen(id string) (int, bool) {
	it, ok := l.seen[id]
	return it, ok
}

// Record writes iteration it's entries atomically and remembers their ids;
// ids of iterations LedgerKeep or more before it are forgotten (their files
// stay until Prune).
func (l *Ledger) Record(it int, es []Entry) error {
	var buf bytes.Buffer
	for _, e := range es {
		fmt.Fprintf(&buf, "%s\t%s\t%d\t%d\n", e.ID, e.Worker, e.Network, e.Samples)
	}
	if err := renameio.WriteFile(LedgerFile(l.dir, it), buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("cluster: ledger: %w", err)
	}
	for _, e := range es {
		l.seen[e.ID] = it
	}
	for id, at := range l.seen {
		if at <= it-LedgerKeep {
			delete(l.seen, id)
		}
	}
	return nil
}

// Prune removes the files of iterations before first (the trainer passes
// the iteration after the newest shard it pruned, so that a file lives as
// long as its shard).
func (l *Ledger) Prune(first int) error {
	files, err := ledgerFiles(l.dir)
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

// ledgerFile is one iteration's ledger file.
type ledgerFile struct {
	it   int
	path string
}

// ledgerFiles returns the ledger files in dir, oldest first.
func ledgerFiles(dir string) ([]ledgerFile, error) {
	names, err := filepath.Glob(filepath.Join(dir, "batches-*.txt"))
	if err != nil {
		return nil, fmt.Errorf("cluster: ledger: %w", err)
	}
	files := make([]ledgerFile, 0, len(names))
	for _, p := range names {
		if it, ok := parseLedgerName(filepath.Base(p)); ok {
			files = append(files, ledgerFile{it, p})
		}
	}
	return files, nil
}

func parseLedgerName(name string) (int, bool) {
	it, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "batches-"), ".txt"))
	return it, err == nil && it >= 0 && ledgerName(it) == name
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
	if err := renameio.WriteFile(path, []byte(id+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("cluster: run id: %w", err)
	}
	return id, nil
}
