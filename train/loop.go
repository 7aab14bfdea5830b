package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"kumalak/data"
	"kumalak/net"
	"kumalak/net/learn"
	"kumalak/selfplay"
)

// iterate runs one iteration: self-play with the best network, training on
// the window, evaluation, then the checkpoint. Nothing it does is visible to
// a resumed run until the checkpoint (state.json) is written, last.
func (r *Run) iterate(ctx context.Context) error {
	t0 := r.opt.Now()
	if !r.mark.IsZero() && r.mark.Before(t0) {
		t0 = r.mark
	}
	it := r.state.Iteration + 1
	m := Metrics{Iteration: it}
	r.iterStart = t0
	defer func() { r.iterStart = time.Time{} }()

	samples, sp, err := r.selfPlay(ctx, it)
	if err != nil {
		return err
	}
	m.SelfPlay = sp
	samples, take, err := r.takeRemote(ctx, &m, samples)
	if err != nil {
		return err
	}
	h := data.Header{Layout: r.layout(), Iteration: it, RunTotal: r.state.Samples + int64(len(samples)),
		Created: r.opt.Now().UTC(), Source: fmt.Sprintf("iteration %d, best of iteration %d", it, r.state.BestIteration)}
	shard := r.dir.Shard(it)
	if err := data.WriteShard(shard, h, samples); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := r.recordRemote(it, take); err != nil {
		return err
	}
	r.window.Add(samples)

	cand, tm, err := r.trainCandidate(ctx, it, len(samples), t0)
	if err != nil {
		return err
	}
	m.Train = tm
	if err := net.Save(r.dir.Model(it), cand); err != nil {
		return err
	}

	ev, err := r.evaluate(ctx, it, cand, t0)
	if err != nil {
		return err
	}
	m.Eval = ev

	if err := r.checkpoint(cand, m, len(samples), t0); err != nil {
		return err
	}
	return r.commitRemote(ctx, take)
}

// selfPlay plays the iteration's games with the best network.
func (r *Run) selfPlay(ctx context.Context, it int) ([]data.Sample, SelfPlayMetrics, error) {
	if err := r.selfPlayer(); err != nil {
		return nil, SelfPlayMetrics{}, err
	}
	pool, meter := r.pool, newNetMeter(r.spNet)
	job := fmt.Sprintf("iter %d self-play", it)
	bar := NewBar(r.out, r.cfg.Games, r.desc(job))
	var samples []data.Sample
	stop := r.watch(bar, job, func() string { return selfPlayRate(pool.Progress(), meter.read()) + r.remoteStatus() })
	st, err := pool.Run(ctx, r.cfg.Games, r.seed(it, 1), func(g selfplay.GameResult) {
		samples = append(samples, g.Samples...)
		bar.Add(1)
	})
	stop()
	bar.Finish()
	if err != nil {
		return nil, SelfPlayMetrics{}, err
	}
	return samples, selfPlayMetrics(st, meter.read()), nil
}

// selfPlayer makes the run's self-play pool and its batcher the first time,
// and points the batcher at the best network; the pool's workers and their
// search trees are kept from one iteration to the next.
func (r *Run) selfPlayer() error {
	if r.pool != nil {
		if r.spGen != r.state.BestIteration {
			r.spNet.SetParams(r.best.Params)
			r.spGen = r.state.BestIteration
		}
		return nil
	}
	b := net.NewBatcher(r.best.Params, r.cfg.Batcher)
	pool, err := selfplay.NewPool(r.spec, b, r.cfg.SelfPlay)
	if err != nil {
		b.Close()
		return fmt.Errorf("train: %w", err)
	}
	r.spNet, r.pool, r.spGen = b, pool, r.state.BestIteration
	tb, err := r.tablebase()
	if tb != nil {
		pool.SetOracle(tb)
	}
	return err
}

// trainCandidate trains the latest network on the window and returns it as
// the iteration's candidate; the iteration began at t0.
func (r *Run) trainCandidate(ctx context.Context, it, fresh int, t0 time.Time) (*net.Model, TrainMetrics, error) {
	tc := r.cfg.Train
	steps := int(math.Ceil(float64(fresh) * r.cfg.SampleReuse / float64(tc.Batch)))
	steps = min(steps, r.cfg.MaxSteps)
	if r.window.Len() < tc.Batch {
		steps = 0
	}
	tm := TrainMetrics{Steps: steps, Window: r.window.Len()}
	meta := r.latest.Meta
	meta.Parent, meta.Iteration, meta.Created = fmt.Sprintf("iter-%04d", it-1), it, r.opt.Now().UTC()
	if steps == 0 {
		return &net.Model{Params: r.latest.Params.Clone(), Meta: meta}, tm, nil
	}
	if r.trainer == nil {
		tr, err := learn.NewTrainer(r.latest.Params, tc)
		if err != nil {
			return nil, tm, fmt.Errorf("train: %w", err)
		}
		r.trainer = tr
	}
	tr := r.trainer
	// The batches depend on the iteration's seed and the window alone, so
	// that a resumed run (whose window is rebuilt) draws the same ones.
	r.window.ResetSampling()
	rng := rand.New(rand.NewPCG(r.seed(it, 2), 0))
	batch := data.NewBatch(r.layout(), tc.Batch)
	bar := NewBar(r.out, steps, r.desc(fmt.Sprintf("iter %d train", it)))
	start := time.Now()
	var sum learn.Losses
	for s := 0; s < steps; s++ {
		if err := ctx.Err(); err != nil {
			return nil, tm, err
		}
		r.window.FillBatch(rng, batch)
		tr.SetProgress(r.progress(it, s, steps, t0))
		l, err := tr.Step(batch)
		if err != nil {
			return nil, tm, fmt.Errorf("train: step %d: %w", s, err)
		}
		addLosses(&sum, l)
		if s%10 == 0 || s == steps-1 {
			bar.Describe(r.desc(fmt.Sprintf("iter %d train  loss %.3f (policy %.3f value %.3f)", it, l.Total, l.Policy, l.Value)))
		}
		bar.Add(1)
	}
	bar.Finish()
	tm.setLosses(sum, steps)
	tm.TrainedOn = int64(steps * tc.Batch)
	tm.Reuse = float64(tm.TrainedOn) / float64(max(fresh, 1))
	tm.SamplesPerSec = float64(tm.TrainedOn) / time.Since(start).Seconds()
	meta.Steps, meta.Samples = int64(r.state.Steps+steps), r.state.TrainedOn+tm.TrainedOn
	return &net.Model{Params: tr.Params(), Meta: meta}, tm, nil
}

// progress is the share of the run's horizon done at training step s of
// steps in iteration it, begun at t0, which the learning rate's schedule
// follows: completed iterations (counting this one's steps done) over
// Config.Iterations, or training time so far over Config.Budget, whichever
// is further along. Extending a finished run's horizon lowers it again;
// the trainer then re-warms to the rate the longer schedule has there.
func (r *Run) progress(it, s, steps int, t0 time.Time) float64 {
	p := 0.0
	if n := r.cfg.Iterations; n > 0 {
		p = (float64(it-1) + float64(s+1)/float64(steps)) / float64(n)
	}
	if b := r.cfg.Budget; b > 0 {
		p = math.Max(p, (r.state.Elapsed()+r.opt.Now().Sub(t0)).Seconds()/b.Seconds())
	}
	return p
}

// checkpoint ends iteration m.Iteration, begun at t0, which generated fresh
// samples and trained cand: it saves cand as latest (and best when m says
// it was promoted) and the trainer's state, appends the metrics, redraws
// the plots and finally writes the state, the commit point of the
// iteration; then it deletes the previous iteration's trainer state.
func (r *Run) checkpoint(cand *net.Model, m Metrics, fresh int, t0 time.Time) error {
	it, promoted := m.Iteration, m.Eval.Promoted
	if err := net.Save(r.dir.Latest(), cand); err != nil {
		return err
	}
	if err := r.saveTrainer(it); err != nil {
		return err
	}
	if promoted {
		if err := net.Save(r.dir.Best(), cand); err != nil {
			return err
		}
	}
	now := r.opt.Now()
	dt := now.Sub(t0)
	next := r.state.after(m, fresh, dt)
	if m.Eval.Final && r.cfg.Budget > 0 {
		next.FinalBudgetSec = r.cfg.Budget.Seconds()
	}
	m.Time, m.ElapsedSec, m.IterationSec = r.opt.Now().UTC(), next.ElapsedSec, dt.Seconds()
	m.Best, m.Samples = next.BestIteration, next.Samples
	if err := appendMetrics(r.dir.Metrics(), m); err != nil {
		return err
	}
	if r.plotDue(m, next, now) {
		if err := r.plot(); err != nil {
			return err
		}
		r.plotted = now
	}
	if err := saveState(r.dir, next); err != nil {
		return err
	}
	r.state, r.latest, r.mark = next, cand, now
	if promoted {
		r.best = cand
	}
	if it > 1 {
		if err := removeIfExists(r.dir.Optimizer(it - 1)); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	removed, err := data.Prune(r.dir.Shards(), r.cfg.Window, r.cfg.KeepShards)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if err := r.pruneLedger(removed); err != nil {
		return err
	}
	if err := r.pruneModels(it); err != nil {
		return err
	}
	fmt.Fprintln(r.log, m.Summary())
	return nil
}

// plotEvery is the longest the plots wait for a redraw: drawing them reads
// the whole metrics log, so a run of short iterations that redrew them at
// every one would spend more and more of each iteration on them.
const plotEvery = 30 * time.Second

// plotDue reports whether the checkpoint of iteration m, whose state next
// is written at now, redraws the plots: the first of this process, one
// that measured the baselines, the run's last, or plotEvery after the last
// drawing.
func (r *Run) plotDue(m Metrics, next State, now time.Time) bool {
	if r.plotted.IsZero() || len(m.Eval.Baseline) > 0 || now.Sub(r.plotted) >= plotEvery {
		return true
	}
	c := r.cfg
	return (c.Iterations > 0 && next.Iteration >= c.Iterations) || (c.Budget > 0 && next.Elapsed() >= c.Budget)
}

// seed derives the seed of one part of one iteration from the run's seed.
func (r *Run) seed(it, part int) uint64 {
	return r.cfg.Seed*0x9e3779b97f4a7c15 + uint64(it)*1000 + uint64(part)
}

// pruneModels deletes the candidate that just fell out of the KeepModels
// latest, unless it was measured against the baselines or is the best.
func (r *Run) pruneModels(it int) error {
	old := it - r.cfg.KeepModels
	if r.cfg.KeepModels == 0 || old < 1 || r.baselinesDue(old) || old == r.state.BestIteration {
		return nil
	}
	if err := os.Remove(r.dir.Model(old)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}
