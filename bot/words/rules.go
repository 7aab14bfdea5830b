package words

import (
	"fmt"
	"io/fs"
	"strings"

	"golang.org/x/text/language"
)

// Rules returns the short rules page of game (a registry name; a variant
// "kalah:houses=4" reads its game's page) in language t: plain text in a
// small subset of Markdown (CheckPage), drawn from docs/RULES.md.
func Rules(game string, t language.Tag) (string, error) {
	base, _, _ := strings.Cut(game, ":")
	b, err := fs.ReadFile(files, "rules/"+base+"/"+Code(t)+".md")
	if err != nil {
		return "", fmt.Errorf("words: no rules page for %q in %s", game, Code(t))
	}
	return string(b), nil
}

// RuleGames lists the games that have rules pages.
func RuleGames() []string {
	dirs, err := fs.ReadDir(files, "rules")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	var out []string
	for _, d := range dirs {
		if d.IsDir() {
			out = append(out, d.Name())
		}
	}
	return out
}

// CheckPage returns an error naming the first line of a rules page outside
// the subset both the terminal and the page show as they are: a first
// line "# title", then paragraphs, "## " headings and "- " list items,
// separated by blank lines where a paragraph or heading ends; no other
// Markdown (emphasis, links, code, tables).
func CheckPage(page string) error {
	lines := strings.Split(strings.TrimSuffix(page, "\n"), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "# ") || lines[1] != "" {
		return fmt.Errorf("line 1: want a title \"# ...\" and a blank line")
	}
	for i, l := range lines[1:] {
		n := i + 2
		switch {
		case strings.ContainsAny(l, "*_`[]|<>#") && !strings.HasPrefix(l, "## "):
			return fmt.Errorf("line %d: %q: no Markdown beyond \"## \" headings and \"- \" items", n, l)
		case strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "## "):
			return fmt.Errorf("line %d: %q: only the first line is a \"# \" title", n, l)
		case l != strings.TrimSpace(l) && !strings.HasPrefix(l, "  "):
			return fmt.Errorf("line %d: stray spaces at an end", n)
		}
	}
	return nil
}
