package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"kumalak/env"
	"kumalak/env/togyz"
)

func init() { commands = append(commands, newReplayCmd) }

func newReplayCmd() *cobra.Command {
	var g gameFlags
	c := &cobra.Command{
		Use:   "replay [flags] MOVES...",
		Short: "Play a sequence of moves and print the final position and result",
		Long: "replay plays MOVES from the start (or --position) and prints the final position\n" +
			"string, then \"result R\" (1-0, 0-1, 1/2-1/2 or *), then the board and, for togyz,\n" +
			"the record in standard notation. Moves are pit numbers from the mover's side;\n" +
			"togyz also takes the record form (\"76\", \"36x\": pit, landing pit, x for a tuzdyk),\n" +
			"whose landing pit is checked. Move numbers such as \"1.\" are skipped.",
		Example: "  kumalak replay --game togyz 7 9 5 5\n  kumalak replay --game togyz 1. 76 98 2. 55 12\n  kumalak replay --game mangala 3 6 1",
		RunE: func(c *cobra.Command, args []string) error {
			spec, st, err := g.state("replay")
			if err != nil {
				return err
			}
			start := env.Clone(st)
			moves, err := replay(st, args)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			fmt.Fprintln(out, st.String())
			fmt.Fprintf(out, "result %s\n", st.Result())
			fmt.Fprint(out, draw(st))
			if spec.Name == "togyz" {
				rec, err := togyz.FormatRecord(start.(*togyz.Board), moves)
				if err != nil {
					return fmt.Errorf("replay: %w", err)
				}
				fmt.Fprintf(out, "record %s %s\n", rec, st.Result())
			}
			return nil
		},
	}
	g.add(c)
	return c
}

var (
	moveNumber = regexp.MustCompile(`^\d+\.(\.\.)?$`)
	togyzToken = regexp.MustCompile(`^([0-9])([0-9])?(x)?$`)
)

// replay plays the move tokens on st and returns the actions played, or a
// usage error naming the first bad move, e.g.
// "replay: move 14 (pit 5): pit is empty".
func replay(st env.State, tokens []string) ([]env.Action, error) {
	var moves []env.Action
	for _, tok := range tokens {
		tok = strings.TrimSpace(tok)
		if tok == "" || moveNumber.MatchString(tok) {
			continue
		}
		n := len(moves) + 1
		a, err := playToken(st, tok)
		if err != nil {
			label := tok
			if _, isPit := strconv.Atoi(tok); isPit == nil && len(tok) <= 1 || st.Spec().Name != "togyz" {
				label = "pit " + tok
			}
			return nil, badInput("replay", "move %d (%s): %v", n, label, err)
		}
		moves = append(moves, a)
	}
	return moves, nil
}

// playToken plays one move token on st.
func playToken(st env.State, tok string) (env.Action, error) {
	b, isTogyz := st.(*togyz.Board)
	if !isTogyz || len(tok) == 1 {
		pit, err := strconv.Atoi(tok)
		if err != nil {
			return 0, fmt.Errorf("not a pit number")
		}
		return playPit(st, pit)
	}
	m := togyzToken.FindStringSubmatch(tok)
	if m == nil {
		return 0, fmt.Errorf("not a move (want a pit 1..9, or pit and landing pit like 76 or 36x)")
	}
	pit, _ := strconv.Atoi(m[1])
	a, err := checkPit(st, pit)
	if err != nil {
		return 0, err
	}
	before := *b
	note := b.ApplyNoted(a)
	land, _ := strconv.Atoi(m[2])
	if m[2] != "" && int(note.Land) != land {
		*b = before
		return 0, fmt.Errorf("last stone fell in pit %d", note.Land)
	}
	if (m[3] == "x") != note.Tuzdyk {
		*b = before
		if note.Tuzdyk {
			return 0, fmt.Errorf("the move makes a tuzdyk: write %s", note)
		}
		return 0, fmt.Errorf("the move makes no tuzdyk")
	}
	return a, nil
}

// playPit plays a move given as a pit number.
func playPit(st env.State, pit int) (env.Action, error) {
	a, err := checkPit(st, pit)
	if err != nil {
		return 0, err
	}
	st.Apply(a)
	return a, nil
}

// checkPit returns the action for pit, or the reason it can't be played
// ("pit is empty", "out of range 1..9", "game is over (1-0)").
func checkPit(st env.State, pit int) (env.Action, error) {
	if n := st.Spec().NumActions; pit < 1 || pit > n {
		return 0, fmt.Errorf("out of range 1..%d", n)
	}
	a, err := env.CheckMove(st, pit)
	if err != nil {
		return 0, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), env.ErrIllegal.Error()+": "))
	}
	return a, nil
}
