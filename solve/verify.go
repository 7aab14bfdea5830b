package solve

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"kumalak/env"
	"kumalak/env/kalah"
	"kumalak/env/mangala"
)

// Checking a bounds file: a proof of the root's bounds that does not rest
// on the search that wrote the file. Check walks the file's positions by
// the rules package's own moves (env.State.Apply, not the engine's sowing)
// and derives each bound it needs from the children's: a lower bound from
// one move whose child's bound gives it, an upper bound from every move's.
// Where the children in the file do not give a bound, the position's own
// bound is a leaf of the proof, proved again by one null-window search
// from scratch: no bounds file, a fresh table, the tablebase given to the
// check (a different size from the solve's makes the route independent of
// the tablebase the solve used), and with CheckConfig.Reference the
// reference alpha-beta search of search.go instead of the engine.

// A Claim is one bound a proof needs: the final store difference of the
// side to move in Position, under perfect play, is at least Bound
// (AtLeast) or at most Bound.
type Claim struct {
	Position string
	Ply      int // plies from the file's root
	AtLeast  bool
	Bound    int
}

// within reports whether every value in lo..hi satisfies c.
func (c Claim) within(lo, hi int) bool {
	if c.AtLeast {
		return lo >= c.Bound
	}
	return hi <= c.Bound
}

func (c Claim) String() string {
	op := "<="
	if c.AtLeast {
		op = ">="
	}
	return fmt.Sprintf("value %s %+d at %s (ply %d)", op, c.Bound, c.Position, c.Ply)
}

// LeafVerdict is what a leaf's search found of its claim.
type LeafVerdict int

const (
	Unsettled LeafVerdict = iota // the search stopped first (time, Interrupt)
	Proved                       // the claim holds
	Refuted                      // the claim is false: the file is wrong
)

func (v LeafVerdict) String() string {
	return [...]string{"unsettled", "proved", "REFUTED"}[v]
}

// LeafCheck is one leaf's search.
type LeafCheck struct {
	Claim
	Verdict LeafVerdict
	Nodes   uint64
	Elapsed time.Duration
}

// CheckConfig configures Check.
type CheckConfig struct {
	Tablebase    *Tablebase       // the leaves' searches probe it; nil: none
	TablebaseDir string           // CheckFile opens the file's game's tablebase there when Tablebase is nil ("": none)
	TTBits       int              // log2 of the table's slots (0: DefaultConfig's)
	Threads      int              // the engine's threads (the reference search has one)
	Reference    bool             // classic mangala: leaves by the reference search of search.go
	Time         time.Duration    // for all leaves together (0: no limit); each takes what it needs of what is left
	Log          func(string)     // one line per leaf as it is checked, or nil
	Now          func() time.Time // the clock (nil: time.Now)
}

// CheckReport is the result of CheckFile: the root's bounds (the first
// moves' bounds in the file are checked too), how many positions' bounds
// followed from their children's and the leaves.
type CheckReport struct {
	Game, Root string
	Lo, Hi     int // the file's root bounds (final store difference, the root mover's)
	Derived    int // bounds that followed from the file's children by the rules
	Leaves     []LeafCheck
	Engine     string // the search that proved the leaves
	Nodes      uint64
	Elapsed    time.Duration
}

// Passed reports whether every leaf was proved: the root's bounds then
// hold by the check's own route.
func (r *CheckReport) Passed() bool {
	return !slices.ContainsFunc(r.Leaves, func(l LeafCheck) bool { return l.Verdict != Proved })
}

// Err returns nil when the check passed, else an error saying how many
// leaves were refuted or left unsettled.
func (r *CheckReport) Err() error {
	if r.Passed() {
		return nil
	}
	return fmt.Errorf("solve: check of %s %s did not pass: %s", r.Game, r.Root, r)
}

// count returns how many leaves have verdict v.
func (r *CheckReport) count(v LeafVerdict) int {
	n := 0
	for _, l := range r.Leaves {
		if l.Verdict == v {
			n++
		}
	}
	return n
}

// WriteText writes the report: the root's bounds, the proof's shape,
// each leaf and the verdict.
func (r *CheckReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "check of %s %s: root %+d..%+d\n", r.Game, r.Root, r.Lo, r.Hi)
	fmt.Fprintf(w, "%d bounds follow from their children by the rules; %d leaves searched again by the %s\n", r.Derived, len(r.Leaves), r.Engine)
	for _, l := range r.Leaves {
		fmt.Fprintf(w, "  %-9s %s  %d nodes %v\n", l.Verdict, l.Claim, l.Nodes, l.Elapsed.Round(time.Millisecond))
	}
	fmt.Fprintf(w, "%d nodes in %v\n", r.Nodes, r.Elapsed.Round(time.Millisecond))
	switch {
	case r.Passed():
		fmt.Fprintf(w, "passed: the root's bounds %+d..%+d and the first moves' in the file hold\n", r.Lo, r.Hi)
	case r.count(Refuted) > 0:
		fmt.Fprintf(w, "FAILED: %d leaves refuted\n", r.count(Refuted))
	default:
		fmt.Fprintf(w, "incomplete: %d of %d leaves unsettled in the time given\n", r.count(Unsettled), len(r.Leaves))
	}
}

// CheckFile proves the root bounds of the bounds file at path again;
// path "shipped" names the bounds shipped in the binary for game (the
// game of a file is its own).
func CheckFile(ctx context.Context, path string, game *env.Spec, cfg CheckConfig) (*CheckReport, error) {
	var b *bounds
	var err error
	if path == "shipped" {
		if b, err = shipped(game.Name); err == nil && b == nil {
			err = fmt.Errorf("no bounds are shipped for %s (solve/proofs holds %s)", game.Name, shippedGames())
		}
	} else {
		var ok bool
		if b, ok, err = readBoundsFile(path, nil); err == nil && !ok {
			err = fmt.Errorf("%s: no such file", path)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("solve: check: %w", err)
	}
	if cfg.Tablebase == nil && cfg.TablebaseDir != "" {
		tb, err := OpenFor(b.spec, cfg.TablebaseDir)
		if err != nil {
			return nil, fmt.Errorf("solve: check: %w", err)
		}
		defer tb.Close()
		cfg.Tablebase = tb
	}
	return checkBounds(ctx, b, cfg)
}

// checkBounds proves b's root bounds by the route of the comment above.
func checkBounds(ctx context.Context, b *bounds, cfg CheckConfig) (*CheckReport, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	t0 := cfg.Now()
	root, err := b.spec.Parse(b.root)
	if err != nil {
		return nil, fmt.Errorf("solve: check: root: %w", err)
	}
	_, p, base, _ := engineOf(root)
	f, ok := b.facts[p]
	if !ok {
		return nil, fmt.Errorf("solve: check: the file holds no bounds of its root %s", b.root)
	}
	r := &CheckReport{Game: b.spec.Name, Root: b.root, Lo: base + f.lo, Hi: base + f.hi, Engine: "engine (ksearch.go, fresh table, no bounds files)"}
	if cfg.Reference {
		if mb, ok := root.(*mangala.Board); !ok || mb.Kale() {
			return nil, fmt.Errorf("solve: check: the reference search plays classic mangala only, not %s", b.spec.Name)
		}
		r.Engine = "reference search (search.go)"
	}
	pv := prover{b: b, seen: map[claimKey]bool{}}
	// The root's bounds, then each first move's that the file holds: the
	// values a solve publishes.
	sts := []env.State{root}
	var buf [env.MaxActions]env.Action
	for _, a := range root.Legal(buf[:0]) {
		c := env.Clone(root)
		c.Apply(a)
		sts = append(sts, c)
	}
	for i, st := range sts {
		if st.Result() != env.Ongoing {
			continue
		}
		_, p, base, _ := engineOf(st)
		f, ok := b.facts[p]
		if !ok {
			continue
		}
		for _, c := range []Claim{{AtLeast: true, Bound: base + f.lo}, {Bound: base + f.hi}} {
			c.Position, c.Ply = st.String(), min(i, 1)
			if err := pv.need(st, c); err != nil {
				return nil, fmt.Errorf("solve: check: %w", err)
			}
		}
	}
	r.Derived = pv.derived
	if err := proveLeaves(ctx, r, b.spec, pv.leaves, cfg); err != nil {
		return nil, err
	}
	r.Elapsed = cfg.Now().Sub(t0)
	return r, nil
}

// claimKey names a claim on the future gain of pits, whatever the stores.
type claimKey struct {
	p       kpos
	atLeast bool
	gain    int
}

// prover collects the leaves of the proof of a claim.
type prover struct {
	b       *bounds
	seen    map[claimKey]bool
	derived int
	leaves  []Claim
}

// need adds to pv the proof of c, a claim on st: by the rules from st's
// children when their bounds in the file give it, else st's own bound
// as a leaf; an error when the file does not claim c.
func (pv *prover) need(st env.State, c Claim) error {
	if st.Result() != env.Ongoing {
		if v := finalDiff(st); !c.within(v, v) {
			return fmt.Errorf("%s: the game is over there at %+d", c, v)
		}
		return nil
	}
	g, p, base, _ := engineOf(st)
	if n := g.stones(&p); c.within(base-n, base+n) { // the stones on the board give it
		return nil
	}
	k := claimKey{p: p, atLeast: c.AtLeast, gain: c.Bound - base}
	if pv.seen[k] {
		return nil
	}
	pv.seen[k] = true
	kids := pv.childClaims(st, c)
	if kids != nil {
		pv.derived++
		for i := range kids {
			if err := pv.need(kids[i].st, kids[i].c); err != nil {
				return err
			}
		}
		return nil
	}
	if !pv.holds(st, c) {
		return fmt.Errorf("%s: the file does not prove it (its bounds there and its children's do not give it)", c)
	}
	pv.leaves = append(pv.leaves, c)
	return nil
}

// child is a claim on a child position.
type child struct {
	st env.State
	c  Claim
}

// childClaims returns the claims on st's children that give c by the
// rules, each one the file's bounds or the end of the game give: for a
// lower bound the first move (the file's best move first) whose child
// gives it, for an upper bound every move; nil when the children in the
// file do not give c.
func (pv *prover) childClaims(st env.State, c Claim) []child {
	var buf [env.MaxActions]env.Action
	legal := st.Legal(buf[:0])
	_, p, _, _ := engineOf(st)
	if f, ok := pv.b.facts[p]; ok && f.move >= 0 {
		if i := slices.Index(legal, env.Action(f.move)); i > 0 {
			legal[0], legal[i] = legal[i], legal[0]
		}
	}
	var out []child
	for _, a := range legal {
		cs := env.Clone(st)
		cs.Apply(a)
		cc := Claim{Position: cs.String(), Ply: c.Ply + 1, AtLeast: c.AtLeast, Bound: c.Bound}
		if cs.ToMove() != st.ToMove() { // the other side's view: the bound negated
			cc.AtLeast, cc.Bound = !c.AtLeast, -c.Bound
		}
		gives := pv.holds(cs, cc)
		switch {
		case c.AtLeast && gives:
			return []child{{cs, cc}}
		case !c.AtLeast && !gives:
			return nil
		case !c.AtLeast:
			out = append(out, child{cs, cc})
		}
	}
	return out
}

// holds reports whether the file's bounds of st, or the end of the game,
// give c.
func (pv *prover) holds(st env.State, c Claim) bool {
	if st.Result() != env.Ongoing {
		v := finalDiff(st)
		return c.within(v, v)
	}
	g, p, base, _ := engineOf(st)
	if n := g.stones(&p); c.within(base-n, base+n) {
		return true
	}
	f, ok := pv.b.facts[p]
	return ok && c.within(base+f.lo, base+f.hi)
}

// finalDiff returns the final store difference of st, a game over, from
// its mover's view, the end rule applied.
func finalDiff(st env.State) int {
	switch b := st.(type) {
	case *mangala.Board:
		q := FromBoard(b)
		g, _ := q.Terminal()
		return b.Store(b.ToMove()) - b.Store(b.ToMove().Other()) + g
	case *kalah.Board:
		return b.Store(b.ToMove()) - b.Store(b.ToMove().Other())
	}
	panic("solve: finalDiff of a game without bounds files")
}

// proveLeaves searches each leaf's claim again, in turn within what is
// left of cfg.Time, and records the verdicts and nodes in r.
func proveLeaves(ctx context.Context, r *CheckReport, spec *env.Spec, leaves []Claim, cfg CheckConfig) error {
	sc := DefaultConfig()
	if cfg.TTBits > 0 {
		sc.TTBits = cfg.TTBits
	}
	sc.Threads, sc.Tablebase, sc.Now = cfg.Threads, cfg.Tablebase, cfg.Now
	s, err := New(sc)
	if err != nil {
		return fmt.Errorf("solve: check: %w", err)
	}
	stop := context.AfterFunc(ctx, s.Interrupt)
	defer stop()
	var deadline time.Time
	if cfg.Time > 0 {
		deadline = cfg.Now().Add(cfg.Time)
	}
	for i, c := range leaves {
		st, err := spec.Parse(c.Position)
		if err != nil {
			return fmt.Errorf("solve: check: %w", err)
		}
		var b Budget // each leaf may take all the time left: the check passes only if every leaf is proved
		if !deadline.IsZero() {
			if b.Time = deadline.Sub(cfg.Now()); b.Time <= 0 {
				b.Time = time.Nanosecond
			}
		}
		lc := LeafCheck{Claim: c}
		t0 := cfg.Now()
		if ctx.Err() == nil {
			lc.Verdict, lc.Nodes = s.testBound(st, c.AtLeast, c.Bound, b, cfg.Reference)
		}
		lc.Elapsed = cfg.Now().Sub(t0)
		r.Leaves = append(r.Leaves, lc)
		r.Nodes += lc.Nodes
		if cfg.Log != nil {
			cfg.Log(fmt.Sprintf("leaf %d of %d: %s %s, %d nodes", i+1, len(leaves), lc.Verdict, c, lc.Nodes))
		}
	}
	return nil
}

// testBound runs one null-window search on st, from scratch but for the
// table of earlier tests, of whether the final store difference of its
// mover is at least bound (atLeast) or at most bound, within b; it
// returns the verdict and the nodes searched. With ref (classic mangala)
// the reference search of search.go searches.
func (s *Solver) testBound(st env.State, atLeast bool, bound int, b Budget, ref bool) (LeafVerdict, uint64) {
	_, p, base, _ := engineOf(st)
	beta := bound - base // a test of gain >= beta
	if !atLeast {
		beta++ // gain <= bound-base is gain < beta
	}
	var v int
	var nodes uint64
	var stopped bool
	if ref {
		s.startReference(b)
		v = s.search(st.(*mangala.Board), beta-1, beta, -1)
		nodes, stopped = s.stats.Nodes, s.stopped
	} else {
		j := s.jobOf(st)
		j.p = p
		main := s.startEngine(j, b)
		s.helperNodes.Store(0)
		v = s.kparallel(main, &j.p, beta-1, beta, -1)
		nodes, stopped = main.nodes+s.helperNodes.Load(), s.kstop.Load()
	}
	switch {
	case stopped:
		return Unsettled, nodes
	case (v >= beta) == atLeast:
		return Proved, nodes
	}
	return Refuted, nodes
}

// String of a verdict list for logs: "3 proved, 1 unsettled".
func (r *CheckReport) String() string {
	var parts []string
	for _, v := range []LeafVerdict{Proved, Refuted, Unsettled} {
		if n := r.count(v); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	return strings.Join(parts, ", ")
}
