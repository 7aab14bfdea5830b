package solve

import (
	"errors"
	"fmt"
	"strings"

	"kumalak/env"
	"kumalak/env/mangala"
)

// Solvable returns nil when Solver.Solve takes positions of game (its
// env.Facts.Solver), else an error naming the games it takes.
func Solvable(game *env.Spec) error {
	if game.Facts.Solver {
		return nil
	}
	return fmt.Errorf("the solver plays %s only, not %s", strings.Join(env.GamesWhere(solvable), ", "), game.Name)
}

func solvable(s *env.Spec) bool { return s.Facts.Solver }

// CheckFor returns an error naming what the solve of st cannot take: a
// game without the solver, and for a position that can repeat
// (mangala-kale, whose values under the repetition convention lean on the
// search path) ValueOnly, State and Bounds. Commands check a request
// with it before New. Shipped bounds are simply not read there.
func (c Config) CheckFor(st env.State) error {
	if err := Solvable(st.Spec()); err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	if !repeats(st) {
		return nil
	}
	var errs []error
	if c.ValueOnly {
		errs = append(errs, fmt.Errorf("solve: ValueOnly: %s solves prove every move (kalah and classic mangala can stop at the value)", st.Spec().Name))
	}
	if c.State != "" {
		errs = append(errs, fmt.Errorf("solve: State: %s solves are not resumable (kalah and classic mangala are)", st.Spec().Name))
	}
	if len(c.Bounds) > 0 {
		errs = append(errs, fmt.Errorf("solve: Bounds: %s solves carry no bounds files (kalah and classic mangala do)", st.Spec().Name))
	}
	return errors.Join(errs...)
}

// repeats reports whether positions of st's game can repeat (kale).
func repeats(st env.State) bool {
	b, ok := st.(*mangala.Board)
	return ok && b.Kale()
}

// HasTablebases reports whether kumalak builds tablebases of game's
// positions (its env.Facts.Tablebase names their kind).
func HasTablebases(game *env.Spec) bool { return game.Facts.Tablebase != "" }

// NoTablebases returns nil for a game that has tablebases (HasTablebases),
// else the error that names the games that have.
func NoTablebases(game *env.Spec) error {
	if HasTablebases(game) {
		return nil
	}
	has := env.GamesWhere(HasTablebases)
	return fmt.Errorf("solve: %s has no tablebases (%s have; see docs/TABLEBASE.md)", game.Name, strings.Join(has, ", "))
}

// OpenFor opens the tablebase in dir of game's kind (its
// env.Facts.Tablebase), an error for a game that has none.
func OpenFor(game *env.Spec, dir string) (*Tablebase, error) {
	if err := NoTablebases(game); err != nil {
		return nil, err
	}
	return OpenGame(dir, game.Facts.Tablebase, -1)
}
