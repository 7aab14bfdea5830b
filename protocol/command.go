package protocol

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The command words (controller to engine). Each is written here only.
const (
	wordHello      = "kumalak"
	wordUCI        = "uci"
	wordIsReady    = "isready"
	wordSetOption  = "setoption"
	wordNewGame    = "newgame"
	wordUCINewGame = "ucinewgame"
	wordPosition   = "position"
	wordGo         = "go"
	wordStop       = "stop"
	wordShow       = "d"
	wordShowLong   = "show"
	wordHelp       = "help"
	wordQuit       = "quit"

	wordName     = "name"
	wordValue    = "value"
	wordStart    = "start"
	wordStartPos = "startpos"
	wordFen      = "fen"
	wordMoves    = "moves"
)

// Command is one line from the controller to the engine. Format writes it
// in its canonical form, without the newline; ParseCommand reads it back:
// ParseCommand(c.Format()) equals c for every c that ParseCommand returns.
type Command interface {
	Format() string
	word() string
}

// Hello is the handshake, "kumalak" or, with UCI set, "uci"; the engine
// answers with id and option lines and then HelloOK of the same kind.
type Hello struct{ UCI bool }

// IsReady asks for ReadyOK, which the engine sends at once, even while it
// searches.
type IsReady struct{}

// SetOption sets an option: "setoption name <id> [value <v>]". Name is
// lower case; Value may hold spaces.
type SetOption struct{ Name, Value string }

// NewGame starts a new game, of Game when it is not "": "newgame [game]"
// ("ucinewgame" reads the same).
type NewGame struct{ Game string }

// Position sets the position: the start (Start "") or a position string,
// then the moves as pit numbers: "position start|fen <string> [moves P …]".
// Moves is nil when there are none. The rules are not checked here.
type Position struct {
	Start string
	Moves []int
}

// Stop ends the running search, which then answers BestMove.
type Stop struct{}

// Show asks for the board, for people: "d" ("show" reads the same).
type Show struct{}

// Help asks for the command list, answered as InfoString lines.
type Help struct{}

// Quit ends the engine.
type Quit struct{}

func (Hello) word() string     { return wordHello }
func (IsReady) word() string   { return wordIsReady }
func (SetOption) word() string { return wordSetOption }
func (NewGame) word() string   { return wordNewGame }
func (Position) word() string  { return wordPosition }
func (Go) word() string        { return wordGo }
func (Stop) word() string      { return wordStop }
func (Show) word() string      { return wordShow }
func (Help) word() string      { return wordHelp }
func (Quit) word() string      { return wordQuit }

// Format writes "kumalak" or "uci".
func (h Hello) Format() string {
	if h.UCI {
		return wordUCI
	}
	return wordHello
}

// Format writes "isready".
func (IsReady) Format() string { return wordIsReady }

// Format writes "setoption name <id> [value <v>]".
func (s SetOption) Format() string {
	line := wordSetOption + " " + wordName + " " + s.Name
	if s.Value != "" {
		line += " " + wordValue + " " + s.Value
	}
	return line
}

// Format writes "newgame [game]".
func (n NewGame) Format() string { return joinWords(wordNewGame, n.Game) }

// Format writes "position start|fen <string> [moves P …]".
func (p Position) Format() string {
	var b strings.Builder
	b.WriteString(wordPosition)
	if p.Start == "" {
		b.WriteString(" " + wordStart)
	} else {
		b.WriteString(" " + wordFen + " " + p.Start)
	}
	if len(p.Moves) > 0 {
		b.WriteString(" " + wordMoves)
		for _, m := range p.Moves {
			b.WriteString(" " + strconv.Itoa(m))
		}
	}
	return b.String()
}

// Format writes "stop".
func (Stop) Format() string { return wordStop }

// Format writes "d".
func (Show) Format() string { return wordShow }

// Format writes "help".
func (Help) Format() string { return wordHelp }

// Format writes "quit".
func (Quit) Format() string { return wordQuit }

// ParseError is a command line that could not be read. Word is the
// command's word ("" for an unknown command); Reason says what is wrong.
type ParseError struct{ Word, Reason string }

// Error returns "protocol: <word>: <reason>".
func (e *ParseError) Error() string { return "protocol: " + e.Text() }

// Text is the error as the engine reports it: "<word>: <reason>".
func (e *ParseError) Text() string {
	if e.Word == "" {
		return e.Reason
	}
	return e.Word + ": " + e.Reason
}

// commandParsers reads the arguments of each command word.
var commandParsers = map[string]func(args []string) (Command, error){
	wordHello:      func([]string) (Command, error) { return Hello{}, nil },
	wordUCI:        func([]string) (Command, error) { return Hello{UCI: true}, nil },
	wordIsReady:    func([]string) (Command, error) { return IsReady{}, nil },
	wordSetOption:  parseSetOption,
	wordNewGame:    parseNewGame,
	wordUCINewGame: parseNewGame,
	wordPosition:   parsePosition,
	wordGo:         parseGo,
	wordStop:       func([]string) (Command, error) { return Stop{}, nil },
	wordPonderHit:  func([]string) (Command, error) { return PonderHit{}, nil },
	wordShow:       func([]string) (Command, error) { return Show{}, nil },
	wordShowLong:   func([]string) (Command, error) { return Show{}, nil },
	wordHelp:       func([]string) (Command, error) { return Help{}, nil },
	wordQuit:       func([]string) (Command, error) { return Quit{}, nil },
}

// ParseCommand reads one command line. Words are case-insensitive and
// separated by spaces; an empty line is an error. A bad line gives a
// *ParseError.
func ParseCommand(line string) (Command, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil, &ParseError{Reason: "empty line"}
	}
	w := strings.ToLower(f[0])
	parse, ok := commandParsers[w]
	if !ok {
		return nil, &ParseError{Reason: fmt.Sprintf("unknown command %q (try %s)", w, wordHelp)}
	}
	c, err := parse(f[1:])
	if err != nil {
		return nil, &ParseError{Word: w, Reason: err.Error()}
	}
	return c, nil
}

// setOptionUsage is the form of setoption.
var setOptionUsage = wordSetOption + " " + wordName + " <id> " + wordValue + " <v>"

func parseSetOption(args []string) (Command, error) {
	if len(args) < 2 || !strings.EqualFold(args[0], wordName) {
		return nil, fmt.Errorf("want %s", setOptionUsage)
	}
	s := SetOption{Name: strings.ToLower(args[1])}
	switch {
	case len(args) >= 4 && strings.EqualFold(args[2], wordValue):
		s.Value = strings.Join(args[3:], " ")
	case len(args) != 2:
		return nil, fmt.Errorf("want %s", setOptionUsage)
	}
	return s, nil
}

func parseNewGame(args []string) (Command, error) {
	switch len(args) {
	case 0:
		return NewGame{}, nil
	case 1:
		return NewGame{Game: strings.ToLower(args[0])}, nil
	}
	return nil, fmt.Errorf("want %s [game]", wordNewGame)
}

// positionUsage is the form of position.
var positionUsage = wordPosition + " " + wordStart + "|" + wordFen + " <position string> [" + wordMoves + " ...]"

// parsePosition reads "start|startpos|fen <string>|<string> [moves P …]".
// Position strings are digits, ",/-" and w or b, so the words are lowered.
func parsePosition(args []string) (Command, error) {
	args = slices.Clone(args)
	for i := range args {
		args[i] = strings.ToLower(args[i])
	}
	pos, moves := args, []string(nil)
	if i := slices.Index(args, wordMoves); i >= 0 {
		pos, moves = args[:i], args[i+1:]
	}
	if len(pos) > 0 && pos[0] == wordFen {
		pos = pos[1:]
	}
	if len(pos) == 0 {
		return nil, fmt.Errorf("want %s", positionUsage)
	}
	p := Position{Start: strings.Join(pos, " ")}
	if p.Start == wordStart || p.Start == wordStartPos {
		p.Start = ""
	}
	for k, m := range moves {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > maxPit {
			return nil, fmt.Errorf("move %d (%q): not a pit number", k+1, m)
		}
		p.Moves = append(p.Moves, n)
	}
	return p, nil
}

// maxPit bounds the pit numbers the protocol reads; the rules check the
// real range.
const maxPit = 1 << 16

// joinWords joins the non-empty words with spaces.
func joinWords(words ...string) string {
	return strings.Join(slices.DeleteFunc(words, func(w string) bool { return w == "" }), " ")
}
