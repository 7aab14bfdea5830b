package play

import (
	"context"
	"errors"
	"strings"
	"testing"

	"golang.org/x/text/language"

	"kumalak/bot/bottest"
	"kumalak/bot/words"
	"kumalak/env"
	"kumalak/protocol"
)

// play runs a scripted session and returns its output.
func play(t *testing.T, cfg Config, script string) string {
	t.Helper()
	var out strings.Builder
	if err := Run(context.Background(), strings.NewReader(script), &out, cfg); err != nil {
		t.Fatalf("Play: %v\noutput:\n%s", err, out.String())
	}
	return out.String()
}

func TestPlayScriptedSession(t *testing.T) {
	spec, a := bottest.Agent(t, "togyz", "ab:depth=2")
	cfg := Config{Spec: spec, Agent: a, Human: env.White}
	script := strings.Join([]string{
		"help", "banana", "0", "10", "hint", "details", "hint", "7", "undo", "undo", "75", "76", "board",
		strings.Repeat("x", protocol.MaxLine+10), "new", "", "quit", "9",
	}, "\n") + "\n"
	out := play(t, cfg, script)
	bottest.InOrder(t, out,
		"Togyz Kumalak: you play white, kumalak plays black",
		"your move (white); legal: 1 2 3 4 5 6 7 8 9",
		"Commands:",
		`can't play "banana": not a move or a command (type help)`,
		`can't play "0": illegal move: pit 0 out of range 1..9 (legal: 1 2 3 4 5 6 7 8 9)`,
		`can't play "10": illegal move: pit 10 out of range 1..9 (legal: 1 2 3 4 5 6 7 8 9)`,
		"hint: ", " — ", "%",
		"details on", "hint: ", " — ", " (value ", "depth 2",
		"you play 7 (76)",
		"kumalak plays ", " — ", " (value ", "depth 2",
		"your move (white)",
		"took back your 7 (76), kumalak's ",
		"nothing to undo",
		`can't play "75": last stone fell in pit 6`,
		"you play 7 (76)",
		"kumalak plays ",
		"that line is too long",
		"new game: you play white",
		"bye",
	)
	if n := strings.Count(out, "\nkumalak plays "); n != 2 {
		t.Errorf("the bot moved %d times, want 2", n)
	}
	if strings.Contains(out, "you play 9") {
		t.Error("input after quit was read")
	}
}

// TestPlayFullGame plays whole games against random: the person types pit
// numbers round and round, so the illegal ones are refused and the legal
// ones played, until the game ends.
func TestPlayFullGame(t *testing.T) {
	for _, c := range []struct {
		game  string
		human env.Player
	}{{"mangala", env.Black}, {"mangala-kale", env.White}, {"togyz", env.White}} {
		t.Run(c.game, func(t *testing.T) {
			spec, a := bottest.Agent(t, c.game, "random")
			var sb strings.Builder
			for i := 0; i < 8000; i++ {
				sb.WriteString([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}[i%spec.Pits] + "\n")
			}
			sb.WriteString("undo\nboard\n")
			out := play(t, Config{Spec: spec, Agent: a, Human: c.human}, sb.String())
			if bot, me := strings.Index(out, "\nkumalak plays"), strings.Index(out, "> you play"); (c.human == env.Black) != (bot < me) {
				t.Errorf("playing %s, the bot's first move is at %d and the person's at %d", c.human.Name(), bot, me)
			}
			bottest.InOrder(t, out, "game over, ", "Type new for another game", "the game is over", "took back", "bye")
			if n := strings.Count(out, "game over, "); n != 1 {
				t.Errorf("the result was announced %d times before undo, want 1", n)
			}
			if !strings.Contains(out, "You win!") && !strings.Contains(out, "kumalak wins.") && !strings.Contains(out, "A draw.") {
				t.Error("no verdict")
			}
		})
	}
}

func TestPlayBotMovesFirstAndEOF(t *testing.T) {
	spec, a := bottest.Agent(t, "mangala", "greedy")
	out := play(t, Config{Spec: spec, Agent: a, Human: env.Black}, "hint")
	bottest.InOrder(t, out, "you play black, kumalak plays white", "kumalak plays ", "your move (black)", "hint: ", "bye")
}

func TestPlayErrors(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	var out strings.Builder
	err := Run(context.Background(), strings.NewReader(""), &out, Config{Spec: spec, Agent: failing{}, Human: env.Black})
	if err == nil || !strings.Contains(err.Error(), "evaluator broke") {
		t.Errorf("failing agent: %v", err)
	}
	// exact=0: no opening book, whose proved first move (pit 5) needs no search to cancel.
	_, mcts := bottest.Agent(t, "mangala", "mcts:sims=100000,exact=0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = Run(ctx, strings.NewReader(""), &out, Config{Spec: spec, Agent: mcts, Human: env.Black})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	err = Run(context.Background(), strings.NewReader("1\n"), failWriter{}, Config{Spec: spec, Agent: mcts, Human: env.White})
	if err == nil || !strings.Contains(err.Error(), "write") {
		t.Errorf("failing output: %v", err)
	}
	for _, bad := range []Config{{Agent: mcts}, {Spec: spec}, {Spec: spec, Agent: mcts, Human: 3}, {Spec: spec, Agent: mcts, Start: "1,2/3"}} {
		if err := Run(context.Background(), strings.NewReader(""), &out, bad); err == nil {
			t.Errorf("config %+v accepted", bad)
		}
	}
}

func TestPlayFromPositionToResult(t *testing.T) {
	spec, a := bottest.Agent(t, "togyz", "ab:depth=3")
	// White to move: every pit empty but pit 9, one stone; black has 80 in its kazan.
	start := "0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 80 80 - - w"
	out := play(t, Config{Spec: spec, Agent: a, Human: env.White, Start: start}, "9\nnew\nquit\n")
	bottest.InOrder(t, out, "you play 9", "game over, ", "bye")
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestBoardForBlackStores: turned round for Black, White's store sits
// after White's last pit (the top row's left end, as on the web page) and
// Black's after Black's pit 6, at the right.
func TestBoardForBlackStores(t *testing.T) {
	for _, game := range []string{"mangala", "togyz"} {
		spec, err := env.Lookup(game)
		if err != nil {
			t.Fatal(err)
		}
		st := spec.New()
		st.Apply(0)
		board := boardFor(words.New(language.English), st, env.Black)
		var white, black string
		for _, l := range strings.Split(board, "\n") {
			switch {
			case strings.HasPrefix(l, "white "):
				white = l
			case strings.HasPrefix(l, "black "):
				black = l
			}
		}
		store := env.WordsOf(st).Store
		if i, j := strings.Index(white, store), strings.Index(white, "|"); i < 0 || i > j || strings.HasSuffix(white, "|") == false {
			t.Errorf("%s: white's row %q: want its store before its pits", game, white)
		}
		if i, j := strings.Index(black, store), strings.LastIndex(black, "|"); i < j {
			t.Errorf("%s: black's row %q: want its store after its pits", game, black)
		}
	}
}

// The bot's name says the level or rating it plays at, in the session's
// language.
func TestBotName(t *testing.T) {
	en, ru := words.New(language.English), words.New(language.Russian)
	for _, c := range []struct {
		w     *words.Printer
		level int
		elo   string
		want  string
	}{
		{en, 0, "", "kumalak"},
		{en, 3, "", "kumalak (level 3)"},
		{en, 0, "1200", "kumalak (Elo 1200)"},
		{ru, 3, "", ru.T("play.name.level", 3)},
	} {
		if got := BotName(c.w, c.level, c.elo); got != c.want {
			t.Errorf("level %d elo %q: %q, want %q", c.level, c.elo, got, c.want)
		}
	}
	if ru.T("play.name.level", 3) == "kumalak (level 3)" {
		t.Error("the Russian name is the English one")
	}
}
