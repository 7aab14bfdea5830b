package env

// Adjudicate scores a game stopped before its end, by a cap on its length:
// the larger store wins (StoreFunc's stores); equal stores, or a game
// without stores, are a draw. Self-play and the arena both score their
// capped games with it.
func Adjudicate(st State) Result {
	store := StoreFunc(st)
	if store == nil {
		return Draw
	}
	switch w, b := store(White), store(Black); {
	case w > b:
		return WhiteWins
	case b > w:
		return BlackWins
	}
	return Draw
}

// StoreFunc returns st's store function: its FinalStore (the store after
// the game's end rule) when it has one, else its Scorer's Store, else nil
// for a game without stores.
func StoreFunc(st State) func(Player) int {
	switch s := st.(type) {
	case FinalScorer:
		return s.FinalStore
	case Scorer:
		return s.Store
	}
	return nil
}
