package words

import (
	"strings"

	"kumalak/env"
)

// A game's name in each language is its fact (env.Facts.Names, in its
// folder); the catalogs translate the words games use for their parts,
// under "word.<word>" for the English word of env.Facts.Words ("kazan",
// "store", "tuzdyk", "castle"), and the letter the page draws in a special
// pit under "mark.<special>". A game with words of its own adds their keys.

// Title names spec's game in p's language (env.Facts.Names), a variant
// with its options: "Тоғызқұмалақ", "Kalah (houses=4)".
func (p *Printer) Title(spec *env.Spec) string {
	title := spec.Facts.Names.In(Code(p.tag))
	if _, opts, ok := strings.Cut(spec.Name, ":"); ok {
		title += " (" + opts + ")"
	}
	return title
}

// Word translates one of a game's words ("kazan": "қазан"), or returns it
// as given when the catalogs do not have it.
func (p *Printer) Word(w string) string {
	if _, ok := catalogs["en"]["word."+w]; !ok {
		return w
	}
	return p.T("word." + w)
}

// Words returns the words of st's game in p's language (its mark as the
// game draws it).
func (p *Printer) Words(st env.State) env.Words {
	w := env.WordsOf(st)
	w.Store = p.Word(w.Store)
	if w.Special != "" {
		w.Special = p.Word(w.Special)
	}
	return w
}
