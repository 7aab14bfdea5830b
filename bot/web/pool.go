package web

import (
	"errors"
	"sync"

	"kumalak/agent"
	"kumalak/env"
)

// pool lends agents of one spec to one request at a time: agents are not
// safe for concurrent use, so each request takes an idle agent of its game
// (or builds one) and gives it back when done. At most max agents wait
// idle; others are closed.
type pool struct {
	sp     agent.Spec
	mu     sync.Mutex
	idle   map[string][]agent.Agent // by game
	n      int                      // idle agents
	max    int
	seed   uint64
	closed bool
}

func newPool(sp agent.Spec, max int, seed uint64) *pool {
	return &pool{sp: sp, idle: map[string][]agent.Agent{}, max: max, seed: seed}
}

// get returns an idle agent for the game, or a new one.
func (p *pool) get(spec *env.Spec) (agent.Agent, error) {
	p.mu.Lock()
	if list := p.idle[spec.Name]; len(list) > 0 {
		a := list[len(list)-1]
		p.idle[spec.Name] = list[:len(list)-1]
		p.n--
		p.mu.Unlock()
		return a, nil
	}
	p.seed++
	seed := p.seed
	p.mu.Unlock()
	return p.sp.New(spec, seed)
}

// put gives an agent back; broken ones (a failed Move) are closed instead.
func (p *pool) put(spec *env.Spec, a agent.Agent, broken bool) {
	p.mu.Lock()
	if broken || p.closed || p.n >= p.max {
		p.mu.Unlock()
		agent.Close(a)
		return
	}
	p.idle[spec.Name] = append(p.idle[spec.Name], a)
	p.n++
	p.mu.Unlock()
}

// close closes every idle agent; agents given back later are closed too.
func (p *pool) close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.n, p.closed = map[string][]agent.Agent{}, 0, true
	p.mu.Unlock()
	var errs []error
	for _, list := range idle {
		for _, a := range list {
			errs = append(errs, agent.Close(a))
		}
	}
	return errors.Join(errs...)
}
