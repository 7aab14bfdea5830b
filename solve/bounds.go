package solve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"kumalak/env"
	"kumalak/env/kalah"
	"kumalak/env/mangala"
)

// A bounds file carries a solve of kalah or classic mangala from one
// machine to another: the bounds it proved on the final store difference
// of the root and of the positions a few plies below, as text that a
// person can read and diff and that git keeps (docs/TABLEBASE.md,
// "Carrying a solve forward"). Every bound is a fact of the game, true
// whatever the table size, threads or tablebase of the solve that proved
// it, so files merge by taking the tighter bound. The lines, in order:
//
//	kumalak-bounds 1                     magic and version
//	game NAME                            the game with its rules (env.Spec.Name)
//	root POSITION                        the root of the solve that wrote it
//	run TEXT                             zero or more: one per run that added to it
//	# TEXT                               comments, anywhere before end
//	PLY LO HI MOVE POSITION              one per position (below)
//	end N                                N position lines came before it
//
// A position line: PLY the plies from the root where the solve met it,
// LO and HI (signed) the proven bounds LO <= value <= HI of the final
// store difference for the side to move in POSITION under perfect play,
// MOVE the pit the search found best there (1..houses, "-" for none: a
// hint for move order, proven best only where the bounds of every move
// say so), POSITION the position string of docs/RULES.md. Fields are
// separated by one space. Positions of the same pits seen by the side to
// move are one fact (the stores never change play): their lines merge.
const (
	boundsMagic   = "kumalak-bounds"
	boundsVersion = 1
	// DefaultBoundsPlies is how many plies below the root a bounds file
	// reaches by default: at most 6^4 positions of mangala at the fourth.
	DefaultBoundsPlies = 4
	// MaxBoundsPlies caps Config.BoundsPlies: each save walks every
	// position within that many plies.
	MaxBoundsPlies = 8
)

// ErrBounds marks a bounds file that cannot be used: malformed,
// truncated, of another game, or holding bounds that contradict each
// other.
var ErrBounds = errors.New("bounds file")

// fact is one position's proven bounds on its future gain (the final
// store difference less the present one, from the mover's view).
type fact struct {
	p      kpos
	lo, hi int
	base   int  // the store difference of pos
	move   int8 // the house found best, 0-based; -1 for none
	ply    int
	pos    string
	src    string // "FILE:LINE" it was read from; "" when found by this run
}

// bounds is a decoded bounds file, or several merged.
type bounds struct {
	spec  *env.Spec
	g     kgame
	root  string
	runs  []string
	facts map[kpos]*fact
}

// engineOf returns the rules, pits (mover's view) and store difference of
// st for the engine of ksearch.go, false for a game it does not play
// (mangala-kale).
func engineOf(st env.State) (kgame, kpos, int, bool) {
	switch b := st.(type) {
	case *kalah.Board:
		r := b.Rules()
		me := b.ToMove()
		var p kpos
		for i := range r.Houses {
			p[i] = uint8(b.House(me, i))
			p[r.Houses+i] = uint8(b.House(me.Other(), i))
		}
		return kgame{n: r.Houses, capture: r.Capture}, p, b.Store(me) - b.Store(me.Other()), true
	case *mangala.Board:
		if b.Kale() {
			return kgame{}, kpos{}, 0, false
		}
		q := FromBoard(b)
		return mangalaGame, fromPits(&q), b.Store(b.ToMove()) - b.Store(b.ToMove().Other()), true
	}
	return kgame{}, kpos{}, 0, false
}

// newBounds returns an empty set of bounds of spec's game.
func newBounds(spec *env.Spec) (*bounds, error) {
	g, _, _, ok := engineOf(spec.New())
	if !ok {
		return nil, fmt.Errorf("%s: bounds files carry kalah and classic mangala solves only", spec.Name)
	}
	return &bounds{spec: spec, g: g, facts: map[kpos]*fact{}}, nil
}

// add merges f into b, taking the tighter bounds; two bounds that leave
// no value between them are an error naming both.
func (b *bounds) add(f *fact) error {
	old, ok := b.facts[f.p]
	if !ok {
		b.facts[f.p] = f
		return nil
	}
	lo, hi := max(old.lo, f.lo), min(old.hi, f.hi)
	if lo > hi {
		return fmt.Errorf("%s: bounds %+d..%+d of %q contradict %+d..%+d (%s)", where(f), f.base+f.lo, f.base+f.hi, f.pos, f.base+old.lo, f.base+old.hi, where(old))
	}
	old.lo, old.hi, old.ply = lo, hi, min(old.ply, f.ply)
	if f.move >= 0 {
		old.move = f.move
	}
	return nil
}

// where names the line a fact was read from.
func where(f *fact) string {
	if f.src == "" {
		return "this solve"
	}
	return f.src
}

// merge adds every fact and run of o to b.
func (b *bounds) merge(o *bounds) error {
	for _, r := range o.runs {
		if !slices.Contains(b.runs, r) {
			b.runs = append(b.runs, r)
		}
	}
	for _, f := range o.sorted() {
		c := *f
		if err := b.add(&c); err != nil {
			return err
		}
	}
	return nil
}

// sorted returns the facts by ply, then position string: the file's
// order, stable from save to save so that diffs stay small.
func (b *bounds) sorted() []*fact {
	fs := make([]*fact, 0, len(b.facts))
	for _, f := range b.facts {
		fs = append(fs, f)
	}
	slices.SortFunc(fs, func(x, y *fact) int {
		if x.ply != y.ply {
			return x.ply - y.ply
		}
		return strings.Compare(x.pos, y.pos)
	})
	return fs
}

// encode writes b in the format above.
func (b *bounds) encode() []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "%s %d\ngame %s\nroot %s\n", boundsMagic, boundsVersion, b.spec.Name, b.root)
	for _, r := range b.runs {
		fmt.Fprintf(&w, "run %s\n", r)
	}
	w.WriteString("# ply lo hi move position: lo <= final store difference for the side to move <= hi under perfect play; move: the best found (a hint)\n")
	fs := b.sorted()
	for _, f := range fs {
		move := "-"
		if f.move >= 0 {
			move = strconv.Itoa(int(f.move) + 1)
		}
		fmt.Fprintf(&w, "%d %+d %+d %s %s\n", f.ply, f.base+f.lo, f.base+f.hi, move, f.pos)
	}
	fmt.Fprintf(&w, "end %d\n", len(fs))
	return w.Bytes()
}

// decodeBounds reads a bounds file; name prefixes its errors, which wrap
// ErrBounds and name the line and field at fault.
func decodeBounds(r io.Reader, name string) (*bounds, error) {
	d := boundsReader{name: name, sc: bufio.NewScanner(r)}
	d.sc.Split(wholeLines)
	b, err := d.read()
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrBounds, name, err)
	}
	return b, nil
}

// boundsReader reads a bounds file line by line.
type boundsReader struct {
	name string
	sc   *bufio.Scanner
	line int
}

// next returns the next line, or false at the end of the input.
func (d *boundsReader) next() (string, bool) {
	if !d.sc.Scan() {
		return "", false
	}
	d.line++
	return d.sc.Text(), true
}

// errf returns an error naming the current line.
func (d *boundsReader) errf(format string, a ...any) error {
	return fmt.Errorf("line %d: "+format, append([]any{d.line}, a...)...)
}

// header reads the line "key value", refusing another key.
func (d *boundsReader) header(key string) (string, error) {
	s, ok := d.next()
	if !ok {
		return "", d.truncated()
	}
	k, v, _ := strings.Cut(s, " ")
	if k != key || v == "" {
		return "", d.errf("want %q and its value, got %q", key, s)
	}
	return v, nil
}

// errCutLine is wholeLines' error.
var errCutLine = errors.New("cut inside a line")

// wholeLines is bufio.ScanLines refusing a last line without its newline:
// the file was cut inside it (the writer ends every line).
func wholeLines(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) > 0 && bytes.IndexByte(data, '\n') < 0 {
		return 0, nil, errCutLine
	}
	return bufio.ScanLines(data, atEOF)
}

// truncated is the error of an input that ends before its end line.
func (d *boundsReader) truncated() error {
	if err := d.sc.Err(); errors.Is(err, errCutLine) {
		return fmt.Errorf("truncated after line %d: the next line is %w", d.line, err)
	} else if err != nil {
		return fmt.Errorf("after line %d: %w", d.line, err)
	}
	return fmt.Errorf("truncated after line %d: no %q line", d.line, "end N")
}

func (d *boundsReader) read() (*bounds, error) {
	v, err := d.header(boundsMagic)
	if err != nil {
		return nil, fmt.Errorf("not a bounds file: %w", err)
	}
	if v != strconv.Itoa(boundsVersion) {
		return nil, d.errf("version %q, this kumalak reads %d", v, boundsVersion)
	}
	game, err := d.header("game")
	if err != nil {
		return nil, err
	}
	spec, err := env.Lookup(game)
	if err != nil {
		return nil, d.errf("field game: %v", err)
	}
	b, err := newBounds(spec)
	if err != nil {
		return nil, d.errf("field game: %v", err)
	}
	if b.root, err = d.header("root"); err != nil {
		return nil, err
	}
	if _, err := spec.Parse(b.root); err != nil {
		return nil, d.errf("field root: %v", err)
	}
	return b, d.body(b)
}

// body reads the run, comment and position lines up to the end line.
func (d *boundsReader) body(b *bounds) error {
	n := 0
	for {
		s, ok := d.next()
		if !ok {
			return d.truncated()
		}
		switch {
		case strings.HasPrefix(s, "#"):
		case strings.HasPrefix(s, "run "):
			b.runs = append(b.runs, s[len("run "):])
		case strings.HasPrefix(s, "end "):
			if c, err := strconv.Atoi(s[len("end "):]); err != nil || c != n {
				return d.errf("field end: %q, but %d position lines came before it", s[len("end "):], n)
			}
			if _, more := d.next(); more {
				return d.errf("a line after the end line")
			}
			return b.check()
		default:
			f, err := d.fact(b, s)
			if err != nil {
				return err
			}
			if err := b.add(f); err != nil {
				return fmt.Errorf("contradiction: %w", err)
			}
			n++
		}
	}
}

// fact reads a position line.
func (d *boundsReader) fact(b *bounds, s string) (*fact, error) {
	fields := strings.SplitN(s, " ", 5)
	if len(fields) < 5 {
		return nil, d.errf("want \"ply lo hi move position\", got %q", s)
	}
	f := &fact{pos: fields[4], src: fmt.Sprintf("%s:%d", d.name, d.line)}
	var err error
	if f.ply, err = strconv.Atoi(fields[0]); err != nil || f.ply < 0 {
		return nil, d.errf("field ply: %q is not a count of plies", fields[0])
	}
	st, err := b.spec.Parse(f.pos)
	if err != nil {
		return nil, d.errf("field position: %v", err)
	}
	if st.Result() != env.Ongoing {
		return nil, d.errf("field position: %q: the game is over there", f.pos)
	}
	var g kgame
	g, f.p, f.base, _ = engineOf(st)
	n := g.stones(&f.p)
	lo, hi := f.base-n, f.base+n // what the stones on the board allow
	for i, v := range []*int{&f.lo, &f.hi} {
		x, err := strconv.Atoi(fields[1+i])
		if err != nil || x < lo || x > hi {
			return nil, d.errf("field %s: %q is not a final store difference of that position (%+d..%+d)", [...]string{"lo", "hi"}[i], fields[1+i], lo, hi)
		}
		*v = x - f.base
	}
	if f.lo > f.hi {
		return nil, d.errf("field lo: %+d above hi %+d", f.lo+f.base, f.hi+f.base)
	}
	if f.move, err = d.move(&g, &f.p, fields[3]); err != nil {
		return nil, err
	}
	return f, nil
}

// move reads a move field: "-" or a pit of p's mover that holds stones.
func (d *boundsReader) move(g *kgame, p *kpos, s string) (int8, error) {
	if s == "-" {
		return -1, nil
	}
	pit, err := strconv.Atoi(s)
	if err != nil || pit < 1 || pit > g.n || p[pit-1] == 0 {
		return 0, d.errf("field move: %q is not a legal pit there (\"-\" for none)", s)
	}
	return int8(pit - 1), nil
}

// check refuses bounds that contradict those of a position's moves: a
// position's upper bound below what one of its moves is proved to reach,
// or its lower bound above what all of its moves can reach, each move
// bounded by its child's line or by the game's end.
func (b *bounds) check() error {
	for _, f := range b.sorted() {
		known, best := true, -1<<20
		for i := range b.g.n {
			if f.p[i] == 0 {
				continue
			}
			lo, hi, ok, _ := b.moveBounds(&f.p, i)
			if ok && lo > f.hi {
				return fmt.Errorf("contradiction: %s: hi %+d of %q, but its move %d is proved to reach %+d", where(f), f.base+f.hi, f.pos, i+1, f.base+lo)
			}
			known = known && ok
			best = max(best, hi)
		}
		if known && best < f.lo {
			return fmt.Errorf("contradiction: %s: lo %+d of %q, but none of its moves reaches above %+d", where(f), f.base+f.lo, f.pos, f.base+best)
		}
	}
	return nil
}

// moveBounds returns the bounds of the future gain of p's mover after
// house i, when the game ends there (over) or the child has a line.
func (b *bounds) moveBounds(p *kpos, i int) (lo, hi int, ok, over bool) {
	c := b.g.play(p, i)
	if c.over {
		return c.gain, c.gain, true, true
	}
	k, ok := b.facts[c.p]
	switch {
	case !ok:
		return 0, 0, false, false
	case c.extra:
		return c.gain + k.lo, c.gain + k.hi, true, false
	}
	return c.gain - k.hi, c.gain - k.lo, true, false
}
