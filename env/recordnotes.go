package env

import (
	"errors"
	"fmt"
	"strings"
)

// notes are what other programs write after a move token, which the
// readers check against the replay (docs/RECORDS.md#notes-after-a-move):
//
//	76(10)  the mover's store holds 10 after the move (PlayOK's export)
//	76+10   the move captured 10 stones (the page's move list)
//	4↻      the mover moves again (the page's move list)
//
// A note only adds a check: without it the move reads as before.
type notes struct {
	store    int  // "(N)": the mover's store after the move; -1 when not given
	captured int  // "+N": the stones the move took from the opponent; -1 when not given
	again    bool // "↻": the mover moves again
}

// againMark is the note of a move after which its mover moves again.
const againMark = "↻"

// maxNote bounds the number of a note: no game has more stones.
const maxNote = 9999

// cutNotes splits a move token into the move and its notes, each given at
// most once, in any order: "92(41)" is "92" with store 41, "4+3↻" is "4"
// with captured 3 and again. It refuses a malformed note, and notes
// without a move before them.
func cutNotes(tok string) (string, notes, error) {
	n := notes{store: -1, captured: -1}
	i := strings.IndexAny(tok, "(+"+againMark)
	if i < 0 {
		return tok, n, nil
	}
	if i == 0 {
		return "", n, errors.New("want a move before its notes")
	}
	move, rest := tok[:i], tok[i:]
	for rest != "" {
		var err error
		if rest, err = n.cut(rest); err != nil {
			return "", n, err
		}
	}
	return move, n, nil
}

// cut reads the note that rest starts with into n and returns what follows.
func (n *notes) cut(rest string) (string, error) {
	switch {
	case rest[0] == '(' && n.store < 0:
		num, after, ok := strings.Cut(rest[1:], ")")
		v, okNum := noteNumber(num)
		if !ok || !okNum {
			return "", errors.New("want the mover's store after the move as (N), e.g. 76(10)")
		}
		n.store = v
		return after, nil
	case rest[0] == '+' && n.captured < 0:
		end := 1
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		v, ok := noteNumber(rest[1:end])
		if !ok {
			return "", errors.New("want the stones captured as +N, e.g. 76+10")
		}
		n.captured = v
		return rest[end:], nil
	case strings.HasPrefix(rest, againMark) && !n.again:
		n.again = true
		return rest[len(againMark):], nil
	}
	return "", fmt.Errorf("unexpected %q after the move (notes: (N) the store after it, +N the stones captured, %s moves again, each once)", rest, againMark)
}

// noteNumber reads the number of a note: decimal digits, no leading zero.
func noteNumber(s string) (int, bool) {
	if !digits(s) || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	return value(s, maxNote)
}

// none reports whether n holds no note.
func (n notes) none() bool { return n.store < 0 && n.captured < 0 && !n.again }

// check compares the notes of move a, played from before to after, with
// what the move did; the store and the capture are counted as the page's
// move list counts them (the stores of the position strings; a capture is
// the store's gain less the stones sown straight into it, SownHome).
func (n notes) check(before, after State, a Action) error {
	if n.none() {
		return nil
	}
	spec := before.Spec()
	b, err1 := ParsePosition(before.String(), spec.Pits, spec.Stones)
	f, err2 := ParsePosition(after.String(), spec.Pits, spec.Stones)
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("can't check its notes: %w", err)
	}
	me := before.ToMove()
	words := WordsOf(before)
	if n.store >= 0 && f.Stores[me] != n.store {
		return fmt.Errorf("%s's %s holds %d after it, but the record says %d", me.Name(), words.Store, f.Stores[me], n.store)
	}
	if took := max(0, f.Stores[me]-b.Stores[me]-SownHome(before, a)); n.captured >= 0 && took != n.captured {
		return fmt.Errorf("it captured %d, but the record says %d", took, n.captured)
	}
	if n.again && (after.Result() != Ongoing || after.ToMove() != me) {
		return fmt.Errorf("%s does not move again after it, but the record says so (%s)", me.Name(), againMark)
	}
	return nil
}

// moveReader reads the words of a record's move text, in order, from a
// start: it skips move numbers, checks a side label ("white", "black", as
// the page's move list writes before a move) against the next mover, and
// reads each move with the game's ReadMove, checking its notes.
type moveReader struct {
	spec  *Spec
	read  func(State, string) (Action, error)
	st    State
	moves []Action
	label string // a side label waiting for its move
}

func newMoveReader(spec *Spec, start State) *moveReader {
	read := spec.ReadMove
	if read == nil {
		read = ReadPit
	}
	return &moveReader{spec: spec, read: read, st: start}
}

// word reads one word of move text that is not a result. An error names
// the move, counting from 1 in the order played, e.g.
// "togyz: move 4 (12x): no tuzdyk was made".
func (m *moveReader) word(tok string) error {
	if IsMoveNumber(tok) {
		return nil
	}
	if side := strings.ToLower(tok); side == White.Name() || side == Black.Name() {
		if m.label != "" {
			return fmt.Errorf("%s: %s, then %s, without a move between", m.spec.Name, m.label, tok)
		}
		m.label = side
		return nil
	}
	a, err := m.play(tok)
	if err != nil {
		return fmt.Errorf("%s: move %d (%s): %w", m.spec.Name, len(m.moves)+1, tok, err)
	}
	m.moves = append(m.moves, a)
	return nil
}

// play reads one move token with its notes and plays it, leaving st
// unchanged on error.
func (m *moveReader) play(tok string) (Action, error) {
	move, nt, err := cutNotes(tok)
	if err != nil {
		return 0, err
	}
	mover := m.st.ToMove()
	if label := m.label; label != "" {
		m.label = ""
		if label != mover.Name() && m.st.Result() == Ongoing {
			return 0, fmt.Errorf("the record says %s moves, but it is %s's turn", label, mover.Name())
		}
	}
	var before State
	if !nt.none() {
		before = Clone(m.st)
	}
	a, err := m.read(m.st, move)
	if err != nil {
		return 0, err
	}
	if err := nt.check(before, m.st, a); err != nil {
		m.st.CopyFrom(before)
		return 0, err
	}
	return a, nil
}

// end refuses a side label left without its move.
func (m *moveReader) end() error {
	if m.label != "" {
		return fmt.Errorf("%s: %s without a move after it", m.spec.Name, m.label)
	}
	return nil
}

// playOKMoves writes moves played from start in PlayOK's form (Form
// PlayOK): the game's notation, its marks upper case, and after a move
// that captured the mover's store in parentheses. As in PlayOK's export,
// a move that makes a tuzdyk (or castle) takes its stones without the
// note.
func playOKMoves(start State, moves []Action) (string, error) {
	noted, err := start.Spec().NoteMoves(start, moves)
	if err != nil {
		return "", err
	}
	spec := start.Spec()
	st := Clone(start)
	toks := make([]string, 0, 2*len(moves))
	for i, a := range moves {
		b, err1 := ParsePosition(st.String(), spec.Pits, spec.Stones)
		me, home := st.ToMove(), SownHome(st, a)
		st.Apply(a)
		f, err2 := ParsePosition(st.String(), spec.Pits, spec.Stones)
		if err := errors.Join(err1, err2); err != nil {
			return "", err
		}
		tok := strings.ToUpper(noted[i].Text)
		special := b.Special[me] == 0 && f.Special[me] != 0
		if f.Stores[me]-b.Stores[me]-home > 0 && !special {
			tok += fmt.Sprintf("(%d)", f.Stores[me])
		}
		if noted[i].Number != "" {
			toks = append(toks, noted[i].Number)
		}
		toks = append(toks, tok)
	}
	return strings.Join(toks, " "), nil
}
