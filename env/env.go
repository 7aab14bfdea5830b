package env

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Player is one side of the board. White moves first.
type Player int8

// The two players.
const (
	White Player = 0
	Black Player = 1
)

// Other returns the opponent of p.
func (p Player) Other() Player { return 1 - p }

// String returns "w" or "b", as in position strings.
func (p Player) String() string {
	if p == White {
		return "w"
	}
	return "b"
}

// ParsePlayer reads a player as a person names one: w or white, b or
// black, in any case.
func ParsePlayer(s string) (Player, error) {
	switch strings.ToLower(s) {
	case "w", "white":
		return White, nil
	case "b", "black":
		return Black, nil
	}
	return 0, fmt.Errorf("env: player %q: want w or b", s)
}

// Name returns "white" or "black", for people.
func (p Player) Name() string {
	if p == White {
		return "white"
	}
	return "black"
}

// MaxActions is the largest action count of any game (Spec.NumActions):
// a buffer of MaxActions actions holds every legal move of any position,
// and a legal-move mask fits in a uint64.
const MaxActions = 64

// Action is a move: the 0-based index of one of the mover's own pits, so the
// move written "pit 5" is Action(4). Actions are always in [0, Spec.NumActions).
type Action uint8

// Pit returns the 1-based pit number that names the action in records.
func (a Action) Pit() int { return int(a) + 1 }

// Pits returns moves as pit numbers (Action.Pit), in a new slice: a
// record's moves for Replay.
func Pits(moves []Action) []int {
	pits := make([]int, len(moves))
	for i, a := range moves {
		pits[i] = a.Pit()
	}
	return pits
}

// Result is the result of a game: Ongoing until the position is terminal.
type Result int8

// The four results.
const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String returns the record form: "1-0", "0-1", "1/2-1/2" or "*".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Value returns the result from p's view: +1 a win, -1 a loss, 0 a draw or
// an unfinished game.
func (r Result) Value(p Player) float32 {
	switch {
	case r == WhiteWins && p == White, r == BlackWins && p == Black:
		return 1
	case r == WhiteWins, r == BlackWins:
		return -1
	}
	return 0
}

// Winner returns the winning player, or false for a draw or unfinished game.
func (r Result) Winner() (Player, bool) {
	switch r {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return 0, false
}

// ParseResult reads the record form of a result.
func ParseResult(s string) (Result, error) {
	if r, ok := lookupResult(s); ok {
		return r, nil
	}
	return Ongoing, fmt.Errorf("env: %s", badResult(s))
}

// badResult says why s is not a result.
func badResult(s string) string {
	return fmt.Sprintf("bad result %q (want 1-0, 0-1, 1/2-1/2 or *)", s)
}

// lookupResult returns the result s writes, without building an error for
// a token that is none (a record's every move).
func lookupResult(s string) (Result, bool) {
	for _, r := range [...]Result{Ongoing, WhiteWins, BlackWins, Draw} {
		if r.String() == s {
			return r, true
		}
	}
	return Ongoing, false
}

// State is one position of a game. Implementations are pointers to small
// values of fixed arrays: copying is CopyFrom, never shared memory.
//
// Perspective: ToMove says whose turn it is; Observe encodes the position
// from that player's view. In mangala a player may move twice in a row, so
// callers must compare players rather than assume turns alternate.
type State interface {
	// Spec returns the static facts of the game.
	Spec() *Spec
	// ToMove returns the player to move.
	ToMove() Player
	// Legal appends the legal actions to dst in increasing order and returns
	// it; it returns dst unchanged for a terminal position.
	Legal(dst []Action) []Action
	// Apply plays a legal action. It panics on an illegal one: use Play for
	// moves from people, files and protocols.
	Apply(a Action)
	// Result returns Ongoing, or the result of a terminal position.
	Result() Result
	// Observe writes the Spec().ObsLen features of the position from the
	// mover's view into dst, which must be at least that long.
	Observe(dst []float32)
	// CopyFrom makes the receiver a copy of src, a state of the same game.
	CopyFrom(src State)
	// String returns the position string of docs/RULES.md.
	String() string
}

// Spec holds the fixed facts of one game.
type Spec struct {
	Name       string // registry name: "togyz", "mangala", "mangala-kale", "kalah"
	Title      string // human name
	Pits       int    // pits per side
	NumActions int    // size of the action space (= Pits), at most MaxActions
	Stones     int    // stones in play
	ObsLen     int    // length of Observe's output
	ObsVersion string // observation encoding version, e.g. "togyz/1"
	Facts      Facts  // what the rest of kumalak asks about the game
	// New returns the start position.
	New func() State
	// Parse reads a position string, refusing a malformed one with an error
	// that names the field.
	Parse func(s string) (State, error)
	// Notation writes moves played from start (which it must not change) in
	// the game's record notation; nil means pit numbers separated by spaces
	// (see FormatMoves).
	Notation func(start State, moves []Action) (string, error)
	// ReadMove reads one move token of the game's notation, checks it and
	// plays it on st, which it leaves unchanged on error; nil means a pit
	// number (ReadPit). ParseMoves reads whole records with it.
	ReadMove func(st State, tok string) (Action, error)
}

// FormatMoves writes moves played from start in the game's notation.
func (s *Spec) FormatMoves(start State, moves []Action) (string, error) {
	if s.Notation != nil {
		return s.Notation(start, moves)
	}
	parts := make([]string, len(moves))
	for i, a := range moves {
		parts[i] = fmt.Sprint(a.Pit())
	}
	return strings.Join(parts, " "), nil
}

// Start returns s.New(), or the parsed position when pos is not empty.
func (s *Spec) Start(pos string) (State, error) {
	if strings.TrimSpace(pos) == "" || pos == "start" {
		return s.New(), nil
	}
	st, err := s.Parse(pos)
	if err != nil {
		return nil, fmt.Errorf("%s: position %q: %w", s.Name, pos, err)
	}
	return st, nil
}

// Clone returns a new independent copy of st.
func Clone(st State) State {
	c := st.Spec().New()
	c.CopyFrom(st)
	return c
}

var (
	registry = map[string]*Spec{}
	families = map[string]func(opts string) (*Spec, error){}
	regMu    sync.Mutex
)

// Register adds a game; it panics on a duplicate name. Game packages call it
// from init.
func Register(s *Spec) {
	regMu.Lock()
	defer regMu.Unlock()
	register(s)
}

func register(s *Spec) {
	if s.NumActions < 1 || s.NumActions > MaxActions {
		panic(fmt.Sprintf("env: game %s has %d actions, want 1..%d", s.Name, s.NumActions, MaxActions))
	}
	if _, dup := registry[s.Name]; dup {
		panic("env: game registered twice: " + s.Name)
	}
	registry[s.Name] = s
}

// RegisterFamily adds a game whose rules take options: Lookup("base:opts")
// calls variant(opts), which returns the spec of those rules named in a
// canonical form ("kalah:houses=4,seeds=3") or an error naming the bad
// option, and registers it under that name on first use. The family's
// default rules are registered under base by the game itself (Register).
// It panics on a duplicate base.
func RegisterFamily(base string, variant func(opts string) (*Spec, error)) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := families[base]; dup {
		panic("env: game family registered twice: " + base)
	}
	families[base] = variant
}

// Games returns the registered game names, sorted: the variants of a
// family looked up so far included.
func Games() []string {
	regMu.Lock()
	defer regMu.Unlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ErrUnknownGame is wrapped by Lookup's error.
var ErrUnknownGame = errors.New("unknown game")

// Lookup returns the game registered under name, or the variant of a game
// family that name ("base:options") asks for.
func Lookup(name string) (*Spec, error) {
	regMu.Lock()
	defer regMu.Unlock()
	if s, ok := registry[name]; ok {
		return s, nil
	}
	base, opts, ok := strings.Cut(name, ":")
	variant := families[base]
	if !ok || variant == nil {
		known := make([]string, 0, len(registry))
		for n := range registry {
			known = append(known, n)
		}
		sort.Strings(known)
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownGame, name, strings.Join(known, ", "))
	}
	s, err := variant(opts)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrUnknownGame, name, err)
	}
	if have, ok := registry[s.Name]; ok { // the canonical name of options written otherwise
		return have, nil
	}
	register(s)
	return s, nil
}
