// Package choose decides which bot the front ends (play, engine, serve,
// analyze) put in front of a person, from what the person asked for: a
// model file or an agent spec (neither: each game's shipped model), search
// limits, a tablebase folder, and the game, which a model fixes.
//
// Errors from bad requests are *InputError; they name each Request field
// as the flag of kumalak that sets it (--model, --agent, --sims, --time,
// --depth, --tablebase, --level, --elo, --game).
package choose

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"kumalak/agent"
	"kumalak/env"
	"kumalak/net"
)

// Request is what a person asked for. The zero Request is each game's
// shipped model at its card's search size.
type Request struct {
	Model     string        // a model file (.kmodel); its game and, from its card, its search size
	Agent     string        // an agent spec instead of a model, e.g. ab:depth=8
	Sims      int           // simulations per move; 0: the card's or the spec's
	Time      time.Duration // time per move; replaces the spec's sims or depth
	Depth     int           // search depth in plies (ab agents)
	Tablebase string        // a tablebase folder (kumalak tablebase build) for the agents that take one
	// Level plays the model bot at a strength level, 1..agent.MaxLevel
	// (docs/PLAYING.md, "Levels"), or Elo at a rating on the game's Elo
	// scale; 0 and "": neither. A level sets the search, so Sims and
	// Depth are refused beside it; Time still caps it.
	Level int
	Elo   string
}

// Bot is the chosen bot: the agent spec that builds it (agent.New), the
// game its model plays ("" for an agent, which plays every game) and the
// model's card (nil for an agent).
type Bot struct {
	Spec string
	Game string
	Card json.RawMessage
}

// InputError is a bad request; Reason names the field as its flag.
type InputError struct{ Reason string }

func (e *InputError) Error() string { return "choose: " + e.Reason }

// Why is the reason alone, without the package's name, for a command
// that names its own.
func (e *InputError) Why() string { return e.Reason }

func badInput(format string, args ...any) error {
	return &InputError{Reason: fmt.Sprintf(format, args...)}
}

// Resolve returns the bot r asks for. A model file is read for its
// metadata only (net.LoadMeta); the agent built from the spec loads it.
func Resolve(r Request) (Bot, error) {
	switch {
	case r.Model != "" && r.Agent != "":
		return Bot{}, badInput("give --model or --agent, not both")
	case r.Sims < 0 || r.Time < 0 || r.Depth < 0:
		return Bot{}, badInput("--sims, --time and --depth must not be negative")
	}
	var b Bot
	var sp agent.Spec
	var err error
	switch {
	case r.Model != "":
		if sp, b.Game, b.Card, err = modelSpec(r.Model); err != nil {
			return Bot{}, err
		}
	case r.Agent == "":
		sp = agent.Spec{Kind: "model"} // the game's shipped model (package models)
	default:
		if sp, err = agent.ParseSpec(r.Agent); err != nil {
			return Bot{}, badInput("%v", err)
		}
	}
	if sp, err = withLevel(r, sp); err != nil {
		return Bot{}, err
	}
	if sp, err = sp.WithLimits(agent.Limits{Sims: r.Sims, Time: r.Time, Depth: r.Depth}); err != nil {
		return Bot{}, badInput("%v", err)
	}
	if sp, err = sp.WithTablebase(r.Tablebase); err != nil {
		return Bot{}, badInput("--tablebase: %v", err)
	}
	b.Spec = sp.String()
	return b, nil
}

// withLevel gives the model spec sp the level or rating r asks for: the
// level then sets the simulations (a model file's card's are dropped).
func withLevel(r Request, sp agent.Spec) (agent.Spec, error) {
	key, v := "level", strconv.Itoa(r.Level)
	switch {
	case r.Level == 0 && r.Elo == "":
		return sp, nil
	case r.Level != 0 && r.Elo != "":
		return sp, badInput("give --level or --elo, not both")
	case r.Level < 0 || r.Level > agent.MaxLevel:
		return sp, badInput("--level %d out of range 1..%d", r.Level, agent.MaxLevel)
	case r.Elo != "":
		key, v = "elo", r.Elo
	}
	flag := "--" + key
	switch {
	case sp.Kind != "model":
		return sp, badInput("%s needs the model bot, not %s", flag, sp)
	case r.Sims != 0 || r.Depth != 0:
		return sp, badInput("%s sets the search: give it or --sims/--depth", flag)
	}
	sp.Limits.Sims = 0
	sp.Options = append(slices.Clone(sp.Options), agent.KeyValue{Key: key, Value: v})
	out, err := agent.ParseSpec(sp.String())
	if err != nil {
		return sp, badInput("%s: %v", flag, err)
	}
	return out, nil
}

// modelSpec returns the agent spec that plays the model file at path with
// its card's recommended simulations (agent.ModelSims), its game and its
// card.
func modelSpec(path string) (sp agent.Spec, game string, card json.RawMessage, err error) {
	meta, err := net.LoadMeta(path)
	if err != nil {
		return sp, "", nil, badInput("--model: %v", err)
	}
	sims := agent.ModelSims(meta.Card)
	if card, err = net.CardJSON(meta.Card); err != nil {
		return sp, "", nil, badInput("--model %s: %v", path, err)
	}
	if sp, err = agent.ModelSpec(path, min(sims, agent.MaxSims)); err != nil {
		return sp, "", nil, badInput("--model: %v", err)
	}
	return sp, meta.Game, card, nil
}

// GameFor returns the game to play: the model's, which asked may only
// repeat when the person set it (set), else asked (a default when not
// set). play, engine and analyze ask it.
func (b Bot) GameFor(asked string, set bool) (*env.Spec, error) {
	game := asked
	if b.Game != "" {
		if set && asked != b.Game {
			return nil, badInput("--game %s, but the model plays %s", asked, b.Game)
		}
		game = b.Game
	}
	spec, err := env.Lookup(game)
	if err != nil {
		return nil, badInput("%v", err)
	}
	return spec, nil
}

// Games returns the games a server of the bot offers: the model's, which
// asked may only repeat; else asked; nil (every game the agent plays)
// when neither names one.
func (b Bot) Games(asked string) ([]string, error) {
	if asked == "" && b.Game == "" {
		return nil, nil
	}
	spec, err := b.GameFor(asked, asked != "")
	if err != nil {
		return nil, err
	}
	return []string{spec.Name}, nil
}

// Check returns an error naming the first game a model cannot play: a
// record of another game than the model's. An agent plays every game.
func (b Bot) Check(games []*env.GameRecord) error {
	for i, g := range games {
		if b.Game != "" && g.Spec.Name != b.Game {
			return badInput("the model plays %s, game %d of the input is %s", b.Game, i+1, g.Spec.Name)
		}
	}
	return nil
}
