package solve

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"kumalak/env"
)

// proofs holds the bounds files shipped in the binary, one a game:
// proofs/GAME.bounds, read by a solve of that game with Config.Shipped.
//
//go:embed proofs/*.bounds
var proofs embed.FS

// shipped returns the bounds shipped for game, nil when there are none.
func shipped(game string) (*bounds, error) {
	name := "proofs/" + game + ".bounds"
	data, err := proofs.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeBounds(bytes.NewReader(data), "shipped "+name)
}

// shippedGames names the games whose bounds are shipped.
func shippedGames() string {
	ents, _ := proofs.ReadDir("proofs")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".bounds"))
	}
	return strings.Join(names, ", ")
}

// readBoundsFile reads one bounds file of spec's game (nil: any game);
// false when it does not exist.
func readBoundsFile(path string, spec *env.Spec) (*bounds, bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err := decodeBounds(f, path)
	if err != nil {
		return nil, false, err
	}
	if spec != nil && b.spec.Name != spec.Name {
		return nil, false, fmt.Errorf("%w %s: line 2: field game: %s, but this solve is of %s", ErrBounds, path, b.spec.Name, spec.Name)
	}
	return b, true, nil
}

// loadBounds returns the bounds of Config.Shipped and Config.Bounds for a
// solve of st, merged: the first of Config.Bounds, which the solve
// writes, may be missing; the others must exist.
func (s *Solver) loadBounds(st env.State) (*bounds, []string, error) {
	all, err := newBounds(st.Spec())
	if err != nil {
		return nil, nil, err
	}
	var read []string
	if s.cfg.Shipped {
		b, err := shipped(st.Spec().Name)
		if err != nil {
			return nil, nil, err
		}
		if b != nil {
			read = append(read, "shipped")
			if err := all.merge(b); err != nil {
				return nil, nil, err
			}
		}
	}
	for i, path := range s.cfg.Bounds {
		b, ok, err := readBoundsFile(path, st.Spec())
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			if i == 0 {
				continue
			}
			return nil, nil, fmt.Errorf("%w %s: no such file (only the first bounds file, the one written, may be new)", ErrBounds, path)
		}
		read = append(read, path)
		if err := all.merge(b); err != nil {
			return nil, nil, fmt.Errorf("%w: merging %s: %w", ErrBounds, path, err)
		}
	}
	if err := all.check(); err != nil {
		return nil, nil, fmt.Errorf("%w: merging %s: %w", ErrBounds, strings.Join(read, ", "), err)
	}
	return all, read, nil
}

// seed stores every fact of b in the table as a proved bound, pinned: it
// claims the most work, so that no entry displaces it.
func seed(tt *ktable, g *kgame, b *bounds) {
	for _, f := range b.facts {
		tt.store(g.key(&f.p), kval{lo: f.lo, hi: f.hi, move: f.move, depth: exactDepth, work: 255})
	}
}

// narrowRoots narrows every root move's bounds by its child's proved
// entry in the table. A move so narrowed takes its first guess from the
// bounds, where the null-window tests that proved them left off (the upper
// bound when there is one, else the lower), instead of from deepening:
// the guess of a shallow search over a table holding proved bounds of a
// few positions is a poor one.
func narrowRoots(tt *ktable, g *kgame, roots []kroot) {
	for i := range roots {
		rt := &roots[i]
		if rt.c.over {
			continue
		}
		e, ok := tt.probe(g.key(&rt.c.p))
		if !ok || e.depth != exactDepth || e.lo <= rt.lo && e.hi >= rt.hi {
			continue
		}
		n := rt.hi // the stones on the board: the bounds start at -n..n
		rt.lo, rt.hi = max(rt.lo, e.lo), min(rt.hi, e.hi)
		rt.guess, rt.guessed = rt.lo, true
		if rt.hi < n {
			rt.guess = rt.hi
		}
	}
}

// carry is the bounds side of a checkpoint: what was read, and where and
// how far to write.
type carry struct {
	read    *bounds
	out     string // the file written, "" for none
	plies   int
	started time.Time
	what    string // the run line's settings
}

// saveBounds writes the bounds read, the root's and every position's
// proved in the table within carry.plies of the root, merged, atomically.
// The caller holds ck.saving.
func (ck *checkpoint) saveBounds() error {
	cr := ck.carry
	out, err := newBounds(ck.job.st.Spec())
	if err != nil {
		return err
	}
	out.root = ck.job.st.String()
	if err := out.merge(cr.read); err != nil {
		return err
	}
	secs := time.Since(cr.started).Round(time.Second).Seconds()
	out.runs = append(out.runs, fmt.Sprintf("%s nodes=%d seconds=%.0f %s", cr.started.UTC().Format(time.RFC3339), ck.live.Load()+ck.helper.Load(), secs, cr.what))
	ck.mu.Lock()
	root := ck.rootFact()
	ck.mu.Unlock()
	if err := out.add(root); err != nil {
		return fmt.Errorf("solve: bounds %s: %w", cr.out, err)
	}
	if err := ck.collect(out); err != nil {
		return fmt.Errorf("solve: bounds %s: %w", cr.out, err)
	}
	if err := os.MkdirAll(filepath.Dir(cr.out), 0o755); err != nil {
		return fmt.Errorf("solve: bounds %s: %w", cr.out, err)
	}
	if err := renameio.WriteFile(cr.out, out.encode(), 0o644); err != nil {
		return fmt.Errorf("solve: bounds %s: %w", cr.out, err)
	}
	if ck.log != nil {
		ck.log(fmt.Sprintf("saved %s: %d positions within %d plies; root %+d..%+d", cr.out, len(out.facts), cr.plies, root.base+root.lo, root.base+root.hi))
	}
	return nil
}

// rootFact returns the root's bounds, the best of its moves'. The caller
// holds ck.mu.
func (ck *checkpoint) rootFact() *fact {
	j := ck.job
	f := &fact{p: j.p, base: j.base, lo: -1 << 20, hi: -1 << 20, move: -1, pos: j.st.String()}
	for i := range ck.roots {
		lo, hi := rootBounds(j, &ck.roots[i])
		if lo > f.lo || lo == f.lo && hi > f.hi {
			f.move = int8(j.legal[i])
		}
		f.lo, f.hi = max(f.lo, lo), max(f.hi, hi)
	}
	f.lo, f.hi = f.lo-j.base, f.hi-j.base
	return f
}

// collect adds to b every position within carry.plies of the root whose
// bounds the table has proved, walking the positions breadth first (each
// once).
func (ck *checkpoint) collect(b *bounds) error {
	seen := map[kpos]bool{ck.job.p: true}
	level := []env.State{ck.job.st}
	var buf [env.MaxActions]env.Action
	for ply := 1; ply <= ck.carry.plies; ply++ {
		var next []env.State
		for _, st := range level {
			for _, a := range st.Legal(buf[:0]) {
				c := env.Clone(st)
				c.Apply(a)
				if c.Result() != env.Ongoing {
					continue
				}
				_, p, base, _ := engineOf(c)
				if seen[p] {
					continue
				}
				seen[p] = true
				next = append(next, c)
				if f, ok := ck.proved(&p, base, ply, c); ok {
					if err := b.add(f); err != nil {
						return err
					}
				}
			}
		}
		level = next
	}
	return nil
}

// proved returns the table's proved bounds of p, reached at ply as st,
// when they say more than the stones on the board do.
func (ck *checkpoint) proved(p *kpos, base, ply int, st env.State) (*fact, bool) {
	g := ck.job.g
	e, ok := ck.tt.probe(g.key(p))
	n := g.stones(p)
	if !ok || e.depth != exactDepth || e.lo > e.hi || e.lo <= -n && e.hi >= n {
		return nil, false
	}
	move := e.move
	if move >= 0 && (int(move) >= g.n || p[move] == 0) {
		move = -1 // a torn or foreign move: no hint
	}
	return &fact{p: *p, lo: max(e.lo, -n), hi: min(e.hi, n), base: base, move: move, ply: ply, pos: st.String()}, true
}
