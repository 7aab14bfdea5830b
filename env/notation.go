package env

import (
	"fmt"
	"strings"
)

// NotedMove is one move as a record writes it: Text is its token in the
// game's notation (togyz's "36x", a mangala's "4"), Number the move number
// written before it ("3." before white's move of pair 3, "1..." before a
// record's first move when black's), "" where the record writes none.
type NotedMove struct {
	Number string
	Text   string
}

// NoteMoves writes moves played from start (which it does not change) in
// the game's notation, one entry a move: FormatMoves's text split into its
// moves. It is the one place that text is split again.
func (s *Spec) NoteMoves(start State, moves []Action) ([]NotedMove, error) {
	rec, err := s.FormatMoves(start, moves)
	if err != nil {
		return nil, err
	}
	noted := make([]NotedMove, 0, len(moves))
	num := ""
	for _, tok := range strings.Fields(rec) {
		if IsMoveNumber(tok) {
			num = tok
			continue
		}
		noted = append(noted, NotedMove{Number: num, Text: tok})
		num = ""
	}
	if len(noted) != len(moves) {
		return nil, fmt.Errorf("%s: notation wrote %d moves for %d", s.Name, len(noted), len(moves))
	}
	return noted, nil
}

// MoveText writes moves played from start in the game's notation without
// move numbers, separated by spaces: togyz's "76 98 22x", a mangala's
// "4 3 1".
func (s *Spec) MoveText(start State, moves []Action) (string, error) {
	noted, err := s.NoteMoves(start, moves)
	if err != nil {
		return "", err
	}
	toks := make([]string, len(noted))
	for i, m := range noted {
		toks[i] = m.Text
	}
	return strings.Join(toks, " "), nil
}

// IsMoveToken reports whether tok reads as a word of move text of any game
// rather than, say, a file name: a move (digits, with togyz's "x" for a
// tuzdyk, and the notes other programs write after it: "76(10)", "76+10",
// "4↻"), a move number ("12.", "3...") or a result ("1-0", "*").
func IsMoveToken(tok string) bool {
	if tok == "" {
		return false
	}
	if isResult(tok) || IsMoveNumber(tok) {
		return true
	}
	move, _, err := cutNotes(tok)
	return err == nil && digits(strings.TrimSuffix(strings.ToLower(move), "x"))
}
