package choose

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kumalak/bot/bottest"
	"kumalak/env"
	_ "kumalak/env/games" // registers the games
)

func TestResolve(t *testing.T) {
	model := bottest.TinyModel(t, "mangala", `{"search":{"sims":48}}`)
	cases := []struct {
		name string
		r    Request
		spec string // the bot's spec; "" when refused
		game string
		err  string
	}{
		{"shipped model", Request{}, "model", "", ""},
		{"shipped model with sims", Request{Sims: 300}, "model:sims=300", "", ""},
		{"agent", Request{Agent: "ab:depth=8"}, "ab:depth=8", "", ""},
		{"agent with time", Request{Agent: "mcts", Time: 2 * time.Second}, "mcts:time=2s", "", ""},
		{"agent with a tablebase", Request{Agent: "mcts", Tablebase: "tb"}, "mcts:tablebase=tb", "", ""},
		{"model file", Request{Model: model}, "model:path=" + model + ",sims=48", "mangala", ""},
		{"model file with sims", Request{Model: model, Sims: 10}, "model:path=" + model + ",sims=10", "mangala", ""},
		{"both", Request{Model: model, Agent: "ab"}, "", "", "give --model or --agent, not both"},
		{"negative", Request{Depth: -1}, "", "", "--sims, --time and --depth must not be negative"},
		{"bad spec", Request{Agent: "nope"}, "", "", "nope"},
		{"missing model", Request{Model: "missing.kmodel"}, "", "", "--model: "},
		{"comma in a tablebase", Request{Agent: "mcts", Tablebase: "a,b"}, "", "", "--tablebase: "},
	}
	for _, c := range cases {
		b, err := Resolve(c.r)
		if c.err != "" {
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(ie.Reason, c.err) || !strings.HasPrefix(err.Error(), "choose: ") {
				t.Errorf("%s: error %v, want an InputError with %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || b.Spec != c.spec || b.Game != c.game {
			t.Errorf("%s: %+v, %v; want spec %q, game %q", c.name, b, err, c.spec, c.game)
		}
		if (c.game != "") != (b.Card != nil) {
			t.Errorf("%s: card %s", c.name, b.Card)
		}
	}
}

func TestGameFor(t *testing.T) {
	model, agent := Bot{Spec: "model:path=m", Game: "mangala"}, Bot{Spec: "ab"}
	cases := []struct {
		b     Bot
		asked string
		set   bool
		want  string // "" when refused
		err   string
	}{
		{agent, "togyz", false, "togyz", ""},
		{agent, "kalah", true, "kalah", ""},
		{agent, "chess", true, "", "chess"},
		{model, "togyz", false, "mangala", ""}, // a default gives way to the model's game
		{model, "mangala", true, "mangala", ""},
		{model, "togyz", true, "", "--game togyz, but the model plays mangala"},
	}
	for _, c := range cases {
		spec, err := c.b.GameFor(c.asked, c.set)
		if c.want == "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v GameFor(%q, %v): %v, want an error with %q", c.b, c.asked, c.set, err, c.err)
			}
			continue
		}
		if err != nil || spec.Name != c.want {
			t.Errorf("%+v GameFor(%q, %v) = %v, %v; want %s", c.b, c.asked, c.set, spec, err, c.want)
		}
	}
}

func TestGames(t *testing.T) {
	model, agent := Bot{Game: "mangala"}, Bot{}
	cases := []struct {
		b     Bot
		asked string
		want  string // the games joined; "!" when refused
	}{
		{agent, "", ""},
		{agent, "kalah", "kalah"},
		{agent, "chess", "!"},
		{model, "", "mangala"},
		{model, "mangala", "mangala"},
		{model, "togyz", "!"},
	}
	for _, c := range cases {
		games, err := c.b.Games(c.asked)
		got := strings.Join(games, ",")
		if err != nil {
			got = "!"
		}
		if got != c.want {
			t.Errorf("%+v Games(%q) = %v, %v; want %q", c.b, c.asked, games, err, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	togyz, _ := env.Lookup("togyz")
	mangala, _ := env.Lookup("mangala")
	games := []*env.GameRecord{{Spec: mangala}, {Spec: togyz}}
	if err := (Bot{}).Check(games); err != nil {
		t.Errorf("an agent: %v", err)
	}
	if err := (Bot{Game: "mangala"}).Check(games[:1]); err != nil {
		t.Errorf("a mangala model on a mangala game: %v", err)
	}
	if err := (Bot{Game: "mangala"}).Check(games); err == nil || !strings.Contains(err.Error(), "the model plays mangala, game 2 of the input is togyz") {
		t.Errorf("a mangala model on a togyz game: %v", err)
	}
}

// TestResolveLevel: a level or rating goes into the model spec in place
// of its simulations; beside --sims, --depth, each other, out of range or
// for a bot that is no model it is refused, naming the flag.
func TestResolveLevel(t *testing.T) {
	for r, want := range map[Request]string{
		{Level: 3}:                      "model:level=3",
		{Elo: "500", Time: time.Second}: "model:time=1s,elo=500",
	} {
		if b, err := Resolve(r); err != nil || b.Spec != want {
			t.Errorf("Resolve(%+v) = %q, %v; want %q", r, b.Spec, err, want)
		}
	}
	path := bottest.TinyModel(t, "mangala", `{"search":{"sims":50}}`)
	if b, err := Resolve(Request{Model: path, Level: 2}); err != nil || b.Spec != "model:path="+path+",level=2" {
		t.Errorf("a model file at level 2: %q, %v", b.Spec, err)
	}
	for r, want := range map[Request]string{
		{Level: 11}:                        "--level 11 out of range 1..10",
		{Level: 2, Elo: "400"}:             "give --level or --elo",
		{Level: 2, Sims: 100}:              "--level sets the search",
		{Elo: "400", Depth: 3}:             "--elo sets the search",
		{Level: 2, Agent: "ab:depth=4"}:    "--level needs the model bot",
		{Elo: "400", Agent: "mcts:sims=9"}: "--elo needs the model bot",
	} {
		_, err := Resolve(r)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
			t.Errorf("Resolve(%+v): %v, want an input error %q", r, err, want)
		}
	}
}
