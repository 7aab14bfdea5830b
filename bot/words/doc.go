// Package words holds what every front end of the bot (bot/play,
// bot/engine, bot/web, bot/analysis) says to a person, in every language
// it speaks (English, Kazakh, Russian, Turkish), as data: one catalog a
// language (catalog/en.json, kk.json, ru.json, tr.json) and one short
// rules page a game and language (rules/<game>/<lang>.md). The terminal
// reads them through a Printer; the web page reads the very same files,
// written into a script by Script, so the two share a key wherever they
// share a text. It also writes what all front ends say about a game in
// the game's own terms (text.go: a result, a list of pits, moves in the
// game's notation). The front ends keep only the text that is theirs
// alone.
//
// # Catalogs
//
// A catalog maps a key ("turn.thinking") to a message. A message is a
// format in the manner of fmt with the verbs %s, %d and %q only, each
// optionally with an argument index (%[2]d) so that a language can put the
// arguments in its own order, and %% for a percent sign. A message whose
// wording depends on a count is an object naming the argument (1-based)
// and one format for each plural form the language uses (CLDR's one, few,
// many, other; English one and other, Russian one, few, many and other):
//
//	"loaded": {"arg": 1, "one": "Loaded %d move.", "other": "Loaded %d moves."}
//
// The Go side builds a golang.org/x/text/message catalog from these files
// (plural forms chosen by golang.org/x/text/feature/plural); the page's
// words.js chooses them with Intl.PluralRules. The tests hold every
// language to English's keys, verbs and plural forms.
//
// # Languages
//
// Choose picks the language of a terminal session (a --lang flag, else the
// environment's locale); Match picks from a list of preferences such as a
// browser's. Both fall back to English.
//
// A Printer is immutable and safe for concurrent use.
package words
