package solve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"kumalak/env/kalah"
)

// BuildConfig says which tablebase to build and how.
type BuildConfig struct {
	Dir     string // folder of the level files; created if missing
	Game    string // MangalaTB (the default, for ""), "kalah" or "kalah-empty": kalah with 6 houses
	Stones  int    // build every level 0..Stones
	Workers int    // goroutines computing a level; 0 means one per CPU
	// Progress, when not nil, is called with the number of configurations
	// just computed, from several goroutines at once.
	Progress func(n int64)
	// Done, when not nil, is called after each level, kept or built.
	Done func(LevelStat)
}

// Validate names the first bad field of c.
func (c BuildConfig) Validate() error {
	switch {
	case c.Dir == "":
		return fmt.Errorf("solve: build: Dir is empty")
	case c.Game != "" && !tbGame(c.Game):
		return fmt.Errorf("solve: build: Game %q: want %s, kalah or kalah-empty", c.Game, MangalaTB)
	case c.Stones < 0 || c.Stones > MaxStones:
		return fmt.Errorf("solve: build: Stones %d out of range 0..%d", c.Stones, MaxStones)
	case c.Workers < 0:
		return fmt.Errorf("solve: build: Workers %d is negative", c.Workers)
	}
	return nil
}

// LevelStat reports one level of a build.
type LevelStat struct {
	Stones  int           // the level
	Entries uint64        // configurations, one byte each
	Bytes   int64         // size of the file, header included
	Took    time.Duration // time to compute and write it; 0 when kept
	Kept    bool          // the file was already there (a resumed build)
}

// Pending returns the number of configurations a build of c still has to
// compute: those of the levels whose files are missing.
func Pending(c BuildConfig) (uint64, error) {
	var n uint64
	for s := 0; s <= c.Stones; s++ {
		ok, err := exists(filepath.Join(c.Dir, LevelName(c.game(), s)))
		if err != nil {
			return 0, fmt.Errorf("solve: build: %w", err)
		}
		if !ok {
			n += LevelSize(s)
		}
	}
	return n, nil
}

// Build computes the levels 0..c.Stones of the classic mangala tablebase in
// increasing stone count, keeping (after checking) the level files already
// in c.Dir, so that a build killed at any moment resumes where it stopped
// with its finished levels kept. It returns one LevelStat per level; on
// error or cancellation the levels finished so far are on disk.
func Build(ctx context.Context, c BuildConfig) ([]LevelStat, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.Workers == 0 {
		c.Workers = runtime.NumCPU()
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("solve: build: %w", err)
	}
	t := &Tablebase{dir: c.Dir, game: c.game()}
	defer t.Close()
	var stats []LevelStat
	for s := 0; s <= c.Stones; s++ {
		st, err := t.buildLevel(ctx, c, s)
		if err != nil {
			return stats, err
		}
		stats = append(stats, st)
		if c.Done != nil {
			c.Done(st)
		}
	}
	return stats, nil
}

// buildLevel maps level s from its file, computing and writing the file
// first when it is missing.
func (t *Tablebase) buildLevel(ctx context.Context, c BuildConfig, s int) (LevelStat, error) {
	path := filepath.Join(c.Dir, LevelName(t.game, s))
	st := LevelStat{Stones: s, Entries: LevelSize(s), Bytes: headerSize + int64(LevelSize(s))}
	ok, err := exists(path)
	if err != nil {
		return st, fmt.Errorf("solve: build: %w", err)
	}
	if ok {
		st.Kept = true
		if err := t.mapLevel(path, s); err != nil {
			return st, fmt.Errorf("%w (remove the file to rebuild the level)", err)
		}
		return st, nil
	}
	t0 := time.Now()
	entries := make([]byte, LevelSize(s))
	if err := t.compute(ctx, c, s, entries); err != nil {
		return st, err
	}
	if err := writeLevel(c.Dir, t.game, s, entries); err != nil {
		return st, err
	}
	if err := t.mapLevel(path, s); err != nil {
		return st, err
	}
	st.Took = time.Since(t0)
	return st, nil
}

// chunk is the number of configurations a worker takes at a time.
const chunk = 1 << 14

// compute fills entries, level s, from the levels below it. Within a
// level a move either sends a stone to a store (and leads to a lower level)
// or keeps every stone in the mover's row, shifted towards the store, which
// raises the weight: so the weights are done from the heaviest down, and
// the configurations of one weight, which never lead to each other, are
// shared among the workers.
func (t *Tablebase) compute(ctx context.Context, c BuildConfig, s int, entries []byte) error {
	levels := append(t.levels[:s:s], entries)
	r := rulesOf(t.game)
	for w := (rowPits - 1) * s; w >= 0; w-- {
		lo, hi := offsets[s][w], offsets[s][w+1]
		var next atomic.Uint64
		next.Store(lo)
		var wg sync.WaitGroup
		for range c.Workers {
			wg.Go(func() {
				for ctx.Err() == nil {
					a := next.Add(chunk) - chunk
					if a >= hi {
						return
					}
					b := min(a+chunk, hi)
					for k := a; k < b; k++ {
						p := unrankIn(s, w, k-lo)
						entries[k] = byte(int8(evaluate(r, &p, levels)))
					}
					if c.Progress != nil {
						c.Progress(int64(b - a))
					}
				}
			})
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("solve: build level %d: %w", s, err)
		}
	}
	return nil
}

// evaluate returns the future gain of p's mover by one ply of search over
// levels, which must hold every configuration p's moves lead to.
func evaluate(r tbRules, p *Pits, levels [][]byte) int {
	if g, over := r.terminal(p); over {
		return g
	}
	best := -MaxStones - 1
	for i := 0; i < rowPits; i++ {
		if p[i] != 0 {
			best = max(best, moveValue(r.play(p, i), levels))
		}
	}
	return best
}

// game returns c.Game, MangalaTB for "".
func (c BuildConfig) game() string {
	if c.Game == "" {
		return MangalaTB
	}
	return c.Game
}

// tbRules are the rules a tablebase is built by: classic mangala's
// (kalah == nil) or a 6-house Kalah's.
type tbRules struct{ kalah *kgame }

// rulesOf returns the rules of a tablebase game.
func rulesOf(game string) tbRules {
	switch game {
	case KalahTB:
		return tbRules{&kgame{n: rowPits, capture: kalah.Opposite}}
	case KalahEmptyTB:
		return tbRules{&kgame{n: rowPits, capture: kalah.Empty}}
	}
	return tbRules{}
}

// terminal reports whether a row of p is empty, and the mover's future
// gain then: mangala gives the stones left to the player whose row is
// empty, Kalah to their owner.
func (r tbRules) terminal(p *Pits) (int, bool) {
	if r.kalah == nil {
		return p.Terminal()
	}
	mine, theirs := p.rows()
	return mine - theirs, mine == 0 || theirs == 0
}

// play plays the mover's pit i of p.
func (r tbRules) play(p *Pits, i int) Child {
	if r.kalah == nil {
		return p.Play(i)
	}
	k := fromPits(p)
	c := r.kalah.play(&k, i)
	return Child{Pits: c.p.toPits(), Gain: c.gain, Extra: c.extra, Over: c.over}
}

// moveValue returns the mover's future gain after the move that led to c.
func moveValue(c Child, levels [][]byte) int {
	if c.Over {
		return c.Gain
	}
	n := c.Pits.Stones()
	v := int(int8(levels[n][c.Pits.rank(n)]))
	if c.Extra {
		return c.Gain + v
	}
	return c.Gain - v
}
