package solve

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/renameio/v2"

	"kumalak/env"
)

// A resumable solve (Config.State) saves its progress to one file: the
// proven bounds and guess of every root move, the nodes and time spent over
// all runs, and the table's proven entries that cost the most work, so that
// a run killed at any moment loses at most the work since the last save.
// Every entry is a proved bound, true whatever search comes after, so a
// resumed run may load them into any table. The layout, little-endian:
//
//	magic "KMKSTATE", version uint32
//	id: length uint16 and bytes (the game's name, a space, the position)
//	nodes uint64, elapsed nanoseconds uint64 (all runs)
//	root moves: count uint8, then each: action uint8, lo, hi, guess int16
//	table entries to the checksum: each key uint64, data uint64 (ktt.go)
//	SHA-256 of everything before it
const (
	stateMagic   = "KMKSTATE"
	stateVersion = 1
	// stateMaxEntries caps the entries saved (16 bytes each): the
	// costliest proven entries are kept.
	stateMaxEntries = 1 << 22
)

// ErrState marks a state file that cannot be read: truncated, corrupt,
// another version, or another position's.
var ErrState = errors.New("solve state")

// savedRoot is one root move of a saved state.
type savedRoot struct {
	action        env.Action
	lo, hi, guess int
}

// savedState is a decoded state file.
type savedState struct {
	id      string
	nodes   uint64
	elapsed time.Duration
	roots   []savedRoot
	entries []byte // key, data pairs
}

// encodeHead returns the state's bytes up to the table entries.
func (st *savedState) encodeHead() []byte {
	b := []byte(stateMagic)
	b = binary.LittleEndian.AppendUint32(b, stateVersion)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(st.id)))
	b = append(b, st.id...)
	b = binary.LittleEndian.AppendUint64(b, st.nodes)
	b = binary.LittleEndian.AppendUint64(b, uint64(st.elapsed))
	b = append(b, uint8(len(st.roots)))
	for _, r := range st.roots {
		b = append(b, uint8(r.action))
		for _, v := range [...]int{r.lo, r.hi, r.guess} {
			b = binary.LittleEndian.AppendUint16(b, uint16(int16(v)))
		}
	}
	return b
}

// decodeState reads a state file's bytes, checking the checksum first.
func decodeState(b []byte) (*savedState, error) {
	if len(b) < len(stateMagic)+4+sha256.Size {
		return nil, fmt.Errorf("%w: %d bytes: truncated", ErrState, len(b))
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, fmt.Errorf("%w: checksum mismatch (file corrupt or truncated)", ErrState)
	}
	if string(body[:len(stateMagic)]) != stateMagic {
		return nil, fmt.Errorf("%w: not a state file (magic %q)", ErrState, body[:len(stateMagic)])
	}
	r := body[len(stateMagic):]
	need := func(n int) ([]byte, error) {
		if len(r) < n {
			return nil, fmt.Errorf("%w: truncated", ErrState)
		}
		p := r[:n]
		r = r[n:]
		return p, nil
	}
	p, _ := need(4)
	if v := binary.LittleEndian.Uint32(p); v != stateVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrState, v, stateVersion)
	}
	st := &savedState{}
	p, err := need(2)
	if err != nil {
		return nil, err
	}
	if p, err = need(int(binary.LittleEndian.Uint16(p))); err != nil {
		return nil, err
	}
	st.id = string(p)
	if p, err = need(17); err != nil {
		return nil, err
	}
	st.nodes = binary.LittleEndian.Uint64(p)
	st.elapsed = time.Duration(binary.LittleEndian.Uint64(p[8:]))
	if st.elapsed < 0 {
		return nil, fmt.Errorf("%w: negative time", ErrState)
	}
	n := int(p[16])
	if n > env.MaxActions {
		return nil, fmt.Errorf("%w: %d root moves, at most %d", ErrState, n, env.MaxActions)
	}
	for range n {
		if p, err = need(7); err != nil {
			return nil, err
		}
		rt := savedRoot{action: env.Action(p[0])}
		rt.lo = int(int16(binary.LittleEndian.Uint16(p[1:])))
		rt.hi = int(int16(binary.LittleEndian.Uint16(p[3:])))
		rt.guess = int(int16(binary.LittleEndian.Uint16(p[5:])))
		if rt.lo > rt.hi {
			return nil, fmt.Errorf("%w: move %d bounds %d..%d", ErrState, p[0], rt.lo, rt.hi)
		}
		st.roots = append(st.roots, rt)
	}
	if len(r)%16 != 0 {
		return nil, fmt.Errorf("%w: table entries %d bytes, not pairs of words", ErrState, len(r))
	}
	for i := 0; i < len(r); i += 16 {
		if v := unpack(binary.LittleEndian.Uint64(r[i+8:])); v.depth != exactDepth || v.lo > v.hi {
			return nil, fmt.Errorf("%w: table entry %d is not a proved bound", ErrState, i/16)
		}
	}
	st.entries = r
	return st, nil
}

// checkpoint saves one resumable solve, its state file and bounds file:
// after resume, every Config.SaveEvery and at the end.
type checkpoint struct {
	mu     sync.Mutex // guards roots against the saver
	path   string
	id     string
	job    *kjob
	legal  []env.Action
	roots  []kroot
	tt     *ktable
	carry  *carry         // the bounds files, or nil
	prior  savedState     // what earlier runs spent
	live   atomic.Uint64  // the main worker's nodes in this run
	prog   progress       // where the main worker stands in its test
	helper *atomic.Uint64 // the helpers' nodes in this run, as they go
	start  time.Time
	every  time.Duration
	log    func(string)
	saving sync.Mutex // one save at a time
	done   chan struct{}
	wg     sync.WaitGroup
}

// resume reads the state file of Config.State when it exists, checks that
// it is j's, loads its bounds into roots and its entries into the table;
// reads the bounds of Config.Bounds and Config.Shipped into the table and
// roots; and starts the periodic saves.
func (s *Solver) resume(j *kjob, roots []kroot) (*checkpoint, error) {
	ck := &checkpoint{path: s.cfg.State, id: j.id, job: j, legal: j.legal, roots: roots, tt: s.ktt,
		start: time.Now(), every: s.cfg.SaveEvery, log: s.cfg.Log, done: make(chan struct{}), helper: &s.helperNodes}
	if ck.path != "" {
		if err := ck.readState(); err != nil {
			return nil, err
		}
	}
	if len(s.cfg.Bounds) > 0 || s.cfg.Shipped {
		if err := s.readBounds(ck); err != nil {
			return nil, err
		}
	}
	if ck.every > 0 && (ck.path != "" || ck.carry != nil && ck.carry.out != "") {
		ck.wg.Add(1)
		go ck.loop()
	}
	return ck, nil
}

// readState reads ck.path when it exists into the roots and the table.
func (ck *checkpoint) readState() error {
	j, roots := ck.job, ck.roots
	b, err := os.ReadFile(ck.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		ck.prior.id = j.id
		return nil
	case err != nil:
		return fmt.Errorf("solve: resume %s: %w", ck.path, err)
	}
	st, err := decodeState(b)
	if err != nil {
		return fmt.Errorf("solve: resume %s: %w", ck.path, err)
	}
	if st.id != j.id {
		return fmt.Errorf("solve: resume %s: %w: saved for %q, not %q", ck.path, ErrState, st.id, j.id)
	}
	for _, sr := range st.roots {
		for i, a := range j.legal {
			if a == sr.action {
				rt := &roots[i]
				rt.lo, rt.hi = max(rt.lo, sr.lo), min(rt.hi, sr.hi)
				rt.guess, rt.guessed = sr.guess, true
			}
		}
	}
	for i := 0; i < len(st.entries); i += 16 {
		key := binary.LittleEndian.Uint64(st.entries[i:])
		ck.tt.store(key, unpack(binary.LittleEndian.Uint64(st.entries[i+8:])))
	}
	ck.prior = *st
	ck.prior.entries = nil
	if ck.log != nil {
		ck.log(fmt.Sprintf("resumed %s: %d nodes and %v over earlier runs, %d table entries; moves %s", ck.path, st.nodes, st.elapsed.Round(time.Second), len(st.entries)/16, ck.moves()))
	}
	return nil
}

// readBounds reads the bounds files, seeds the table and narrows the
// roots with them, and sets up their saving.
func (s *Solver) readBounds(ck *checkpoint) error {
	b, read, err := s.loadBounds(ck.job.st)
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	seed(ck.tt, ck.job.g, b)
	narrowRoots(ck.tt, ck.job.g, ck.roots)
	plies := s.cfg.BoundsPlies
	if plies == 0 {
		plies = DefaultBoundsPlies
	}
	tb := "none"
	if ck.job.tb != nil {
		tb = fmt.Sprint(ck.job.tb.Stones())
	}
	ck.carry = &carry{read: b, plies: plies, started: time.Now(),
		what: fmt.Sprintf("threads=%d tablebase=%s plies=%d value-only=%v", max(s.cfg.Threads, 1), tb, plies, s.cfg.ValueOnly)}
	if len(s.cfg.Bounds) > 0 {
		ck.carry.out = s.cfg.Bounds[0]
	}
	if ck.log != nil && len(read) > 0 {
		ck.log(fmt.Sprintf("read bounds of %d positions from %s; moves %s", len(b.facts), strings.Join(read, ", "), ck.moves()))
	}
	return nil
}

// loop saves every ck.every until close.
func (ck *checkpoint) loop() {
	defer ck.wg.Done()
	t := time.NewTicker(ck.every)
	defer t.Stop()
	for {
		select {
		case <-ck.done:
			return
		case <-t.C:
			err := ck.save()
			switch {
			case ck.log == nil:
			case err != nil:
				ck.log(err.Error())
			default:
				if l := ck.prog.line(time.Now()); l != "" {
					ck.log(l)
				}
			}
		}
	}
}

// moves returns the root moves' bounds, as final store differences for
// the root mover: "1:-4..+6 2:+2..+2". The caller holds ck.mu or is the
// search's goroutine.
func (ck *checkpoint) moves() string {
	var m []string
	for i := range ck.roots {
		lo, hi := rootBounds(ck.job, &ck.roots[i])
		m = append(m, fmt.Sprintf("%d:%+d..%+d", ck.legal[i].Pit(), lo, hi))
	}
	return strings.Join(m, " ")
}

// lock takes ck.mu; a nil ck (no state) needs none.
func (ck *checkpoint) lock() {
	if ck != nil {
		ck.mu.Lock()
	}
}

// unlock releases lock's.
func (ck *checkpoint) unlock() {
	if ck != nil {
		ck.mu.Unlock()
	}
}

// close stops the periodic saves.
func (ck *checkpoint) close() {
	close(ck.done)
	ck.wg.Wait()
}

// save writes the state file and the bounds file, those asked for.
func (ck *checkpoint) save() error {
	ck.saving.Lock()
	defer ck.saving.Unlock()
	var errs []error
	if ck.path != "" {
		errs = append(errs, ck.saveState())
	}
	if ck.carry != nil && ck.carry.out != "" {
		errs = append(errs, ck.saveBounds())
	}
	return errors.Join(errs...)
}

// saveState writes the state atomically: the file is either the old or the
// new one whenever the process dies. The caller holds ck.saving.
func (ck *checkpoint) saveState() error {
	ck.mu.Lock()
	st := savedState{id: ck.id, nodes: ck.prior.nodes + ck.live.Load() + ck.helper.Load(), elapsed: ck.prior.elapsed + time.Since(ck.start)}
	for i, rt := range ck.roots {
		st.roots = append(st.roots, savedRoot{action: ck.legal[i], lo: rt.lo, hi: rt.hi, guess: rt.guess})
	}
	moves := ck.moves()
	ck.mu.Unlock()
	f, err := renameio.NewPendingFile(ck.path, renameio.WithPermissions(0o644))
	if err != nil {
		return fmt.Errorf("solve: save %s: %w", ck.path, err)
	}
	defer f.Cleanup()
	h := sha256.New()
	w := bufio.NewWriterSize(f, 1<<20)
	put := func(p []byte) {
		h.Write(p)
		w.Write(p) // a write error stays in w and comes back from Flush
	}
	put(st.encodeHead())
	n := ck.tt.appendProven(put)
	w.Write(h.Sum(nil))
	if err := w.Flush(); err != nil {
		return fmt.Errorf("solve: save %s: %w", ck.path, err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("solve: save %s: %w", ck.path, err)
	}
	if ck.log != nil {
		ck.log(fmt.Sprintf("saved %s: %d nodes, %v over all runs, %d table entries; moves %s", ck.path, st.nodes, st.elapsed.Round(time.Second), n, moves))
	}
	return nil
}

// appendProven passes the table's proven entries, the costliest first up to
// stateMaxEntries, to put as key, data pairs, and returns how many. The
// search may run meanwhile: a slot torn by a writer reads as a key of
// another bucket and is skipped.
func (t *ktable) appendProven(put func([]byte)) int {
	var hist [256]int
	t.eachProven(func(_ uint64, v kval, _ uint64) { hist[v.work]++ })
	floor, total := 0, 0
	for w := 255; w >= 0; w-- {
		if total+hist[w] > stateMaxEntries {
			floor = w + 1
			break
		}
		total += hist[w]
	}
	var buf [16]byte
	n := 0
	t.eachProven(func(key uint64, v kval, d uint64) {
		if int(v.work) < floor || n >= stateMaxEntries {
			return
		}
		binary.LittleEndian.PutUint64(buf[:], key)
		binary.LittleEndian.PutUint64(buf[8:], d)
		put(buf[:])
		n++
	})
	return n
}

// eachProven calls f with every slot holding a bound proved to the end of
// the game.
func (t *ktable) eachProven(f func(key uint64, v kval, data uint64)) {
	for i := range t.b {
		for k := range t.b[i] {
			d := t.b[i][k].data.Load()
			key := t.b[i][k].check.Load() ^ d
			if d == 0 || key&t.mask != uint64(i) {
				continue
			}
			if v := unpack(d); v.depth == exactDepth && v.lo <= v.hi {
				f(key, v, d)
			}
		}
	}
}

// sha256Sum returns the checksum of b.
func sha256Sum(b []byte) [sha256.Size]byte { return sha256.Sum256(b) }
