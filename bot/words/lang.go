package words

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

var matcher = language.NewMatcher(Tags)

// Match returns the language of Tags that best fits prefs, the most wanted
// first, each a BCP 47 tag ("ru-RU", a browser's navigator.languages) or a
// POSIX locale ("kk_KZ.UTF-8"); English when none fits. Unreadable
// preferences are skipped.
func Match(prefs ...string) language.Tag {
	var want []language.Tag
	for _, p := range prefs {
		if t, err := parseLocale(p); err == nil {
			want = append(want, t)
		}
	}
	if len(want) == 0 {
		return Tags[0]
	}
	_, i, conf := matcher.Match(want...)
	if conf == language.No {
		return Tags[0]
	}
	return Tags[i]
}

// errNoLocale marks a locale that names no language: "", "C", "POSIX".
var errNoLocale = errors.New("no language")

// parseLocale reads a BCP 47 tag or a POSIX locale, dropping the
// codeset and modifier of "ru_RU.UTF-8@euro".
func parseLocale(s string) (language.Tag, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if s == "" || s == "C" || s == "POSIX" {
		return language.Und, errNoLocale
	}
	return language.Parse(strings.ReplaceAll(s, "_", "-"))
}

// Choose returns the language of a terminal session: the one lang names
// when it is not empty (an error when it names none of Tags), else the
// environment's, read through getenv as gettext does: the first set of
// LC_ALL, LC_MESSAGES and LANG gives the locale, and unless that is C or
// POSIX the list in LANGUAGE ("kk:ru") comes before it. English when none
// fits.
func Choose(lang string, getenv func(string) string) (language.Tag, error) {
	if lang != "" {
		return Parse(lang)
	}
	locale := ""
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(v); locale != "" {
			break
		}
	}
	if _, err := parseLocale(locale); err != nil {
		return Tags[0], nil
	}
	prefs := strings.Split(getenv("LANGUAGE"), ":")
	return Match(append(prefs, locale)...), nil
}

// Parse returns the language of Tags that s names ("kk", "ru-RU",
// "tr_TR.UTF-8"), or an error naming the languages there are.
func Parse(s string) (language.Tag, error) {
	t, err := parseLocale(s)
	if err == nil {
		_, i, conf := matcher.Match(t)
		if conf != language.No {
			return Tags[i], nil
		}
	}
	return language.Und, fmt.Errorf("words: language %q: want one of %s", s, Names())
}

// Names lists the languages as "en (English), kk (Қазақша), ...".
func Names() string {
	parts := make([]string, len(Tags))
	for i, t := range Tags {
		parts[i] = fmt.Sprintf("%s (%s)", Code(t), New(t).T("lang.name"))
	}
	return strings.Join(parts, ", ")
}
