package words

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The places the front ends (every package under bot/ and cmd/, and the
// page's scripts) name a message: a literal key, or the start of one built at run
// time ("standing." + side).
var (
	// Go: T("key", ...), s.say("key", ...); JS: t("key", ...), data-t*="key".
	callKey   = regexp.MustCompile(`(?:\bT|\bs\.say|\bt)\(\s*"([a-z][a-z0-9.-]*[a-z0-9])"\s*[,)]|data-t(?:-label|-title)?="([^"]+)"`)
	prefixKey = regexp.MustCompile(`(?:\bT|\bs\.say|\bt)\(\s*"([a-z][a-z0-9.-]*\.)"\s*\+`)
	// quoted is any string literal: one that is a key counts as a use (a
	// key chosen by a condition, "page.nostart" or "page.noreach").
	quoted = regexp.MustCompile(`"([a-z][a-z0-9.-]*[a-z0-9])"`)
)

// TestKeysUsed: every key the front ends name is in the catalogs (which
// TestCatalogsAgree holds to every language), and every key of the
// catalogs is named somewhere, literally or by the start of a key built at
// run time.
func TestKeysUsed(t *testing.T) {
	called, used, prefixes := map[string]string{}, map[string]string{}, map[string]string{"word.": "Word", "standing.": "Standing"}
	walk := func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if ext != ".js" && ext != ".html" && (ext != ".go" || strings.HasSuffix(path, "_test.go")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range callKey.FindAllStringSubmatch(string(b), -1) {
			for _, k := range m[1:] {
				if k != "" {
					called[k] = path
				}
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = path
		}
		for _, m := range prefixKey.FindAllStringSubmatch(string(b), -1) {
			prefixes[m[1]] = path
		}
		return nil
	}
	for _, root := range []string{"..", filepath.Join("..", "..", "cmd")} {
		if err := filepath.WalkDir(root, walk); err != nil {
			t.Fatal(err)
		}
	}
	en := catalogs["en"]
	if len(called) < 50 || len(prefixes) < 5 {
		t.Fatalf("found %d keys and %d key starts in the front ends: the patterns miss them", len(called), len(prefixes))
	}
	for k, path := range called {
		if _, ok := en[k]; !ok {
			t.Errorf("%s names %q, which the catalogs lack", path, k)
		}
	}
	for p, path := range prefixes {
		if !hasPrefix(en, p) {
			t.Errorf("%s builds keys from %q, and no key starts so", path, p)
		}
	}
next:
	for k := range en {
		if _, ok := used[k]; ok {
			continue
		}
		for p := range prefixes {
			if strings.HasPrefix(k, p) {
				continue next
			}
		}
		t.Errorf("catalog key %q is never used", k)
	}
}

func hasPrefix(c Catalog, p string) bool {
	for k := range c {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}
