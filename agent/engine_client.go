package agent

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"kumalak/env"
	"kumalak/protocol"
)

// engineKeys are the keys of the engine kind.
var engineKeys = []key{
	{cmdKey, "none (required)", "the engine's command line, split at spaces ('...' or \"...\" quote); it takes the rest of the spec, commas included, so give it last"},
	{"sims", "none", "send go sims N"},
	{"time", "none", "time per move, sent as go movetime MS: a duration such as 500ms, or milliseconds (movetime= is read the same)"},
	{"depth", "none", "send go depth D"},
	{"timeout", "2×time+1s, else 5m", "the longest a move may take: an engine still thinking then is told stop and loses the move (a duration, or milliseconds)"},
}

// EngineClientConfig configures the client of an external engine: the
// program to run and the limits to send with every go.
type EngineClientConfig struct {
	Command []string      // program and arguments; required
	Limits  Limits        // go sims, movetime, depth; zero fields are not sent
	Startup time.Duration // time allowed for the handshake
	Grace   time.Duration // time allowed for bestmove after stop, and for exit after quit
	// Timeout is the longest a move may take; an engine still thinking
	// then is sent stop, and its move fails. 0: twice the movetime plus
	// a second, or 5 minutes without a movetime.
	Timeout time.Duration
	Stderr  io.Writer // gets the engine's stderr as well as the kept tail; nil = tail only
}

// DefaultEngineClientConfig returns a config without a command: 10 s to
// start and 2 s of grace.
func DefaultEngineClientConfig() EngineClientConfig {
	return EngineClientConfig{Startup: 10 * time.Second, Grace: 2 * time.Second}
}

// timeout returns the longest a move may take.
func (c EngineClientConfig) timeout() time.Duration {
	switch {
	case c.Timeout > 0:
		return c.Timeout
	case c.Limits.Time > 0:
		return 2*c.Limits.Time + time.Second
	}
	return 5 * time.Minute
}

// engineMax bounds the limits of an engine that declares none.
var engineMax = Limits{Sims: MaxSims, Time: MaxTime, Depth: maxEngineDepth}

// Validate names the first bad field.
func (c EngineClientConfig) Validate() error {
	switch {
	case len(c.Command) == 0 || c.Command[0] == "":
		return errors.New("agent: engine client: Command is empty")
	case c.Startup <= 0 || c.Grace <= 0:
		return fmt.Errorf("agent: engine client: Startup = %v and Grace = %v, want > 0", c.Startup, c.Grace)
	case c.Timeout < 0:
		return fmt.Errorf("agent: engine client: Timeout = %v, want >= 0", c.Timeout)
	}
	if err := c.Limits.check(engineMax); err != nil {
		return fmt.Errorf("agent: engine client: Limits: %w", err)
	}
	return nil
}

// newEngineKind builds the engine kind from its spec keys.
func newEngineKind(spec *env.Spec, o *options, _ *rand.Rand) (Agent, error) {
	cfg := DefaultEngineClientConfig()
	argv, err := splitCommand(o.str(cmdKey, ""))
	if err != nil {
		return nil, err
	}
	cfg.Command, cfg.Limits = argv, o.lim
	if v := o.str("timeout", ""); v != "" {
		if cfg.Timeout, err = parseTime("timeout", v, MaxTime); err != nil {
			return nil, err
		}
	}
	return NewEngineClient(spec, cfg)
}

// engineLimits returns the largest limits the engine takes: those of the
// sims, time and depth options it declared, or engineMax when it
// declared none of them.
func engineLimits(h protocol.Handshake) Limits {
	var l Limits
	if o, ok := h.Option(protocol.OptionSims); ok && o.Type == protocol.Spin {
		l.Sims = int(min(o.Max, MaxSims))
	}
	if o, ok := h.Option(protocol.OptionTime); ok && o.Type == protocol.Spin {
		l.Time = min(time.Duration(o.Max)*time.Millisecond, MaxTime)
	}
	if o, ok := h.Option(protocol.OptionDepth); ok && o.Type == protocol.Spin {
		l.Depth = int(min(o.Max, maxEngineDepth))
	}
	if l.IsZero() {
		return engineMax
	}
	return l
}

// splitCommand splits a command line at spaces; '...' and "..." quote.
func splitCommand(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inArg = r, true
		case r == ' ' || r == '\t':
			if inArg {
				args, inArg = append(args, cur.String()), false
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("cmd=%s: unclosed quote", s)
	}
	if inArg {
		args = append(args, cur.String())
	}
	if len(args) == 0 {
		return nil, errors.New("cmd= is required: the engine's command line")
	}
	return args, nil
}
