package agent

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"kumalak/env"
)

var engineKeys = []key{
	{"cmd", "none (required)", "the engine's command line, split at spaces ('...' or \"...\" quote); it takes the rest of the spec, commas included, so give it last"},
	{"sims", "none", "send go sims N"},
	{"movetime", "none", "send go movetime MS: milliseconds, or a duration such as 500ms"},
	{"depth", "none", "send go depth D"},
}

// Keys returns the keys of the agent kind name, as Help lists them, or nil
// for an unknown kind or one without keys. Callers use it to tell which
// limits (sims, time, depth) a spec can take.
func Keys(name string) []string {
	for _, k := range kinds {
		if k.name != name || len(k.keys) == 0 {
			continue
		}
		out := make([]string, len(k.keys))
		for i, kv := range k.keys {
			out[i] = kv.name
		}
		return out
	}
	return nil
}

// EngineConfig configures an engine client.
type EngineConfig struct {
	Command  []string      // program and arguments; required
	Sims     int           // go sims N; 0 = not sent
	MoveTime time.Duration // go movetime MS; 0 = not sent
	Depth    int           // go depth D; 0 = not sent
	Startup  time.Duration // time allowed for the handshake
	Grace    time.Duration // time allowed for bestmove after stop, and for exit after quit
	Stderr   io.Writer     // gets the engine's stderr as well as the kept tail; nil = tail only
}

// DefaultEngineConfig returns a config without a command: 10 s to start and
// 2 s of grace.
func DefaultEngineConfig() EngineConfig {
	return EngineConfig{Startup: 10 * time.Second, Grace: 2 * time.Second}
}

// Validate names the first bad field.
func (c EngineConfig) Validate() error {
	switch {
	case len(c.Command) == 0 || c.Command[0] == "":
		return errors.New("engine: Command is empty")
	case c.Sims < 0:
		return fmt.Errorf("engine: Sims = %d, want >= 0", c.Sims)
	case c.MoveTime < 0:
		return fmt.Errorf("engine: MoveTime = %v, want >= 0", c.MoveTime)
	case c.Depth < 0:
		return fmt.Errorf("engine: Depth = %d, want >= 0", c.Depth)
	case c.Startup <= 0 || c.Grace <= 0:
		return fmt.Errorf("engine: Startup = %v and Grace = %v, want > 0", c.Startup, c.Grace)
	}
	return nil
}

// newEngineKind builds the engine kind from its spec keys.
func newEngineKind(spec *env.Spec, o *options, _ *rand.Rand) (Agent, error) {
	cfg := DefaultEngineConfig()
	argv, err := splitCommand(o.str("cmd", ""))
	if err != nil {
		return nil, err
	}
	cfg.Command = argv
	if cfg.Sims, err = o.int("sims", 0, 0, 100_000_000); err != nil {
		return nil, err
	}
	if cfg.Depth, err = o.int("depth", 0, 0, 1000); err != nil {
		return nil, err
	}
	if cfg.MoveTime, err = parseMoveTime(o.str("movetime", "")); err != nil {
		return nil, err
	}
	return NewEngine(spec, cfg)
}

// parseMoveTime reads milliseconds ("500") or a duration ("500ms", "2s").
func parseMoveTime(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if ms, err2 := strconv.Atoi(v); err2 == nil {
		d, err = time.Duration(ms)*time.Millisecond, nil
	}
	if err != nil || d < 0 || d > time.Hour {
		return 0, fmt.Errorf("movetime=%s: want milliseconds or a duration up to 1h", v)
	}
	return d, nil
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
