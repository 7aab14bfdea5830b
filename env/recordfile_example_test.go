package env_test

import (
	"fmt"
	"os"
	"strings"

	"kumalak/env"
)

// A record file is read game by game; each game knows its tags, its start,
// its moves and its result, and writes itself back.
func ExampleReadRecords() {
	text := `[White "Ayan"]
[Black "Dana"]
[Game "togyz"]

1. 21 65 2. 34 22x *
`
	games, err := env.ReadRecords(strings.NewReader(text), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := games[0]
	fmt.Println(g.Spec.Name, g.Tag("White"), "vs", g.Tag("Black"), len(g.Moves), "moves", g.Result)
	_, err = env.ReadRecords(strings.NewReader("[Game \"togyz\"]\n\n1. 76 98 2. 55 12x\n"), nil)
	fmt.Println(err)
	// Output:
	// togyz Ayan vs Dana 4 moves *
	// env: record game 1, line 3: togyz: move 4 (12x): no tuzdyk was made
}

func ExampleWriteRecords() {
	spec, _ := env.Lookup("mangala")
	g := &env.GameRecord{Spec: spec, Moves: []env.Action{3, 2}} // 4, then 3 after the extra turn
	g.SetTag("Event", "club night")
	if err := env.WriteRecords(os.Stdout, g); err != nil {
		fmt.Println(err)
	}
	// Output:
	// [Event "club night"]
	// [Site "?"]
	// [Date "?"]
	// [Round "?"]
	// [White "?"]
	// [Black "?"]
	// [Result "*"]
	// [Game "mangala"]
	//
	// 4 3 *
}
