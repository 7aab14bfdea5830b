package env

import (
	"fmt"
	"strconv"
	"strings"
)

// Position is a position string of docs/RULES.md split into its fields:
//
//	<white pits 1..N>/<black pits 1..N> <white store> <black store> <white's special> <black's special> <to move>
//
// ParsePosition checks what every game shares; each game adds its own rules
// (which pits may be special, whether there are specials at all) and turns
// the Position into its board. String formats one back.
type Position struct {
	Pits    [2][]int // Pits[p][i] is the stones in player p's pit i+1
	Stores  [2]int   // each player's store (kazan)
	Special [2]int   // the opponent's pit (1..N) that is the player's tuzdyk or castle; 0 for "-"
	ToMove  Player
}

// fieldNames names the six fields of a position string, in order; every
// ParsePosition error starts with one of them.
var fieldNames = [...]string{"pits", "white store", "black store", "white's special", "black's special", "to move"}

// ParsePosition reads a position string for a game of pits pits a side and
// stones stones in play. Surrounding space is ignored; the fields are
// separated by single spaces. It refuses, with an error starting with the
// name of the field ("pits", "white store", "black store", "white's
// special", "black's special", "to move", or "pits and stores" for the
// total), a missing or extra field, a row of the wrong length, a count that
// is not decimal digits or is above stones, stones that do not add up to
// stones, a special that is not "-" or a pit 1..pits holding no stones, and
// a player to move other than w or b. It panics if pits < 1 or stones < 0.
func ParsePosition(s string, pits, stones int) (Position, error) {
	if pits < 1 || stones < 0 {
		panic(fmt.Sprintf("env: ParsePosition for %d pits and %d stones", pits, stones))
	}
	f, err := splitFields(s)
	if err != nil {
		return Position{}, err
	}
	row := make([]int, 2*pits)
	p := Position{Pits: [2][]int{row[:pits:pits], row[pits:]}}
	for i, v := range f {
		if err := p.parseField(i, v, stones); err != nil {
			return Position{}, fmt.Errorf("%s: %w", fieldNames[i], err)
		}
	}
	if t := p.total(); t != stones {
		return Position{}, fmt.Errorf("pits and stores: stones add up to %d, want %d", t, stones)
	}
	return p, nil
}

// splitFields cuts s, less surrounding space, at single spaces into the six
// fields, refusing a missing, empty or extra one.
func splitFields(s string) ([len(fieldNames)]string, error) {
	var f [len(fieldNames)]string
	rest := strings.TrimSpace(s)
	for i := range f {
		if rest == "" {
			return f, fmt.Errorf("%s: missing; want %d fields separated by single spaces", fieldNames[i], len(f))
		}
		f[i], rest, _ = strings.Cut(rest, " ")
		if f[i] == "" {
			return f, fmt.Errorf("%s: empty; fields are separated by single spaces", fieldNames[i])
		}
	}
	if rest != "" {
		return f, fmt.Errorf("%s: followed by more fields; want %d fields separated by single spaces", fieldNames[len(f)-1], len(f))
	}
	return f, nil
}

// parseField reads field i, s, of a position string for stones stones.
func (p *Position) parseField(i int, s string, stones int) error {
	switch i {
	case 0:
		return p.parsePits(s, stones)
	case 1, 2:
		return parseCount(&p.Stores[i-1], s, stones)
	case 3, 4:
		return p.parseSpecial(Player(i-3), s)
	}
	return p.parseToMove(s)
}

// parsePits reads "<white pits>/<black pits>" into p.Pits.
func (p *Position) parsePits(s string, stones int) error {
	white, black, ok := strings.Cut(s, "/")
	if !ok || strings.Contains(black, "/") {
		return fmt.Errorf("want white's pits and black's pits separated by one '/', got %q", s)
	}
	for pl, row := range [2]string{white, black} {
		pits := p.Pits[pl]
		if n := strings.Count(row, ",") + 1; n != len(pits) {
			return fmt.Errorf("%s has %d pits, want %d", Player(pl).Name(), n, len(pits))
		}
		for i := range pits {
			var num string
			num, row, _ = strings.Cut(row, ",")
			if err := parseCount(&pits[i], num, stones); err != nil {
				return fmt.Errorf("%s's pit %d: %w", Player(pl).Name(), i+1, err)
			}
		}
	}
	return nil
}

// parseSpecial reads player pl's special: "-" or the number of an empty pit
// of the other row. It runs after parsePits.
func (p *Position) parseSpecial(pl Player, s string) error {
	if s == "-" {
		return nil
	}
	n := len(p.Pits[pl])
	if !digits(s) {
		return fmt.Errorf("want - or a pit number: %w", notCount(s))
	}
	v, ok := value(s, n)
	if !ok || v < 1 {
		return fmt.Errorf("pit %s out of range 1..%d", s, n)
	}
	if c := p.Pits[pl.Other()][v-1]; c != 0 {
		return fmt.Errorf("%s's pit %d holds %d stones, want an empty pit", pl.Other().Name(), v, c)
	}
	p.Special[pl] = v
	return nil
}

func (p *Position) parseToMove(s string) error {
	switch s {
	case "w":
		p.ToMove = White
	case "b":
		p.ToMove = Black
	default:
		return fmt.Errorf("want w or b, got %q", s)
	}
	return nil
}

// total returns the stones in all pits and stores.
func (p *Position) total() int {
	t := p.Stores[White] + p.Stores[Black]
	for _, row := range p.Pits {
		for _, v := range row {
			t += v
		}
	}
	return t
}

// parseCount reads a stone count into *dst: decimal digits, at most max.
func parseCount(dst *int, s string, max int) error {
	if !digits(s) {
		return notCount(s)
	}
	v, ok := value(s, max)
	if !ok {
		return fmt.Errorf("count %s is more than %d", s, max)
	}
	*dst = v
	return nil
}

// notCount says why s, which is not all digits, is not a count.
func notCount(s string) error {
	if len(s) > 1 && s[0] == '-' && digits(s[1:]) {
		return fmt.Errorf("negative count %s", s)
	}
	return fmt.Errorf("not a number: %q", s)
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// value returns the number the digits s spell, or false if it is above max.
func value(s string, max int) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		d := int(s[i] - '0')
		if d > max || v > (max-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

// String returns the position string, e.g.
// "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w".
func (p Position) String() string {
	var buf [64]byte
	return string(p.Append(buf[:0]))
}

// Append appends the position string to dst and returns it.
func (p Position) Append(dst []byte) []byte {
	for pl, row := range p.Pits {
		if pl > 0 {
			dst = append(dst, '/')
		}
		for i, v := range row {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(v), 10)
		}
	}
	for _, v := range p.Stores {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, int64(v), 10)
	}
	for _, v := range p.Special {
		dst = append(dst, ' ')
		if v == 0 {
			dst = append(dst, '-')
		} else {
			dst = strconv.AppendInt(dst, int64(v), 10)
		}
	}
	dst = append(dst, ' ')
	return append(dst, p.ToMove.String()...)
}
