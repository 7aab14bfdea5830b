package web

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"kumalak/agent"
	"kumalak/env"
)

// pool lends agents of one spec to one request at a time: agents are not
// safe for concurrent use, so each request takes an idle agent of its game
// and level (or builds one) and gives it back when done. At most max
// agents wait idle; others are closed.
type pool struct {
	sp     agent.Spec
	mu     sync.Mutex
	idle   map[poolKey][]agent.Agent
	n      int // idle agents
	max    int
	seed   uint64
	closed bool
}

// poolKey names the agents that can stand in for each other: a game and
// a strength level (0: the spec's own).
type poolKey struct {
	game  string
	level int
}

func newPool(sp agent.Spec, max int, seed uint64) *pool {
	return &pool{sp: sp, idle: map[poolKey][]agent.Agent{}, max: max, seed: seed}
}

// get returns an idle agent for the game at the level (0: the spec's
// own), or a new one.
func (p *pool) get(spec *env.Spec, level int) (agent.Agent, error) {
	k := poolKey{spec.Name, level}
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
	sp, err := levelSpec(p.sp, level)
	if err != nil {
		return nil, err
	}
	return sp.New(spec, seed)
}

// put gives an agent of the level back; broken ones (a failed Move) are
// closed instead.
func (p *pool) put(spec *env.Spec, level int, a agent.Agent, broken bool) {
	p.mu.Lock()
	if broken || p.closed || p.n >= p.max {
		p.mu.Unlock()
		agent.Close(a)
		return
	}
	k := poolKey{spec.Name, level}
	p.idle[k] = append(p.idle[k], a)
	p.n++
	p.mu.Unlock()
}

// levelSpec returns the model spec sp at the strength level (docs/PLAYING.md, Levels):
// sp itself for level 0, else sp with level= in place of its sims and of
// a level or rating it had (serve --level).
func levelSpec(sp agent.Spec, level int) (agent.Spec, error) {
	if level == 0 {
		return sp, nil
	}
	if sp.Kind != "model" {
		return sp, fmt.Errorf("level %d: levels are of the model bot, not %s", level, sp)
	}
	sp.Limits.Sims = 0
	sp.Options = slices.DeleteFunc(slices.Clone(sp.Options), func(kv agent.KeyValue) bool { return kv.Key == "level" || kv.Key == "elo" })
	sp.Options = append(sp.Options, agent.KeyValue{Key: "level", Value: strconv.Itoa(level)})
	return agent.ParseSpec(sp.String())
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
			errs = append(errs, agent.Close(a))
		}
	}
	return errors.Join(errs...)
}
