package env

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Tag is one header line of a game record, written [Name "Value"].
type Tag struct {
	Name, Value string
}

// GameRecord is one game of a record file (docs/RECORDS.md): header tags,
// the start position, the moves and the result.
//
// Three tags are fields rather than entries of Tags: Result (the Result
// field), Game (Spec.Name) and Position (Start, written only when it is not
// the start position). Tags holds every other tag in file order; the
// writer puts the roster (Event, Site, Date, Round, White, Black) first,
// "?" for one that is missing.
type GameRecord struct {
	Tags   []Tag
	Spec   *Spec
	Start  State    // nil: Spec.New()
	Moves  []Action // played from Start
	Result Result
}

// Roster is the tags a written record always has, in order, before
// Result, Game, Position and the others.
var Roster = []string{"Event", "Site", "Date", "Round", "White", "Black"}

// Tag returns the value of the named tag ("" when absent); "Result",
// "Game" and "Position" come from the fields.
func (g *GameRecord) Tag(name string) string {
	switch name {
	case "Result":
		return g.Result.String()
	case "Game":
		return g.Spec.Name
	case "Position":
		if g.Start == nil || Same(g.Start, g.Spec.New()) {
			return ""
		}
		return g.Start.String()
	}
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SetTag sets a tag of Tags, replacing its value or adding it at the end.
// It panics on Result, Game and Position, which are fields.
func (g *GameRecord) SetTag(name, value string) {
	if fieldTag(name) {
		panic("env: SetTag(" + name + "): set the field instead")
	}
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// fieldTag reports whether a tag is one of GameRecord's fields.
func fieldTag(name string) bool {
	return name == "Result" || name == "Game" || name == "Position"
}

// StartState returns a copy of the start position.
func (g *GameRecord) StartState() State {
	if g.Start == nil {
		return g.Spec.New()
	}
	return Clone(g.Start)
}

// Final plays the moves from the start and returns the last position, or
// an error naming the first illegal move.
func (g *GameRecord) Final() (State, error) {
	st := g.StartState()
	if err := Replay(st, Pits(g.Moves)); err != nil {
		return nil, fmt.Errorf("%s: %w", g.Spec.Name, err)
	}
	return st, nil
}

// WriteFinal writes where the game ends: the final position string, the
// result and its Termination tag, the board drawn (Drawing) and, for a
// game with its own notation, the record of the moves with the result.
func (g *GameRecord) WriteFinal(w io.Writer) error {
	st, err := g.Final()
	if err != nil {
		return err
	}
	fmt.Fprintln(w, st.String())
	fmt.Fprintf(w, "result %s\n", g.Result)
	if t := g.Tag("Termination"); t != "" {
		fmt.Fprintf(w, "termination %s\n", t)
	}
	fmt.Fprint(w, Drawing(st))
	if g.Spec.Notation != nil {
		rec, err := g.Spec.FormatMoves(g.StartState(), g.Moves)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "record %s %s\n", rec, g.Result)
	}
	return nil
}

// WriteFinals writes where each game ends (WriteFinal), a blank line
// between games.
func WriteFinals(w io.Writer, games ...*GameRecord) error {
	for i, g := range games {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := g.WriteFinal(w); err != nil {
			return err
		}
	}
	return nil
}

// lineWidth is where the writer wraps move text.
const lineWidth = 79

// Form is a way of writing a record's move text.
type Form int

// The forms of move text.
const (
	// KGN is the game's own notation (docs/RECORDS.md): "1. 76 98 2. 56x".
	KGN Form = iota
	// PlayOK is the form of PlayOK's export: after a move that captured,
	// the mover's store in parentheses, and a tuzdyk's mark upper case:
	// "1. 76(10) 76(10) 2. 56X". Every reader reads it back.
	PlayOK
)

// Forms names the forms for a command's flag, in Form order.
var Forms = []string{"kgn", "playok"}

// ParseForm reads a form's name (Forms).
func ParseForm(name string) (Form, error) {
	for i, f := range Forms {
		if f == name {
			return Form(i), nil
		}
	}
	return 0, fmt.Errorf("env: record form %q: want %s", name, strings.Join(Forms, " or "))
}

// Text returns the record: its tags, a blank line, the moves in the game's
// notation wrapped at 79 columns, ending with the result. It fails on an
// illegal move, a result that a finished game contradicts, or a tag that
// can't be written (a name not letters, digits and _, or a value with a
// line break).
func (g *GameRecord) Text() (string, error) { return g.TextIn(KGN) }

// TextIn returns the record as Text does, its move text in form f.
func (g *GameRecord) TextIn(f Form) (string, error) {
	final, err := g.Final()
	if err != nil {
		return "", fmt.Errorf("env: record: %w", err)
	}
	if r := final.Result(); r != Ongoing && r != g.Result {
		return "", fmt.Errorf("env: record: result %s, but the game ended %s", g.Result, r)
	}
	var sb strings.Builder
	if err := g.writeTags(&sb); err != nil {
		return "", err
	}
	moves, err := g.Spec.FormatMoves(g.StartState(), g.Moves)
	if f == PlayOK {
		moves, err = playOKMoves(g.StartState(), g.Moves)
	}
	if err != nil {
		return "", fmt.Errorf("env: record: %w", err)
	}
	sb.WriteByte('\n')
	wrap(&sb, strings.Fields(moves+" "+g.Result.String()))
	return sb.String(), nil
}

// writeTags writes the roster, Result, Game, Position and the other tags.
func (g *GameRecord) writeTags(sb *strings.Builder) error {
	var tags []Tag
	for _, name := range Roster {
		v := g.Tag(name)
		if v == "" {
			v = "?"
		}
		tags = append(tags, Tag{name, v})
	}
	tags = append(tags, Tag{"Result", g.Result.String()}, Tag{"Game", g.Spec.Name})
	if p := g.Tag("Position"); p != "" {
		tags = append(tags, Tag{"Position", p})
	}
	for _, t := range g.Tags {
		if !isRoster(t.Name) && !fieldTag(t.Name) {
			tags = append(tags, t)
		}
	}
	for _, t := range tags {
		if err := writeTag(sb, t); err != nil {
			return err
		}
	}
	return nil
}

func isRoster(name string) bool {
	for _, r := range Roster {
		if r == name {
			return true
		}
	}
	return false
}

// writeTag writes one tag line, escaping " and \ in the value.
func writeTag(sb *strings.Builder, t Tag) error {
	if !tagName(t.Name) {
		return fmt.Errorf("env: record: tag name %q: want letters, digits and _, starting with a letter", t.Name)
	}
	if strings.ContainsAny(t.Value, "\r\n") {
		return fmt.Errorf("env: record: tag %s: value has a line break", t.Name)
	}
	v := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t.Value)
	fmt.Fprintf(sb, "[%s \"%s\"]\n", t.Name, v)
	return nil
}

// tagName reports whether s is a tag name: an ASCII letter, then letters,
// digits and underscores.
func tagName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_')) {
			return false
		}
	}
	return s != ""
}

// wrap writes the tokens separated by spaces, a line break before one that
// would pass lineWidth, and a final line break.
func wrap(sb *strings.Builder, toks []string) {
	n := 0
	for _, t := range toks {
		switch {
		case n == 0:
		case n+1+len(t) > lineWidth:
			sb.WriteByte('\n')
			n = 0
		default:
			sb.WriteByte(' ')
			n++
		}
		sb.WriteString(t)
		n += len(t)
	}
	sb.WriteByte('\n')
}

// WriteRecords writes the games to w, a blank line between two.
func WriteRecords(w io.Writer, games ...*GameRecord) error {
	return WriteRecordsIn(w, KGN, games...)
}

// WriteRecordsIn writes the games to w as WriteRecords does, their move
// text in form f.
func WriteRecordsIn(w io.Writer, f Form, games ...*GameRecord) error {
	for i, g := range games {
		text, err := g.TextIn(f)
		if err != nil {
			return err
		}
		if i > 0 {
			text = "\n" + text
		}
		if _, err := io.WriteString(w, text); err != nil {
			return fmt.Errorf("env: write record: %w", err)
		}
	}
	return nil
}

// ErrNoGame is wrapped by the reader's error for a record without a Game
// tag when no default game was given.
var ErrNoGame = errors.New("no Game tag")
