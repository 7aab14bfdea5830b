package solve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"kumalak/env"
)

// Step is one position of a perfect line: the position, its value (the
// final store difference for the player to move under perfect play) and
// the move played from it, none at the end of the game (End).
type Step struct {
	Position env.State
	Value    int
	Move     env.Action
	End      bool
}

// Line plays a perfect line from st to the end of the game: at each
// position the solver proves the value and its best moves (ValueOnly) and
// the line goes on by the first best move in pit order. The solver's
// table, tablebase and shipped bounds serve every position; its state and
// bounds files are neither read nor written (their root is st alone).
// Each position may take as long as it needs: ctx stops it, with an error.
func (s *Solver) Line(ctx context.Context, st env.State) ([]Step, error) {
	saved := s.cfg
	defer func() { s.cfg = saved }()
	s.cfg.State, s.cfg.Bounds, s.cfg.ValueOnly, s.cfg.Log = "", nil, true, nil
	var line []Step
	cur := env.Clone(st)
	seen := map[string]bool{}
	for cur.Result() == env.Ongoing {
		pos := cur.String()
		if seen[pos] {
			// kale: by the solver's convention a repetition ends the game,
			// each player storing their own row; the line stops there.
			return line, fmt.Errorf("solve: line stopped at %s after %d moves: the position repeats", pos, len(line))
		}
		seen[pos] = true
		r, err := s.SolveContext(ctx, cur, 0)
		if err != nil {
			return line, err
		}
		if !r.Exact() {
			return line, fmt.Errorf("solve: line stopped at %s after %d moves: %v", cur, len(line), ctx.Err())
		}
		step := Step{Position: env.Clone(cur), Value: r.Lo, End: true}
		for _, m := range r.Moves {
			if m.Exact() && m.Lo == r.Lo {
				step.Move, step.End = m.Action, false
				break
			}
		}
		if step.End {
			return line, fmt.Errorf("solve: %s: no move of the value %+d proved", cur, r.Lo)
		}
		line = append(line, step)
		cur.Apply(step.Move)
	}
	return append(line, Step{Position: cur, Value: finalDiff(cur), End: true}), nil
}

// WriteLine plays a perfect line from st (Line) and writes it (WriteLine);
// a line cut short is written as far as it got, with the error.
func (s *Solver) WriteLine(ctx context.Context, w io.Writer, st env.State) error {
	line, err := s.Line(ctx, st)
	if len(line) == 0 {
		return err
	}
	return errors.Join(err, WriteLine(w, line))
}

// WriteLine writes a line in the form ReadLine reads: a header, one row a
// position ("ply value pit position", the value from the mover's view, pit
// "-" at the end), and the moves in the game's notation.
func WriteLine(w io.Writer, line []Step) error {
	if len(line) == 0 {
		return errors.New("solve: an empty line")
	}
	spec := line[0].Position.Spec()
	fmt.Fprintf(w, "kumalak-line 1\ngame %s\n# ply value pit position: value = the final store difference for the player to move under perfect play\n", spec.Name)
	var moves []env.Action
	for i, s := range line {
		pit := "-"
		if !s.End {
			pit = strconv.Itoa(s.Move.Pit())
			moves = append(moves, s.Move)
		}
		fmt.Fprintf(w, "%d %+d %s %s\n", i, s.Value, pit, s.Position)
	}
	text, err := spec.FormatMoves(line[0].Position, moves)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "moves %s\n", text)
	return err
}

// ReadLine reads a line that WriteLine wrote, replaying it by the rules:
// each row's position must be the one its moves reach, each move legal,
// and the last row the end of the game.
func ReadLine(r io.Reader, spec *env.Spec) ([]Step, error) {
	sc := bufio.NewScanner(r)
	var line []Step
	var cur env.State
	n := 0
	head := []string{"kumalak-line 1", "game " + spec.Name}
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if n <= len(head) {
			if text != head[n-1] {
				return nil, fmt.Errorf("solve: line %d: %q, want %q", n, text, head[n-1])
			}
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "moves ") {
			continue
		}
		f := strings.SplitN(text, " ", 4)
		if len(f) != 4 {
			return nil, fmt.Errorf("solve: line %d: %q: want ply value pit position", n, text)
		}
		pos, err := spec.Parse(f[3])
		if err != nil {
			return nil, fmt.Errorf("solve: line %d: %w", n, err)
		}
		ply, err1 := strconv.Atoi(f[0])
		v, err2 := strconv.Atoi(f[1])
		if err := errors.Join(err1, err2); err != nil || ply != len(line) {
			return nil, fmt.Errorf("solve: line %d: ply %q, value %q (ply %d expected)", n, f[0], f[1], len(line))
		}
		if cur != nil && cur.String() != pos.String() {
			return nil, fmt.Errorf("solve: line %d: %s, but the moves reach %s", n, pos, cur)
		}
		step := Step{Position: pos, Value: v, End: f[2] == "-"}
		next := env.Clone(pos)
		if !step.End {
			a, err := env.ReadPit(next, f[2])
			if err != nil {
				return nil, fmt.Errorf("solve: line %d: %w", n, err)
			}
			step.Move = a
		}
		line = append(line, step)
		if step.End {
			if pos.Result() == env.Ongoing {
				return nil, fmt.Errorf("solve: line %d: the line ends before the game does", n)
			}
			return line, sc.Err()
		}
		cur = next
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("solve: the line stops after %d rows before the end of the game", len(line))
}
