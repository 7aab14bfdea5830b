package togyz

import (
	"errors"
	"fmt"
	"strings"

	"kumalak/env"
)

// Note is one move in the standard togyz notation: the pit played, the pit
// (1..9, on whichever row) that received the last stone, and whether the
// move made a tuzdyk. A last stone sown into a tuzdyk goes to the kazan,
// but Land is still that pit's number.
type Note struct {
	Pit    int8 // pit played, 1..9
	Land   int8 // pit of the last stone, 1..9
	Tuzdyk bool // the move made a tuzdyk
}

// String writes the note as in records: "76", or "36x" for a tuzdyk.
func (n Note) String() string {
	s := string([]byte{byte('0' + n.Pit), byte('0' + n.Land)})
	if n.Tuzdyk {
		s += "x"
	}
	return s
}

// ApplyNoted plays a legal action, like Apply, and returns its note.
func (b *Board) ApplyNoted(a env.Action) Note {
	if err := b.Check(a); err != nil {
		panic(fmt.Sprintf("togyz: ApplyNoted(pit %d) in %s: %v", a.Pit(), b.String(), err))
	}
	last, made := b.sow(int(b.turn)*PitsPerSide + int(a))
	b.finish()
	return Note{Pit: int8(a.Pit()), Land: int8(last%PitsPerSide + 1), Tuzdyk: made}
}

// FormatRecord writes moves played from start (which it does not change) in
// numbered pairs: "1. 21 65 2. 34 22x". A record starting with black to
// move begins "1... 98". It fails on an illegal move.
func FormatRecord(start *Board, moves []env.Action) (string, error) {
	b := *start
	var sb strings.Builder
	for i, a := range moves {
		if _, err := env.CheckMove(&b, a.Pit()); err != nil {
			return "", fmt.Errorf("togyz: move %d (pit %d): %w", i+1, a.Pit(), err)
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		num := moveNumber(start.turn, i)
		switch {
		case b.turn == env.White:
			fmt.Fprintf(&sb, "%d. ", num)
		case i == 0:
			fmt.Fprintf(&sb, "%d... ", num)
		}
		sb.WriteString(b.ApplyNoted(a).String())
	}
	return sb.String(), nil
}

// moveNumber returns the pair number of the i-th move (0-based) of a record
// whose first mover is first.
func moveNumber(first env.Player, i int) int {
	return (i+int(first))/2 + 1
}

// ParseRecord reads a record written from start (which it does not change)
// and returns its moves (env.Spec.ParseMoves with readMove). Move numbers
// ("1.", "1...") are skipped, and a result ("1-0", "0-1", "1/2-1/2", "*")
// may end the record. Each move is a pit ("7"), or a pit and the landing pit
// ("76"), optionally with "x" for a tuzdyk ("36x"); landing pit and x must
// agree with the move, or the error says, for example, "move 7 (36x): last
// stone fell in pit 5". Moves count from 1 in the order played.
func ParseRecord(start *Board, rec string) ([]env.Action, error) {
	return Spec.ParseMoves(start, rec)
}

// readMove is Spec.ReadMove: one token of the togyz notation.
func readMove(st env.State, tok string) (env.Action, error) {
	b, ok := st.(*Board)
	if !ok {
		return 0, fmt.Errorf("not a togyz position: %T", st)
	}
	before := *b
	a, err := playToken(b, tok)
	if err != nil {
		*b = before
	}
	return a, err
}

// playToken plays one move token on b, checking its landing pit and mark.
func playToken(b *Board, tok string) (env.Action, error) {
	body, mark := strings.CutSuffix(strings.ToLower(tok), "x")
	if len(body) < 1 || len(body) > 2 || strings.Trim(body, "0123456789") != "" || (mark && len(body) != 2) {
		return 0, errors.New("want a pit 1..9, optionally followed by the landing pit and x")
	}
	a, err := env.CheckMove(b, int(body[0]-'0'))
	if err != nil {
		return 0, err
	}
	n := b.ApplyNoted(a)
	if len(body) == 1 {
		return a, nil
	}
	switch land := int8(body[1] - '0'); {
	case land != n.Land:
		return 0, fmt.Errorf("last stone fell in pit %d", n.Land)
	case mark && !n.Tuzdyk:
		return 0, errors.New("no tuzdyk was made")
	case !mark && n.Tuzdyk:
		return 0, fmt.Errorf("it made a tuzdyk: write %s", n)
	}
	return a, nil
}
