package words

import (
	"encoding/json"
	"fmt"
)

// MarshalJSON writes m as its catalog file has it.
func (m Message) MarshalJSON() ([]byte, error) {
	if m.Forms == nil {
		return json.Marshal(m.Text)
	}
	obj := map[string]any{"arg": m.Arg}
	for f, s := range m.Forms {
		obj[f] = s
	}
	return json.Marshal(obj)
}

// script is the data of words.js.
type script struct {
	Langs    []lang                       `json:"langs"`
	Bands    []Band                       `json:"bands"`
	Catalogs map[string]Catalog           `json:"catalogs"`
	Rules    map[string]map[string]string `json:"rules"` // game, language code: page
	Near     map[string]string            `json:"near"`  // a language's code: the code of the one spoken in its place
}

// neighbours are languages whose speakers Match gives one of Tags:
// Kyrgyz, Belarusian and others read Russian (golang.org/x/text's
// matching data). words.js carries them so that the page chooses as the
// terminal does.
var neighbours = []string{"ky", "be", "uk", "uz", "tg", "tk", "tt", "ba", "az", "crh", "kaa", "mn", "os", "cv", "sah", "ug"}

type lang struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Script returns words.js, the script that gives the web page every
// catalog, rules page and standing band as the global KUMALAK_WORDS (the
// page's i18n.js reads it). A script rather than JSON files, so that a
// static site opened from file:// has them too.
func Script() []byte {
	s := script{Bands: Bands, Catalogs: catalogs, Rules: map[string]map[string]string{}, Near: map[string]string{}}
	for _, n := range neighbours {
		if t := Match(n); t != Tags[0] {
			s.Near[n] = Code(t)
		}
	}
	for _, t := range Tags {
		s.Langs = append(s.Langs, lang{Code(t), New(t).T("lang.name")})
	}
	for _, g := range RuleGames() {
		s.Rules[g] = map[string]string{}
		for _, t := range Tags {
			page, err := Rules(g, t)
			if err != nil {
				panic(err) // every page is checked by the tests
			}
			s.Rules[g][Code(t)] = page
		}
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("words: words.js: %v", err)) // plain data: cannot fail
	}
	return append(append([]byte("// The words of kumalak's page in every language (bot/words); written by kumalak.\nvar KUMALAK_WORDS = "), b...), ";\n"...)
}
