package env

import (
	"slices"
	"strings"
	"testing"
)

func TestParseOptions(t *testing.T) {
	for _, c := range []struct {
		s    string
		want []Option
		err  string
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"houses=4,seeds=3", []Option{{"houses", "4"}, {"seeds", "3"}}, ""},
		{" sims = 400 , time=1s,", []Option{{"sims", "400"}, {"time", "1s"}}, ""},
		{"x=1,cmd=./eng --a,b", []Option{{"x", "1"}, {"cmd", "./eng --a,b"}}, ""},
		{"depth=3,,tt=1", nil, `option "" is not key=value`},
		{"depth", nil, `option "depth" is not key=value`},
		{"depth=", nil, `option "depth=" is not key=value`},
		{"=3", nil, `option "=3" is not key=value`},
		{"tt=1,tt=2", nil, `key "tt" given twice`},
		{"a=1,b=2,c", nil, `option "c" is not key=value`},
	} {
		got, err := ParseOptions(c.s, "cmd")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.s, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.s, got, err, c.want)
		}
	}
}

func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{"houses=4,seeds=3", " a = b ,", "x,y=", "cmd=a,b,c", "k=v,k=w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		opts, err := ParseOptions(s, "cmd")
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, o := range opts {
			if o.Key == "" || o.Value == "" || seen[o.Key] || strings.TrimSpace(o.Key) != o.Key || strings.TrimSpace(o.Value) != o.Value {
				t.Fatalf("%q: bad option %+v in %v", s, o, opts)
			}
			seen[o.Key] = true
			if strings.Contains(o.Key, ",") || o.Key != "cmd" && strings.Contains(o.Value, ",") {
				t.Fatalf("%q: a comma inside %+v", s, o)
			}
		}
	})
}
