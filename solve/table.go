package solve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/edsrzf/mmap-go"

	"kumalak/env"
	"kumalak/env/mangala"
)

// The tablebase kinds, each the game name its files' headers hold: a
// game's env.Facts.Tablebase names its kind. MangalaTB, the default, is
// classic mangala, whose play depends on the pits alone (see the package
// documentation for kale); Kalah(6,n) is the other such game, by its
// capture rule (BuildConfig.Game, OpenGame).
const (
	MangalaTB    = "mangala"
	KalahTB      = "kalah"       // opposite capture
	KalahEmptyTB = "kalah-empty" // empty capture
)

// Tablebase is a set of loaded levels 0..Stones() of the classic mangala
// tablebase, memory-mapped read-only. It is safe for concurrent use; Close
// unmaps it, after which it must not be used.
type Tablebase struct {
	dir    string
	game   string   // MangalaTB, "kalah" or "kalah-empty"
	levels [][]byte // levels[s] holds LevelSize(s) entries
	maps   []mmap.MMap
}

// Open maps the levels 0, 1, ... of dir's tablebase up to the first one
// missing (or up to maxStones when it is >= 0), checking each file's header
// and checksum. A file that is there but corrupt, truncated, of another game
// or format version is an error; a dir without level 0 is too, and so is,
// with maxStones < 0, a missing level below one that is there (a gap would
// leave the levels above it unused without a word).
func Open(dir string, maxStones int) (*Tablebase, error) { return OpenGame(dir, MangalaTB, maxStones) }

// OpenGame is Open for the tablebase of game: MangalaTB (classic mangala) or
// kalah's, "kalah" (6 houses, opposite capture) or "kalah-empty" (empty
// capture), which the kalah solver probes.
func OpenGame(dir, game string, maxStones int) (*Tablebase, error) {
	if !tbGame(game) {
		return nil, fmt.Errorf("solve: open %s: no tablebase of %q (want %s, kalah or kalah-empty)", dir, game, MangalaTB)
	}
	t := &Tablebase{dir: dir, game: game}
	for s := 0; s <= MaxStones && (maxStones < 0 || s <= maxStones); s++ {
		path := filepath.Join(dir, LevelName(game, s))
		ok, err := exists(path)
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("solve: open %s: %w", path, err)
		}
		if !ok {
			if maxStones < 0 {
				if err := gapCheck(dir, game, s); err != nil {
					t.Close()
					return nil, err
				}
			}
			break
		}
		if err := t.mapLevel(path, s); err != nil {
			t.Close()
			return nil, err
		}
	}
	if len(t.levels) == 0 {
		return nil, fmt.Errorf("solve: open %s: no tablebase there (want %s, %s, ...)", dir, LevelName(game, 0), LevelName(game, 1))
	}
	return t, nil
}

// mapLevel maps the file of level s, which must be the next level, and
// checks it.
func (t *Tablebase) mapLevel(path string, s int) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("solve: open %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("solve: open %s: %w", path, err)
	}
	if fi.Size() < headerSize {
		return fmt.Errorf("solve: open %s: %w: %d bytes, shorter than the %d-byte header", path, ErrFormat, fi.Size(), headerSize)
	}
	m, err := mmap.Map(f, mmap.RDONLY, 0)
	if err != nil {
		return fmt.Errorf("solve: map %s: %w", path, err)
	}
	if err := check(m, t.game, s); err != nil {
		err = errors.Join(fmt.Errorf("solve: open %s: %w", path, err), m.Unmap())
		return err
	}
	t.maps = append(t.maps, m)
	t.levels = append(t.levels, m[headerSize:])
	return nil
}

// Close unmaps the levels.
func (t *Tablebase) Close() error {
	var errs []error
	for _, m := range t.maps {
		errs = append(errs, m.Unmap())
	}
	t.maps, t.levels = nil, nil
	return errors.Join(errs...)
}

// Stones returns the largest stone count covered: every configuration
// with at most that many stones on the board has a value.
func (t *Tablebase) Stones() int { return len(t.levels) - 1 }

// Dir returns the folder the tablebase was opened from.
func (t *Tablebase) Dir() string { return t.dir }

// Value returns the future gain of the mover of p (see the file format),
// and false when p holds more stones than the tablebase covers.
func (t *Tablebase) Value(p *Pits) (int, bool) {
	s := p.Stones()
	if s >= len(t.levels) {
		return 0, false
	}
	return int(int8(t.levels[s][p.rank(s)])), true
}

// Probe returns the exact future gain of the player to move in st, a
// classic mangala position: the store difference at the end, mover's store
// less the opponent's, under perfect play is the present store difference
// plus it. It returns false for another game or a position with more stones
// on the board than the tablebase covers.
func (t *Tablebase) Probe(st env.State) (int, bool) {
	b, ok := st.(*mangala.Board)
	if !ok || t.game != st.Spec().Facts.Tablebase {
		return 0, false
	}
	return t.probe(b)
}

// probe is Probe for a board of the tablebase's game: a pointer that does
// not escape, so that Moves allocates nothing.
func (t *Tablebase) probe(b *mangala.Board) (int, bool) {
	p := FromBoard(b)
	if g, over := p.Terminal(); over {
		return g, true
	}
	return t.Value(&p)
}

// FromBoard returns the pits of b in the view of its player to move.
func FromBoard(b *mangala.Board) Pits {
	var p Pits
	me := b.ToMove()
	for i := 0; i < rowPits; i++ {
		p[i] = uint8(b.Pit(me, i+1))
		p[i+rowPits] = uint8(b.Pit(me.Other(), i+1))
	}
	return p
}

// gapCheck returns an error when dir, whose level missing is the first
// absent, holds a higher level.
func gapCheck(dir, game string, missing int) error {
	for s := missing + 1; s <= MaxStones; s++ {
		ok, err := exists(filepath.Join(dir, LevelName(game, s)))
		if err != nil {
			return fmt.Errorf("solve: open %s: %w", dir, err)
		}
		if ok {
			return fmt.Errorf("solve: open %s: level %d (%s) is missing below level %d: the levels above %d would go unused; rebuild the gap (kumalak tablebase build --stones %d --out %s keeps the levels there) or remove the levels above it",
				dir, missing, LevelName(game, missing), s, missing-1, s, dir)
		}
	}
	return nil
}

// Game returns the game of the tablebase: Game, "kalah" or "kalah-empty".
func (t *Tablebase) Game() string { return t.game }

// tbGame reports whether game names a tablebase kind.
func tbGame(game string) bool { return game == MangalaTB || game == KalahTB || game == KalahEmptyTB }
