package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"

	"kumalak/agent"
	"kumalak/bot/words"
	"kumalak/env"
	"kumalak/protocol"
)

// Config sets up a terminal game between a person and the bot.
type Config struct {
	Spec  *env.Spec   // the game; required
	Agent agent.Agent // the bot; required
	Human env.Player  // the side the person plays
	Start string      // position string to start from; "" = the start position
	Name  string      // the bot's name in messages; "" = BotName's
	// Level and Elo are the strength the bot plays at (agent's levels),
	// 0 and "" = full strength: its default name says so.
	Level int
	Elo   string
	// ParseMove reads a move typed by the person for st (which it must not
	// change). Nil: one token of the game's record notation (env.Spec.ReadMove):
	// a pit number, and for togyz also the record form "76", whose landing
	// pit is checked.
	ParseMove func(st env.State, tok string) (env.Action, error)
	// FormatMove writes a played from st (not changed) in the record form.
	// Nil: the game's notation (env.Spec.FormatMoves), e.g. togyz's "76".
	FormatMove func(st env.State, a env.Action) string
	// Now gives the date of a saved record; nil = time.Now.
	Now func() time.Time
	// Words is the language of the session's text; nil = English.
	Words *words.Printer
}

// Validate names the first bad field.
func (c Config) Validate() error {
	switch {
	case c.Spec == nil:
		return errors.New("play: Config.Spec is nil")
	case c.Agent == nil:
		return errors.New("play: Config.Agent is nil")
	case c.Human != env.White && c.Human != env.Black:
		return fmt.Errorf("play: Config.Human = %d, want white (0) or black (1)", c.Human)
	}
	_, err := c.Spec.Start(c.Start)
	return err
}

// BotName is the bot's name in w's language: "kumalak", with its level
// (1..agent.MaxLevel) or rating when it plays at one.
func BotName(w *words.Printer, level int, elo string) string {
	switch {
	case level != 0:
		return w.T("play.name.level", level)
	case elo != "":
		return w.T("play.name.elo", elo)
	}
	return "kumalak"
}

// Play runs a game between a person typing on in and the bot, writing to
// out: the board as the players see it, the bot's moves with its
// evaluation, and the result. A bad entry gets a message and the prompt
// again; the session ends on quit or at the end of in (nil error), when
// ctx ends, or when the bot or out fails.
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.Words == nil {
		cfg.Words = words.New(language.English)
	}
	if cfg.Name == "" {
		cfg.Name = BotName(cfg.Words, cfg.Level, cfg.Elo)
	}
	s := &session{cfg: cfg, w: cfg.Words, out: &errWriter{w: out}, in: protocol.NewLineReader(in)}
	s.newGame()
	s.say("play.intro."+side(cfg.Human), s.w.Title(cfg.Spec), cfg.Name)
	s.show()
	err := s.loop(ctx)
	if err == nil {
		err = s.out.err
	}
	return err
}

// session is one terminal game: the positions so far and who made each move.
type session struct {
	cfg       Config
	w         *words.Printer // the session's language
	details   bool           // show the engine's numbers (the details command)
	out       *errWriter
	in        *protocol.LineReader
	hist      []env.State  // hist[0] the start, hist[i] after moves[:i]
	moves     []env.Action // moves played
	movers    []env.Player // who played each
	announced bool         // the result of the current position was shown
}

// loop alternates bot moves and the person's commands until the end.
func (s *session) loop(ctx context.Context) error {
	for s.out.err == nil {
		st := s.cur()
		if st.Result() == env.Ongoing && st.ToMove() != s.cfg.Human {
			if err := s.botMove(ctx); err != nil {
				return err
			}
			continue
		}
		if st.Result() != env.Ongoing && !s.announced {
			s.announce(st)
		}
		s.printf("%s> ", s.w.T("side."+side(s.cfg.Human)))
		line, tooLong, err := s.in.Next()
		switch {
		case errors.Is(err, io.EOF):
			s.printf("\n")
			s.say("play.bye")
			return nil
		case err != nil:
			return fmt.Errorf("play: read: %w", err)
		case tooLong:
			s.say("play.toolong")
			continue
		}
		quit, err := s.command(ctx, line)
		if quit || err != nil {
			return err
		}
	}
	return nil
}

// command carries out one line typed by the person; quit ends the session.
func (s *session) command(ctx context.Context, line string) (quit bool, err error) {
	if word, arg, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
		switch strings.ToLower(word) {
		case "save":
			s.save(strings.TrimSpace(arg))
			return false, nil
		case "load":
			s.load(strings.TrimSpace(arg))
			return false, nil
		}
	}
	switch strings.ToLower(line) {
	case "save", "load":
		s.say("play.needfile", line)
	case "":
	case "quit", "exit", "q":
		s.say("play.bye")
		return true, nil
	case "help", "?":
		s.printf("%s", s.w.T("play.help"))
	case "rules":
		s.rules()
	case "details":
		s.details = !s.details
		s.say(map[bool]string{true: "play.details.on", false: "play.details.off"}[s.details])
	case "board":
		s.show()
	case "new":
		s.newGame()
		s.say("play.new." + side(s.cfg.Human))
		s.show()
	case "undo":
		s.undo()
	case "hint":
		return false, s.hint(ctx)
	default:
		s.humanMove(line)
	}
	return false, nil
}

// cur returns the current position.
func (s *session) cur() env.State { return s.hist[len(s.hist)-1] }

// newGame goes back to the start position.
func (s *session) newGame() {
	st, _ := s.cfg.Spec.Start(s.cfg.Start) // Validate checked it
	s.hist, s.moves, s.movers = append(s.hist[:0], st), s.moves[:0], s.movers[:0]
	s.announced = false
	if r, ok := s.cfg.Agent.(agent.Resetter); ok {
		r.Reset()
	}
}

// play applies a for the player to move and tells the agent.
func (s *session) play(a env.Action) {
	st := s.cur()
	next := env.Clone(st)
	next.Apply(a)
	s.hist = append(s.hist, next)
	s.moves = append(s.moves, a)
	s.movers = append(s.movers, st.ToMove())
	if o, ok := s.cfg.Agent.(agent.Observer); ok {
		o.Played(a, next)
	}
}

// humanMove plays the person's move, or says why it can't be played.
func (s *session) humanMove(tok string) {
	st := s.cur()
	if st.Result() != env.Ongoing {
		s.say("play.over", st.Result().String())
		return
	}
	a, err := s.parseMove(st, tok)
	if err != nil {
		s.say("play.cant", tok, err.Error(), words.Pits(env.LegalPits(st)))
		return
	}
	s.say("play.you", s.moveText(st, a))
	s.play(a)
	s.show()
}

// parseMove reads one move: ParseMove's, else one token of the game's
// record notation, played on a copy of st.
func (s *session) parseMove(st env.State, tok string) (env.Action, error) {
	if s.cfg.ParseMove != nil {
		return s.cfg.ParseMove(st, tok)
	}
	if strings.ContainsAny(tok, " \t") {
		return 0, errors.New(s.w.T("play.onemove"))
	}
	read := st.Spec().ReadMove
	if read == nil {
		read = env.ReadPit
	}
	a, err := read(env.Clone(st), tok)
	if err == nil {
		return a, nil
	}
	if n, nerr := strconv.Atoi(tok); nerr == nil && n > st.Spec().NumActions && n%10 == 0 && tok[0] != '0' {
		// A number ending in 0 is no record token (pits count from 1): a
		// pit out of range, such as togyz's 10.
		if _, cerr := env.CheckMove(st, n); cerr != nil {
			return 0, cerr
		}
	}
	if !errors.Is(err, env.ErrIllegal) && !strings.ContainsAny(tok, "0123456789") {
		return 0, errors.New(s.w.T("play.notmove"))
	}
	return a, err
}

// moveText writes a move as its pit, with the record form when it differs:
// "7" or "7 (76)".
func (s *session) moveText(st env.State, a env.Action) string {
	pit := strconv.Itoa(a.Pit())
	if rec := s.record(st, a); rec != "" && rec != pit {
		return pit + " (" + rec + ")"
	}
	return pit
}

// record writes a in the record form: FormatMove's, else its token in the
// game's notation (env.Spec.NoteMoves: "76"), else "".
func (s *session) record(st env.State, a env.Action) string {
	if s.cfg.FormatMove != nil {
		return s.cfg.FormatMove(st, a)
	}
	noted, err := s.cfg.Spec.NoteMoves(st, []env.Action{a})
	if err != nil {
		return ""
	}
	return noted[0].Text
}

// botMove asks the agent for its move and plays it.
func (s *session) botMove(ctx context.Context) error {
	st := s.cur()
	a, err := s.cfg.Agent.Move(ctx, st)
	if err != nil {
		return fmt.Errorf("play: %s's move in %s: %w", s.cfg.Name, st, err)
	}
	s.say("play.bot", s.cfg.Name, s.moveText(st, a)+s.evaluation(st))
	s.play(a)
	s.show()
	return nil
}

// hint shows the move the bot would play for the person.
func (s *session) hint(ctx context.Context) error {
	st := s.cur()
	if st.Result() != env.Ongoing {
		s.say("board.over", st.Result().String())
		return nil
	}
	a, err := s.cfg.Agent.Move(ctx, st)
	if err != nil {
		return fmt.Errorf("play: hint in %s: %w", st, err)
	}
	s.say("play.hint", s.moveText(st, a)+s.evaluation(st))
	return nil
}

// undo takes back the person's last move and every move after it.
func (s *session) undo() {
	i := len(s.movers) - 1
	for i >= 0 && s.movers[i] != s.cfg.Human {
		i--
	}
	if i < 0 {
		s.say("undo.nothing")
		return
	}
	var taken []string
	for j := i; j < len(s.moves); j++ {
		text := s.moveText(s.hist[j], s.moves[j])
		if s.movers[j] == s.cfg.Human {
			taken = append(taken, s.w.T("play.yours", text))
		} else {
			taken = append(taken, s.w.T("play.its", s.cfg.Name, text))
		}
	}
	s.hist, s.moves, s.movers = s.hist[:i+1], s.moves[:i], s.movers[:i]
	s.announced = false
	if r, ok := s.cfg.Agent.(agent.Resetter); ok {
		r.Reset()
	}
	s.say("play.tookback", strings.Join(taken, ", "))
	s.show()
}

// show states the last move, draws the board from the person's seat and,
// on the person's turn, lists the legal moves.
func (s *session) show() {
	st := s.cur()
	if n := len(s.moves); n > 0 {
		before := s.hist[n-1]
		s.say("play.last", describeMove(s.w, before, st, s.moves[n-1], s.moveText(before, s.moves[n-1])))
	}
	s.printf("%s", boardFor(s.w, st, s.cfg.Human))
	if st.Result() == env.Ongoing && st.ToMove() == s.cfg.Human {
		s.say("play.turn."+side(s.cfg.Human), words.Pits(env.LegalPits(st)))
	}
}

// announce shows the result of a finished game.
func (s *session) announce(st env.State) {
	s.announced = true
	switch p, ok := st.Result().Winner(); {
	case !ok:
		s.say("play.draw", s.w.Result(st))
	case p == s.cfg.Human:
		s.say("play.won", s.w.Result(st))
	default:
		s.say("play.lost", s.w.Result(st), s.cfg.Name)
	}
	s.say("play.next")
}

// rules shows the game's rules page.
func (s *session) rules() {
	page, err := words.Rules(s.cfg.Spec.Name, s.w.Tag())
	if err != nil {
		s.printf("%v\n", err)
		return
	}
	s.printf("%s", page)
}

// printf writes to the session's output; the first error is kept.
func (s *session) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// say writes the message of key in the session's language, and a newline.
func (s *session) say(key string, args ...any) { s.printf("%s\n", s.w.T(key, args...)) }

// side is the catalogs' name of p: "w" or "b".
func side(p env.Player) string {
	if p == env.White {
		return "w"
	}
	return "b"
}

// evaluation says who stands better after the agent's last search of st,
// in words: " — White is better, 62%", with the details on the engine's
// numbers " (value +0.24, depth 6, 1234 nodes)"; "" for an agent that
// does not say.
func (s *session) evaluation(st env.State) string {
	an, ok := s.cfg.Agent.(agent.Analyzer)
	if !ok {
		return ""
	}
	r := an.Analysis()
	white := float64(r.WinProb)
	if st.ToMove() != env.White {
		white = 1 - white
	}
	text := " — " + s.w.Standing(white)
	if !s.details {
		return text
	}
	parts := []string{s.w.T("eval.value", fmt.Sprintf("%+.2f", r.Value))}
	if r.Depth > 0 {
		parts = append(parts, s.w.T("eval.depth", r.Depth), s.w.T("eval.nodes", r.Nodes))
	} else if r.Nodes > 0 {
		parts = append(parts, s.w.T("eval.sims", r.Nodes))
	}
	return text + " (" + strings.Join(parts, ", ") + ")"
}

// errWriter keeps the first write error and then writes nothing.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = fmt.Errorf("play: write: %w", err)
	}
	return n, err
}
