package words

import (
	"fmt"
	"strconv"
	"strings"

	"kumalak/env"
)

// Result describes a finished game: "1-0: white wins (stores: white 84,
// black 70)"; the stores only for a game that has them (env.Scorer).
func Result(st env.State) string {
	r := st.Result()
	text := r.String() + ": "
	if p, ok := r.Winner(); ok {
		text += p.Name() + " wins"
	} else {
		text += "a draw"
	}
	if sc, ok := st.(env.Scorer); ok {
		text += fmt.Sprintf(" (stores: white %d, black %d)", sc.Store(env.White), sc.Store(env.Black))
	}
	return text
}

// Pits writes pit numbers as "1 2 5".
func Pits(pits []int) string {
	parts := make([]string, len(pits))
	for i, p := range pits {
		parts[i] = strconv.Itoa(p)
	}
	return strings.Join(parts, " ")
}

// Moves writes moves played from st in the game's notation without move
// numbers (env.Spec.MoveText), "" when a move cannot be played.
func Moves(st env.State, moves []env.Action) string {
	text, err := st.Spec().MoveText(st, moves)
	if err != nil {
		return ""
	}
	return text
}
