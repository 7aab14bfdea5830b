package words

import "strings"

// The catalogs name each game and its parts under "game.<name>.<word>":
// title, store, and for a game with special pits (togyz's tuzdyk,
// mangala-kale's castle) special and mark, the letter the page draws in
// one. A variant ("kalah:houses=4") reads its game's words.

// Title names game (a registry name, options after a colon) in p's
// language: "Тоғызқұмалақ", "Kalah (houses=4)"; a game the catalogs do
// not know is named as given.
func (p *Printer) Title(game string) string {
	base, opts, _ := strings.Cut(game, ":")
	title := p.GameWord(base, "title")
	if title == "" {
		return game
	}
	if opts != "" {
		title += " (" + opts + ")"
	}
	return title
}

// GameWord returns one of game's words in p's language ("store":
// "қазан"), or "" when the catalogs have none.
func (p *Printer) GameWord(game, word string) string {
	base, _, _ := strings.Cut(game, ":")
	key := "game." + base + "." + word
	if _, ok := catalogs["en"][key]; !ok {
		return ""
	}
	return p.T(key)
}
