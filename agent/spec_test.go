package agent

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"kumalak/env/envtest"
)

func TestParseSpec(t *testing.T) {
	cases := []struct {
		in   string
		want Spec
		out  string
	}{
		{"random", Spec{Kind: "random"}, "random"},
		{"ab:tt=8,depth=3", Spec{Kind: "ab", Limits: Limits{Depth: 3}, Options: []KeyValue{{"tt", "8"}}}, "ab:depth=3,tt=8"},
		{"ab:time=1500ms", Spec{Kind: "ab", Limits: Limits{Time: 1500 * time.Millisecond}}, "ab:time=1.5s"},
		{"mcts:sims=0,time=2s,cpuct=2", Spec{Kind: "mcts", Limits: Limits{Time: 2 * time.Second}, Options: []KeyValue{{"cpuct", "2"}}}, "mcts:time=2s,cpuct=2"},
		{"model:path=a=b.kmodel,sims=400", Spec{Kind: "model", Limits: Limits{Sims: 400}, Options: []KeyValue{{"path", "a=b.kmodel"}}}, "model:path=a=b.kmodel,sims=400"},
		{"engine:sims=5,cmd=./bin/kumalak engine --agent ab:depth=3,tt=8", Spec{Kind: "engine", Limits: Limits{Sims: 5},
			Options: []KeyValue{{"cmd", "./bin/kumalak engine --agent ab:depth=3,tt=8"}}}, "engine:sims=5,cmd=./bin/kumalak engine --agent ab:depth=3,tt=8"},
		{"engine:movetime=250,cmd=x", Spec{Kind: "engine", Limits: Limits{Time: 250 * time.Millisecond}, Options: []KeyValue{{"cmd", "x"}}}, "engine:time=250ms,cmd=x"},
		{"engine:time=1s,cmd=x", Spec{Kind: "engine", Limits: Limits{Time: time.Second}, Options: []KeyValue{{"cmd", "x"}}}, "engine:time=1s,cmd=x"},
	}
	for _, c := range cases {
		got, err := ParseSpec(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		if s := got.String(); s != c.out {
			t.Errorf("String of %q = %q, want %q", c.in, s, c.out)
		}
	}
	for in, want := range map[string]string{
		"":                   "empty kind",
		"chess":              `unknown kind "chess"`,
		"ab:depth=3,,tt=1":   "is not key=value",
		"ab:depth=61":        "depth=61 out of range 1..60",
		"ab:sims=5":          `unknown key "sims" (keys of ab: depth, time, tt, mob)`,
		"random:x=1":         "random takes no keys",
		"ab:tt=1,tt=2":       `key "tt" given twice`,
		"mcts:sims=0":        "sims=0 needs time=",
		"mcts:time=soon":     "not a duration",
		"mcts:sims=1e9":      "not an integer",
		"mcts:sims=20000000": "out of range 0..10000000",
	} {
		if _, err := ParseSpec(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSpec(%q): %v, want %q", in, err, want)
		}
	}
}

// FuzzParseSpec holds ParseSpec to its round trip.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"ab:depth=3,tt=8", "mcts:sims=0,time=1s", "engine:sims=5,cmd=a, b", "model:path=x,sims=1", "greedy:extra=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s)
		if err != nil {
			return
		}
		back, err := ParseSpec(sp.String())
		if err != nil || !reflect.DeepEqual(back, sp) {
			t.Fatalf("%q parsed to %+v, wrote %q, parsed back to %+v, %v", s, sp, sp.String(), back, err)
		}
	})
}

func TestWithLimits(t *testing.T) {
	cases := []struct {
		spec string
		lim  Limits
		want string
		err  string
	}{
		{"ab:depth=6,tt=4", Limits{}, "ab:depth=6,tt=4", ""},
		{"ab:depth=6,tt=4", Limits{Time: 1500 * time.Millisecond}, "ab:time=1.5s,tt=4", ""},
		{"ab:time=1s", Limits{Depth: 3}, "ab:depth=3", ""},
		{"ab:depth=3", Limits{Sims: 100}, "", "kind ab takes no sims limit"},
		{"ab", Limits{Depth: 61}, "", "depth 61 out of range 0..60"},
		{"mcts:sims=800,cpuct=2", Limits{Time: time.Second}, "mcts:time=1s,cpuct=2", ""},
		{"mcts:time=1s", Limits{Sims: 50}, "mcts:sims=50", ""},
		{"mcts", Limits{Sims: 50, Time: 2 * time.Second}, "mcts:sims=50,time=2s", ""},
		{"random", Limits{Sims: 5}, "", "kind random takes no sims limit"},
	}
	for _, c := range cases {
		sp, err := ParseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sp.WithLimits(c.lim)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s with %v: %v, want %q", c.spec, c.lim, err, c.err)
		case c.err == "" && (err != nil || got.String() != c.want):
			t.Errorf("%s with %v = %q, %v; want %q", c.spec, c.lim, got, err, c.want)
		}
	}
}

// TestSetLimitsKeepsOtherDimensions pins the bugs of limits given in a
// dimension the agent lacks: sims to alpha-beta left its depth at the
// default 6, depth to MCTS its sims at the default 800.
func TestSetLimitsKeepsOtherDimensions(t *testing.T) {
	cases := []struct {
		spec    string
		lim     Limits
		want    Limits
		dropped Limits
	}{
		{"ab:depth=3", Limits{Sims: 400}, Limits{Depth: 3}, Limits{Sims: 400}},
		{"ab:depth=3", Limits{Sims: 400, Time: time.Second}, Limits{Depth: MaxDepth, Time: time.Second}, Limits{Sims: 400}},
		{"ab:depth=3", Limits{Depth: 5}, Limits{Depth: 5}, Limits{}},
		{"mcts:sims=50", Limits{Depth: 5}, Limits{Sims: 50}, Limits{Depth: 5}},
		{"mcts:sims=50", Limits{Time: time.Second}, Limits{Time: time.Second}, Limits{}},
		{"mcts:time=1s", Limits{Sims: 9, Depth: 2}, Limits{Sims: 9}, Limits{Depth: 2}},
		{"mcts", Limits{}, Limits{Sims: 800}, Limits{}},
		{"random", Limits{Depth: 2}, Limits{}, Limits{Depth: 2}},
	}
	for _, c := range cases {
		a, err := New(envtest.Kalah3, c.spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		dropped, err := SetLimits(a, c.lim)
		var got Limits
		if l, ok := a.(Limiter); ok {
			got = l.Limits()
		}
		if err != nil || got != c.want || dropped != c.dropped {
			t.Errorf("%s, SetLimits %v: limits %v, dropped %v, %v; want %v, dropped %v", c.spec, c.lim, got, dropped, err, c.want, c.dropped)
		}
	}
	a, _ := New(envtest.Kalah3, "ab", 1)
	if _, err := SetLimits(a, Limits{Depth: MaxDepth + 1}); err == nil {
		t.Errorf("depth %d accepted", MaxDepth+1)
	}
}

// Check builds every spec once: nil when all are good, New's error for
// the first bad one.
func TestCheck(t *testing.T) {
	if err := Check(envtest.Kalah3, "random", "greedy", "ab:depth=2"); err != nil {
		t.Errorf("good specs: %v", err)
	}
	for _, bad := range [][]string{{"nope"}, {"random", "ab:depth=-1"}, {"mcts:sims=x"}} {
		err := Check(envtest.Kalah3, bad...)
		if err == nil || errors.Is(err, ErrClose) {
			t.Errorf("%v: %v, want New's error", bad, err)
		}
	}
}

// An optional clock: none for "", the time control parsed, else its error.
func TestParseClock(t *testing.T) {
	if tc, err := ParseClock(""); tc != nil || err != nil {
		t.Errorf(`"": %v, %v; want no clock`, tc, err)
	}
	want, _ := ParseTimeControl("60+1")
	if tc, err := ParseClock("60+1"); err != nil || tc == nil || *tc != want {
		t.Errorf("60+1: %v, %v; want %v", tc, err, want)
	}
	var ve *ValueError
	if tc, err := ParseClock("x"); tc != nil || !errors.As(err, &ve) {
		t.Errorf("x: %v, %v; want a ValueError", tc, err)
	}
}
