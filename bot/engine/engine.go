package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/bot/words"
	"kumalak/env"
	"kumalak/protocol"
)

// Config sets up the engine protocol server (docs/ENGINE.md):
// the agent it plays and how it names itself.
type Config struct {
	Agent  string   // agent spec, e.g. "ab:depth=6" or "model:path=best.kmodel,sims=400"; required
	Games  []string // games it plays; empty = every registered game
	Game   string   // game at the start; "" = togyz when it plays it, else Games[0]
	Name   string   // id name; "" = "kumalak <agent spec>"
	Author string   // id author
	Seed   uint64   // seed of the agents' randomness
	// Slice is the time of one search slice in infinite mode for agents
	// searching by time (alpha-beta), and the longest wait between info
	// lines; SliceSims the simulations of the first slice for agents
	// searching by simulations (mcts, model), which run every search in
	// slices, doubling while a slice takes under a tenth of Slice.
	Slice     time.Duration
	SliceSims int
}

// DefaultConfig returns the defaults, without an agent.
func DefaultConfig() Config {
	return Config{Author: "the kumalak authors", Slice: 100 * time.Millisecond, SliceSims: 64}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	switch {
	case strings.TrimSpace(c.Agent) == "":
		return errors.New("engine: Config.Agent is empty")
	case c.Slice <= 0 || c.Slice > time.Minute:
		return fmt.Errorf("engine: Config.Slice = %v, want in (0, 1m]", c.Slice)
	case c.SliceSims < 1 || c.SliceSims > 1_000_000:
		return fmt.Errorf("engine: Config.SliceSims = %d, want in [1, 1000000]", c.SliceSims)
	}
	for _, g := range c.Games {
		if _, err := env.Lookup(g); err != nil {
			return fmt.Errorf("engine: Config.Games: %w", err)
		}
	}
	if c.Game != "" && len(c.Games) > 0 && !slices.Contains(c.Games, c.Game) {
		return fmt.Errorf("engine: Config.Game %q is not one of Games (%s)", c.Game, strings.Join(c.Games, ", "))
	}
	return nil
}

// Serve serves the engine protocol (protocol.Serve) for the agent
// of cfg: it reads commands from in and writes answers to out until quit,
// the end of in, or ctx ends (nil error), or until out fails. It first
// builds the agent for the starting game, and returns that error if it
// fails.
func Serve(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	e, err := newEngine(cfg)
	if err != nil {
		return err
	}
	defer e.closeAgent()
	return protocol.Serve(ctx, in, out, e)
}

// engine is the protocol.Handler of Serve: the game, the agent for
// it and the options set.
type engine struct {
	cfg     Config
	own     agent.Spec // the agent configured
	sp      agent.Spec // the agent playing: own at the strength set
	str     strength
	games   []string
	spec    *env.Spec
	start   string    // position string of the record's start; "" = the start
	moves   []int     // the record's moves
	st      env.State // start with moves played
	opts    agent.Limits
	ag      agent.Agent
	base    agent.Limits // the agent's own limits
	max     agent.Limits // the largest it takes; zero: not a dimension of it
	hash    int          // the agent's table in MiB (agent.HashSizer); 0: none or not one
	hashSet bool         // hash was set by setoption, and carries over to the next game's agent
	threads int          // the agent's search threads (agent.Threader); 0: not one
	thrSet  bool         // threads was set by setoption, and carries over
	multi   int          // lines reported (MultiPV), >= 1
	seeds   uint64
	lag     time.Duration // the searches' time past their clock budgets (agent.Clock.Lag), this game
}

func newEngine(cfg Config) (*engine, error) {
	sp, err := agent.ParseSpec(cfg.Agent)
	if err != nil {
		return nil, fmt.Errorf("engine: engine: %w", err)
	}
	e := &engine{cfg: cfg, sp: sp, games: cfg.Games, multi: 1}
	e.own, e.str = splitStrength(sp)
	if len(e.games) == 0 {
		e.games = env.Games()
	}
	game := cfg.Game
	if game == "" {
		game = env.DefaultOf(e.games)
	}
	if e.cfg.Name == "" {
		e.cfg.Name = "kumalak " + cfg.Agent
	}
	if err := e.newGame(game); err != nil {
		return nil, fmt.Errorf("engine: engine: %w", err)
	}
	return e, nil
}

// Hello returns the id lines and the options: game, the limits the agent
// has, each with exactly its range, and threads.
func (e *engine) Hello() []protocol.Answer {
	out := []protocol.Answer{
		protocol.ID{Key: protocol.IDName, Value: e.cfg.Name},
		protocol.ID{Key: protocol.IDAuthor, Value: e.cfg.Author},
		protocol.ID{Key: protocol.IDGames, Value: strings.Join(e.games, " ")},
		protocol.Option{Name: protocol.OptionGame, Type: protocol.Combo, Default: e.spec.Name, Vars: e.games},
	}
	spin := func(name string, max int64) {
		if max > 0 {
			out = append(out, protocol.Option{Name: name, Type: protocol.Spin, Default: "0", Max: max})
		}
	}
	spin(protocol.OptionSims, int64(e.max.Sims))
	spin(protocol.OptionTime, e.max.Time.Milliseconds())
	spin(protocol.OptionDepth, int64(e.max.Depth))
	if h, ok := e.ag.(agent.HashSizer); ok {
		lo, hi := h.HashRange()
		out = append(out, protocol.Option{Name: protocol.OptionHash, Type: protocol.Spin, Default: strconv.Itoa(e.hash), Min: int64(lo), Max: int64(hi)})
	}
	if _, ok := e.ag.(agent.MultiPVer); ok {
		out = append(out, protocol.Option{Name: protocol.OptionMultiPV, Type: protocol.Spin, Default: "1", Min: 1, Max: agent.MaxMultiPV})
	}
	thr, maxThr := 1, 1
	if t, ok := e.ag.(agent.Threader); ok {
		thr, maxThr = t.Threads(), agent.MaxThreads()
	}
	out = append(out, protocol.Option{Name: protocol.OptionThreads, Type: protocol.Spin, Default: strconv.Itoa(thr), Min: 1, Max: int64(maxThr)},
		protocol.Option{Name: protocol.OptionPonder, Type: protocol.Check, Default: "false"})
	return append(out, e.strengthOptions()...)
}

// NewGame starts a new game, of another game when named.
func (e *engine) NewGame(c protocol.NewGame) error {
	if c.Game == "" {
		return e.newGame(e.spec.Name)
	}
	return e.newGame(c.Game)
}

// newGame switches to game, at its start; the agent is built anew for
// another game and reset for the same.
func (e *engine) newGame(game string) error {
	e.lag = 0
	if !slices.Contains(e.games, game) {
		return fmt.Errorf("game %q not played here (games: %s)", game, strings.Join(e.games, ", "))
	}
	spec, err := env.Lookup(game)
	if err != nil {
		return err
	}
	if e.spec != spec {
		if err := e.buildAgent(spec); err != nil {
			return err
		}
		e.spec = spec
	} else if r, ok := e.ag.(agent.Resetter); ok {
		r.Reset()
	}
	e.start, e.moves, e.st = "", e.moves[:0], spec.New()
	return nil
}

// buildAgent replaces the agent by one for spec, at the strength set.
func (e *engine) buildAgent(spec *env.Spec) error {
	e.seeds++
	sp, err := e.strengthSpec(spec.Name)
	if err != nil {
		return err
	}
	a, err := sp.New(spec, e.cfg.Seed+e.seeds)
	if err != nil {
		return err
	}
	if h, ok := a.(agent.HashSizer); ok && e.hashSet && e.hash != h.Hash() {
		if err := h.SetHash(e.hash); err != nil { // the size set for the last game
			_ = agent.Close(a)
			return err
		}
	}
	if m, ok := a.(agent.MultiPVer); ok {
		if err := m.SetMultiPV(e.multi); err != nil {
			_ = agent.Close(a)
			return err
		}
	}
	if t, ok := a.(agent.Threader); ok && e.thrSet && e.threads != t.Threads() {
		if err := t.SetThreads(e.threads); err != nil {
			_ = agent.Close(a)
			return err
		}
	}
	e.closeAgent()
	e.sp, e.ag, e.base, e.max = sp, a, agent.Limits{}, agent.Limits{}
	if l, ok := a.(agent.Limiter); ok {
		e.base, e.max = l.Limits(), l.MaxLimits()
	}
	e.hash, e.threads = 0, 0
	if h, ok := a.(agent.HashSizer); ok {
		e.hash = h.Hash()
	}
	if t, ok := a.(agent.Threader); ok {
		e.threads = t.Threads()
	}
	return nil
}

// closeAgent closes the agent when it holds resources.
func (e *engine) closeAgent() {
	if e.ag != nil {
		_ = agent.Close(e.ag) // nothing to tell: the agent is dropped either way
	}
}

// Position sets the position; the agent is told the moves when the new
// record extends the old one, so that it can keep its tree.
func (e *engine) Position(p protocol.Position) error {
	st, err := e.spec.Replay(p.Start, p.Moves)
	if err != nil {
		return err
	}
	e.follow(p.Start, p.Moves)
	e.start, e.moves, e.st = p.Start, p.Moves, st
	return nil
}

// follow tells an agent that keeps a tree the moves that lead from the
// old record to the new one, when it extends the old.
func (e *engine) follow(start string, moves []int) {
	o, ok := e.ag.(agent.Observer)
	if !ok || start != e.start || len(moves) <= len(e.moves) || !slices.Equal(moves[:len(e.moves)], e.moves) {
		return
	}
	st := env.Clone(e.st)
	for _, pit := range moves[len(e.moves):] {
		a := env.Action(pit - 1)
		st.Apply(a) // Replay checked it
		o.Played(a, st)
	}
}

// SetOption sets game, ponder, a strength option (level, limitstrength,
// elo), or a spin option (a limit the agent has, hash, multipv, threads)
// within the range Hello declares: 0 restores a limit to the agent's own.
func (e *engine) SetOption(c protocol.SetOption) error {
	if ok, err := e.setStrength(c.Name, c.Value); ok {
		return err
	}
	switch c.Name {
	case protocol.OptionGame:
		return e.newGame(strings.ToLower(c.Value))
	case protocol.OptionPonder:
		if v := strings.ToLower(c.Value); v != "true" && v != "false" {
			return fmt.Errorf("option %s: value %q is not true or false", c.Name, c.Value)
		}
		return nil
	}
	set, ok := e.spinSetter(c.Name)
	if !ok {
		return fmt.Errorf("unknown option %q (options: %s)", c.Name, strings.Join(e.optionNames(), ", "))
	}
	n, err := e.spinValue(c.Name, c.Value)
	if err != nil {
		return err
	}
	return set(n)
}

// spinSetter returns the setter of the spin option name: the limits the
// agent has, hash, multipv and threads; Hello declares their ranges.
func (e *engine) spinSetter(name string) (set func(int64) error, ok bool) {
	switch {
	case name == protocol.OptionSims && e.max.Sims > 0:
		return func(n int64) error { e.opts.Sims = int(n); return nil }, true
	case name == protocol.OptionTime && e.max.Time > 0:
		return func(n int64) error { e.opts.Time = time.Duration(n) * time.Millisecond; return nil }, true
	case name == protocol.OptionDepth && e.max.Depth > 0:
		return func(n int64) error { e.opts.Depth = int(n); return nil }, true
	case name == protocol.OptionThreads:
		return func(n int64) error {
			t, ok := e.ag.(agent.Threader)
			if !ok {
				return nil // 1, the only value declared
			}
			if err := t.SetThreads(int(n)); err != nil {
				return fmt.Errorf("option %s: %w", name, err)
			}
			e.threads, e.thrSet = int(n), true
			return nil
		}, true
	}
	if h, ok := e.ag.(agent.HashSizer); ok && name == protocol.OptionHash {
		return func(n int64) error {
			if err := h.SetHash(int(n)); err != nil {
				return fmt.Errorf("option %s: %w", name, err)
			}
			e.hash, e.hashSet = int(n), true
			return nil
		}, true
	}
	if m, ok := e.ag.(agent.MultiPVer); ok && name == protocol.OptionMultiPV {
		return func(n int64) error {
			if err := m.SetMultiPV(int(n)); err != nil {
				return fmt.Errorf("option %s: %w", name, err)
			}
			e.multi = int(n)
			return nil
		}, true
	}
	return nil, false
}

// optionNames lists the options offered.
func (e *engine) optionNames() []string {
	var names []string
	for _, a := range e.Hello() {
		if o, ok := a.(protocol.Option); ok {
			names = append(names, o.Name)
		}
	}
	return names
}

// Show draws the board, then the position string, legal moves and result.
func (e *engine) Show() []protocol.Answer {
	var out []protocol.Answer
	for _, l := range strings.Split(strings.TrimRight(env.Drawing(e.st), "\n"), "\n") {
		out = append(out, protocol.Raw{Line: l})
	}
	return append(out, protocol.Raw{Line: "fen " + e.st.String()},
		protocol.Raw{Line: "legal " + words.Pits(env.LegalPits(e.st))},
		protocol.Raw{Line: "result " + e.st.Result().String()})
}
