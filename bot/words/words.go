package words

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

//go:embed catalog/*.json rules
var files embed.FS

// Tags are the languages kumalak speaks, English (the fallback) first.
var Tags = []language.Tag{language.English, language.Kazakh, language.Russian, language.Turkish}

// Message is one catalog entry: a format, or one format for each plural
// form of the argument Arg (1-based).
type Message struct {
	Text  string
	Arg   int
	Forms map[string]string // plural form ("one", "few", "many", "other") to format
}

// UnmarshalJSON reads a message written as a string or as an object
// {"arg": n, "one": ..., "other": ...}.
func (m *Message) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &m.Text); err == nil {
		return nil
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("want a string or an object of plural forms: %w", err)
	}
	m.Forms = map[string]string{}
	for k, v := range raw {
		switch {
		case k == "arg":
			n, ok := v.(float64)
			if !ok || n < 1 || n != float64(int(n)) {
				return fmt.Errorf("arg %v: want an argument number from 1", v)
			}
			m.Arg = int(n)
		case slices.Contains(pluralForms, k):
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("form %q: want a string", k)
			}
			m.Forms[k] = s
		default:
			return fmt.Errorf("unknown field %q (want arg, zero, one, two, few, many or other)", k)
		}
	}
	if m.Arg == 0 || m.Forms["other"] == "" {
		return fmt.Errorf("a plural message needs arg and an other form")
	}
	return nil
}

// pluralForms are CLDR's plural categories in their order.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// Catalog is one language's messages by key.
type Catalog map[string]Message

// Code returns the two-letter code of a language of Tags ("kk").
func Code(t language.Tag) string {
	b, _ := t.Base()
	return b.String()
}

// catalogs are the parsed catalogs by language code; load panics on a
// malformed embedded file, which the tests catch.
var catalogs = load()

func load() map[string]Catalog {
	out := map[string]Catalog{}
	for _, t := range Tags {
		c, err := readCatalog(files, Code(t))
		if err != nil {
			panic(err)
		}
		out[Code(t)] = c
	}
	return out
}

// readCatalog reads catalog/<code>.json from fsys.
func readCatalog(fsys fs.FS, code string) (Catalog, error) {
	name := "catalog/" + code + ".json"
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("words: %w", err)
	}
	var c Catalog
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("words: %s: %w", name, err)
	}
	return c, nil
}

// builder holds every catalog for golang.org/x/text/message.
var builder = build()

func build() *catalog.Builder {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for _, t := range Tags {
		for key, m := range catalogs[Code(t)] {
			if err := b.Set(t, key, m.message()); err != nil {
				panic(fmt.Sprintf("words: %s %s: %v", Code(t), key, err))
			}
		}
	}
	return b
}

// message converts m for the x/text catalog.
func (m Message) message() catalog.Message {
	if m.Forms == nil {
		return catalog.String(m.Text)
	}
	var cases []any
	for _, f := range pluralForms {
		if s, ok := m.Forms[f]; ok {
			cases = append(cases, f, s)
		}
	}
	return plural.Selectf(m.Arg, "%d", cases...)
}

// Printer writes the messages of one language.
type Printer struct {
	tag language.Tag
	p   *message.Printer
}

// New returns the Printer of t, which must be one of Tags (Match and
// Choose return one).
func New(t language.Tag) *Printer {
	if !slices.Contains(Tags, t) {
		panic(fmt.Sprintf("words: language %v is not one of %v", t, Tags))
	}
	return &Printer{tag: t, p: message.NewPrinter(t, message.Catalog(builder))}
}

// Tag returns the Printer's language.
func (p *Printer) Tag() language.Tag { return p.tag }

// T formats the message of key with args. A key missing from the catalogs
// is a programmer's error (the tests check every key the code uses) and
// panics.
func (p *Printer) T(key string, args ...any) string {
	if _, ok := catalogs["en"][key]; !ok {
		panic(fmt.Sprintf("words: no message %q", key))
	}
	return p.p.Sprintf(key, args...)
}

// Keys returns the keys of the English catalog, sorted.
func Keys() []string {
	keys := make([]string, 0, len(catalogs["en"]))
	for k := range catalogs["en"] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// verbRE matches the verbs a message may use: %s, %d, %q, optionally with
// an argument index, and %%.
var verbRE = regexp.MustCompile(`%(\[[1-9]\])?[sdq]|%%`)

// Verbs lists the verbs of a format, each with its argument number
// ("1s", "2d"), sorted, and an error for a verb outside %s, %d, %q and
// %%.
func Verbs(format string) ([]string, error) {
	var out []string
	next := 1
	rest := verbRE.ReplaceAllStringFunc(format, func(v string) string {
		if v == "%%" {
			return ""
		}
		n := next
		if v[1] == '[' {
			n = int(v[2] - '0')
		}
		next = n + 1
		out = append(out, fmt.Sprintf("%d%c", n, v[len(v)-1]))
		return ""
	})
	if i := strings.IndexByte(rest, '%'); i >= 0 {
		return nil, fmt.Errorf("verb %q: want %%s, %%d or %%q (with an optional [n]) or %%%%", rest[i:min(i+3, len(rest))])
	}
	sort.Strings(out)
	return out, nil
}
