package env

// The per-game facts the rest of kumalak needs beyond the rules live in the
// game's own folder, as optional abilities of its State found by type
// assertion (as Scorer, Hasher and Drawer are): adding a game touches its
// folder, the registry (env/games), configs and docs, nothing else. The
// conformance suite (env/envtest, Facts) lists them.

// Calibrated is implemented by games whose alpha-beta scores (stones of
// store lead for the mover, mobility bonus included) have been fitted to
// game outcomes by the ordered logistic model of agent.Calibration:
// win = σ(slope·s − band), loss = σ(−slope·s − band). A game without it
// shows no probability for alpha-beta scores.
type Calibrated interface {
	Calibration() (slope, drawBand float64)
}

// Balanced is implemented by games whose matches may ask for balanced
// openings (arena.Balance): an opening is kept when an alpha-beta search
// of depth plies, on store difference only, rates it within margin stones
// of even. A game without it never filters its openings.
type Balanced interface {
	Balance() (depth int, margin float64)
}

// Worded is implemented by games that name their store and special pit
// for people ("kazan", "tuzdyk", "X" in togyz); a game without it reads
// "store", "special", "S".
type Worded interface {
	Words() Words
}

// Words are a game's names for its parts, as people call them.
type Words struct {
	Store   string // "kazan", "store"
	Special string // "tuzdyk", "castle"; "" for a game without specials
	Mark    string // how a special pit is drawn: "X", "K"
}

// WordsOf returns st's Words, or the plain ones.
func WordsOf(st State) Words {
	if w, ok := st.(Worded); ok {
		return w.Words()
	}
	return Words{Store: "store", Special: "special", Mark: "S"}
}

// Sower is implemented by games that say how a sowing runs. SownHome(a)
// counts the stones of action a from the receiver's position that fall
// straight into the mover's store (its own store, or its tuzdyk or
// castle), so that the rest of a move's gain is a capture; a game without
// it counts 0. Sowing says whether the mover's store is a place of the
// sowing cycle and whether the first stone goes back into the pit played
// (unless it is alone), for the web page's animation.
type Sower interface {
	SownHome(a Action) int
	Sowing() (store, firstBack bool)
}

// SownHome returns st's Sower count for a, or 0.
func SownHome(st State, a Action) int {
	if s, ok := st.(Sower); ok {
		return s.SownHome(a)
	}
	return 0
}
