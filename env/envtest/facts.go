package envtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"kumalak/env"
)

// Fact is one per-game ability the rest of kumalak reads, an optional
// interface of env.State that the game's own folder provides.
type Fact struct {
	Name string               // the env interface
	Has  func(env.State) bool // whether a position has it
	Use  string               // who reads it
}

// Facts lists what a registered game's State must provide besides
// env.State, so that adding a game touches only its folder, the registry,
// configs and docs. The fixed facts (names, words, sowing, solver,
// tablebase, model, calibration, balance) are data, env.Facts, which
// CheckFacts checks too.
var Facts = []Fact{
	{"env.Scorer", is[env.Scorer], "baseline agents, alpha-beta, adjudication, score targets"},
	{"env.Hasher", is[env.Hasher], "transposition tables, repeated positions"},
	{"env.Checker", is[env.Checker], "env.Play's reasons for an illegal move"},
	{"env.Perfter", is[env.Perfter], "perft (docs/RULES.md)"},
	{"env.Drawer", is[env.Drawer], "boards for people: commands, terminal play, the web page"},
	{"env.Sower", is[env.Sower], "what a move sowed home and what it captured (bot's plies)"},
}

func is[T any](st env.State) bool {
	_, ok := st.(T)
	return ok
}

// CheckFacts returns an error naming every ability of Facts that spec's
// game lacks and every fact of spec.Facts that is missing or disagrees
// with how the game plays: a name in each language, the store's word, a
// calibration and a balance test in range, the extra turn (seen in random
// games exactly when declared), and from the start position where the
// first stone of a sowing goes and whether the store is sown.
func CheckFacts(spec *env.Spec) error {
	st := spec.New()
	var errs []error
	for _, f := range Facts {
		if !f.Has(st) {
			errs = append(errs, fmt.Errorf("lacks %s (%s)", f.Name, f.Use))
		}
	}
	errs = append(errs, checkData(&spec.Facts)...)
	errs = append(errs, checkSowing(spec), checkExtraTurn(spec))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("game %s: %w", spec.Name, err)
	}
	return nil
}

// checkData checks the facts that are data alone.
func checkData(f *env.Facts) []error {
	var errs []error
	for i, n := range [...]string{f.Names.KK, f.Names.RU, f.Names.TR, f.Names.EN} {
		if n == "" {
			errs = append(errs, fmt.Errorf("no name in %s (Facts.Names)", env.Langs[i]))
		}
	}
	if f.Words.Store == "" {
		errs = append(errs, errors.New("no word for the store (Facts.Words)"))
	}
	if c := f.Calibration; c.Slope <= 0 || c.DrawBand < 0 {
		errs = append(errs, fmt.Errorf("calibration %+v: want a slope > 0 and a draw band >= 0 (alpha-beta's win probabilities, agent.CalibrationOf)", c))
	}
	if b := f.Balance; b.Depth < 1 || b.Margin < 0 {
		errs = append(errs, fmt.Errorf("balance %+v: want a depth >= 1 and a margin >= 0 (balanced openings, arena.BalanceOf)", b))
	}
	return errs
}

// checkSowing plays the first and the last pit of the start position,
// each of which must hold at least two stones (the first fewer than the
// two sides' pits, so that it sows no lap): the first pit keeps one stone exactly when FirstBack, and the last
// pit's sowing sends a stone home (Sower) exactly when StoreSown.
func checkSowing(spec *env.Spec) error {
	first, last := env.Action(0), env.Action(spec.Pits-1)
	pos, err := env.ParsePosition(sixFields(spec.New()), spec.Pits, spec.Stones)
	if err != nil {
		return err
	}
	n, m := pos.Pits[env.White][first], pos.Pits[env.White][last]
	if n < 2 || n >= 2*spec.Pits || m < 2 {
		return nil // a start position that tells nothing
	}
	st := spec.New()
	st.Apply(first)
	after, err := env.ParsePosition(sixFields(st), spec.Pits, spec.Stones)
	if err != nil {
		return err
	}
	if back := after.Pits[env.White][first] == 1; back != spec.Facts.FirstBack {
		return fmt.Errorf("Facts.FirstBack is %v, but pit 1 of %d stones holds %d after it is played", spec.Facts.FirstBack, n, after.Pits[env.White][first])
	}
	if home := env.SownHome(spec.New(), last) > 0; home != spec.Facts.StoreSown {
		return fmt.Errorf("Facts.StoreSown is %v, but pit %d of %d stones sows %d home", spec.Facts.StoreSown, last.Pit(), m, env.SownHome(spec.New(), last))
	}
	return nil
}

// sixFields returns the six fields of st's position string that every game
// shares (a Kalah game with a ply limit adds the ply).
func sixFields(st env.State) string {
	f := strings.Fields(st.String())
	return strings.Join(f[:min(6, len(f))], " ")
}

// checkExtraTurn plays random games: a player moving twice in a row must
// be seen exactly when Facts.ExtraTurn.
func checkExtraTurn(spec *env.Spec) error {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf [env.MaxActions]env.Action
	for range 50 {
		st := spec.New()
		for ply := 0; ply < 1000 && st.Result() == env.Ongoing; ply++ {
			me, moves := st.ToMove(), st.Legal(buf[:0])
			st.Apply(moves[rng.IntN(len(moves))])
			if st.Result() == env.Ongoing && st.ToMove() == me {
				if !spec.Facts.ExtraTurn {
					return fmt.Errorf("Facts.ExtraTurn is false, but %s moved twice in a row", me.Name())
				}
				return nil
			}
		}
	}
	if spec.Facts.ExtraTurn {
		return errors.New("Facts.ExtraTurn is true, but no player moved twice in a row in 50 random games")
	}
	return nil
}
