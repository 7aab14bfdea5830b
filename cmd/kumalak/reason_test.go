package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"kumalak/agent"
	"kumalak/arena"
	"kumalak/bot/analysis"
	"kumalak/bot/choose"
)

// TestReason: the packages' ValueErrors lose their package's name, however
// wrapped; other errors keep their text.
func TestReason(t *testing.T) {
	_, tcErr := agent.ParseTimeControl("x")
	_, chooseErr := choose.Resolve(choose.Request{Model: "m.kmodel", Agent: "ab"})
	cases := []struct {
		err        error
		want, from string // want: the reason's start; from: the package prefix it drops
	}{
		{arena.Config{}.Validate(), "games 0 out of range", "arena: "},
		{fmt.Errorf("wrapped: %w", arena.Config{}.Validate()), "games 0 out of range", "arena: "},
		{tcErr, `time control "x": `, "agent: "},
		{analysis.Thresholds{}.Validate(), "thresholds 0/0/0: ", "analysis: "},
		{chooseErr, "give --model or --agent, not both", "choose: "},
		{errors.New("arena: not a ValueError"), "arena: not a ValueError", ""},
	}
	for _, c := range cases {
		got := reason(c.err)
		if !strings.HasPrefix(got, c.want) || c.from != "" && !strings.Contains(c.err.Error(), c.from+got) {
			t.Errorf("reason(%q) = %q, want it to start %q", c.err, got, c.want)
		}
	}
}
