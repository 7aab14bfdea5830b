package mangala

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// fieldNames names the six fields of a position string, in order.
var fieldNames = [...]string{"pits", "white store", "black store", "white's special", "black's special", "to move"}

// sideNames names the rows and players in messages.
var sideNames = [2]string{"white", "black"}

// Parse reads a position string of RULES.md:
//
//	<white pits 1..6>/<black pits 1..6> <white store> <black store> <white's special> <black's special> <to move>
//
// A special is the number of the opponent's pit that is the player's castle,
// or "-"; both are "-" in the classic game (kale false). Parse refuses a
// malformed string with an error that names the field.
func Parse(s string, kale bool) (*Board, error) {
	f := strings.Fields(s)
	if len(f) < len(fieldNames) {
		return nil, fmt.Errorf("%s: missing", fieldNames[len(f)])
	}
	if len(f) > len(fieldNames) {
		return nil, fmt.Errorf("too many fields: %d, want %d", len(f), len(fieldNames))
	}
	b := Board{kale: kale}
	if err := b.parsePits(f[0]); err != nil {
		return nil, err
	}
	for p := env.White; p <= env.Black; p++ {
		v, err := parseCount(f[1+p])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fieldNames[1+p], err)
		}
		b.stores[p] = uint8(v)
	}
	if err := b.checkTotal(); err != nil {
		return nil, err
	}
	for p := env.White; p <= env.Black; p++ {
		if err := b.parseSpecial(p, f[3+p]); err != nil {
			return nil, fmt.Errorf("%s: %w", fieldNames[3+p], err)
		}
	}
	switch f[5] {
	case "w":
		b.toMove = env.White
	case "b":
		b.toMove = env.Black
	default:
		return nil, fmt.Errorf("%s: %q, want w or b", fieldNames[5], f[5])
	}
	return &b, nil
}

// parsePits reads "<white pits>/<black pits>".
func (b *Board) parsePits(s string) error {
	rows := strings.Split(s, "/")
	if len(rows) != 2 {
		return fmt.Errorf("pits: %d rows, want white/black", len(rows))
	}
	for p, row := range rows {
		nums := strings.Split(row, ",")
		if len(nums) != PitsPerSide {
			return fmt.Errorf("%s pits: %d numbers, want %d", sideNames[p], len(nums), PitsPerSide)
		}
		for i, t := range nums {
			v, err := parseCount(t)
			if err != nil {
				return fmt.Errorf("%s pits: pit %d: %w", sideNames[p], i+1, err)
			}
			b.pits[p*PitsPerSide+i] = uint8(v)
		}
	}
	return nil
}

// checkTotal refuses a board whose stones do not add up to Stones.
func (b *Board) checkTotal() error {
	total := int(b.stores[0]) + int(b.stores[1])
	for _, v := range b.pits {
		total += int(v)
	}
	if total != Stones {
		return fmt.Errorf("stones: %d in all, want %d", total, Stones)
	}
	return nil
}

// parseSpecial reads player p's special: "-" or the opponent's pit that is
// p's castle (kale only, pits 1..5, empty).
func (b *Board) parseSpecial(p env.Player, s string) error {
	b.castle[p] = noCastle
	if s == "-" {
		return nil
	}
	if !b.kale {
		return fmt.Errorf("%q given, but mangala has no castles (want -)", s)
	}
	v, err := parseCount(s)
	switch {
	case err != nil:
		return err
	case v < 1 || v > PitsPerSide:
		return fmt.Errorf("pit %d out of range 1..%d", v, PitsPerSide)
	case v == PitsPerSide:
		return errors.New("a castle can't be on pit 6")
	case b.pits[int(p.Other())*PitsPerSide+v-1] != 0:
		return fmt.Errorf("castle on %s pit %d, which is not empty", sideNames[p.Other()], v)
	}
	b.castle[p] = int8(v - 1)
	return nil
}

// parseCount reads a stone count: decimal digits, at most Stones.
func parseCount(s string) (int, error) {
	if strings.HasPrefix(s, "-") && len(s) > 1 && isDigits(s[1:]) {
		return 0, fmt.Errorf("negative count %s", s)
	}
	if !isDigits(s) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	v, err := strconv.Atoi(s)
	if err != nil || v > Stones {
		return 0, fmt.Errorf("count %s is more than the %d stones in play", s, Stones)
	}
	return v, nil
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
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

// String returns the position string of RULES.md.
func (b *Board) String() string {
	var buf [64]byte
	out := buf[:0]
	for i, v := range b.pits {
		switch {
		case i == PitsPerSide:
			out = append(out, '/')
		case i > 0:
			out = append(out, ',')
		}
		out = strconv.AppendUint(out, uint64(v), 10)
	}
	for p := env.White; p <= env.Black; p++ {
		out = append(out, ' ')
		out = strconv.AppendUint(out, uint64(b.stores[p]), 10)
	}
	for p := env.White; p <= env.Black; p++ {
		out = append(out, ' ')
		if b.castle[p] == noCastle {
			out = append(out, '-')
		} else {
			out = strconv.AppendInt(out, int64(b.castle[p])+1, 10)
		}
	}
	out = append(out, ' ')
	out = append(out, b.toMove.String()...)
	return string(out)
}
