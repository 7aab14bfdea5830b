package train

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestLoadConfig: the shipped configs load and validate; a config written
// by a run reads back the same; bad files are errors naming the problem.
func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		path string
		err  string // "" loads
	}{
		{"../configs/tiny.yaml", ""},
		{"../configs/togyz.yaml", ""},
		{write("seed.yaml", "seed: 7\n"), ""},
		{write("unknown.yaml", "seeds: 7\n"), "field seeds not found"},
		{write("type.yaml", "seed: many\n"), "cannot unmarshal"},
		{filepath.Join(dir, "none.yaml"), "train: config: open "},
	}
	for _, c := range cases {
		cfg, err := LoadConfig(c.path)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "train: config") {
				t.Errorf("%s: %v, want an error with %q", c.path, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if _, err := cfg.Resolve(); err != nil {
			t.Errorf("%s: resolve: %v", c.path, err)
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s: %v", c.path, err)
		}
		d := Dir(t.TempDir())
		if err := saveConfig(d, cfg); err != nil {
			t.Fatal(err)
		}
		back, err := LoadConfig(d.Config())
		a, _ := yaml.Marshal(cfg)
		b, _ := yaml.Marshal(back)
		if err != nil || string(a) != string(b) {
			t.Errorf("%s: read back %v\n%s\nwant\n%s", c.path, err, b, a)
		}
	}
	if cfg, _ := LoadConfig(cases[2].path); cfg.Seed != 7 || cfg.Games != DefaultConfig().Games {
		t.Errorf("seed.yaml: seed %d, games %d: want 7 over the defaults", cfg.Seed, cfg.Games)
	}
}

// FuzzDecodeConfig: DecodeConfig never panics, and what it accepts writes
// and reads back to the same YAML.
func FuzzDecodeConfig(f *testing.F) {
	for _, s := range []string{"", "seed: 7\n", "game: mangala\nnet:\n  blocks: 2\n", "budget: 2h\n", "seeds: 1\n", "[1, 2]", "selfplay: {games: -1}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cfg, err := DecodeConfig(b)
		if err != nil {
			return
		}
		out, err := yaml.Marshal(cfg)
		if err != nil {
			return // a value yaml can read but not write (none known)
		}
		back, err := DecodeConfig(out)
		if err != nil {
			t.Fatalf("%q wrote %s, which does not read back: %v", b, out, err)
		}
		if again, _ := yaml.Marshal(back); string(again) != string(out) {
			t.Fatalf("%q: wrote\n%s\nthen\n%s", b, out, again)
		}
	})
}
