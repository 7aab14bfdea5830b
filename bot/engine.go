package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"kumalak/agent"
	"kumalak/env"
)

// EngineConfig sets up the engine protocol server (docs/ENGINE.md).
type EngineConfig struct {
	Agent  string   // agent spec, e.g. "ab:depth=6" or "model:path=best.kmodel,sims=400"; required
	Games  []string // games it plays; empty = every registered game
	Game   string   // game at the start; "" = togyz when it plays it, else Games[0]
	Name   string   // id name; "" = "kumalak <agent spec>"
	Author string   // id author
	Seed   uint64   // seed of the agents' randomness
	// Slice is the time of one search slice in infinite mode for agents
	// searching by time (alpha-beta), and the longest wait between info
	// lines; SliceSims the simulations of one slice for agents searching
	// by simulations (mcts, model), which run every search in slices.
	Slice     time.Duration
	SliceSims int
}

// DefaultEngineConfig returns the defaults, without an agent.
func DefaultEngineConfig() EngineConfig {
	return EngineConfig{Author: "the kumalak authors", Slice: 100 * time.Millisecond, SliceSims: 64}
}

// Validate names the first bad field.
func (c EngineConfig) Validate() error {
	switch {
	case strings.TrimSpace(c.Agent) == "":
		return errors.New("bot: EngineConfig.Agent is empty")
	case c.Slice <= 0 || c.Slice > time.Minute:
		return fmt.Errorf("bot: EngineConfig.Slice = %v, want in (0, 1m]", c.Slice)
	case c.SliceSims < 1 || c.SliceSims > 1_000_000:
		return fmt.Errorf("bot: EngineConfig.SliceSims = %d, want in [1, 1000000]", c.SliceSims)
	}
	for _, g := range c.Games {
		if _, err := env.Lookup(g); err != nil {
			return fmt.Errorf("bot: EngineConfig.Games: %w", err)
		}
	}
	if c.Game != "" && len(c.Games) > 0 && !slices.Contains(c.Games, c.Game) {
		return fmt.Errorf("bot: EngineConfig.Game %q is not one of Games (%s)", c.Game, strings.Join(c.Games, ", "))
	}
	return nil
}

// Engine serves the engine protocol: it reads commands from in, one per
// line, and writes answers to out, until quit, the end of in, or ctx ends
// (nil error), or until out fails. It first builds the agent for the
// starting game, and returns that error if it fails. A search runs in its
// own goroutine, so stop and isready are answered while it thinks. The
// goroutine reading in may stay blocked in Read after Engine returns,
// until in is closed or yields.
func Engine(ctx context.Context, in io.Reader, out io.Writer, cfg EngineConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	e, err := newEngine(cfg, out)
	if err != nil {
		return err
	}
	defer e.closeAgents()
	defer e.halt()
	lines, stop := make(chan string), make(chan struct{})
	defer close(stop)
	go readLines(in, lines, stop)
	for e.out.Err() == nil {
		select {
		case <-ctx.Done():
			return e.out.Err()
		case line, ok := <-lines:
			if !ok || e.do(line) {
				return e.out.Err()
			}
		}
	}
	return e.out.Err()
}

// readLines sends the lines of in to ch, a too long one as "\x00", until
// the end of in (then it closes ch) or until stop closes.
func readLines(in io.Reader, ch chan<- string, stop <-chan struct{}) {
	r := newLineReader(in)
	for {
		line, tooLong, err := r.next()
		if err != nil {
			close(ch)
			return
		}
		if tooLong {
			line = "\x00"
		}
		select {
		case ch <- line:
		case <-stop:
			return
		}
	}
}

// engine is the server's state; the search goroutine uses agents only
// while the command loop waits for it.
type engine struct {
	cfg    EngineConfig
	out    *lineWriter
	games  []string
	spec   *env.Spec
	start  string    // position string of the record's start
	moves  []int     // the record's moves
	st     env.State // start with moves played
	opts   Limits    // setoption sims, time, depth
	agents map[string]agent.Agent
	seeds  uint64
	job    *job // the running or last search
}

func newEngine(cfg EngineConfig, out io.Writer) (*engine, error) {
	e := &engine{cfg: cfg, out: &lineWriter{w: out}, games: cfg.Games, agents: map[string]agent.Agent{}}
	if len(e.games) == 0 {
		e.games = env.Games()
	}
	game := cfg.Game
	if game == "" {
		game = e.games[0]
		if slices.Contains(e.games, "togyz") {
			game = "togyz"
		}
	}
	if e.cfg.Name == "" {
		e.cfg.Name = "kumalak " + cfg.Agent
	}
	if err := e.newGame(game); err != nil {
		return nil, err
	}
	if _, err := e.agentFor(cfg.Agent); err != nil {
		return nil, fmt.Errorf("bot: engine: %w", err)
	}
	return e, nil
}

// do carries out one command line and reports whether it was quit.
func (e *engine) do(line string) (quit bool) {
	if line == "\x00" {
		e.out.line("error line too long (limit %d bytes)", maxLine)
		return false
	}
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	cmd, args := strings.ToLower(f[0]), f[1:]
	switch cmd {
	case "quit":
		return true
	case "stop":
		e.stop()
	case "isready":
		e.out.line("readyok")
	case "kumalak", "uci":
		e.hello(cmd)
	case "help":
		e.help()
	default:
		e.idleCommand(cmd, args)
	}
	return false
}

// idleCommand carries out a command that needs the search to be over: it
// waits for a finite search and refuses during an infinite one.
func (e *engine) idleCommand(cmd string, args []string) {
	run, ok := map[string]func([]string) error{
		"newgame": e.cmdNewGame, "ucinewgame": e.cmdNewGame, "position": e.cmdPosition,
		"go": e.cmdGo, "setoption": e.cmdSetOption, "d": e.cmdShow, "show": e.cmdShow,
	}[cmd]
	if !ok {
		e.out.line("error unknown command %q (try help)", cmd)
		return
	}
	if e.job != nil && e.job.endless() {
		e.out.line("error %s during an infinite search: send stop first", cmd)
		return
	}
	e.wait()
	if err := run(args); err != nil {
		e.out.line("error %s: %v", cmd, err)
	}
}

// hello answers the handshake: id lines, the options, then kumalakok (or
// uciok to "uci").
func (e *engine) hello(cmd string) {
	e.out.line("id name %s", e.cfg.Name)
	e.out.line("id author %s", e.cfg.Author)
	e.out.line("id games %s", strings.Join(e.games, " "))
	keys := agent.Keys(kindOf(e.cfg.Agent))
	e.out.line("option name game type combo default %s var %s", e.spec.Name, strings.Join(e.games, " var "))
	if slices.Contains(keys, "sims") {
		e.out.line("option name sims type spin default 0 min 0 max 100000000")
	}
	if slices.Contains(keys, "time") || slices.Contains(keys, "movetime") {
		e.out.line("option name time type spin default 0 min 0 max 3600000")
	}
	if slices.Contains(keys, "depth") {
		e.out.line("option name depth type spin default 0 min 0 max 1000")
	}
	e.out.line("option name threads type spin default 1 min 1 max 1")
	e.out.line("%sok", cmd)
}

// help lists the commands as info strings.
func (e *engine) help() {
	for _, l := range strings.Split(strings.TrimSpace(engineHelp), "\n") {
		e.out.line("info string %s", l)
	}
}

const engineHelp = `
kumalak | uci                      handshake: id and option lines, then kumalakok (uciok)
isready                            readyok
setoption name sims|time|depth|threads|game value V
newgame [togyz|mangala|mangala-kale]
position start|fen <position string>|<position string> [moves P P ...]
go [sims N] [movetime MS] [depth D] [wtime MS btime MS winc MS binc MS] [infinite]
stop                               end the search now: bestmove follows
d                                  draw the board
quit`

// cmdNewGame starts a new game, of another game when named.
func (e *engine) cmdNewGame(args []string) error {
	switch len(args) {
	case 0:
		return e.newGame(e.spec.Name)
	case 1:
		return e.newGame(strings.ToLower(args[0]))
	}
	return errors.New("want newgame [game]")
}

// newGame switches to game, at its start, with fresh agents.
func (e *engine) newGame(game string) error {
	if !slices.Contains(e.games, game) {
		return fmt.Errorf("game %q not played here (games: %s)", game, strings.Join(e.games, ", "))
	}
	spec, err := env.Lookup(game)
	if err != nil {
		return err
	}
	if e.spec != spec {
		e.closeAgents()
		e.spec = spec
	}
	for _, a := range e.agents {
		if r, ok := a.(agent.Resetter); ok {
			r.Reset()
		}
	}
	e.start, e.moves, e.st = "start", e.moves[:0], spec.New()
	return nil
}

// cmdPosition sets the position: "start", "fen <string>" or "<string>",
// then optionally "moves" and pit numbers. Agents that keep a tree are
// told the moves when the new record extends the old one.
func (e *engine) cmdPosition(args []string) error {
	if len(args) == 0 {
		return errors.New("want position start|fen <position string> [moves ...]")
	}
	for k := range args { // position strings are digits, ",/-" and w or b
		args[k] = strings.ToLower(args[k])
	}
	i := slices.Index(args, "moves")
	posArgs, moveArgs := args, []string(nil)
	if i >= 0 {
		posArgs, moveArgs = args[:i], args[i+1:]
	}
	start := strings.Join(posArgs, " ")
	if p, ok := strings.CutPrefix(start, "fen "); ok {
		start = p
	}
	if start == "start" || start == "startpos" {
		start = "start"
	}
	moves := make([]int, len(moveArgs))
	for k, m := range moveArgs {
		n, err := strconv.Atoi(m)
		if err != nil {
			return fmt.Errorf("move %d (%q): not a pit number", k+1, m)
		}
		moves[k] = n
	}
	st, err := Replay(e.spec, start, moves)
	if err != nil {
		return err
	}
	e.follow(start, moves)
	e.start, e.moves, e.st = start, moves, st
	return nil
}

// follow tells the agents that keep a tree the moves that lead from the
// old record to the new one, when it extends the old.
func (e *engine) follow(start string, moves []int) {
	if start != e.start || len(moves) <= len(e.moves) || !slices.Equal(moves[:len(e.moves)], e.moves) {
		return
	}
	st := env.Clone(e.st)
	for _, pit := range moves[len(e.moves):] {
		a := env.Action(pit - 1)
		st.Apply(a) // Replay checked it
		for _, ag := range e.agents {
			if o, ok := ag.(agent.Observer); ok {
				o.Played(a, st)
			}
		}
	}
}

// cmdSetOption reads "name <id> value <v>".
func (e *engine) cmdSetOption(args []string) error {
	if len(args) < 2 || !strings.EqualFold(args[0], "name") {
		return errors.New("want setoption name <id> value <v>")
	}
	name, val := strings.ToLower(args[1]), ""
	if len(args) >= 4 && strings.EqualFold(args[2], "value") {
		val = strings.Join(args[3:], " ")
	} else if len(args) != 2 {
		return errors.New("want setoption name <id> value <v>")
	}
	if name == "game" {
		return e.newGame(strings.ToLower(val))
	}
	n, err := strconv.Atoi(val)
	if err != nil || n < 0 {
		return fmt.Errorf("option %s: value %q is not a whole number >= 0", name, val)
	}
	switch name {
	case "sims":
		e.opts.Sims = n
	case "time":
		e.opts.Time = time.Duration(n) * time.Millisecond
	case "depth":
		e.opts.Depth = n
	case "threads":
		if n != 1 {
			return fmt.Errorf("option threads: %d not supported (this engine searches on 1 thread)", n)
		}
	default:
		return fmt.Errorf("unknown option %q (options: sims, time, depth, threads, game)", name)
	}
	return nil
}

// cmdShow draws the board, then the position string, legal moves and result.
func (e *engine) cmdShow([]string) error {
	for _, l := range strings.Split(strings.TrimRight(drawing(e.st), "\n"), "\n") {
		e.out.line("%s", l)
	}
	e.out.line("fen %s", e.st)
	e.out.line("legal %s", pitList(legalPits(e.st)))
	e.out.line("result %s", e.st.Result())
	return nil
}

// agentFor returns the agent for spec s, built on first use.
func (e *engine) agentFor(s string) (agent.Agent, error) {
	if a, ok := e.agents[s]; ok {
		return a, nil
	}
	e.seeds++
	a, err := agent.New(e.spec, s, e.cfg.Seed+e.seeds)
	if err != nil {
		return nil, err
	}
	e.agents[s] = a
	return a, nil
}

// closeAgents closes the agents that hold resources and forgets them all.
func (e *engine) closeAgents() {
	for s, a := range e.agents {
		_ = closeAgent(a) // nothing to tell: the agent is dropped either way
		delete(e.agents, s)
	}
}

// lineWriter writes whole lines for the command loop and the search
// goroutine; it keeps the first error.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// Err returns the first write error.
func (l *lineWriter) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// line writes one formatted line.
func (l *lineWriter) line(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return
	}
	if _, err := fmt.Fprintf(l.w, format+"\n", args...); err != nil {
		l.err = fmt.Errorf("bot: engine output: %w", err)
	}
}
