package play

import (
	"context"
	"errors"

	"kumalak/env"
	_ "kumalak/env/games" // registers togyz, mangala, mangala-kale
	"kumalak/env/togyz"
)

// togyzParse reads togyz's record form, as cmd wires it.
func togyzParse(st env.State, tok string) (env.Action, error) {
	moves, err := togyz.ParseRecord(st.(*togyz.Board), tok)
	if err != nil {
		return 0, err
	}
	if len(moves) != 1 {
		return 0, errors.New("want one move")
	}
	return moves[0], nil
}

// failing is an agent whose every move fails.
type failing struct{}

func (failing) Move(context.Context, env.State) (env.Action, error) {
	return 0, errors.New("evaluator broke")
}
