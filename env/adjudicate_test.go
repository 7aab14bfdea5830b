package env_test

import (
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
	_ "kumalak/env/games"
)

func TestAdjudicate(t *testing.T) {
	togyz, _ := env.Lookup("togyz")
	cases := []struct {
		pos  string
		want env.Result
	}{
		{"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 - - w", env.Draw},
		{"9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,0 10 8 - - b", env.WhiteWins},
		{"9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,0 8 10 - - w", env.BlackWins},
	}
	for _, c := range cases {
		st, err := togyz.Parse(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := env.Adjudicate(st); got != c.want {
			t.Errorf("Adjudicate(%s) = %v, want %v", c.pos, got, c.want)
		}
	}
	if got := env.Adjudicate(envtest.Kalah3.New()); got != env.Draw {
		t.Errorf("Adjudicate of the toy's start = %v, want a draw", got)
	}
}
