package env_test

import (
	"slices"
	"testing"

	"kumalak/env"
	_ "kumalak/env/games"
)

func TestNamesIn(t *testing.T) {
	n := env.Names{KK: "Тоғызқұмалақ", RU: "Тогыз кумалак", TR: "Dokuz Kumalak", EN: "Togyz Kumalak"}
	for lang, want := range map[string]string{"kk": n.KK, "ru": n.RU, "tr": n.TR, "en": n.EN, "de": n.EN, "": n.EN} {
		if got := n.In(lang); got != want {
			t.Errorf("In(%q) = %q, want %q", lang, got, want)
		}
	}
	if got := (env.Names{EN: "Kalah"}).In("ru"); got != "Kalah" {
		t.Errorf("a name not given: %q, want the English one", got)
	}
}

func TestDefaultOf(t *testing.T) {
	for _, c := range []struct {
		games []string
		want  string
	}{
		{[]string{"mangala", env.DefaultGame}, env.DefaultGame},
		{[]string{"mangala-kale", "mangala"}, "mangala-kale"},
		{nil, ""},
	} {
		if got := env.DefaultOf(c.games); got != c.want {
			t.Errorf("DefaultOf(%v) = %q, want %q", c.games, got, c.want)
		}
	}
	if _, err := env.Lookup(env.DefaultGame); err != nil {
		t.Errorf("the default game: %v", err)
	}
}

// TestGamesWhere answers "which games..." from the facts (solve's
// TestCheckFor holds that it leaves out the variants looked up).
func TestGamesWhere(t *testing.T) {
	got := env.GamesWhere(func(s *env.Spec) bool { return s.Facts.Solver })
	if want := []string{"kalah", "mangala", "mangala-kale"}; !slices.Equal(got, want) {
		t.Errorf("solver games %v, want %v", got, want)
	}
	got = env.GamesWhere(func(s *env.Spec) bool { return s.Facts.ExtraTurn })
	if want := []string{"kalah", "mangala"}; !slices.Equal(got, want) {
		t.Errorf("extra-turn games %v, want %v", got, want)
	}
}
