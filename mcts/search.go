package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"kumalak/env"
)

// Search is one PUCT search tree over positions of one game. It is not safe
// for concurrent use: run one Search per goroutine. With SetThreads it
// searches its tree on several goroutines inside Run.
type Search struct {
	spec *env.Spec
	ev   Evaluator
	cfg  Config
	rng  *rand.Rand
	// oracle, when set, proves the positions it knows (SetOracle).
	oracle Oracle

	root   env.State // the root position
	chunks [][]node  // the arena (see node.go); node 0 is the root
	used   int32     // arena nodes in use, chunk-end padding included
	noised bool      // root noise applied (or not wanted) for this root
	quiet  bool      // the current Run adds no root noise (Limits.NoNoise)
	full   bool      // the arena could not hold a new leaf's children during the last Run
	added  int       // simulations completed by the last Run

	// The search that Begin started, stepped by Gather and Finish.
	lim      Limits
	deadline time.Time
	begun    bool // Begin called and the search not over yet

	eta []float64  // noise buffer, len NumActions
	g   gumbelRoot // the Gumbel search's state for the current root
	cq  []float32  // completed Q buffer, len NumActions
	pi  []float32  // improved policy buffer, len NumActions

	w  *worker   // the descent state of the calling goroutine
	ws []*worker // with SetThreads(n > 1): n workers, ws[0] == w

	// A threaded Run (runThreads): its goroutines descend the tree at the
	// same time, changing nodes by atomic operations (see node).
	shared bool         // a threaded Run is on: nodes change atomically, alloc locks amu
	amu    sync.Mutex   // guards the arena's allocation in a threaded Run
	mu     sync.Mutex   // guards err, and a threaded Gumbel search's descents and backups
	stop   atomic.Bool  // the threaded Run is over
	claim  atomic.Int64 // simulations a threaded Run has started or reserved
	done   atomic.Int64 // simulations a threaded Run has completed
	err    error        // the first evaluator failure
}

// worker is what one goroutine needs to descend and evaluate: its own
// replay board, buffers and evaluator. Leaves awaiting evaluation: slot i
// has leaf[i] and the path path[off[i]:off[i+1]] from the root to it, and
// rows i of the buffers.
type worker struct {
	ev      Evaluator
	rng     *rand.Rand // rollouts
	scratch env.State  // the root replayed down the current path
	play    env.State  // rollout board
	legal   []env.Action

	npend int
	leaf  []int32
	off   []int32
	path  []int32
	// The rows of the leaves queued: the worker's own buffers (own), or
	// inside Gather and Finish the caller's.
	obs, mask, priors, values []float32
	own                       rows
	boards                    []env.State // threaded rollouts: leaf positions, played out while the others descend
	full                      bool        // in a threaded Run: a leaf found no room for its children
	acc                       []pending1  // backupShared's nodes of the current path, with their shares
}

// rows are the buffers of a batch of leaves.
type rows struct{ obs, mask, priors, values []float32 }

// use makes r the worker's rows.
func (w *worker) use(r rows) { w.obs, w.mask, w.priors, w.values = r.obs, r.mask, r.priors, r.values }

// newWorker returns a worker for spec with batch slots; boards are made
// for threaded rollouts.
func newWorker(spec *env.Spec, ev Evaluator, rng *rand.Rand, batch int, boards bool) *worker {
	na := spec.NumActions
	w := &worker{
		ev: ev, rng: rng, scratch: spec.New(), play: spec.New(),
		legal:  make([]env.Action, 0, na),
		leaf:   make([]int32, batch),
		off:    make([]int32, 1, batch+1),
		path:   make([]int32, 0, 64*batch),
		obs:    make([]float32, batch*spec.ObsLen),
		mask:   make([]float32, batch*na),
		priors: make([]float32, batch*na),
		values: make([]float32, batch),
	}
	w.own = rows{w.obs, w.mask, w.priors, w.values}
	if boards {
		w.boards = make([]env.State, batch)
		for i := range w.boards {
			w.boards[i] = spec.New()
		}
	}
	return w
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
	na := spec.NumActions
	s := &Search{
		spec: spec, ev: ev, cfg: cfg, rng: rng,
		root: spec.New(),
		g:    newGumbelRoot(na),
		eta:  make([]float64, na),
		cq:   make([]float32, na),
		pi:   make([]float32, na),
		w:    newWorker(spec, ev, rng, cfg.Batch, false),
	}
	s.Reset(s.root)
	return s
}

// SetThreads makes Run search on n goroutines (n >= 1) sharing the tree,
// descending it at the same time (runThreads), each gathering
// Config.Batch leaves with virtual loss and evaluating them: the calling
// goroutine with the search's own Evaluator, each other with one that
// eval returns (called n-1 times; it may return nil for pure MCTS).
// Evaluators must not share state unless safe for concurrent use. With
// n = 1 Run is sequential and uses no atomic operation on the tree.
func (s *Search) SetThreads(n int, eval func() Evaluator) error {
	if n < 1 || n > 1024 {
		return fmt.Errorf("mcts: threads %d out of range 1..1024", n)
	}
	if n == 1 {
		s.ws = nil
		return nil
	}
	ws := []*worker{newWorker(s.spec, s.ev, rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64())), s.cfg.Batch, s.ev == nil)}
	for range n - 1 {
		ev := eval()
		if ev == nil && s.cfg.Rollouts == 0 {
			return errors.New("mcts: threads: a nil Evaluator needs Config.Rollouts > 0")
		}
		rng := rand.New(rand.NewPCG(s.rng.Uint64(), s.rng.Uint64()))
		ws = append(ws, newWorker(s.spec, ev, rng, s.cfg.Batch, ev == nil))
	}
	s.ws = ws
	return nil
}

// Threads returns the goroutines Run searches on.
func (s *Search) Threads() int { return max(1, len(s.ws)) }

// Config returns the search's settings.
func (s *Search) Config() Config { return s.cfg }

// SetMaxNodes bounds the arena at n nodes (as Config.MaxNodes); a tree
// already larger is dropped, keeping the root.
func (s *Search) SetMaxNodes(n int) error {
	c := s.cfg
	c.MaxNodes = n
	if err := c.Validate(); err != nil {
		return err
	}
	s.cfg = c
	if int(s.used) > n {
		s.chunks = nil
		s.Reset(env.Clone(s.root))
	}
	return nil
}

// Reset makes st the root and clears the tree. It keeps no reference to st.
func (s *Search) Reset(st env.State) {
	s.drop()
	s.root.CopyFrom(st)
	s.used = 0
	r, _ := s.alloc(1)
	res := st.Result()
	*s.nd(r) = node{prior: 1, meta: packMeta(reached, st.ToMove(), res, 0)}
	if res != env.Ongoing {
		s.nd(0).v = res.Value(env.White)
	}
	s.noised, s.full = false, false
	s.g.clear()
}

// Advance moves the root to next, the position after playing a at the
// root, keeping the subtree under a with its visits (tree reuse) and
// freeing the rest. When the tree has no such subtree, or next is not the
// position a leads to, it resets to next instead. Positions are compared
// by env.Hasher hashes when the game has them, else by position strings
// (which allocate).
func (s *Search) Advance(a env.Action, next env.State) {
	s.drop()
	c := s.childOf(0, a)
	if c < 0 || s.nd(c).flags()&reached == 0 || s.nd(c).kids == 0 || !s.leadsTo(a, next) {
		s.Reset(next)
		return
	}
	s.compact(c)
	s.root.CopyFrom(next)
	s.noised, s.full = false, false
	s.g.clear()
}

// drop ends a search begun and not finished: leaves gathered and never
// finished are withdrawn.
func (s *Search) drop() {
	if s.w != nil && s.w.npend > 0 {
		s.abort(s.w)
	}
	s.begun = false
}

// leadsTo reports whether playing a at the root gives next (env.Same).
func (s *Search) leadsTo(a env.Action, next env.State) bool {
	sc := s.w.scratch
	sc.CopyFrom(s.root)
	sc.Apply(a)
	return env.Same(sc, next)
}

// Run searches from the root until lim is reached, the root is proven
// (with Solver, or terminal), or ctx is done. Sims counts simulations
// added by this call; Visits counts the root's visits, those kept from
// Advance or an earlier Run included. A Gumbel search plans its
// sequential halving for the simulations this call may add, so it needs
// Sims or Visits. When the arena is full (MaxNodes) the tree stops
// growing but the search goes on (Stats.Full): a leaf that finds no room
// for its children is valued by the evaluator alone, and later visits to
// it back up that value again. A cancelled ctx returns its error; an
// Evaluator error is returned wrapped. Either way the tree stays
// consistent and usable.
func (s *Search) Run(ctx context.Context, lim Limits) error {
	if err := s.start(lim); err != nil {
		return err
	}
	if len(s.ws) > 1 {
		s.begun = false
		return s.runThreads(ctx, lim, s.deadline)
	}
	s.w.use(s.w.own)
	for {
		if err := ctx.Err(); err != nil {
			s.begun = false
			return fmt.Errorf("mcts: run: %w", err)
		}
		if s.gatherSome(ctx) == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("mcts: run: %w", err)
			}
			return nil
		}
		if err := s.evaluate(s.w); err != nil {
			s.abort(s.w)
			s.begun = false
			return err
		}
		s.finishSome()
	}
}

// start checks lim and sets up a search of it (Run's and Begin's).
func (s *Search) start(lim Limits) error {
	if err := lim.validate(); err != nil {
		return err
	}
	if s.w.npend > 0 {
		return errors.New("mcts: a search begun is waiting for Finish")
	}
	if s.cfg.Kind == Gumbel {
		if lim.Sims == 0 && lim.Visits == 0 {
			return errors.New("mcts: gumbel search needs Limits.Sims or Limits.Visits")
		}
		s.planGumbel(s.budget(lim, 0))
	}
	s.lim, s.deadline = lim, time.Time{}
	if lim.Time > 0 {
		s.deadline = time.Now().Add(lim.Time)
	}
	s.quiet, s.added, s.begun = lim.NoNoise, 0, true
	return nil
}

// Begin starts a search of lim that the caller steps with Gather and
// Finish instead of Run, so that one goroutine can search many trees and
// evaluate the leaves of all of them in one batch; the search's own
// Evaluator is not called. Run(ctx, lim) is Begin(lim) followed by
// Gather, Evaluate and Finish until Gather returns 0, and gives the same
// tree. Begin refuses a search with SetThreads(n > 1).
func (s *Search) Begin(lim Limits) error {
	if len(s.ws) > 1 {
		return errors.New("mcts: Begin: a threaded search runs only by Run")
	}
	return s.start(lim)
}

// Gather descends the tree of the search Begin started until it has
// queued leaves for the evaluator (up to Config.Batch, fewer when the
// budget ends first), backing up exact leaves (terminal, proven) as it
// goes; it writes the queued leaves' observations and legal masks, as an
// Evaluator receives them, into the first rows of obs and mask, and
// returns how many. Those rows go to Finish, with their evaluation, before
// the next Gather. It returns 0 when the search is over: the limits are
// reached, the root is proven, or no search was begun. obs and mask must
// hold Config.Batch rows (Batch × ObsLen, Batch × NumActions); Gather
// keeps them until Finish.
func (s *Search) Gather(obs, mask []float32) int {
	if s.w.npend > 0 {
		panic("mcts: Gather before the Finish of the rows gathered")
	}
	k, na := s.cfg.Batch, s.spec.NumActions
	if len(obs) < k*s.spec.ObsLen || len(mask) < k*na {
		panic(fmt.Sprintf("mcts: Gather: obs %d and mask %d for %d rows", len(obs), len(mask), k))
	}
	s.w.use(rows{obs: obs, mask: mask})
	return s.gatherSome(context.Background())
}

// Finish takes the evaluation of the n rows the last Gather queued:
// priors (n × NumActions) and values (n), as an Evaluator writes them. It
// expands and backs up those leaves. A NaN or infinite value is an error:
// the leaves are then withdrawn and the search is over (the tree stays
// consistent, as after Run's evaluator errors).
func (s *Search) Finish(priors, values []float32) error {
	w, na := s.w, s.spec.NumActions
	n := w.npend
	if len(priors) < n*na || len(values) < n {
		panic(fmt.Sprintf("mcts: Finish: priors %d and values %d for %d rows", len(priors), len(values), n))
	}
	w.priors, w.values = priors, values
	if err := checkValues(values[:n]); err != nil {
		s.abort(w)
		s.begun = false
		return err
	}
	s.finishSome()
	return nil
}

// gatherSome queues the next leaves of the search begun on s.w (its rows
// set) and returns how many, 0 when the search is over or ctx is done.
func (s *Search) gatherSome(ctx context.Context) int {
	w := s.w
	for s.begun {
		if s.over(s.lim, s.deadline) {
			break
		}
		k := s.cfg.Batch
		if s.lim.Sims > 0 || s.lim.Visits > 0 {
			k = min(k, s.budget(s.lim, s.added))
		}
		if k <= 0 {
			break
		}
		exact := s.gather(w, k)
		s.added += exact
		if w.npend > 0 {
			return w.npend
		}
		if exact == 0 || ctx.Err() != nil {
			break
		}
	}
	s.begun = false
	return 0
}

// finishSome expands and backs up s.w's queued leaves, evaluated.
func (s *Search) finishSome() {
	w := s.w
	s.finish(w)
	s.added += w.npend
	w.npend = 0
}

// runThreads is Run on the workers of SetThreads, descending the tree at
// the same time: each reserves up to a batch of the budget, gathers its
// leaves with virtual loss, evaluates them and backs them up, nodes
// changing by atomic operations; a leaf is opened by the one worker that
// claims its pending flag, the others count a collision. The root is
// opened (and its noise drawn) before the workers start. A Gumbel
// search's root bookkeeping is not shared: its descents and backups take
// turns under mu, its evaluations still run at once.
func (s *Search) runThreads(ctx context.Context, lim Limits, deadline time.Time) error {
	if err := s.openRoot(ctx); err != nil {
		return err
	}
	s.share()
	limit := int64(math.MaxInt64)
	if lim.Sims > 0 {
		limit = int64(lim.Sims)
	}
	if lim.Visits > 0 {
		limit = min(limit, int64(lim.Visits)-int64(s.nd(0).n))
	}
	s.claim.Store(int64(s.added))
	s.done.Store(int64(s.added))
	s.stop.Store(false)
	s.err = nil
	s.shared = true
	var wg sync.WaitGroup
	for _, w := range s.ws[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.work(ctx, w, limit, lim, deadline)
		}()
	}
	s.work(ctx, s.ws[0], limit, lim, deadline)
	wg.Wait()
	s.shared = false
	s.added = int(s.done.Load())
	for _, w := range s.ws {
		s.full = s.full || w.full
		w.full = false
	}
	if s.err != nil {
		return s.err
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mcts: run: %w", err)
	}
	return nil
}

// openRoot opens an unopened root on the first worker alone, one
// simulation, and draws the root noise, so that a threaded Run's workers
// find the root's children and priors settled.
func (s *Search) openRoot(ctx context.Context) error {
	w := s.ws[0]
	w.use(w.own)
	if s.nd(0).flags()&expanded == 0 && !s.over(s.lim, s.deadline) && s.budget(s.lim, s.added) > 0 && ctx.Err() == nil {
		s.added += s.gather(w, 1)
		if w.npend > 0 {
			if err := s.evaluate(w); err != nil {
				s.abort(w)
				return err
			}
			s.finish(w)
			s.added += w.npend
			w.npend = 0
		}
	}
	s.rootNoise()
	return nil
}

// work is one worker's loop of a threaded Run; limit bounds the
// simulations of the Run (claim).
func (s *Search) work(ctx context.Context, w *worker, limit int64, lim Limits, deadline time.Time) {
	batch := int64(s.cfg.Batch)
	for !s.stop.Load() && ctx.Err() == nil && !s.over(lim, deadline) {
		k := batch
		if c := s.claim.Add(batch); c > limit {
			k -= min(k, c-limit)
		}
		if k == 0 {
			s.claim.Add(-batch)
			return
		}
		s.turn(true)
		exact := s.gather(w, int(k))
		s.turn(false)
		s.claim.Add(-(batch - int64(exact+w.npend)))
		s.done.Add(int64(exact))
		if w.npend == 0 {
			if exact == 0 {
				runtime.Gosched() // every path ends at a leaf another worker evaluates
			}
			continue
		}
		err := s.evaluate(w)
		s.turn(true)
		if err != nil {
			s.abort(w)
		} else {
			s.finish(w)
		}
		s.turn(false)
		if err != nil {
			s.claim.Add(-int64(w.npend))
			w.npend = 0
			s.mu.Lock()
			if s.err == nil {
				s.err = err
			}
			s.mu.Unlock()
			s.stop.Store(true)
			return
		}
		s.done.Add(int64(w.npend))
		w.npend = 0
	}
}

// turn takes (on) or gives back the tree for a threaded Gumbel search,
// whose root bookkeeping the workers do not share; other searches descend
// at once.
func (s *Search) turn(on bool) {
	switch {
	case s.cfg.Kind != Gumbel:
	case on:
		s.mu.Lock()
	default:
		s.mu.Unlock()
	}
}

// MaxVisits bounds the root's visits: Run stops there (a long search in a
// full arena adds visits quickly), far below the counters' overflow.
const MaxVisits = 1 << 30

// over reports whether Run must stop before another batch: the root is
// proven, the time is up, or the root has MaxVisits.
func (s *Search) over(lim Limits, deadline time.Time) bool {
	r := s.nd(0)
	n, vl, _ := r.stats(s.shared)
	return r.proven() != env.Ongoing || n+vl >= MaxVisits-int32(s.cfg.Batch)*int32(s.Threads()) || (lim.Time > 0 && !time.Now().Before(deadline))
}

// budget returns the simulations lim still allows after done of this
// call; it is only meaningful when lim sets Sims or Visits.
func (s *Search) budget(lim Limits, done int) int {
	k := math.MaxInt
	if lim.Sims > 0 {
		k = lim.Sims - done
	}
	if lim.Visits > 0 {
		k = min(k, lim.Visits-int(s.nd(0).n)-int(s.nd(0).vl))
	}
	return k
}

// leafKind is the outcome of one descent.
type leafKind uint8

// Outcomes of one descent.
const (
	leafExact     leafKind = iota // valued at once (terminal, proven, rolled out, or a full arena's valued leaf) and backed up
	leafPending                   // queued for the evaluator
	leafCollision                 // reached a leaf already queued
)

// gather descends up to k times, queueing leaves on w (w.npend of them)
// and backing up exact ones at once; it returns how many were exact.
func (s *Search) gather(w *worker, k int) int {
	w.npend, w.path, w.off = 0, w.path[:0], w.off[:1]
	done := 0
	for misses := 0; done+w.npend < k && misses < k && s.nd(0).proven() == env.Ongoing; {
		if !s.shared {
			s.rootNoise()
		}
		switch s.descend(w) {
		case leafExact:
			done++
		case leafCollision:
			misses++
		}
	}
	return done
}

// descend walks from the root to a leaf by PUCT, replaying the moves on
// w's scratch, and handles the leaf.
func (s *Search) descend(w *worker) leafKind {
	start := len(w.path)
	w.scratch.CopyFrom(s.root)
	fresh := false
	for idx := int32(0); ; {
		w.path = append(w.path, idx)
		nd := s.nd(idx)
		m := nd.metaOf()
		switch {
		case env.Result(m>>12&15) != env.Ongoing:
			nd.add(0, 0, 1, s.shared)
			s.backup(w.path[start:], env.Result(m>>12&15).Value(env.White))
			if fresh && s.cfg.Solver {
				s.prove(w.path[start:])
			}
			w.path = w.path[:start]
			return leafExact
		case m&uint32(pending) != 0 || (m&uint32(expanded) == 0 && s.shared && !nd.claim()):
			s.withdraw(w.path[start : len(w.path)-1])
			w.path = w.path[:start]
			return leafCollision
		case m&uint32(expanded) == 0:
			nd.add(0, 0, 1, s.shared)
			return s.open(w, idx, start)
		}
		// The visit in flight goes on each node as the descent leaves it,
		// so that the other workers steer clear of this descent at once
		// (and pick counts only the others' visits in flight at idx).
		c := s.next(idx)
		nd.add(0, 0, 1, s.shared)
		idx = c
		w.scratch.Apply(s.nd(idx).action)
		if s.nd(idx).flags()&reached == 0 {
			fresh = s.reach(w, idx)
		}
	}
}

// reach records the mover of a node seen for the first time (w's scratch
// holds its position) and values it exactly when terminal or known to the
// oracle; it reports whether the node is proven. In a threaded Run two
// workers may reach a node at once: the first to record it writes its
// value, and both report its proof.
func (s *Search) reach(w *worker, idx int32) bool {
	nd := s.nd(idx)
	mover, res := w.scratch.ToMove(), w.scratch.Result()
	if res == env.Ongoing && s.oracle != nil {
		if v, ok := s.oracle.Exact(w.scratch); ok {
			res = resultOf(mover, v)
		}
	}
	if !s.shared {
		nd.meta |= packMeta(reached, mover, res, 0)
	} else if m := nd.metaOf(); m&uint32(reached) != 0 || !atomic.CompareAndSwapUint32(&nd.meta, m, m|packMeta(reached, mover, res, 0)) {
		return nd.proven() != env.Ongoing
	}
	if res == env.Ongoing {
		return false // v stays 0 until the node is valued (finish)
	}
	nd.v = res.Value(env.White) // no other goroutine writes a proven node's v
	return true
}

// open creates the children of the unexpanded leaf idx (w's scratch holds
// its position; its path starts at w.path[start]) and either values it by
// rollouts or queues it for the evaluator. When the arena has no room for
// the children, the leaf is valued without them: its stored value backed
// up again when it has one, else rollouts or the evaluator's value. In a
// threaded Run the caller has claimed the leaf (its pending flag).
func (s *Search) open(w *worker, idx int32, start int) leafKind {
	legal := w.scratch.Legal(w.legal[:0])
	if len(legal) == 0 {
		panic(fmt.Sprintf("mcts: %s: no legal move in unfinished position %s", s.spec.Name, w.scratch))
	}
	first, ok := s.grow(legal)
	if !ok {
		if s.shared {
			w.full = true
		} else {
			s.full = true
		}
		if nd := s.nd(idx); nd.flags()&valued != 0 {
			if s.shared {
				nd.setFlags(0, pending, s.shared)
			}
			s.backup(w.path[start:], nd.v)
			w.path = w.path[:start]
			return leafExact
		}
	} else {
		nd := s.nd(idx)
		nd.first, nd.kids = first, uint16(len(legal))
	}
	if s.ev == nil && w.boards == nil { // sequential rollouts
		nd := s.nd(idx)
		if ok {
			for c := range legal {
				s.nd(first + int32(c)).prior = 1 / float32(len(legal))
			}
			nd.setFlags(expanded, 0, s.shared)
		} else {
			nd.setFlags(valued, 0, s.shared)
		}
		nd.v = s.rollouts(w, w.scratch)
		s.backup(w.path[start:], nd.v)
		w.path = w.path[:start]
		return leafExact
	}
	if !s.shared {
		s.nd(idx).setFlags(pending, 0, s.shared)
	}
	i, na := w.npend, s.spec.NumActions
	row := w.mask[i*na : (i+1)*na]
	clear(row)
	for _, a := range legal {
		row[a] = 1
	}
	if w.boards != nil && w.ev == nil {
		w.boards[i].CopyFrom(w.scratch)
	} else {
		w.scratch.Observe(w.obs[i*s.spec.ObsLen : (i+1)*s.spec.ObsLen])
	}
	w.leaf[i] = idx
	w.off = append(w.off, int32(len(w.path)))
	w.npend++
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
	p := s.nd(idx)
	mover := p.mover()
	sg := sign(mover)
	shared := s.shared
	pn, pvl, pw := p.stats(shared)
	cs := s.cfg.CPuct * float32(math.Sqrt(float64(pn+pvl)))
	fpu := -s.cfg.FPUReduction
	if pn > 0 {
		fpu += sg * pw / float32(pn)
	}
	vloss, solver := s.cfg.VirtualLoss, s.cfg.Solver
	lo, hi := p.children()
	kids := s.chunks[lo>>chunkBits][lo&chunkMask : (hi-1)&chunkMask+1]
	var best uint64 // the best child's scoreKey, 0 before the first
	for c := range kids {
		ch := &kids[c]
		n, vl, w := ch.stats(shared)
		visits := n + vl
		var score float32
		switch proven := ch.proven(); {
		case proven != env.Ongoing:
			q := proven.Value(mover)
			if solver && q < 0 {
				continue
			}
			score = q + cs*ch.prior/float32(1+visits)
		case visits == 0:
			score = fpu + cs*ch.prior
		default:
			fv := float32(visits)
			score = (sg*w-vloss*float32(vl))/fv + cs*ch.prior/(1+fv)
		}
		best = max(best, scoreKey(score, c))
	}
	if best == 0 { // every child a proven loss
		return lo
	}
	return lo + int32(math.MaxUint32-uint32(best))
}

// scoreKey orders the children of a pick as their scores do, the first
// child winning a tie, in one integer: the score's bits made monotonic
// (negative floats reversed) above the child's index reversed. pick takes
// the largest key with a conditional move, where comparing the scores
// would branch in a pattern that the data sets and a predictor misses. A
// score is never NaN (values and priors are checked finite) nor -0 (its
// last term, a prior times a non-negative factor, is +0 or more), so the
// keys order the children exactly as score > best did, and every key is
// above 0.
func scoreKey(score float32, c int) uint64 {
	b := math.Float32bits(score)
	b ^= uint32(int32(b)>>31) | 1<<31
	return uint64(b)<<32 | uint64(math.MaxUint32-uint32(c))
}

// backup turns the visit in flight on every node of path (its virtual
// loss) into a visit valued v (White's view).
func (s *Search) backup(path []int32, v float32) {
	for _, i := range path {
		s.nd(i).add(1, v, -1, s.shared)
	}
}

// withdraw removes the visit in flight from every node of path.
func (s *Search) withdraw(path []int32) {
	for _, i := range path {
		s.nd(i).add(0, 0, -1, s.shared)
	}
}

// evaluate values w's queued leaves: the evaluator (its values checked),
// or for a worker of a threaded pure-MCTS search, rollouts with uniform
// priors. It touches no node (a threaded Gumbel search calls it outside
// its turn).
func (s *Search) evaluate(w *worker) error {
	n, na := w.npend, s.spec.NumActions
	if w.ev == nil {
		for i := range n {
			copy(w.priors[i*na:(i+1)*na], w.mask[i*na:(i+1)*na])
			b := w.boards[i]
			w.values[i] = s.rollouts(w, b) * sign(b.ToMove())
		}
		return nil
	}
	err := w.ev.Evaluate(w.obs[:n*s.spec.ObsLen], w.mask[:n*na], w.priors[:n*na], w.values[:n])
	if err != nil {
		return fmt.Errorf("mcts: evaluate: %w", err)
	}
	return checkValues(w.values[:n])
}

// checkValues refuses a NaN or infinite value.
func checkValues(values []float32) error {
	for i, v := range values {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("mcts: evaluate: value %v for position %d of %d", v, i, len(values))
		}
	}
	return nil
}

// finish expands w's queued leaves with their priors (those that found no
// room keep only their value) and backs up their values.
func (s *Search) finish(w *worker) {
	na := s.spec.NumActions
	for i := range w.npend {
		idx := w.leaf[i]
		nd := s.nd(idx)
		v := max(-1, min(1, w.values[i])) * sign(nd.mover())
		nd.v = v
		if nd.kids > 0 {
			s.setPriors(idx, w.priors[i*na:(i+1)*na])
			nd.setFlags(expanded, pending, s.shared)
		} else {
			nd.setFlags(valued, pending, s.shared)
		}
		if !s.shared {
			s.backup(w.path[w.off[i]:w.off[i+1]], v)
		} else {
			w.values[i] = v
		}
	}
	if s.shared {
		s.backupShared(w)
	}
}

// backupShared backs up w's evaluated leaves (values[i] from White's view)
// in a threaded Run with one atomic update per node for each run of
// consecutive leaves whose paths pass through it: the leaves of a batch
// share the top of their paths, the nodes every worker reads, so each
// such node changes once a batch rather than once a leaf.
func (s *Search) backupShared(w *worker) {
	acc := w.acc[:0]
	for i := range w.npend {
		p, v := w.path[w.off[i]:w.off[i+1]], w.values[i]
		l := 0
		for l < len(acc) && l < len(p) && acc[l].idx == p[l] {
			l++
		}
		for _, a := range acc[l:] {
			s.nd(a.idx).add(a.n, a.w, -a.n, true)
		}
		acc = acc[:l]
		for j := range acc {
			acc[j].n++
			acc[j].w += v
		}
		for _, idx := range p[l:] {
			acc = append(acc, pending1{idx: idx, n: 1, w: v})
		}
	}
	for _, a := range acc {
		s.nd(a.idx).add(a.n, a.w, -a.n, true)
	}
	w.acc = acc[:0]
}

// pending1 is a node's share of a batch's backup: visits and value sum.
type pending1 struct {
	idx, n int32
	w      float32
}

// setPriors copies the evaluator's priors onto idx's children,
// renormalised over them (uniform when they sum to nothing, or to too
// little to invert).
func (s *Search) setPriors(idx int32, row []float32) {
	lo, hi := s.nd(idx).children()
	kids := s.chunks[lo>>chunkBits][lo&chunkMask : (hi-1)&chunkMask+1]
	var sum float32
	for c := range kids {
		ch := &kids[c]
		p := row[ch.action]
		if !(p > 0) || math.IsInf(float64(p), 1) {
			p = 0
		}
		ch.prior = p
		sum += p
	}
	if inv := 1 / sum; sum > 0 && !math.IsInf(float64(sum), 1) && !math.IsInf(float64(inv), 1) {
		for c := range kids {
			kids[c].prior *= inv
		}
		return
	}
	for c := range kids {
		kids[c].prior = 1 / float32(len(kids))
	}
}

// abort undoes w's queued leaves of a failed batch: virtual loss removed,
// leaves closed again (their children left unreachable in the arena until
// the next Reset or Advance).
func (s *Search) abort(w *worker) {
	for i := range w.npend {
		s.withdraw(w.path[w.off[i]:w.off[i+1]])
		nd := s.nd(w.leaf[i])
		nd.first, nd.kids = 0, 0
		nd.setFlags(0, pending, s.shared)
	}
	w.npend = 0
}
