package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"kumalak/env"
)

// Search is one PUCT search tree over positions of one game. It is not safe
// for concurrent use: run one Search per goroutine.
type Search struct {
	spec *env.Spec
	ev   Evaluator
	cfg  Config
	rng  *rand.Rand
	// oracle, when set, proves the positions it knows (SetOracle).
	oracle Oracle

	root    env.State // the root position
	scratch env.State // the root replayed down the current path
	play    env.State // rollout board
	nodes   []node    // the arena; nodes[0] is the root
	spare   []node    // the other arena, for compaction on Advance
	noised  bool      // root noise applied (or not wanted) for this root
	quiet   bool      // the current Run adds no root noise (Limits.NoNoise)
	full    bool      // the arena could not hold a new leaf's children

	legal []env.Action // Legal buffer, cap NumActions
	eta   []float64    // noise buffer, len NumActions
	g     gumbelRoot   // the Gumbel search's state for the current root
	cq    []float32    // completed Q buffer, len NumActions
	pi    []float32    // improved policy buffer, len NumActions

	// Leaves awaiting evaluation: slot i has leaf[i] and the path
	// path[off[i]:off[i+1]] from the root to it, and rows i of the buffers.
	npend                     int
	leaf                      []int32
	off                       []int32
	path                      []int32
	obs, mask, priors, values []float32
}

// New returns a search for spec's game, rooted at the start position. ev
// evaluates the leaves; it may be nil when cfg.Rollouts > 0, for pure MCTS
// with random playouts. rng drives the root noise, Choose's sampling and
// the rollouts. New panics when cfg does not validate or the arguments are
// nil: the caller validates configs read from the world first.
func New(spec *env.Spec, ev Evaluator, cfg Config, rng *rand.Rand) *Search {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	switch {
	case spec == nil || rng == nil:
		panic("mcts: New needs a spec and an rng")
	case ev == nil && cfg.Rollouts == 0:
		panic("mcts: a nil Evaluator needs Config.Rollouts > 0")
	case spec.NumActions < 1 || spec.NumActions > math.MaxUint8+1:
		panic(fmt.Sprintf("mcts: %s has %d actions, want 1..256", spec.Name, spec.NumActions))
	}
	b, na := cfg.Batch, spec.NumActions
	s := &Search{
		spec: spec, ev: ev, cfg: cfg, rng: rng,
		root: spec.New(), scratch: spec.New(), play: spec.New(),
		nodes:  make([]node, 0, min(cfg.MaxNodes, 4096)),
		legal:  make([]env.Action, 0, na),
		eta:    make([]float64, na),
		g:      newGumbelRoot(na),
		cq:     make([]float32, na),
		pi:     make([]float32, na),
		leaf:   make([]int32, b),
		off:    make([]int32, 1, b+1),
		path:   make([]int32, 0, 64*b),
		obs:    make([]float32, b*spec.ObsLen),
		mask:   make([]float32, b*na),
		priors: make([]float32, b*na),
		values: make([]float32, b),
	}
	s.Reset(s.root)
	return s
}

// Config returns the search's settings.
func (s *Search) Config() Config { return s.cfg }

// Reset makes st the root and clears the tree. It keeps no reference to st.
func (s *Search) Reset(st env.State) {
	s.root.CopyFrom(st)
	s.nodes = append(s.nodes[:0], node{prior: 1, mover: st.ToMove(), flags: reached})
	if r := st.Result(); r != env.Ongoing {
		s.nodes[0].proven = r
		s.nodes[0].v = r.Value(env.White)
	}
	s.noised, s.full = false, false
	s.g.clear()
}

// Advance moves the root to next, the position after playing a at the
// root, keeping the subtree under a with its visits (tree reuse). When the
// tree has no such subtree, or next is not the position a leads to, it
// resets to next instead. Positions are compared by env.Hasher hashes when
// the game has them, else by position strings (which allocate).
func (s *Search) Advance(a env.Action, next env.State) {
	c := s.childOf(0, a)
	if c < 0 || s.nodes[c].flags&reached == 0 || s.nodes[c].kids == 0 || !s.leadsTo(a, next) {
		s.Reset(next)
		return
	}
	s.compact(c)
	s.root.CopyFrom(next)
	s.noised, s.full = false, false
	s.g.clear()
}

// leadsTo reports whether playing a at the root gives next (env.Same).
func (s *Search) leadsTo(a env.Action, next env.State) bool {
	s.scratch.CopyFrom(s.root)
	s.scratch.Apply(a)
	return env.Same(s.scratch, next)
}

// Run searches from the root until lim is reached, the root is proven
// (with Solver, or terminal), the arena is full, or ctx is done. Sims
// counts simulations added by this call; Visits counts the root's visits,
// those kept from Advance or an earlier Run included. A Gumbel search
// plans its sequential halving for the simulations this call may add, so
// it needs Sims or Visits. A cancelled ctx returns its error; an Evaluator
// error is returned wrapped. Either way the tree stays consistent and
// usable.
func (s *Search) Run(ctx context.Context, lim Limits) error {
	if err := lim.validate(); err != nil {
		return err
	}
	if s.cfg.Kind == Gumbel {
		if lim.Sims == 0 && lim.Visits == 0 {
			return errors.New("mcts: gumbel search needs Limits.Sims or Limits.Visits")
		}
		s.planGumbel(s.budget(lim, 0))
	}
	var deadline time.Time
	if lim.Time > 0 {
		deadline = time.Now().Add(lim.Time)
	}
	s.quiet = lim.NoNoise
	for done := 0; ; {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("mcts: run: %w", err)
		}
		if s.nodes[0].proven != env.Ongoing || s.full || (lim.Time > 0 && !time.Now().Before(deadline)) {
			return nil
		}
		k := s.cfg.Batch
		if lim.Sims > 0 || lim.Visits > 0 {
			k = min(k, s.budget(lim, done))
		}
		if k <= 0 {
			return nil
		}
		n, err := s.step(k)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		done += n
	}
}

// budget returns the simulations lim still allows after done of this
// call; it is only meaningful when lim sets Sims or Visits.
func (s *Search) budget(lim Limits, done int) int {
	k := math.MaxInt
	if lim.Sims > 0 {
		k = lim.Sims - done
	}
	if lim.Visits > 0 {
		k = min(k, lim.Visits-int(s.nodes[0].n))
	}
	return k
}

// leafKind is the outcome of one descent.
type leafKind uint8

// Outcomes of one descent.
const (
	leafExact     leafKind = iota // valued at once (terminal, proven, or rolled out) and backed up
	leafPending                   // opened and queued for the evaluator
	leafCollision                 // reached a leaf already queued in this batch
	leafFull                      // the arena has no room for the leaf's children
)

// step runs up to k simulations with one Evaluate call and returns how
// many completed.
func (s *Search) step(k int) (int, error) {
	s.npend, s.path, s.off = 0, s.path[:0], s.off[:1]
	mark := len(s.nodes)
	done := 0
	for misses := 0; done+s.npend < k && misses < k && s.nodes[0].proven == env.Ongoing; {
		s.rootNoise()
		switch s.descend() {
		case leafExact:
			done++
		case leafCollision:
			misses++
		case leafFull:
			s.full = true
			misses = k
		}
	}
	if s.npend == 0 {
		return done, nil
	}
	if err := s.evaluate(); err != nil {
		s.abort(mark)
		return done, err
	}
	s.finish()
	return done + s.npend, nil
}

// descend walks from the root to a leaf by PUCT, replaying the moves on
// scratch, and handles the leaf.
func (s *Search) descend() leafKind {
	start := len(s.path)
	s.scratch.CopyFrom(s.root)
	fresh := false
	for idx := int32(0); ; {
		s.path = append(s.path, idx)
		nd := &s.nodes[idx]
		switch {
		case nd.proven != env.Ongoing:
			s.backup(s.path[start:], nd.proven.Value(env.White), false)
			if fresh && s.cfg.Solver {
				s.prove(s.path[start:])
			}
			s.path = s.path[:start]
			return leafExact
		case nd.flags&pending != 0:
			s.path = s.path[:start]
			return leafCollision
		case nd.flags&expanded == 0:
			return s.open(idx, start)
		}
		idx = s.next(idx)
		s.scratch.Apply(s.nodes[idx].action)
		if s.nodes[idx].flags&reached == 0 {
			fresh = s.reach(idx)
		}
	}
}

// reach records the mover of a node seen for the first time (scratch holds
// its position) and values it exactly when terminal; it reports whether
// the node is terminal.
func (s *Search) reach(idx int32) bool {
	nd := &s.nodes[idx]
	nd.flags |= reached
	nd.mover = s.scratch.ToMove()
	nd.proven = s.scratch.Result()
	nd.v = nd.proven.Value(env.White)
	return nd.proven != env.Ongoing || s.consult(nd)
}

// open creates the children of the unexpanded leaf idx (scratch holds its
// position; its path starts at path[start]) and either values it by
// rollouts or queues it for the evaluator.
func (s *Search) open(idx int32, start int) leafKind {
	legal := s.scratch.Legal(s.legal[:0])
	if len(legal) == 0 {
		panic(fmt.Sprintf("mcts: %s: no legal move in unfinished position %s", s.spec.Name, s.scratch))
	}
	if len(s.nodes)+len(legal) > s.cfg.MaxNodes {
		s.path = s.path[:start]
		return leafFull
	}
	first := s.grow(legal)
	nd := &s.nodes[idx]
	nd.first, nd.kids = first, uint16(len(legal))
	if s.ev == nil {
		for c := range legal {
			s.nodes[first+int32(c)].prior = 1 / float32(len(legal))
		}
		nd.flags |= expanded
		nd.v = s.rollouts()
		s.backup(s.path[start:], nd.v, false)
		s.path = s.path[:start]
		return leafExact
	}
	nd.flags |= pending
	i, na := s.npend, s.spec.NumActions
	row := s.mask[i*na : (i+1)*na]
	clear(row)
	for _, a := range legal {
		row[a] = 1
	}
	s.scratch.Observe(s.obs[i*s.spec.ObsLen : (i+1)*s.spec.ObsLen])
	s.leaf[i] = idx
	s.off = append(s.off, int32(len(s.path)))
	s.npend++
	for _, p := range s.path[start:] {
		s.nodes[p].vl++
	}
	return leafPending
}

// next returns the child of idx to descend to: by sequential halving at a
// Gumbel search's root, by the improved policy below it (or PUCT with
// GumbelPUCT), by PUCT in a PUCT search.
func (s *Search) next(idx int32) int32 {
	switch {
	case s.cfg.Kind != Gumbel:
		return s.pick(idx)
	case idx == 0:
		return s.pickRoot()
	case s.cfg.GumbelPUCT:
		return s.pick(idx)
	}
	return s.pickImproved(idx)
}

// pick returns the child of idx with the highest PUCT score
// Q + CPuct*P*sqrt(N)/(1+n), Q from idx's mover's view. Visits in flight
// count as visits valued -VirtualLoss; unvisited children get first-play
// urgency; with Solver, proven losses are never picked.
func (s *Search) pick(idx int32) int32 {
	p := &s.nodes[idx]
	sg := sign(p.mover)
	sqrtN := float32(math.Sqrt(float64(p.n + p.vl)))
	fpu := -s.cfg.FPUReduction
	if p.n > 0 {
		fpu += sg * p.w / float32(p.n)
	}
	lo, hi := p.children()
	best, bestScore := lo, float32(math.Inf(-1))
	for c := lo; c < hi; c++ {
		ch := &s.nodes[c]
		visits := ch.n + ch.vl
		var q float32
		switch {
		case ch.proven != env.Ongoing:
			q = ch.proven.Value(p.mover)
			if s.cfg.Solver && q < 0 {
				continue
			}
		case visits == 0:
			q = fpu
		default:
			q = (sg*ch.w - s.cfg.VirtualLoss*float32(ch.vl)) / float32(visits)
		}
		if score := q + s.cfg.CPuct*ch.prior*sqrtN/float32(1+visits); score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// backup adds one visit valued v (White's view) to every node of path,
// removing the virtual loss first when inFlight.
func (s *Search) backup(path []int32, v float32, inFlight bool) {
	for _, i := range path {
		nd := &s.nodes[i]
		nd.n++
		nd.w += v
		if inFlight {
			nd.vl--
		}
	}
}

// evaluate calls the evaluator on the queued leaves and checks its values.
func (s *Search) evaluate() error {
	n, na := s.npend, s.spec.NumActions
	err := s.ev.Evaluate(s.obs[:n*s.spec.ObsLen], s.mask[:n*na], s.priors[:n*na], s.values[:n])
	if err != nil {
		return fmt.Errorf("mcts: evaluate: %w", err)
	}
	for i, v := range s.values[:n] {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("mcts: evaluate: value %v for position %d of %d", v, i, n)
		}
	}
	return nil
}

// finish expands the queued leaves with their priors and backs up their
// values.
func (s *Search) finish() {
	na := s.spec.NumActions
	for i := range s.npend {
		idx := s.leaf[i]
		s.setPriors(idx, s.priors[i*na:(i+1)*na])
		nd := &s.nodes[idx]
		nd.flags = nd.flags&^pending | expanded
		v := max(-1, min(1, s.values[i])) * sign(nd.mover)
		nd.v = v
		s.backup(s.path[s.off[i]:s.off[i+1]], v, true)
	}
}

// setPriors copies the evaluator's priors onto idx's children,
// renormalised over them (uniform when they sum to nothing).
func (s *Search) setPriors(idx int32, row []float32) {
	lo, hi := s.nodes[idx].children()
	var sum float32
	for c := lo; c < hi; c++ {
		p := row[s.nodes[c].action]
		if !(p > 0) || math.IsInf(float64(p), 1) {
			p = 0
		}
		s.nodes[c].prior = p
		sum += p
	}
	for c := lo; c < hi; c++ {
		if sum > 0 && !math.IsInf(float64(sum), 1) {
			s.nodes[c].prior /= sum
		} else {
			s.nodes[c].prior = 1 / float32(hi-lo)
		}
	}
}

// abort undoes the queued leaves of a failed batch: virtual loss removed,
// leaves closed again, their children dropped from the arena.
func (s *Search) abort(mark int) {
	for i := range s.npend {
		for _, p := range s.path[s.off[i]:s.off[i+1]] {
			s.nodes[p].vl--
		}
		nd := &s.nodes[s.leaf[i]]
		nd.flags &^= pending
		nd.first, nd.kids = 0, 0
	}
	s.nodes = s.nodes[:mark]
	s.npend = 0
}
