package train

import (
	"context"
	"errors"
	"os"
	"testing"

	"kumalak/net"
)

// A kill inside a checkpoint, after latest.kmodel (and best.kmodel) were
// replaced by the next candidate but before the state was written, must not
// let the resumed run continue from that candidate: its samples are gone.
func TestResumeInsideCheckpoint(t *testing.T) {
	for _, iters := range []int{0, 1} {
		dir := Dir(t.TempDir())
		cfg := tinyConfig("mangala")
		cfg.Iterations, cfg.Eval.Gate = max(iters, 1), "always"
		r := openRun(t, cfg, dir, false)
		if iters > 0 {
			if err := r.Train(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		wantLatest, wantBest := r.latest.Params.Clone(), r.best.Params.Clone()
		r.Close()

		next := iters + 1
		ahead := &net.Model{Params: wantLatest.Clone(), Meta: r.latest.Meta}
		ahead.Meta.Iteration = next
		for i := range ahead.Params.Tensors[0].Data {
			ahead.Params.Tensors[0].Data[i] += 1
		}
		for _, path := range []string{dir.Model(next), dir.Latest(), dir.Best()} {
			if err := net.Save(path, ahead); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(dir.Games(next, GateGames), []byte(`{"torn":`), 0o644); err != nil {
			t.Fatal(err)
		}

		r2 := openRun(t, cfg, dir, true)
		if st := r2.State(); st.Iteration != iters || st.BestIteration != iters {
			t.Fatalf("iteration %d: resumed state %+v", iters, st)
		}
		if !sameParams(r2.latest.Params, wantLatest) || r2.latest.Meta.Iteration != iters {
			t.Errorf("iteration %d: latest is not the checkpoint's network (iteration %d)", iters, r2.latest.Meta.Iteration)
		}
		if !sameParams(r2.best.Params, wantBest) {
			t.Errorf("iteration %d: best is not the checkpoint's network", iters)
		}
		if _, err := os.Stat(dir.Games(next, GateGames)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("iteration %d: games of the unfinished iteration kept: %v", iters, err)
		}
	}
}

func sameParams(a, b *net.Params) bool {
	if a.Config != b.Config {
		return false
	}
	for i, t := range a.Tensors {
		for j, v := range t.Data {
			if v != b.Tensors[i].Data[j] {
				return false
			}
		}
	}
	return true
}
