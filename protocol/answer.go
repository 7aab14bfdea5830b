package protocol

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The answer words (engine to controller). Each is written here only.
const (
	wordID        = "id"
	wordOption    = "option"
	wordHelloOK   = wordHello + "ok"
	wordUCIOK     = wordUCI + "ok"
	wordReadyOK   = "readyok"
	wordInfo      = "info"
	wordString    = "string"
	wordMove      = "move"
	wordBestMove  = "bestmove"
	wordNone      = "none"
	wordPonder    = "ponder"
	wordError     = "error"
	wordType      = "type"
	wordDefault   = "default"
	wordMin       = "min"
	wordMax       = "max"
	wordVar       = "var"
	wordShare     = "share"
	wordMoveValue = "value"
)

// The id keys.
const (
	IDName   = "name"   // the engine's name
	IDAuthor = "author" // its author
	IDGames  = "games"  // the games it plays, separated by spaces
)

// The option types.
const (
	Spin   = "spin"   // a whole number in Min..Max
	Combo  = "combo"  // one of Vars
	Check  = "check"  // true or false
	String = "string" // any text
	Button = "button" // no value
)

// The options a kumalak engine may declare.
const (
	OptionSims    = "sims"    // simulations per move; 0 = the agent's own
	OptionTime    = "time"    // milliseconds per move; 0 = the agent's own
	OptionDepth   = "depth"   // plies; 0 = the agent's own
	OptionThreads = "threads" // search threads
	OptionGame    = "game"    // the game played, as newgame <game>
	OptionHash    = "hash"    // MiB of the transposition table (alpha-beta)
	OptionMultiPV = "multipv" // lines reported: the N best moves, each with its line and value
	OptionPonder  = "ponder"  // check: the engine may be sent go ponder
	// The strength options (UCI's Skill Level, UCI_LimitStrength and
	// UCI_Elo): a level 1..N, 0 = full strength; with limitstrength true
	// the engine plays at rating elo on the game's Elo scale instead.
	OptionLevel         = "level"
	OptionLimitStrength = "limitstrength"
	OptionElo           = "elo"
)

// Answer is one line from the engine to the controller. Format writes it
// without the newline; ParseAnswer reads it back: ParseAnswer(a.Format())
// equals a for every a that ParseAnswer returns.
type Answer interface {
	Format() string
	answer()
}

// ID is "id <key> <value>": see IDName, IDAuthor, IDGames.
type ID struct{ Key, Value string }

// Option declares an option: "option name <id> type <t> default <v> [min
// <a> max <b>] [var <v> …]". Min and Max are written for a Spin only,
// Vars for a Combo only.
type Option struct {
	Name, Type, Default string
	Min, Max            int64
	Vars                []string
}

// HelloOK ends the handshake: "kumalakok", or "uciok" for UCI.
type HelloOK struct{ UCI bool }

// ReadyOK answers IsReady.
type ReadyOK struct{}

// InfoString is "info string <text>": a remark for people.
type InfoString struct{ Text string }

// MoveInfo is "info move P share S value V": one root move of a search.
type MoveInfo struct {
	Pit          int
	Share, Value float32
}

// BestMove ends a search: "bestmove P [ponder Q]", or "bestmove none"
// (Pit 0) on a finished game. Ponder 0 is "not given".
type BestMove struct{ Pit, Ponder int }

// Error is "error <text>": a refused command.
type Error struct{ Text string }

// Raw is any other line, such as the board that Show draws. ParseAnswer
// returns it for a line whose first word no answer has; controllers
// ignore it.
type Raw struct{ Line string }

func (ID) answer()         {}
func (Option) answer()     {}
func (HelloOK) answer()    {}
func (ReadyOK) answer()    {}
func (Info) answer()       {}
func (InfoString) answer() {}
func (MoveInfo) answer()   {}
func (BestMove) answer()   {}
func (Error) answer()      {}
func (Raw) answer()        {}

// Format writes "id <key> <value>".
func (i ID) Format() string { return joinWords(wordID, i.Key, i.Value) }

// Format writes the option declaration.
func (o Option) Format() string {
	parts := []string{wordOption, wordName, o.Name, wordType, o.Type}
	if o.Default != "" {
		parts = append(parts, wordDefault, o.Default)
	}
	if o.Type == Spin {
		parts = append(parts, wordMin, strconv.FormatInt(o.Min, 10), wordMax, strconv.FormatInt(o.Max, 10))
	}
	if o.Type == Combo {
		for _, v := range o.Vars {
			parts = append(parts, wordVar, v)
		}
	}
	return joinWords(parts...)
}

// Format writes "kumalakok" or "uciok".
func (h HelloOK) Format() string {
	if h.UCI {
		return wordUCIOK
	}
	return wordHelloOK
}

// Format writes "readyok".
func (ReadyOK) Format() string { return wordReadyOK }

// Format writes "info string <text>".
func (s InfoString) Format() string { return joinWords(wordInfo, wordString, s.Text) }

// Format writes "info move P share S value V".
func (m MoveInfo) Format() string {
	return wordInfo + " " + wordMove + " " + strconv.Itoa(m.Pit) + " " + wordShare + " " + formatFloat(m.Share) +
		" " + wordMoveValue + " " + formatFloat(m.Value)
}

// Format writes "bestmove P [ponder Q]" or "bestmove none".
func (b BestMove) Format() string {
	if b.Pit == 0 {
		return wordBestMove + " " + wordNone
	}
	line := wordBestMove + " " + strconv.Itoa(b.Pit)
	if b.Ponder > 0 {
		line += " " + wordPonder + " " + strconv.Itoa(b.Ponder)
	}
	return line
}

// Format writes "error <text>".
func (e Error) Format() string { return joinWords(wordError, e.Text) }

// Format writes the line as it is.
func (r Raw) Format() string { return r.Line }

// answerParsers reads each answer word's arguments.
var answerParsers = map[string]func(args []string) (Answer, error){
	wordID:       parseID,
	wordOption:   parseOption,
	wordHelloOK:  func([]string) (Answer, error) { return HelloOK{}, nil },
	wordUCIOK:    func([]string) (Answer, error) { return HelloOK{UCI: true}, nil },
	wordReadyOK:  func([]string) (Answer, error) { return ReadyOK{}, nil },
	wordInfo:     parseInfoLine,
	wordBestMove: parseBestMove,
	wordError:    func(args []string) (Answer, error) { return Error{Text: strings.Join(args, " ")}, nil },
}

// ParseAnswer reads one line of the engine. The first word is
// case-insensitive; words are separated by spaces. A line whose first word
// is no answer's is a Raw; a malformed answer is an error.
func ParseAnswer(line string) (Answer, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return Raw{}, nil
	}
	parse, ok := answerParsers[strings.ToLower(f[0])]
	if !ok {
		return Raw{Line: strings.Join(f, " ")}, nil
	}
	a, err := parse(f[1:])
	if err != nil {
		return nil, fmt.Errorf("protocol: %s: %w", strings.ToLower(f[0]), err)
	}
	return a, nil
}

func parseID(args []string) (Answer, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("want %s <key> <value>", wordID)
	}
	return ID{Key: strings.ToLower(args[0]), Value: strings.Join(args[1:], " ")}, nil
}

// optionWords are the keywords of an option line.
var optionWords = []string{wordName, wordType, wordDefault, wordMin, wordMax, wordVar}

// parseOption reads the keywords of an option line in any order; each
// takes the words up to the next keyword.
func parseOption(args []string) (Answer, error) {
	var o Option
	seen := map[string]bool{}
	for i := 0; i < len(args); {
		key := strings.ToLower(args[i])
		if !slices.Contains(optionWords, key) {
			return nil, fmt.Errorf("unknown word %q", args[i])
		}
		j := i + 1
		for j < len(args) && !slices.Contains(optionWords, strings.ToLower(args[j])) {
			j++
		}
		if err := o.set(key, strings.Join(args[i+1:j], " "), seen); err != nil {
			return nil, err
		}
		seen[key], i = true, j
	}
	return o, o.check(seen)
}

// set reads the value of one keyword.
func (o *Option) set(key, v string, seen map[string]bool) error {
	if seen[key] && key != wordVar {
		return fmt.Errorf("%s given twice", key)
	}
	var err error
	switch key {
	case wordName:
		o.Name = strings.ToLower(v)
	case wordType:
		o.Type = strings.ToLower(v)
	case wordDefault:
		o.Default = v
	case wordMin:
		o.Min, err = strconv.ParseInt(v, 10, 64)
	case wordMax:
		o.Max, err = strconv.ParseInt(v, 10, 64)
	case wordVar:
		o.Vars = append(o.Vars, v)
	}
	if err != nil {
		return fmt.Errorf("%s %q: not a whole number", key, v)
	}
	return nil
}

// check refuses an option without a name or type, and keywords its type
// does not have.
func (o Option) check(seen map[string]bool) error {
	switch {
	case o.Name == "" || o.Type == "":
		return fmt.Errorf("want %s %s <id> %s <t> [more]", wordOption, wordName, wordType)
	case o.Type == Spin && !(seen[wordMin] && seen[wordMax]):
		return fmt.Errorf("%s %s needs %s and %s", o.Name, Spin, wordMin, wordMax)
	case o.Type != Spin && (seen[wordMin] || seen[wordMax]):
		return fmt.Errorf("%s: %s and %s belong to a %s", o.Name, wordMin, wordMax, Spin)
	case o.Type != Combo && seen[wordVar]:
		return fmt.Errorf("%s: %s belongs to a %s", o.Name, wordVar, Combo)
	case slices.Contains(o.Vars, ""):
		return fmt.Errorf("%s: an empty %s", o.Name, wordVar)
	}
	return nil
}

// parseInfoLine reads "info string …", "info move …" or an Info.
func parseInfoLine(args []string) (Answer, error) {
	if len(args) > 0 {
		switch strings.ToLower(args[0]) {
		case wordString:
			return InfoString{Text: strings.Join(args[1:], " ")}, nil
		case wordMove:
			return parseMoveInfo(args[1:])
		}
	}
	return parseInfo(args)
}

// parseMoveInfo reads "P [share S] [value V]".
func parseMoveInfo(args []string) (Answer, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("%s needs a pit", wordMove)
	}
	pit, err := parsePit(args[0])
	if err != nil {
		return nil, err
	}
	m := MoveInfo{Pit: pit}
	for i := 1; i+1 < len(args); i += 2 {
		var dst *float32
		switch strings.ToLower(args[i]) {
		case wordShare:
			dst = &m.Share
		case wordMoveValue:
			dst = &m.Value
		default:
			return nil, fmt.Errorf("unknown word %q", args[i])
		}
		if *dst, err = parseFloat(args[i+1]); err != nil {
			return nil, err
		}
	}
	if len(args)%2 == 0 {
		return nil, fmt.Errorf("%q needs a value", args[len(args)-1])
	}
	return m, nil
}

// parseBestMove reads "P [ponder Q]" or "none".
func parseBestMove(args []string) (Answer, error) {
	if len(args) == 1 && strings.EqualFold(args[0], wordNone) {
		return BestMove{}, nil
	}
	if len(args) != 1 && !(len(args) == 3 && strings.EqualFold(args[1], wordPonder)) {
		return nil, fmt.Errorf("want %s P [%s Q] or %s %s", wordBestMove, wordPonder, wordBestMove, wordNone)
	}
	var b BestMove
	var err error
	if b.Pit, err = parsePit(args[0]); err != nil {
		return nil, err
	}
	if len(args) == 3 {
		if b.Ponder, err = parsePit(args[2]); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// parsePit reads a pit number, 1..maxPit.
func parsePit(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxPit {
		return 0, fmt.Errorf("%q: not a pit number", s)
	}
	return n, nil
}
