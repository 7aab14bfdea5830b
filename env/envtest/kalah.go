package envtest

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// KalahRules are the options of Kalah, the toy game for tests of searches,
// matches and self-play: small enough to solve exactly, with extra turns,
// stores (env.Scorer) and hashes (env.Hasher). It is not registered with
// env.
type KalahRules struct {
	Pits    int  // pits a side, 1..MaxKalahPits
	Seeds   int  // stones in each pit at the start, 1..10
	Capture bool // a last stone in an own empty pit takes the opposite pit's stones
	// MaxPly, when above 0, ends the game after that many plies; positions
	// then carry the ply number, so one position is never met at two
	// different depths of a search.
	MaxPly int
}

// MaxKalahPits is the most pits a side of a Kalah game.
const MaxKalahPits = 6

// The Kalah games the tests use.
var (
	// Kalah3 has 3 pits of 3 stones, captures and a 40-ply limit.
	Kalah3 = NewKalah("kalah3", KalahRules{Pits: 3, Seeds: 3, Capture: true, MaxPly: 40})
	// Kala3 is Kalah3 without captures and without a ply limit: small
	// enough for exact minimax.
	Kala3 = NewKalah("kala3", KalahRules{Pits: 3, Seeds: 3})
	// Kala6 is the mangala-sized Kala: 6 pits of 4 stones.
	Kala6 = NewKalah("kala6", KalahRules{Pits: 6, Seeds: 4})
)

// NewKalah returns the spec of a Kalah game named name. It panics on rules
// out of range.
//
// The rules: the mover sows the stones of one of their non-empty pits one
// per place, counter-clockwise from the next place: their own pits, their
// own store, the opponent's pits (never the opponent's store). A last stone
// in the own store gives another turn; with Capture, a last stone in an own
// empty pit whose opposite pit holds stones takes both into the store. When
// a side is empty, or MaxPly plies are played, each side's pit stones go to
// its own store and the larger store wins.
//
// Position strings have the form of env's, "3,3,3/3,3,3 0 0 - - w", with
// the ply number added at the end when MaxPly > 0 ("... - - w 0"). Parse
// accepts any stone total, so tests can write small endgames.
//
// Observe writes 2·Pits+3 features from the mover's view: the mover's pits,
// the opponent's pits, the mover's and the opponent's store (each divided
// by the stones at the start), and last 1 when White is to move, else 0
// (the tests' evaluators read it).
func NewKalah(name string, r KalahRules) *env.Spec {
	if r.Pits < 1 || r.Pits > MaxKalahPits || r.Seeds < 1 || r.Seeds > 10 || r.MaxPly < 0 || r.MaxPly > 1000 {
		panic(fmt.Sprintf("envtest: Kalah rules out of range: %+v", r))
	}
	spec := &env.Spec{
		Name: name, Title: name + " (test game)", Pits: r.Pits, NumActions: r.Pits,
		Stones: 2 * r.Pits * r.Seeds, ObsLen: 2*r.Pits + 3, ObsVersion: name + "/1",
	}
	spec.New = func() env.State {
		k := &Kalah{spec: spec, rules: r}
		for p := range k.pits {
			for i := range r.Pits {
				k.pits[p][i] = int8(r.Seeds)
			}
		}
		return k
	}
	spec.Parse = func(s string) (env.State, error) {
		k, err := ParseKalah(spec, s)
		if err != nil {
			return nil, err
		}
		return k, nil
	}
	return spec
}

// Kalah is a position of a Kalah game; copying is assignment, and Kalah
// values compare equal exactly when they are the same position.
type Kalah struct {
	spec  *env.Spec
	rules KalahRules
	pits  [2][MaxKalahPits]int8
	store [2]int8
	turn  env.Player
	ply   uint16 // plies played, counted only when MaxPly > 0
	over  bool
}

// Spec returns the game's spec.
func (k *Kalah) Spec() *env.Spec { return k.spec }

// ToMove returns the player to move.
func (k *Kalah) ToMove() env.Player { return k.turn }

// Store returns the stones in p's store.
func (k *Kalah) Store(p env.Player) int { return int(k.store[p]) }

// Ply returns the plies played (0 when the game has no ply limit).
func (k *Kalah) Ply() int { return int(k.ply) }

// CopyFrom copies src, a *Kalah of the same game.
func (k *Kalah) CopyFrom(src env.State) { *k = *src.(*Kalah) }

// Legal appends the mover's non-empty pits.
func (k *Kalah) Legal(dst []env.Action) []env.Action {
	if k.over {
		return dst
	}
	for i, n := range k.pits[k.turn][:k.rules.Pits] {
		if n > 0 {
			dst = append(dst, env.Action(i))
		}
	}
	return dst
}

// Apply plays a legal action; it panics on an illegal one.
func (k *Kalah) Apply(a env.Action) {
	n, me := k.rules.Pits, k.turn
	if k.over || int(a) >= n || k.pits[me][a] == 0 {
		panic(fmt.Sprintf("%s: illegal move %d in %s", k.spec.Name, a.Pit(), k))
	}
	stones := k.pits[me][a]
	k.pits[me][a] = 0
	pos := int(a) // places 0..n-1 own pits, n own store, n+1..2n opponent pits
	for ; stones > 0; stones-- {
		pos = (pos + 1) % (2*n + 1)
		switch {
		case pos < n:
			k.pits[me][pos]++
		case pos == n:
			k.store[me]++
		default:
			k.pits[me.Other()][pos-n-1]++
		}
	}
	if k.rules.Capture && pos < n && k.pits[me][pos] == 1 && k.pits[me.Other()][n-1-pos] > 0 {
		k.store[me] += 1 + k.pits[me.Other()][n-1-pos]
		k.pits[me][pos], k.pits[me.Other()][n-1-pos] = 0, 0
	}
	if k.rules.MaxPly > 0 {
		k.ply++
	}
	if pos != n {
		k.turn = me.Other()
	}
	k.end()
}

// end finishes the game when a side is empty or the plies run out.
func (k *Kalah) end() {
	limit := k.rules.MaxPly > 0 && int(k.ply) >= k.rules.MaxPly
	if !limit && k.side(env.White) > 0 && k.side(env.Black) > 0 {
		return
	}
	for p := range k.pits {
		for i := range k.pits[p] {
			k.store[p] += k.pits[p][i]
			k.pits[p][i] = 0
		}
	}
	k.over = true
}

func (k *Kalah) side(p env.Player) int {
	n := 0
	for _, v := range k.pits[p] {
		n += int(v)
	}
	return n
}

// Result returns the result once the game is over.
func (k *Kalah) Result() env.Result {
	switch {
	case !k.over:
		return env.Ongoing
	case k.store[env.White] > k.store[env.Black]:
		return env.WhiteWins
	case k.store[env.White] < k.store[env.Black]:
		return env.BlackWins
	}
	return env.Draw
}

// Observe writes the features described at NewKalah.
func (k *Kalah) Observe(dst []float32) {
	n, me := k.rules.Pits, k.turn
	scale := 1 / float32(k.spec.Stones)
	for i := range n {
		dst[i] = float32(k.pits[me][i]) * scale
		dst[n+i] = float32(k.pits[me.Other()][i]) * scale
	}
	dst[2*n] = float32(k.store[me]) * scale
	dst[2*n+1] = float32(k.store[me.Other()]) * scale
	dst[2*n+2] = float32(1 - me)
}

// Hash implements env.Hasher (FNV-1a over the position).
func (k *Kalah) Hash() uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for p := range k.pits {
		for _, v := range k.pits[p] {
			mix(uint64(uint8(v)))
		}
		mix(uint64(uint8(k.store[p])))
	}
	mix(uint64(k.turn))
	mix(uint64(k.ply))
	return h ^ h>>29
}

// String returns the position string, e.g. "3,3,3/3,3,3 0 0 - - w 0".
func (k *Kalah) String() string {
	var b strings.Builder
	for p := range 2 {
		if p == 1 {
			b.WriteByte('/')
		}
		for i := range k.rules.Pits {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(k.pits[p][i])))
		}
	}
	fmt.Fprintf(&b, " %d %d - - %s", k.store[0], k.store[1], k.turn)
	if k.rules.MaxPly > 0 {
		fmt.Fprintf(&b, " %d", k.ply)
	}
	return b.String()
}

// ParseKalah reads String's form for spec, a Kalah game's spec; a
// position with an empty side (or at the ply limit) is finished at once.
func ParseKalah(spec *env.Spec, s string) (*Kalah, error) {
	start, ok := spec.New().(*Kalah)
	if !ok {
		return nil, fmt.Errorf("envtest: %s is not a Kalah game", spec.Name)
	}
	r := start.rules
	fields := 6
	if r.MaxPly > 0 {
		fields = 7
	}
	f := strings.Fields(s)
	if len(f) != fields {
		return nil, fmt.Errorf("%s: %q: want %d fields", spec.Name, s, fields)
	}
	k := &Kalah{spec: spec, rules: r}
	rows := strings.Split(f[0], "/")
	if len(rows) != 2 {
		return nil, fmt.Errorf("%s: %q: want two rows", spec.Name, s)
	}
	for p, row := range rows {
		pits := strings.Split(row, ",")
		if len(pits) != r.Pits {
			return nil, fmt.Errorf("%s: %q: want %d pits a side", spec.Name, s, r.Pits)
		}
		for i, v := range pits {
			if err := parseInt8(&k.pits[p][i], v); err != nil {
				return nil, fmt.Errorf("%s: %q: pit: %w", spec.Name, s, err)
			}
		}
	}
	for p := range k.store {
		if err := parseInt8(&k.store[p], f[1+p]); err != nil {
			return nil, fmt.Errorf("%s: %q: store: %w", spec.Name, s, err)
		}
	}
	if f[3] != "-" || f[4] != "-" {
		return nil, fmt.Errorf("%s: %q: want - - for the specials", spec.Name, s)
	}
	switch f[5] {
	case "w":
	case "b":
		k.turn = env.Black
	default:
		return nil, fmt.Errorf("%s: %q: mover %q is not w or b", spec.Name, s, f[5])
	}
	if r.MaxPly > 0 {
		ply, err := strconv.Atoi(f[6])
		if err != nil || ply < 0 || ply > r.MaxPly {
			return nil, fmt.Errorf("%s: %q: ply %q out of range 0..%d", spec.Name, s, f[6], r.MaxPly)
		}
		k.ply = uint16(ply)
	}
	k.end()
	return k, nil
}

// parseInt8 reads a stone count 0..100 into *dst.
func parseInt8(dst *int8, s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 || v > 100 {
		return fmt.Errorf("bad count %q", s)
	}
	*dst = int8(v)
	return nil
}
