package bot

import (
	"fmt"
	"strings"

	"kumalak/env"
)

// Replay returns the position a record reaches: start (a position string,
// or "" or "start" for the start position) and then moves, pit numbers
// checked one by one with env.Play. The error names the bad field or move,
// e.g. "move 3 (pit 7): illegal move: pit is empty".
func Replay(spec *env.Spec, start string, moves []int) (env.State, error) {
	st, err := spec.Start(strings.TrimSpace(start))
	if err != nil {
		return nil, err
	}
	for i, pit := range moves {
		if err := env.Play(st, pit); err != nil {
			return nil, fmt.Errorf("move %d (pit %d): %w", i+1, pit, err)
		}
	}
	return st, nil
}

// View is a position as the web page and the API show it. Pits, Stores
// and Special are indexed by player, white (0) then black (1); each row of
// Pits runs from that player's pit 1.
type View struct {
	Game     string   `json:"game"`
	Title    string   `json:"title"`
	Position string   `json:"position"` // RULES.md position string
	ToMove   string   `json:"to_move"`  // "w" or "b"
	Pits     [2][]int `json:"pits"`
	Stores   [2]int   `json:"stores"`
	// Special is each player's tuzdyk (togyz) or castle (mangala-kale): the
	// number of the opponent's pit it stands on, 0 for none.
	Special [2]int `json:"special"`
	Legal   []int  `json:"legal"`  // legal moves as pit numbers, increasing; empty when over
	Result  string `json:"result"` // "1-0", "0-1", "1/2-1/2" or "*"
	Over    bool   `json:"over"`
	Winner  string `json:"winner,omitempty"` // "w", "b" or "draw" when over
	Drawing string `json:"drawing"`          // the board drawn as text
	Moves   []int  `json:"moves"`            // the record's moves, as given
	Ply     int    `json:"ply"`              // len(Moves)
}

// NewView describes st, reached by moves. It reads the pits, stores and
// specials from the position string, whose form RULES.md fixes for every
// game.
func NewView(st env.State, moves []int) (View, error) {
	spec := st.Spec()
	v := View{Game: spec.Name, Title: spec.Title, Position: st.String(), ToMove: st.ToMove().String(),
		Result: st.Result().String(), Over: st.Result() != env.Ongoing, Drawing: drawing(st),
		Moves: append([]int{}, moves...), Ply: len(moves), Legal: legalPits(st)}
	if err := v.readPosition(spec); err != nil {
		return View{}, fmt.Errorf("bot: view of %s: %w", v.Position, err)
	}
	if v.Over {
		v.Winner = "draw"
		if p, ok := st.Result().Winner(); ok {
			v.Winner = p.String()
		}
	}
	return v, nil
}

// readPosition fills Pits, Stores and Special from the position string,
// whose form RULES.md fixes for every game.
func (v *View) readPosition(spec *env.Spec) error {
	pos, err := env.ParsePosition(v.Position, spec.Pits, spec.Stones)
	if err != nil {
		return err
	}
	v.Pits, v.Stores, v.Special = pos.Pits, pos.Stores, pos.Special
	return nil
}

// drawer is implemented by every game's board.
type drawer interface{ Draw() string }

// drawing returns the board drawn as text, or its position string.
func drawing(st env.State) string {
	if d, ok := st.(drawer); ok {
		return d.Draw()
	}
	return st.String() + "\n"
}

// legalPits returns the legal moves as pit numbers.
func legalPits(st env.State) []int {
	var buf [32]env.Action
	moves := st.Legal(buf[:0])
	out := make([]int, len(moves))
	for i, a := range moves {
		out[i] = a.Pit()
	}
	return out
}

// sideName returns "white" or "black".
func sideName(p env.Player) string {
	if p == env.White {
		return "white"
	}
	return "black"
}

// resultText describes a finished game: "1-0: white wins 84 to 70".
func resultText(st env.State) string {
	r := st.Result()
	text := r.String() + ": "
	if p, ok := r.Winner(); ok {
		text += sideName(p) + " wins"
	} else {
		text += "a draw"
	}
	if sc, ok := st.(env.Scorer); ok {
		text += fmt.Sprintf(" (stores: white %d, black %d)", sc.Store(env.White), sc.Store(env.Black))
	}
	return text
}
