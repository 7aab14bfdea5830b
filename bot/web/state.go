package web

import (
	"fmt"

	"kumalak/env"
)

// View is a position as the web page and the API show it. Pits, Stores
// and Special are indexed by player, white (0) then black (1); each row of
// Pits runs from that player's pit 1.
type View struct {
	Game     string   `json:"game"`
	Title    string   `json:"title"`
	Position string   `json:"position"` // docs/RULES.md position string
	ToMove   string   `json:"to_move"`  // "w" or "b"
	Pits     [2][]int `json:"pits"`
	Stores   [2]int   `json:"stores"`
	// Special is each player's tuzdyk (togyz) or castle (mangala-kale): the
	// number of the opponent's pit it stands on, 0 for none.
	Special [2]int `json:"special"`
	// SowStore says the mover's store is a place of the sowing cycle,
	// SowBack that the first stone goes back into the pit played unless it
	// is alone (env.Sower; the page's animation follows them).
	SowStore bool   `json:"sow_store"`
	SowBack  bool   `json:"sow_back"`
	Legal    []int  `json:"legal"`  // legal moves as pit numbers, increasing; empty when over
	Result   string `json:"result"` // "1-0", "0-1", "1/2-1/2" or "*"
	Over     bool   `json:"over"`
	Winner   string `json:"winner,omitempty"` // "w", "b" or "draw" when over
	Drawing  string `json:"drawing"`          // the board drawn as text
	Moves    []int  `json:"moves"`            // the record's moves, as given
	Ply      int    `json:"ply"`              // len(Moves)
	// Start is the position string the record starts from; Notation the
	// record in the game's notation (togyz: "1. 76 98 2. 36x ..."; the
	// mangalas: pit numbers); Plies describes each move.
	Start    string    `json:"start"`
	Notation string    `json:"notation"`
	Plies    []PlyInfo `json:"plies"`
}

// PlyInfo describes one move of a record, for the move list and the
// announcements of the page.
type PlyInfo struct {
	Mover string `json:"mover"` // "w" or "b"
	Pit   int    `json:"pit"`
	Token string `json:"token"` // the move in the game's notation: togyz "76x", else the pit
	// Gain is what the mover's store gained; Captured the part of it taken
	// from the opponent (captures, and the end-of-game collection), the
	// rest being stones sown into the store or the mover's tuzdyk or
	// castle.
	Gain     int  `json:"gain"`
	Captured int  `json:"captured"`
	Special  bool `json:"special"` // the move made a tuzdyk (togyz) or castle (kale)
	Extra    bool `json:"extra"`   // the mover moves again (mangala)
}

// NewView describes st, reached by moves from the start position. It
// reads the pits, stores and specials from the position string, whose form
// docs/RULES.md fixes for every game.
func NewView(st env.State, moves []int) (View, error) {
	return NewViewFrom(st.Spec().New(), st, moves)
}

// NewViewFrom describes st, reached by moves from start.
func NewViewFrom(start, st env.State, moves []int) (View, error) {
	spec := st.Spec()
	v := View{Game: spec.Name, Title: spec.Title, Position: st.String(), ToMove: st.ToMove().String(),
		Result: st.Result().String(), Over: st.Result() != env.Ongoing, Drawing: env.Drawing(st),
		Moves: append([]int{}, moves...), Ply: len(moves), Legal: env.LegalPits(st), Start: start.String(), Plies: []PlyInfo{}}
	if err := v.readPosition(spec); err != nil {
		return View{}, fmt.Errorf("web: view of %s: %w", v.Position, err)
	}
	v.SowStore, v.SowBack = spec.Facts.StoreSown, spec.Facts.FirstBack
	if err := v.describeMoves(start); err != nil {
		return View{}, fmt.Errorf("web: view of %s: %w", v.Position, err)
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
// whose form docs/RULES.md fixes for every game.
func (v *View) readPosition(spec *env.Spec) error {
	pos, err := env.ParsePosition(v.Position, spec.Pits, spec.Stones)
	if err != nil {
		return err
	}
	v.Pits, v.Stores, v.Special = pos.Pits, pos.Stores, pos.Special
	return nil
}

// describeMoves fills Notation and Plies by replaying the moves from start.
func (v *View) describeMoves(start env.State) error {
	spec := start.Spec()
	acts := make([]env.Action, len(v.Moves))
	for i, p := range v.Moves {
		acts[i] = env.Action(p - 1)
	}
	note, err := spec.FormatMoves(start, acts)
	if err != nil {
		return err
	}
	v.Notation = note
	st := env.Clone(start)
	before, err := env.ParsePosition(st.String(), spec.Pits, spec.Stones)
	if err != nil {
		return err
	}
	noted, err := spec.NoteMoves(start, acts)
	if err != nil {
		return err
	}
	for i, a := range acts {
		mover := st.ToMove()
		home := env.SownHome(st, a)
		st.Apply(a)
		after, err := env.ParsePosition(st.String(), spec.Pits, spec.Stones)
		if err != nil {
			return err
		}
		gain := after.Stores[mover] - before.Stores[mover]
		info := PlyInfo{Mover: mover.String(), Pit: a.Pit(), Token: noted[i].Text, Gain: gain,
			Special: before.Special[mover] == 0 && after.Special[mover] != 0,
			Extra:   st.Result() == env.Ongoing && st.ToMove() == mover}
		info.Captured = max(0, gain-home)
		v.Plies = append(v.Plies, info)
		before = after
	}
	return nil
}
