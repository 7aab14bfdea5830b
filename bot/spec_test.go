package bot

import (
	"strings"
	"testing"
	"time"

	"kumalak/env"
	_ "kumalak/env/games"
)

func TestApplyLimits(t *testing.T) {
	cases := []struct {
		spec    string
		lim     Limits
		want    string
		ignored string
	}{
		{"ab:depth=6,tt=4", Limits{}, "ab:depth=6,tt=4", ""},
		{"ab:depth=6,tt=4", Limits{Time: 1500 * time.Millisecond}, "ab:tt=4,time=1.5s", ""},
		{"ab:time=1s", Limits{Depth: 3}, "ab:depth=3", ""},
		{"ab", Limits{Sims: 100, Depth: 2}, "ab:depth=2", "sims"},
		{"mcts:sims=800,cpuct=2", Limits{Time: time.Second}, "mcts:cpuct=2,time=1s,sims=0", ""},
		{"mcts:time=1s", Limits{Sims: 50}, "mcts:sims=50", ""},
		{"mcts", Limits{Sims: 50, Time: 2 * time.Second}, "mcts:sims=50,time=2s", ""},
		{"random", Limits{Sims: 5, Time: time.Second, Depth: 1}, "random", "sims time depth"},
	}
	for _, c := range cases {
		got, ignored, err := applyLimits(c.spec, c.lim)
		if err != nil || got != c.want || strings.Join(ignored, " ") != c.ignored {
			t.Errorf("applyLimits(%q, %+v) = %q, %v, %v; want %q, ignored %q", c.spec, c.lim, got, ignored, err, c.want, c.ignored)
		}
	}
	if _, _, err := applyLimits("mcts:sims", Limits{Sims: 1}); err == nil {
		t.Error("a malformed spec was accepted")
	}
}

func TestWithLimitsBuildsAgents(t *testing.T) {
	spec, _ := env.Lookup("mangala")
	for _, s := range []string{"ab:depth=4", "mcts:sims=100"} {
		for _, l := range []Limits{{Time: 20 * time.Millisecond}, {Sims: 10}, {Depth: 2}} {
			out, err := WithLimits(s, l)
			if err != nil {
				if !strings.Contains(err.Error(), "takes no") {
					t.Errorf("WithLimits(%q, %+v): %v", s, l, err)
				}
				continue
			}
			if _, err := newAgent(spec, out); err != nil {
				t.Errorf("WithLimits(%q, %+v) = %q, which does not build: %v", s, l, out, err)
			}
		}
	}
	if _, err := WithLimits("random", Limits{Sims: 3}); err == nil || !strings.Contains(err.Error(), "kind random takes no sims limit") {
		t.Errorf("WithLimits(random, sims): %v", err)
	}
}
