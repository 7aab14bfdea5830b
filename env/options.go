package env

import (
	"fmt"
	"slices"
	"strings"
)

// Option is one key=value of a name:key=value string: an agent spec
// ("mcts:sims=400,time=1s") or a game family's variant
// ("kalah:houses=4,seeds=3").
type Option struct{ Key, Value string }

// ParseOptions reads the options of a name:key=value string, the part
// after the colon: comma-separated key=value pairs, spaces around keys and
// values dropped, a trailing comma allowed. It refuses a part that is not
// key=value with both sides non-empty ("option "x" is not key=value") and
// a key given twice ("key "x" given twice"). A key of last takes the rest
// of s, commas included (an engine's command line).
func ParseOptions(s string, last ...string) ([]Option, error) {
	var opts []Option
	for strings.TrimSpace(s) != "" {
		part, tail, _ := strings.Cut(s, ",")
		s = tail
		if k, _, ok := strings.Cut(part, "="); ok && tail != "" && slices.Contains(last, strings.TrimSpace(k)) {
			part, s = part+","+tail, ""
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("option %q is not key=value", part)
		}
		if slices.ContainsFunc(opts, func(o Option) bool { return o.Key == k }) {
			return nil, fmt.Errorf("key %q given twice", k)
		}
		opts = append(opts, Option{k, v})
	}
	return opts, nil
}
