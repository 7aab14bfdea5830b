package words

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"kumalak/env"
	_ "kumalak/env/games"
)

// TestCatalogsAgree holds every language to English's keys, each message
// to English's verbs (the same arguments, each used as the same verb), and
// each plural message to the plural forms its language uses for whole
// numbers, plus other.
func TestCatalogsAgree(t *testing.T) {
	en := catalogs["en"]
	for _, tag := range Tags {
		code := Code(tag)
		c := catalogs[code]
		for key := range en {
			if _, ok := c[key]; !ok {
				t.Errorf("%s: missing key %q", code, key)
			}
		}
		want := intForms(tag)
		for key, m := range c {
			ref, ok := en[key]
			if !ok {
				t.Errorf("%s: extra key %q (not in en.json)", code, key)
				continue
			}
			if err := agree(ref, m, want); err != nil {
				t.Errorf("%s: %s: %v", code, key, err)
			}
		}
	}
}

// agree checks m against English's ref: same shape, same verbs, and the
// plural forms forms.
func agree(ref, m Message, forms []string) error {
	if (ref.Forms == nil) != (m.Forms == nil) {
		return errorf("a plural message in one language and not the other")
	}
	want, err := Verbs(ref.format())
	if err != nil {
		return errorf("en: %v", err)
	}
	if m.Forms == nil {
		return sameVerbs(want, m.Text)
	}
	if m.Arg != ref.Arg {
		return errorf("plural of argument %d, en's of %d", m.Arg, ref.Arg)
	}
	if got := slices.Sorted(maps.Keys(m.Forms)); !slices.Equal(got, forms) {
		return errorf("plural forms %v, want %v", got, forms)
	}
	for _, f := range m.Forms {
		if err := sameVerbs(want, f); err != nil {
			return err
		}
	}
	return nil
}

// format returns m's text, or its other form.
func (m Message) format() string {
	if m.Forms != nil {
		return m.Forms["other"]
	}
	return m.Text
}

func sameVerbs(want []string, format string) error {
	got, err := Verbs(format)
	if err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		return errorf("%q has verbs %v, en has %v", format, got, want)
	}
	return nil
}

type testError string

func (e testError) Error() string { return string(e) }

func errorf(format string, args ...any) error {
	return testError(strings.TrimSpace(fmt.Sprintf(format, args...)))
}

// intForms lists the plural forms t uses for the whole numbers, with other.
func intForms(t language.Tag) []string {
	names := map[plural.Form]string{plural.Zero: "zero", plural.One: "one", plural.Two: "two",
		plural.Few: "few", plural.Many: "many", plural.Other: "other"}
	set := map[string]bool{"other": true}
	for n := range 1000 {
		set[names[plural.Cardinal.MatchPlural(t, n, 0, 0, 0, 0)]] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// TestIntForms: the forms of the catalogs' languages are CLDR's.
func TestIntForms(t *testing.T) {
	want := map[string]string{"en": "one other", "kk": "one other", "ru": "few many one other", "tr": "one other"}
	for _, tag := range Tags {
		if got := strings.Join(intForms(tag), " "); got != want[Code(tag)] {
			t.Errorf("%s: forms %q, want %q", Code(tag), got, want[Code(tag)])
		}
	}
}

func TestVerbs(t *testing.T) {
	for _, tc := range []struct {
		format, want string
		err          bool
	}{
		{"plain", "", false},
		{"%d%%", "1d", false},
		{"%%%d", "1d", false},
		{"%[2]s +%[1]d", "1d 2s", false},
		{"%s then %d and %q", "1s 2d 3q", false},
		{"%[1]s needs %[1]s", "1s 1s", false},
		{"%v", "", true},
		{"%.1f", "", true},
		{"100%", "", true},
	} {
		got, err := Verbs(tc.format)
		if (err != nil) != tc.err || strings.Join(got, " ") != tc.want {
			t.Errorf("Verbs(%q) = %v, %v; want %q, error %v", tc.format, got, err, tc.want, tc.err)
		}
	}
}

// TestPlurals: counts choose each language's form.
func TestPlurals(t *testing.T) {
	for _, tc := range []struct {
		lang language.Tag
		n    int
		want string
	}{
		{language.English, 1, "Loaded 1 move."},
		{language.English, 2, "Loaded 2 moves."},
		{language.Russian, 1, "Загружен 1 ход."},
		{language.Russian, 3, "Загружено 3 хода."},
		{language.Russian, 5, "Загружено 5 ходов."},
		{language.Russian, 11, "Загружено 11 ходов."},
		{language.Russian, 21, "Загружен 21 ход."},
		{language.Kazakh, 5, "5 жүріс жүктелді."},
		{language.Turkish, 1, "1 hamle yüklendi."},
	} {
		if got := New(tc.lang).T("page.loaded", tc.n); got != tc.want {
			t.Errorf("%s %d: %q, want %q", Code(tc.lang), tc.n, got, tc.want)
		}
	}
}

func TestStanding(t *testing.T) {
	for _, tc := range []struct {
		lang  language.Tag
		white float64
		want  string
	}{
		{language.English, 0.5, "The game is even (white 50%)"},
		{language.English, 0.46, "The game is even (white 46%)"},
		{language.English, 0.62, "White is slightly better, 62%"},
		{language.English, 0.30, "Black is better, 70%"},
		{language.English, 0.97, "White is winning, 97%"},
		{language.English, 1, "White is winning, 100%"},
		{language.English, 0, "Black is winning, 100%"},
		{language.Russian, 0.62, "У белых чуть лучше, 62%"},
		{language.Kazakh, 0.2, "Қараның жағдайы жақсы, 80%"},
		{language.Turkish, 0.9, "Beyaz kazanıyor, %90"},
	} {
		if got := New(tc.lang).Standing(tc.white); got != tc.want {
			t.Errorf("%s %.2f: %q, want %q", Code(tc.lang), tc.white, got, tc.want)
		}
	}
}

// TestUnknownKeyPanics: a key the catalogs lack is a programmer's error.
func TestUnknownKeyPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("T of an unknown key did not panic")
		}
	}()
	New(language.English).T("no.such.key")
}

// TestGames: every game has its words and a rules page in every language,
// and the page's title is the game's title.
func TestGames(t *testing.T) {
	var bases []string
	for _, name := range env.Games() {
		base, _, _ := strings.Cut(name, ":")
		bases = append(bases, base)
	}
	slices.Sort(bases)
	bases = slices.Compact(bases)
	if got := RuleGames(); !slices.Equal(got, bases) {
		t.Errorf("rules pages for %v, games %v", got, bases)
	}
	for _, g := range bases {
		for _, tag := range Tags {
			p := New(tag)
			page, err := Rules(g, tag)
			if err != nil {
				t.Error(err)
				continue
			}
			if err := CheckPage(page); err != nil {
				t.Errorf("rules/%s/%s.md: %v", g, Code(tag), err)
			}
			spec, err := env.Lookup(g)
			if err != nil {
				t.Fatal(err)
			}
			if first, _, _ := strings.Cut(page, "\n"); first != "# "+p.Title(spec) {
				t.Errorf("rules/%s/%s.md: title %q, want the game's name %q", g, Code(tag), first, "# "+p.Title(spec))
			}
			w := env.WordsOf(spec.New())
			for _, word := range []string{w.Store, w.Special} {
				if _, ok := catalogs["en"]["word."+word]; word != "" && !ok {
					t.Errorf("%s's word %q has no translation (word.%s)", g, word, word)
				}
			}
			if _, ok := catalogs["en"]["mark."+w.Special]; w.Special != "" && !ok {
				t.Errorf("%s's special %q has no mark (mark.%s)", g, w.Special, w.Special)
			}
		}
	}
	if _, err := Rules("kalah:houses=4", language.Russian); err != nil {
		t.Errorf("a variant's rules: %v", err)
	}
	if _, err := Rules("chess", language.English); err == nil {
		t.Error("rules of chess: no error")
	}
}

func TestCheckPage(t *testing.T) {
	for _, tc := range []struct {
		page string
		ok   bool
	}{
		{"# T\n\nText.\n\n## H\n\n- item\n  more\n", true},
		{"T\n\ntext\n", false},
		{"# T\n\nsome *bold*\n", false},
		{"# T\n\na `code`\n", false},
		{"# T\n\n# second title\n", false},
		{"# T\n\ntrailing \n", false},
	} {
		if err := CheckPage(tc.page); (err == nil) != tc.ok {
			t.Errorf("CheckPage(%q) = %v, want ok %v", tc.page, err, tc.ok)
		}
	}
}

// TestScript: words.js carries every catalog and rules page as JSON.
func TestScript(t *testing.T) {
	js := string(Script())
	const head = "var KUMALAK_WORDS = "
	i := strings.Index(js, head)
	if i < 0 || !strings.HasSuffix(js, ";\n") {
		t.Fatalf("words.js does not assign KUMALAK_WORDS: %.80q", js)
	}
	var s struct {
		Langs    []lang                                `json:"langs"`
		Bands    []Band                                `json:"bands"`
		Catalogs map[string]map[string]json.RawMessage `json:"catalogs"`
		Rules    map[string]map[string]string          `json:"rules"`
		Near     map[string]string                     `json:"near"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSuffix(js[i+len(head):], ";\n")), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Langs) != len(Tags) || s.Langs[1].Code != "kk" || s.Langs[1].Name != "Қазақша" {
		t.Errorf("langs %v", s.Langs)
	}
	if len(s.Catalogs["ru"]) != len(catalogs["en"]) || len(s.Rules["togyz"]) != len(Tags) || len(s.Bands) != len(Bands) {
		t.Errorf("catalogs %d, rules %d, bands %d", len(s.Catalogs["ru"]), len(s.Rules["togyz"]), len(s.Bands))
	}
	if s.Near["ky"] != "ru" || s.Near["en"] != "" {
		t.Errorf("near %v: want Kyrgyz read as Russian", s.Near)
	}
	var m Message
	if err := json.Unmarshal(s.Catalogs["ru"]["page.loaded"], &m); err != nil || m.Forms["many"] != "Загружено %d ходов." {
		t.Errorf("ru page.loaded read back as %+v, %v", m, err)
	}
}

func TestMessageJSON(t *testing.T) {
	for _, bad := range []string{`3`, `{"one": "a"}`, `{"arg": 0, "other": "a"}`, `{"arg": 1, "other": "a", "some": "b"}`, `{"arg": 1, "other": 3}`} {
		var m Message
		if err := json.Unmarshal([]byte(bad), &m); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestTitles(t *testing.T) {
	lookup := func(name string) *env.Spec {
		spec, err := env.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return spec
	}
	kk, en, tr := New(language.Kazakh), New(language.English), New(language.Turkish)
	for _, tc := range []struct{ got, want string }{
		{kk.Title(lookup("togyz")), "Тоғызқұмалақ"},
		{New(language.Russian).Title(lookup("togyz")), "Тогыз кумалак"},
		{tr.Title(lookup("togyz")), "Dokuz Kumalak"},
		{en.Title(lookup("kalah:houses=4")), "Kalah (houses=4)"},
		{kk.Words(lookup("togyz").New()).Special, "тұздық"},
		{kk.Words(lookup("togyz").New()).Mark, "X"},
		{tr.Words(lookup("mangala-kale").New()).Special, "kale"},
		{tr.Words(lookup("mangala").New()).Store, "hazine"},
		{en.Words(lookup("mangala").New()).Special, ""},
		{kk.Word("bank"), "bank"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
