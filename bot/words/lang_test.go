package words

import (
	"testing"

	"golang.org/x/text/language"
)

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		flag string
		env  map[string]string
		want language.Tag
		err  bool
	}{
		{"", nil, language.English, false},
		{"kk", nil, language.Kazakh, false},
		{"ru-RU", map[string]string{"LANG": "tr_TR.UTF-8"}, language.Russian, false},
		{"tr_TR.UTF-8", nil, language.Turkish, false},
		{"en", map[string]string{"LANG": "kk_KZ.UTF-8"}, language.English, false},
		{"de", nil, language.Und, true},
		{"C", nil, language.Und, true},
		{"", map[string]string{"LANG": "kk_KZ.UTF-8"}, language.Kazakh, false},
		{"", map[string]string{"LANG": "ru_RU.UTF-8@euro"}, language.Russian, false},
		{"", map[string]string{"LANG": "de_DE.UTF-8"}, language.English, false},
		{"", map[string]string{"LANG": "ky_KG.UTF-8"}, language.Russian, false},
		{"", map[string]string{"LC_ALL": "tr_TR.UTF-8", "LANG": "ru_RU.UTF-8"}, language.Turkish, false},
		{"", map[string]string{"LC_MESSAGES": "kk_KZ", "LANG": "ru_RU.UTF-8"}, language.Kazakh, false},
		{"", map[string]string{"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, language.English, false},
		{"", map[string]string{"LC_ALL": "C.UTF-8", "LANGUAGE": "ru"}, language.English, false},
		{"", map[string]string{"LANGUAGE": "kk:ru", "LANG": "en_US.UTF-8"}, language.Kazakh, false},
		{"", map[string]string{"LANGUAGE": "de", "LANG": "ru_RU.UTF-8"}, language.Russian, false},
		{"", map[string]string{"LANG": "not a locale!"}, language.English, false},
	} {
		got, err := Choose(tc.flag, func(k string) string { return tc.env[k] })
		if (err != nil) != tc.err || !tc.err && got != tc.want {
			t.Errorf("Choose(%q, %v) = %v, %v; want %v (error %v)", tc.flag, tc.env, got, err, tc.want, tc.err)
		}
	}
}

func TestParseNamesLanguages(t *testing.T) {
	_, err := Parse("de")
	const want = `words: language "de": want one of en (English), kk (Қазақша), ru (Русский), tr (Türkçe)`
	if err == nil || err.Error() != want {
		t.Errorf("Parse(de): %v, want %s", err, want)
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		prefs []string
		want  language.Tag
	}{
		{nil, language.English},
		{[]string{"de-DE", "ru"}, language.Russian},
		{[]string{"kk-KZ", "ru-RU", "en"}, language.Kazakh},
		{[]string{"tr"}, language.Turkish},
		{[]string{"fr", "de"}, language.English},
		{[]string{"", "??", "tr-TR"}, language.Turkish},
	} {
		if got := Match(tc.prefs...); got != tc.want {
			t.Errorf("Match(%q) = %v, want %v", tc.prefs, got, tc.want)
		}
	}
}

// FuzzChoose: any flag or locale gives one of Tags or an error, never a
// panic.
func FuzzChoose(f *testing.F) {
	for _, s := range []string{"", "kk", "ru_RU.UTF-8@euro", "C", "x-klingon", "en-u-nu-arab", "tr_TR.ISO-8859-9"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, flag, locale string) {
		tag, err := Choose(flag, func(k string) string {
			if k == "LANG" {
				return locale
			}
			return ""
		})
		if err == nil && New(tag) == nil {
			t.Fatal("no printer")
		}
		if flag == "" && err != nil {
			t.Fatalf("locale %q: %v", locale, err)
		}
	})
}
