package env

// Adjudicate scores a game stopped before its end, by a cap on its length:
// the larger store wins (a game's FinalStore when it has one, else its
// Scorer's Store); equal stores, or a game without stores, are a draw.
// Self-play and the arena both score their capped games with it.
func Adjudicate(st State) Result {
	var store func(Player) int
	switch s := st.(type) {
	case interface{ FinalStore(p Player) int }:
		store = s.FinalStore
	case Scorer:
		store = s.Store
	default:
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
