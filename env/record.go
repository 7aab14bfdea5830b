package env

import (
	"errors"
	"fmt"
	"strings"
)

// ParseMoves reads a record of moves played from start (which it does not
// change) and returns them. Tokens are separated by spaces; move numbers
// ("1.", "1...", the page's "…") are skipped, and a result ("1-0", "0-1",
// "1/2-1/2", "*") may end the record, agreeing with a finished game (an
// unfinished one may end with any result: a resignation or an
// adjudication). Each other token is one move, read by s.ReadMove (a pit
// number when nil), with the notes other programs write after it checked
// against the replay ("76(10)", "76+10", "4↻"; docs/RECORDS.md); a side
// label ("white", "black") before a move is checked against its mover. An
// error names the move, counting from 1 in the order played, e.g.
// "togyz: move 4 (12x): no tuzdyk was made".
func (s *Spec) ParseMoves(start State, rec string) ([]Action, error) {
	m := newMoveReader(s, Clone(start))
	toks := strings.Fields(rec)
	for i, tok := range toks {
		if isResult(tok) {
			if err := checkResult(m.st, tok, i == len(toks)-1); err != nil {
				return nil, fmt.Errorf("%s: record: %w", s.Name, err)
			}
			continue
		}
		if err := m.word(tok); err != nil {
			return nil, err
		}
	}
	if err := m.end(); err != nil {
		return nil, err
	}
	return m.moves, nil
}

// ReadPit reads a move written as a pit number ("5": one or two digits,
// no leading zero) and plays it on st through the checked door
// (CheckMove), leaving st unchanged on error.
func ReadPit(st State, tok string) (Action, error) {
	if !digits(tok) || len(tok) > 2 || len(tok) == 2 && tok[0] == '0' {
		return 0, errors.New("want a pit number")
	}
	pit, _ := value(tok, 99)
	a, err := CheckMove(st, pit)
	if err != nil {
		return 0, err
	}
	st.Apply(a)
	return a, nil
}

// IsMoveNumber reports whether tok is a move number of a record, such as
// "12." or "3...", or the page's "…" before a first move that is black's
// ("…", "3…").
func IsMoveNumber(tok string) bool {
	if num, ok := strings.CutSuffix(tok, "…"); ok {
		return num == "" || digits(num)
	}
	num := strings.TrimRight(tok, ".")
	return len(num) < len(tok) && digits(num)
}

func isResult(tok string) bool {
	_, ok := lookupResult(tok)
	return ok
}

// checkResult accepts a result token that ends the record and agrees with
// st if the game there is over.
func checkResult(st State, tok string, last bool) error {
	if !last {
		return fmt.Errorf("result %s before the last move", tok)
	}
	got := st.Result()
	if got != Ongoing && tok != got.String() {
		return fmt.Errorf("result %s, but the game ended %s", tok, got)
	}
	return nil
}
