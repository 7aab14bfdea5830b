package words

import (
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"kumalak/env"
)

// Result describes a finished game in English: "1-0: white wins (stores:
// white 84, black 70)"; the stores only for a game that has them
// (env.Scorer). Printer.Result says it in another language.
func Result(st env.State) string { return New(language.English).Result(st) }

// Result describes a finished game in p's language: "1-0: ақ жеңді
// (қазандар: ақ 84, қара 70)".
func (p *Printer) Result(st env.State) string {
	r := st.Result()
	text := r.String() + ": "
	if w, ok := r.Winner(); ok {
		text += p.T("result." + side(w))
	} else {
		text += p.T("result.draw")
	}
	if sc, ok := st.(env.Scorer); ok {
		text += p.T("result.stores", sc.Store(env.White), sc.Store(env.Black))
	}
	return text
}

// side is the catalogs' name of a player: "w" or "b".
func side(p env.Player) string {
	if p == env.White {
		return "w"
	}
	return "b"
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
