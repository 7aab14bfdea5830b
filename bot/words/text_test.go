package words

import (
	"fmt"
	"testing"

	"kumalak/env"
	_ "kumalak/env/games" // registers the games
)

func TestWords(t *testing.T) {
	spec, err := env.Lookup("togyz")
	if err != nil {
		t.Fatal(err)
	}
	st := spec.New()
	if got := Pits(env.LegalPits(st)); got != "1 2 3 4 5 6 7 8 9" {
		t.Errorf("Pits of togyz's start: %q", got)
	}
	if got := Pits(nil); got != "" {
		t.Errorf("Pits(nil) = %q", got)
	}
	if got := Moves(st, []env.Action{6, 2}); got == "" {
		t.Error("Moves of two legal moves is empty")
	}
	if got := Moves(st, []env.Action{200}); got != "" {
		t.Errorf("Moves of an illegal move = %q, want empty", got)
	}
	// Play the first legal move to the end: the result names the winner and the stores.
	var buf [env.MaxActions]env.Action
	for st.Result() == env.Ongoing {
		st.Apply(st.Legal(buf[:0])[0])
	}
	sc := st.(env.Scorer)
	want := fmt.Sprintf("%s: %s (stores: white %d, black %d)", st.Result(), winner(st.Result()), sc.Store(env.White), sc.Store(env.Black))
	if got := Result(st); got != want {
		t.Errorf("Result = %q, want %q", got, want)
	}
}

func winner(r env.Result) string {
	if p, ok := r.Winner(); ok {
		return p.Name() + " wins"
	}
	return "a draw"
}
