package env

import (
	"slices"
	"strings"
)

// Facts are the fixed facts of a game that the rest of kumalak asks about,
// declared once, as data, in the game's own folder (in the manner of
// OpenSpiel's GameType) and reached through the registry as Spec.Facts:
// "which games have a solver", "what is the store called", "is there a
// shipped model" are answered here and nowhere else by name. Adding a game
// touches its folder, the registry (env/games), configs and docs, nothing
// else; the conformance suite (env/envtest, CheckFacts) checks what a
// game declares against how it plays.
type Facts struct {
	Names Names // the game's name in each language
	Words Words // its names for its parts; the zero Words read as PlainWords

	// StoreSown: the mover's store is a place of the sowing cycle (mangala,
	// kalah), not only where captures go (togyz's kazan).
	StoreSown bool
	// FirstBack: a sowing puts its first stone back into the pit played,
	// unless it is alone (togyz, mangala); otherwise the first stone goes
	// to the next place (kalah).
	FirstBack bool
	// ExtraTurn: a sowing that ends in the mover's store moves again, so
	// turns do not always alternate.
	ExtraTurn bool

	// Solver: the exact endgame solver (solve.Solver) takes its positions.
	Solver bool
	// Tablebase is the kind of endgame tablebase of its positions (the
	// game name written in the tablebase files' header, solve.OpenGame);
	// "" for a game that has none.
	Tablebase string
	// Model names the network shipped for it (the models package's file
	// stem, "togyz" for togyz.kmodel); "" for a game with none.
	Model string

	// Calibration fits alpha-beta scores to game outcomes; the zero value
	// is none (alpha-beta shows no probability).
	Calibration Calibration
	// Balance is the balanced-opening test of matches; the zero value is
	// none (openings are never filtered).
	Balance Balance
	// Levels are the model agent's strength levels tuned on this game,
	// weakest first (agent.Level, docs/PLAYING.md, "Levels"); nil for the
	// agent's default table.
	Levels []Level
	// LevelRatings are the measured ratings of the model agent's levels
	// in this game (the table of docs/PLAYING.md, "Levels"); the zero
	// value: not measured.
	LevelRatings LevelRatings
}

// LevelRatings are the ratings of the levels, level 1 first, measured by
// one tournament on the game's Elo scale: Elo[i] relative to Anchor
// (the player rated 0), Err[i] the half-width of its 95% interval.
type LevelRatings struct {
	Anchor   string
	Elo, Err []float64
}

// Level is the search of one strength level of the model agent: the
// fields of agent.Level, which documents them.
type Level struct {
	Sims     int
	Consider int
	Margin   float32
	Temp     float32
	Solver   bool
}

// Names are a game's name for people in each language the front ends
// speak.
type Names struct {
	KK, RU, TR, EN string
}

// Langs are the languages of Names, in the order of its fields.
var Langs = []string{"kk", "ru", "tr", "en"}

// In returns the name in lang ("kk", "ru", "tr" or "en"), the English one
// for any other language or a name not given.
func (n Names) In(lang string) string {
	all := [...]string{n.KK, n.RU, n.TR, n.EN}
	if i := slices.Index(Langs, lang); i >= 0 && all[i] != "" {
		return all[i]
	}
	return n.EN
}

// Calibration is the fit of alpha-beta scores (stones of store lead for
// the mover, mobility bonus included) to game outcomes by the ordered
// logistic model of agent.Calibration: win = σ(Slope·s − DrawBand), loss =
// σ(−Slope·s − DrawBand).
type Calibration struct {
	Slope, DrawBand float64
}

// Balance is the balanced-opening test of matches (arena.Balance): an
// opening is kept when an alpha-beta search of Depth plies, on store
// difference only, rates it within Margin stones of even.
type Balance struct {
	Depth  int
	Margin float64
}

// Words are a game's names for its parts, as people call them.
type Words struct {
	Store   string // "kazan", "store"
	Special string // "tuzdyk", "castle"; "" for a game without specials
	Mark    string // how a special pit is drawn: "X", "K"
}

// PlainWords are the words of a game that declares none.
var PlainWords = Words{Store: "store", Special: "special", Mark: "S"}

// WordsOf returns the Words of st's game, or PlainWords.
func WordsOf(st State) Words {
	if w := st.Spec().Facts.Words; w != (Words{}) {
		return w
	}
	return PlainWords
}

// Sower is implemented by games that say what a sowing sends home:
// SownHome(a) counts the stones of action a from the receiver's position
// that fall straight into the mover's store (its own store, or its tuzdyk
// or castle), so that the rest of a move's gain is a capture; a game
// without it counts 0.
type Sower interface {
	SownHome(a Action) int
}

// SownHome returns st's Sower count for a, or 0.
func SownHome(st State, a Action) int {
	if s, ok := st.(Sower); ok {
		return s.SownHome(a)
	}
	return 0
}

// DefaultGame is the game commands and servers open when none is named.
const DefaultGame = "togyz"

// DefaultOf returns DefaultGame when games holds it, else the first of
// games ("" for none): the game a server of several opens by default.
func DefaultOf(games []string) string {
	switch {
	case slices.Contains(games, DefaultGame):
		return DefaultGame
	case len(games) == 0:
		return ""
	}
	return games[0]
}

// GamesWhere returns the games registered by their folders (not the
// variants of a family looked up so far) whose spec has, by its Facts,
// what has asks for, sorted: "which games can...".
func GamesWhere(has func(*Spec) bool) []string {
	var names []string
	for _, n := range Games() {
		if strings.Contains(n, ":") {
			continue
		}
		if s, err := Lookup(n); err == nil && has(s) {
			names = append(names, n)
		}
	}
	return names
}
