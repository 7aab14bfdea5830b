package kalah

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// String returns the position string of docs/RULES.md,
// "4,4,4,4,4,4/4,4,4,4,4,4 0 0 - - w" (Kalah has no special pits), with
// the ply number added as a seventh field when the rules limit the plies
// ("3,3,3/3,3,3 0 0 - - w 0").
func (b *Board) String() string {
	var sb strings.Builder
	for p := range 2 {
		if p == 1 {
			sb.WriteByte('/')
		}
		for i := range b.rules.Houses {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(strconv.Itoa(int(b.pits[p][i])))
		}
	}
	fmt.Fprintf(&sb, " %d %d - - %s", b.store[0], b.store[1], b.turn)
	if b.rules.MaxPly > 0 {
		fmt.Fprintf(&sb, " %d", b.ply)
	}
	return sb.String()
}

// Parse reads String's form for spec, a Kalah game's spec: env's checks
// (env.ParsePosition: six fields, the stones adding up to the game's),
// specials "-", and the ply 0..MaxPly as a seventh field when the rules
// limit the plies. A position with an empty side (or at the ply limit) is
// finished at once, each side's stones swept into its store.
func Parse(spec *env.Spec, s string) (*Board, error) { return parse(spec, s, false) }

// ParseAnyTotal is Parse for positions with any number of stones in play
// (fewer than the game's, or more): the tests' small endgames.
func ParseAnyTotal(spec *env.Spec, s string) (*Board, error) { return parse(spec, s, true) }

// parse is Parse, with any stone total when anyTotal.
func parse(spec *env.Spec, s string, anyTotal bool) (*Board, error) {
	start, ok := spec.New().(interface{ Rules() Rules })
	if !ok {
		return nil, fmt.Errorf("kalah: %s is not a Kalah game", spec.Name)
	}
	r := start.Rules()
	b := &Board{spec: spec, rules: r}
	if r.MaxPly > 0 {
		s = strings.TrimSpace(s)
		i := strings.LastIndexByte(s, ' ')
		if i < 0 {
			return nil, fmt.Errorf("ply: missing; want 7 fields separated by single spaces")
		}
		ply, err := strconv.Atoi(s[i+1:])
		if err != nil || ply < 0 || ply > r.MaxPly {
			return nil, fmt.Errorf("ply: %q is not a number 0..%d", s[i+1:], r.MaxPly)
		}
		b.ply, s = uint16(ply), s[:i]
	}
	total := spec.Stones
	if anyTotal {
		total = countStones(s)
	}
	pos, err := env.ParsePosition(s, r.Houses, total)
	if err != nil {
		return nil, err
	}
	for p := range 2 {
		if pos.Special[p] != 0 {
			return nil, fmt.Errorf("%s's special: kalah has no special pits; want -", env.Player(p).Name())
		}
		for i, v := range pos.Pits[p] {
			b.pits[p][i] = uint8(v)
		}
		b.store[p] = uint8(pos.Stores[p])
	}
	b.turn = pos.ToMove
	b.end()
	return b, nil
}

// countStones adds up the numbers of a position string's pits and stores,
// at most 2·MaxHouses·MaxSeeds; ParsePosition checks the rest.
func countStones(s string) int {
	f := strings.Fields(s)
	n := 0
	for i, v := range f {
		if i > 2 {
			break
		}
		for _, c := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '/' }) {
			if k, err := strconv.Atoi(c); err == nil && k > 0 {
				n += k
			}
		}
	}
	return min(n, 2*MaxHouses*MaxSeeds)
}
