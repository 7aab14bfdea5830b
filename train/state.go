package train

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"kumalak/data"
)

// State is the checkpoint of a run, state.json in its folder. It is written
// last in an iteration, atomically: a run resumes from the iteration it
// names, and anything a killed iteration left behind is discarded.
type State struct {
	Iteration     int       `json:"iteration"`      // last completed iteration (0 = none)
	Steps         int       `json:"steps"`          // optimizer steps taken
	Samples       int64     `json:"samples"`        // self-play samples generated
	TrainedOn     int64     `json:"trained_on"`     // samples fed to the optimizer (with repeats)
	Games         int64     `json:"games"`          // self-play games played
	ElapsedSec    float64   `json:"elapsed_sec"`    // training time of the completed iterations
	BestIteration int       `json:"best_iteration"` // iteration of best.kmodel (0 = the initial network)
	Started       time.Time `json:"started"`        // when the run began
	// FinalBudgetSec is the budget, in seconds, whose final evaluation the
	// run has played (0: none): resumed with that budget or a smaller one,
	// the run is finished, though its training time may fall short of it.
	FinalBudgetSec float64 `json:"final_budget_sec,omitempty"`
	// Machines lists the processors the run trained on (Machine's text), and
	// Commands the command lines that started and resumed it, each once, in
	// order; the model card reports both.
	Machines []string `json:"machines,omitempty"`
	Commands []string `json:"commands,omitempty"`
}

// started returns the state with this start's machine and command noted.
func (s State) started(machine, command string) State {
	if machine != "" && !slices.Contains(s.Machines, machine) {
		s.Machines = append(slices.Clone(s.Machines), machine)
	}
	if command != "" && !slices.Contains(s.Commands, command) {
		s.Commands = append(slices.Clone(s.Commands), command)
	}
	return s
}

// after returns the state once iteration m.Iteration, which generated fresh
// samples and took dt, is complete.
func (s State) after(m Metrics, fresh int, dt time.Duration) State {
	s.Iteration = m.Iteration
	s.Steps += m.Train.Steps
	s.Samples += int64(fresh)
	s.TrainedOn += m.Train.TrainedOn
	s.Games += int64(m.SelfPlay.Games)
	if m.Eval.Promoted {
		s.BestIteration = m.Iteration
	}
	s.ElapsedSec += dt.Seconds()
	return s
}

// Elapsed returns the run's training time so far.
func (s State) Elapsed() time.Duration { return time.Duration(s.ElapsedSec * float64(time.Second)) }

// LoadState reads a run folder's checkpoint.
func LoadState(d Dir) (State, error) {
	var s State
	b, err := os.ReadFile(d.State())
	if err != nil {
		return s, fmt.Errorf("train: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("train: %s: %w", d.State(), err)
	}
	if s.Iteration < 0 || s.BestIteration < 0 || s.BestIteration > s.Iteration {
		return s, fmt.Errorf("train: %s: inconsistent (iteration %d, best %d)", d.State(), s.Iteration, s.BestIteration)
	}
	return s, nil
}

func saveState(d Dir, s State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeFile(d.State(), append(b, '\n'))
}

// writeFile replaces path atomically and durably (data.WriteFile: a
// temporary file, synced, renamed, the directory synced): a reader, or a
// resumed run, sees the old file or the new, never a part.
func writeFile(path string, b []byte) error {
	if err := data.WriteFile(path, b); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}
