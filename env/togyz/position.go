package togyz

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// ObsLen is the length of Observe's output; ObsVersion names the encoding
// (doc.go describes it feature by feature).
const (
	ObsLen     = 116
	ObsVersion = "togyz/1"
)

// Spec is the togyz game, registered as "togyz".
var Spec = &env.Spec{
	Name:       "togyz",
	Title:      "Togyz Kumalak",
	Pits:       PitsPerSide,
	NumActions: PitsPerSide,
	Stones:     Stones,
	ObsLen:     ObsLen,
	ObsVersion: ObsVersion,
	New:        func() env.State { return New() },
	Parse:      parseState,
	Notation:   record,
}

func init() { env.Register(Spec) }

// record is Spec.Notation: FormatRecord for a togyz start position.
func record(start env.State, moves []env.Action) (string, error) {
	b, ok := start.(*Board)
	if !ok {
		return "", fmt.Errorf("togyz: notation of a %T", start)
	}
	return FormatRecord(b, moves)
}

// parseState is Parse for Spec: it returns a nil State on error, not a
// State holding a nil *Board.
func parseState(s string) (env.State, error) {
	b, err := Parse(s)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// String returns the position string of RULES.md, e.g.
// "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w".
func (b *Board) String() string {
	var sb strings.Builder
	sb.Grow(64)
	for i, v := range b.pits {
		switch i {
		case 0:
		case PitsPerSide:
			sb.WriteByte('/')
		default:
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(int(v)))
	}
	fmt.Fprintf(&sb, " %d %d %s %s %s", b.kazan[0], b.kazan[1],
		special(b.Tuzdyk(env.White)), special(b.Tuzdyk(env.Black)), b.turn)
	return sb.String()
}

func special(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// fieldNames names the six fields of a position string, for errors.
var fieldNames = [6]string{"pits", "white store", "black store", "white's special", "black's special", "to move"}

// Parse reads a position string. It refuses, with an error naming the
// field, a missing or malformed field, a count that is negative or above
// 162, stones that do not add up to 162, a tuzdyk on pit 9 or on a pit that
// is not empty, and two tuzdyks with the same number. Terminal positions
// (a kazan of 82 or more, an empty row to move) are accepted.
func Parse(s string) (*Board, error) {
	f := strings.Split(strings.TrimSpace(s), " ")
	if len(f) != len(fieldNames) {
		return nil, fmt.Errorf("want %d fields separated by single spaces (pits, stores, specials, to move), got %d", len(fieldNames), len(f))
	}
	b := Board{tuz: [2]int8{-1, -1}}
	steps := []func(string) error{b.parsePits, b.store(env.White), b.store(env.Black),
		b.parseSpecial(env.White), b.parseSpecial(env.Black), b.parseTurn}
	for i, step := range steps {
		if err := step(f[i]); err != nil {
			return nil, fmt.Errorf("%s: %w", fieldNames[i], err)
		}
	}
	if err := b.checkTotal(); err != nil {
		return nil, err
	}
	return &b, nil
}

func (b *Board) parsePits(s string) error {
	rows := strings.Split(s, "/")
	if len(rows) != 2 {
		return fmt.Errorf("want white's pits and black's pits separated by one '/', got %q", s)
	}
	for p, row := range rows {
		who := env.Player(p)
		nums := strings.Split(row, ",")
		if len(nums) != PitsPerSide {
			return fmt.Errorf("%s has %d pits, want %d", name(who), len(nums), PitsPerSide)
		}
		for i, t := range nums {
			v, err := count(t)
			if err != nil {
				return fmt.Errorf("%s's pit %d: %w", name(who), i+1, err)
			}
			b.pits[p*PitsPerSide+i] = uint8(v)
		}
	}
	return nil
}

func (b *Board) store(p env.Player) func(string) error {
	return func(s string) error {
		v, err := count(s)
		b.kazan[p] = uint8(v)
		return err
	}
}

// parseSpecial reads p's tuzdyk: "-" or the number of an empty pit of the
// other row, not 9 and not the number of the other's tuzdyk (read first when
// p is black).
func (b *Board) parseSpecial(p env.Player) func(string) error {
	return func(s string) error {
		if s == "-" {
			return nil
		}
		n, err := count(s)
		switch {
		case err != nil:
			return fmt.Errorf("want - or a pit number: %w", err)
		case n < 1 || n > PitsPerSide:
			return fmt.Errorf("pit %d out of range 1..%d", n, PitsPerSide)
		case n == PitsPerSide:
			return fmt.Errorf("pit %d can't be a tuzdyk", n)
		case p == env.Black && b.Tuzdyk(env.White) == n:
			return fmt.Errorf("both tuzdyks are pit %d", n)
		}
		c := int(p.Other())*PitsPerSide + n - 1
		if v := b.pits[c]; v != 0 {
			return fmt.Errorf("%s's pit %d holds %d stones, a tuzdyk holds none", name(p.Other()), n, v)
		}
		b.tuz[p] = int8(c)
		return nil
	}
}

func (b *Board) parseTurn(s string) error {
	switch s {
	case "w":
		b.turn = env.White
	case "b":
		b.turn = env.Black
	default:
		return fmt.Errorf("want w or b, got %q", s)
	}
	return nil
}

func (b *Board) checkTotal() error {
	t := int(b.kazan[0]) + int(b.kazan[1])
	for _, v := range b.pits {
		t += int(v)
	}
	if t != Stones {
		return fmt.Errorf("pits and stores: stones add up to %d, want %d", t, Stones)
	}
	return nil
}

// count reads a stone count: decimal digits, at most 162.
func count(s string) (int, error) {
	if len(s) > 1 && s[0] == '-' && digits(s[1:]) {
		return 0, fmt.Errorf("negative count %s", s)
	}
	if !digits(s) {
		return 0, fmt.Errorf("not a number: %q", s)
	}
	v := 0
	for i := 0; i < len(s); i++ {
		if v = v*10 + int(s[i]-'0'); v > Stones {
			return 0, fmt.Errorf("count %s is more than %d", s, Stones)
		}
	}
	return v, nil
}

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

func name(p env.Player) string {
	if p == env.White {
		return "white"
	}
	return "black"
}
