package env

// Drawer is implemented by games that draw their board for people, as the
// players see it across the table (every kumalak game does).
type Drawer interface {
	Draw() string
}

// Drawing returns st's board drawn for people, ending in a newline: its
// Draw, or its position string for a game without one. Commands, the
// terminal game and the web page all show boards through it.
func Drawing(st State) string {
	if d, ok := st.(Drawer); ok {
		return d.Draw()
	}
	return st.String() + "\n"
}

// LegalPits returns the legal moves of st as pit numbers, in increasing
// order (none when the game is over).
func LegalPits(st State) []int {
	var buf [MaxActions]Action
	return Pits(st.Legal(buf[:0]))
}
