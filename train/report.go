package train

import (
	"fmt"
	"io"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/net"
)

// WriteStart writes the run's opening lines: the run id its workers
// join (with a NATS server), its folder, game, the iterations done and
// the time trained, the inference kernel; then that it is already
// finished, or that a run with a budget stops by then, its final
// evaluation included.
func (r *Run) WriteStart(w io.Writer) {
	st, cfg := r.state, r.cfg
	if id := r.RunID(); id != "" {
		fmt.Fprintf(w, "nats: run id %s\n", id)
	}
	fmt.Fprintf(w, "run %s: game %s, iteration %d done, %s trained, inference kernel %s\n",
		r.dir, cfg.Game, st.Iteration, st.Elapsed().Round(time.Second), net.KernelName())
	if why := r.Finished(); why != "" {
		fmt.Fprintf(w, "run %s is already finished: %s; nothing to train\n", r.dir, why)
	} else if cfg.Budget > 0 && cfg.Eval.FinalBaselineGames > 0 {
		fmt.Fprintf(w, "budget %s: the run stops by then, its final evaluation (%d games a baseline) included\n", cfg.Budget, cfg.Eval.FinalBaselineGames)
	}
}

// WriteEnd writes how a run that Train returned from ended, stopped
// (interrupted) or finished, and what its operator does next: where the
// best model and its figures are, the commands that play, measure,
// compare (with the game's shipped model, WriteVersusShipped) and
// export it. self is the binary's name as the operator typed it.
func (r *Run) WriteEnd(w io.Writer, self string, stopped bool) error {
	st, dir := r.state, r.dir
	if stopped {
		fmt.Fprintf(w, "stopped; the run continues from iteration %d with: kumalak train --run %s --resume\n", st.Iteration, dir)
	} else {
		fmt.Fprintf(w, "finished: %s; to train it further: %s train --run %s --resume %s\n", r.Finished(), self, dir, r.Further())
	}
	fmt.Fprintf(w, "best model: %s (iteration %d of %d, %d games, %d samples, %s)\n",
		dir.Best(), st.BestIteration, st.Iteration, st.Games, st.Samples, st.Elapsed().Round(time.Second))
	fmt.Fprintf(w, "metrics:    %s, plots %s and %s\n", dir.Metrics(), dir.LossPlot(), dir.EloPlot())
	fmt.Fprintf(w, "play it:    %s play --model %s\n", self, dir.Best())
	fmt.Fprintf(w, "            %s serve --model %s   (then open http://127.0.0.1:8080)\n", self, dir.Best())
	if sp, err := agent.ModelSpec(dir.Best(), 0); err == nil { // a path with a comma has no spec
		fmt.Fprintf(w, "measure it: %s arena --game %s --a %s --b ab:depth=4 --games 100\n", self, r.cfg.Game, sp)
		if err := r.WriteVersusShipped(w, self, sp.String()); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "export it:  %s export --run %s\n", self, dir)
	return nil
}

// WriteVersusShipped says how the run's best network (agent spec) compares
// with the game's shipped model (nothing for a game with none shipped):
// by their ratings when both were rated on one scale, always with the
// arena command that measures them head to head.
func (r *Run) WriteVersusShipped(w io.Writer, self, spec string) error {
	if r.spec.Facts.Model == "" {
		return nil
	}
	m, err := agent.ShippedModel(r.spec)
	if err != nil {
		return fmt.Errorf("train: the shipped %s model: %w", r.spec.Name, err)
	}
	v, err := r.Against(m.Meta.Card)
	if err != nil {
		return err
	}
	cmd := fmt.Sprintf("%s arena --game %s --a %s --b model --games 100", self, r.cfg.Game, spec)
	if verdict := v.Verdict(); verdict != "" {
		fmt.Fprintf(w, "vs shipped: %s the model shipped in the binary by their ratings (%s = 0): this run's %+.0f ± %.0f at iteration %d, the shipped model's %+.0f ± %.0f\n",
			verdict, v.Zero, v.Rating.Elo, v.Rating.Err, v.Iteration, v.Other.Elo, v.Other.Err)
		fmt.Fprintf(w, "            head to head: %s\n", cmd)
		return nil
	}
	fmt.Fprintf(w, "vs shipped: not rated on the shipped model's scale; measure it head to head: %s\n", cmd)
	return nil
}

// CommandLine is the command args (the program's name first) as a
// person would type it, quoted where a shell needs it; a run records the
// command that trains it.
func CommandLine(args []string) string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$\\*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}
