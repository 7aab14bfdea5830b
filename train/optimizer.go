package train

import (
	"errors"
	"fmt"
	"os"

	"kumalak/net/learn"
)

// saveTrainer writes the trainer's state for iteration it (Dir.Optimizer),
// atomically; a run that has not trained yet has none.
func (r *Run) saveTrainer(it int) error {
	if r.trainer == nil {
		return nil
	}
	b, err := r.trainer.Checkpoint().MarshalBinary()
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return writeFile(r.dir.Optimizer(it), b)
}

// restoreTrainer rebuilds the trainer of a resumed run that had trained:
// from latest's weights and the checkpoint iteration's optimizer state, so
// that it continues exactly as the killed process would have. A run folder
// without that file (written before optimizer states were saved, or the
// file deleted) continues with fresh moments, the rate warming up again; a
// damaged file, or one of another step, is refused.
func (r *Run) restoreTrainer() error {
	tr, err := learn.NewTrainer(r.latest.Params, r.cfg.Train)
	if err != nil {
		return fmt.Errorf("train: resume: %w", err)
	}
	path := r.dir.Optimizer(r.state.Iteration)
	if err := restoreFrom(tr, path, r.state.Steps); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(r.log, "resume: no optimizer state %s: fresh moments, the learning rate warms up again\n", path)
		tr.SetSteps(r.state.Steps)
	} else if err != nil {
		tr.Close()
		return fmt.Errorf("train: resume: %w", err)
	}
	r.trainer = tr
	return nil
}

// restoreFrom restores tr from the optimizer state in path, which must be of
// the given step.
func restoreFrom(tr *learn.Trainer, path string, steps int) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var ck learn.Checkpoint
	if err := ck.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if ck.Steps != int64(steps) {
		return fmt.Errorf("%s: the optimizer state is of step %d, the checkpoint's is %d", path, ck.Steps, steps)
	}
	if err := tr.Restore(&ck); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// removeIfExists deletes path; a missing file is no error.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
