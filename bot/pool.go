package bot

import (
	"errors"
	"io"
	"sync"

	"kumalak/agent"
	"kumalak/env"
)

// pool lends agents to one request at a time: agents are not safe for
// concurrent use, so each request takes an idle agent of its game and spec
// (or builds one) and gives it back when done. At most max agents wait
// idle; others are closed.
type pool struct {
	mu     sync.Mutex
	idle   map[poolKey][]agent.Agent
	n      int // idle agents
	max    int
	seed   uint64
	closed bool
}

type poolKey struct{ game, spec string }

func newPool(max int, seed uint64) *pool {
	return &pool{idle: map[poolKey][]agent.Agent{}, max: max, seed: seed}
}

// get returns an idle agent for the game and spec, or a new one.
func (p *pool) get(spec *env.Spec, s string) (agent.Agent, error) {
	k := poolKey{spec.Name, s}
	p.mu.Lock()
	if list := p.idle[k]; len(list) > 0 {
		a := list[len(list)-1]
		p.idle[k] = list[:len(list)-1]
		p.n--
		p.mu.Unlock()
		return a, nil
	}
	p.seed++
	seed := p.seed
	p.mu.Unlock()
	return agent.New(spec, s, seed)
}

// put gives an agent back; broken ones (a failed Move) are closed instead.
func (p *pool) put(spec *env.Spec, s string, a agent.Agent, broken bool) {
	k := poolKey{spec.Name, s}
	p.mu.Lock()
	if broken || p.closed || p.n >= p.max {
		p.mu.Unlock()
		closeAgent(a)
		return
	}
	p.idle[k] = append(p.idle[k], a)
	p.n++
	p.mu.Unlock()
}

// close closes every idle agent; agents given back later are closed too.
func (p *pool) close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.n, p.closed = map[poolKey][]agent.Agent{}, 0, true
	p.mu.Unlock()
	var errs []error
	for _, list := range idle {
		for _, a := range list {
			errs = append(errs, closeAgent(a))
		}
	}
	return errors.Join(errs...)
}

// closeAgent closes a when it holds resources (an engine process).
func closeAgent(a agent.Agent) error {
	if c, ok := a.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
