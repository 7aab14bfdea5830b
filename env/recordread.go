package env

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxRecordLine is the longest line a record file may have, in bytes.
const MaxRecordLine = 1 << 20

// RecordReader reads the games of a record file (docs/RECORDS.md) one at a
// time.
type RecordReader struct {
	sc      *bufio.Scanner
	def     *Spec
	start   State  // the start of a def record without a Position tag; nil: def.New()
	line    int    // lines read
	games   int    // games started
	held    string // a line read ahead: the next game's first
	holding bool
	comment bool // inside a {...} comment
	guessed bool // the game read has neither a Game nor a Position tag
}

// NewRecordReader returns a reader of the games in r; def is the game of a
// record without a Game tag (nil: such a record is an error).
func NewRecordReader(r io.Reader, def *Spec) *RecordReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxRecordLine)
	return &RecordReader{sc: sc, def: def}
}

// NewRecordReaderFrom returns a reader of the games in r whose default game
// is start's: a record of it without a Position tag starts at start.
func NewRecordReaderFrom(r io.Reader, start State) *RecordReader {
	rr := NewRecordReader(r, start.Spec())
	rr.start = Clone(start)
	return rr
}

// ReadRecords reads every game of r (see NewRecordReader); a text with no
// game is an error.
func ReadRecords(r io.Reader, def *Spec) ([]*GameRecord, error) {
	rr := NewRecordReader(r, def)
	var games []*GameRecord
	for {
		g, err := rr.Next()
		if errors.Is(err, io.EOF) {
			if len(games) == 0 {
				return nil, errors.New("env: record: no game found")
			}
			return games, nil
		}
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
}

// token is one word of move text and the line it is on.
type token struct {
	text string
	line int
}

// Next returns the next game, or io.EOF after the last. An error names the
// game (counting from 1), the line and, for a bad move, the move, e.g.
// "env: record game 2, line 14: togyz: move 4 (12x): no tuzdyk was made".
func (r *RecordReader) Next() (*GameRecord, error) {
	first, ok, err := r.skipBlank()
	if err != nil || !ok {
		return nil, err
	}
	r.games++
	g := &GameRecord{}
	resultTag, rest, more, err := r.readTags(g, first)
	if err != nil {
		return nil, err
	}
	toks, err := r.readMoves(rest, more)
	if err != nil {
		return nil, err
	}
	if err := r.playMoves(g, toks, resultTag); err != nil {
		if r.guessed {
			err = hintGame(err, g.Spec, toks)
		}
		return nil, err
	}
	return g, nil
}

// hintGame adds to err, the error of a record without a Game tag read as
// spec's, the games whose rules read its moves from their start.
func hintGame(err error, spec *Spec, toks []token) error {
	var fits []string
	for _, name := range Games() {
		other, lerr := Lookup(name)
		if lerr == nil && other != spec && readsAs(other, toks) {
			fits = append(fits, fmt.Sprintf("[Game %q]", name))
		}
	}
	if len(fits) == 0 {
		return err
	}
	return fmt.Errorf("%w (the record has no Game tag, so it was read as %s; its moves read as %s: add that tag)",
		err, spec.Name, strings.Join(fits, " or "))
}

// readsAs reports whether the tokens read as moves of spec from its start.
func readsAs(spec *Spec, toks []token) bool {
	m := newMoveReader(spec, spec.New())
	for _, t := range toks {
		if !isResult(t.text) && m.word(t.text) != nil {
			return false
		}
	}
	return m.end() == nil && len(m.moves) > 0
}

// errorf returns an error naming the current game and the line.
func (r *RecordReader) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("env: record game %d, line %d: %w", r.games, line, fmt.Errorf(format, args...))
}

// next returns the next line, the held one first; ok is false at the end.
func (r *RecordReader) next() (string, bool, error) {
	if r.holding {
		r.holding = false
		return r.held, true, nil
	}
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return "", false, fmt.Errorf("env: record line %d: longer than %d bytes", r.line+1, MaxRecordLine)
			}
			return "", false, fmt.Errorf("env: read record: %w", err)
		}
		return "", false, nil
	}
	r.line++
	return r.sc.Text(), true, nil
}

// hold gives the line back, for the next game.
func (r *RecordReader) hold(line string) { r.held, r.holding = line, true }

// skipBlank returns the first line that is not blank nor an escape (%).
func (r *RecordReader) skipBlank() (string, bool, error) {
	for {
		line, ok, err := r.next()
		if err != nil || !ok {
			if err == nil {
				err = io.EOF
			}
			return "", false, err
		}
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(line, "%") {
			return line, true, nil
		}
	}
}

// readTags reads the tag lines starting at first into g, sets its game and
// start, and returns the Result tag ("" if none) and the first line after
// the tags (more is false at the end).
func (r *RecordReader) readTags(g *GameRecord, first string) (result, rest string, more bool, err error) {
	line, ok := first, true
	var game, pos string
	gameLine, posLine := 0, 0
	seen := map[string]bool{}
	for ok && strings.HasPrefix(strings.TrimSpace(line), "[") {
		t, err := parseTag(line)
		if err != nil {
			return "", "", false, r.errorf(r.line, "%v", err)
		}
		if seen[t.Name] {
			return "", "", false, r.errorf(r.line, "tag %s given twice", t.Name)
		}
		seen[t.Name] = true
		switch t.Name {
		case "Result":
			result = t.Value
			if !isResult(t.Value) {
				return "", "", false, r.errorf(r.line, "tag Result: %s", badResult(t.Value))
			}
		case "Game":
			game, gameLine = t.Value, r.line
		case "Position":
			pos, posLine = t.Value, r.line
		default:
			g.Tags = append(g.Tags, t)
		}
		if line, ok, err = r.next(); err != nil {
			return "", "", false, err
		}
	}
	r.guessed = game == "" && pos == ""
	if err := r.setGame(g, game, gameLine, pos, posLine); err != nil {
		return "", "", false, err
	}
	return result, line, ok, nil
}

// setGame sets g's game (the default when game is "") and start position.
func (r *RecordReader) setGame(g *GameRecord, game string, gameLine int, pos string, posLine int) error {
	switch {
	case game != "":
		spec, err := Lookup(game)
		if err != nil {
			return r.errorf(gameLine, "tag Game: %w", err)
		}
		g.Spec = spec
	case r.def != nil:
		g.Spec = r.def
	default:
		return r.errorf(r.line, "%w (want one such as [Game \"togyz\"])", ErrNoGame)
	}
	if pos == "" {
		if r.start != nil && g.Spec == r.def {
			g.Start = Clone(r.start)
		}
		return nil
	}
	st, err := g.Spec.Start(pos)
	if err != nil {
		return r.errorf(posLine, "tag Position: %w", err)
	}
	g.Start = st
	return nil
}

// parseTag reads a line [Name "Value"].
func parseTag(line string) (Tag, error) {
	s := strings.TrimSpace(line)
	inner, ok := strings.CutSuffix(strings.TrimPrefix(s, "["), "]")
	name, quoted, ok2 := strings.Cut(inner, " ")
	quoted = strings.TrimSpace(quoted)
	if !ok || !ok2 || len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
		return Tag{}, fmt.Errorf("want a tag [Name \"value\"], got %q", s)
	}
	if !tagName(name) {
		return Tag{}, fmt.Errorf("tag name %q: want letters, digits and _, starting with a letter", name)
	}
	value, err := unquote(quoted[1 : len(quoted)-1])
	if err != nil {
		return Tag{}, fmt.Errorf("tag %s: %w", name, err)
	}
	return Tag{name, value}, nil
}

// unquote undoes the \" and \\ escapes of a tag value.
func unquote(s string) (string, error) {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			i++
			c = s[i]
		case c == '\\':
			return "", errors.New(`a backslash must be followed by " or \`)
		case c == '"':
			return "", errors.New(`a quote inside the value must be written \"`)
		}
		sb.WriteByte(c)
	}
	return sb.String(), nil
}

// readMoves collects the move text from first on (none when ok is false):
// up to a result token, a blank line after some moves, the next game's
// tags, or the end.
func (r *RecordReader) readMoves(first string, ok bool) ([]token, error) {
	var toks []token
	line, lineNo := first, r.line
	for ok {
		if !r.comment && strings.HasPrefix(strings.TrimSpace(line), "[") {
			r.hold(line)
			return toks, nil
		}
		if strings.TrimSpace(line) == "" && !r.comment && len(toks) > 0 {
			return toks, nil
		}
		if !strings.HasPrefix(line, "%") {
			words := r.words(line)
			for i, w := range words {
				toks = append(toks, token{w, lineNo})
				if isResult(w) {
					if i != len(words)-1 {
						return nil, r.errorf(lineNo, "%q after the result %s", words[i+1], w)
					}
					return toks, r.endComment()
				}
			}
		}
		var err error
		if line, ok, err = r.next(); err != nil {
			return nil, err
		}
		lineNo = r.line
	}
	return toks, r.endComment()
}

// endComment refuses a {...} comment left open at the end of a game.
func (r *RecordReader) endComment() error {
	if r.comment {
		r.comment = false
		return r.errorf(r.line, "a { comment is not closed by }")
	}
	return nil
}

// words splits a line of move text into tokens, leaving out {...}
// comments (which may span lines) and a ; comment to the end of the line.
func (r *RecordReader) words(line string) []string {
	var sb strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case r.comment:
			r.comment = c != '}'
			if !r.comment {
				sb.WriteByte(' ')
			}
			continue
		case c == '{':
			r.comment = true
			continue
		case c == ';':
			return strings.Fields(sb.String())
		}
		sb.WriteByte(c)
	}
	return strings.Fields(sb.String())
}

// playMoves reads the tokens as moves from g's start into g, checking the
// result token against the Result tag and against a finished game, and
// marks a game that ended off the board (MarkOffBoard).
func (r *RecordReader) playMoves(g *GameRecord, toks []token, resultTag string) error {
	m := newMoveReader(g.Spec, g.StartState())
	result := resultTag
	line := r.line
	for _, t := range toks {
		line = t.line
		if isResult(t.text) {
			if resultTag != "" && t.text != resultTag {
				return r.errorf(t.line, "result %s, but the Result tag says %s", t.text, resultTag)
			}
			result = t.text
			continue
		}
		if err := m.word(t.text); err != nil {
			return r.errorf(t.line, "%w", err)
		}
	}
	if err := m.end(); err != nil {
		return r.errorf(line, "%w", err)
	}
	g.Moves = m.moves
	if result == "" {
		result = m.st.Result().String()
	}
	if err := checkResult(m.st, result, true); err != nil {
		return r.errorf(line, "%w", err)
	}
	g.Result, _ = ParseResult(result)
	g.MarkOffBoard(m.st)
	return nil
}

// MarkOffBoard gives g the Termination tag OffBoard when its moves, which
// reach final, stop before the game's end under a result other than *,
// unless g has a Termination tag. A game without moves is left alone: it
// never started (a forfeit), or it is no game at all.
func (g *GameRecord) MarkOffBoard(final State) {
	if g.Result != Ongoing && len(g.Moves) > 0 && final.Result() == Ongoing && g.Tag("Termination") == "" {
		g.SetTag("Termination", OffBoard)
	}
}

// OffBoard is the Termination tag the reader gives a game whose moves stop
// before the game's end under a result other than *: a resignation, a
// loss on time or a draw agreed, which such a record (PlayOK's export)
// does not tell apart, so none of PGN's own values fits.
const OffBoard = "resignation, time or agreement: the moves stop before the game's end"
