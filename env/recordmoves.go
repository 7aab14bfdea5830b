package env

import "strings"

// IsMoveText reports whether text is move text rather than, say, a file
// name: one word or more, each a move token (IsMoveToken: a move with its
// notes, a move number or a result), as in "1. 76(10) 98" or "4 3 6 1".
func IsMoveText(text string) bool {
	words := strings.Fields(text)
	for _, w := range words {
		if !IsMoveToken(w) {
			return false
		}
	}
	return len(words) > 0
}

// RecordOfMoves returns the record of the moves in text (the game's
// notation, ParseMoves) played from start. Its result is the one the moves
// reach, or the result token that ends text, such as "1-0" after a
// resignation (MarkOffBoard gives such a game its Termination).
func (s *Spec) RecordOfMoves(start State, text string) (*GameRecord, error) {
	moves, err := s.ParseMoves(start, text)
	if err != nil {
		return nil, err
	}
	game := &GameRecord{Spec: s, Start: start, Moves: moves}
	final, err := game.Final()
	if err != nil {
		return nil, err
	}
	game.Result = final.Result()
	if r := lastResult(text); r != Ongoing {
		game.Result = r
	}
	game.MarkOffBoard(final)
	return game, nil
}

// lastResult returns the result token ending text, or Ongoing.
func lastResult(text string) Result {
	words := strings.Fields(text)
	if len(words) == 0 {
		return Ongoing
	}
	r, _ := lookupResult(words[len(words)-1])
	return r
}
