package train

import (
	"kumalak/train/chart"
	"kumalak/train/ladder"
)

// plot redraws the run's charts (package chart) from metrics.jsonl: with
// the baselines rated, the Elo chart is on their scale, with the ladder.
func (r *Run) plot() error {
	ms, err := ReadMetrics(r.dir.Metrics())
	if err != nil {
		return err
	}
	a, rungs := r.anch, r.rungs
	if a == nil { // a resumed run before its first baseline evaluation
		f, err := ladder.Load(r.dir.Anchors())
		if err != nil {
			return err
		}
		if f != nil && r.rates(&f.Anchors) {
			a, rungs = &f.Anchors, f.Ladder
		}
	}
	d := r.dir
	return chart.Draw(chartPoints(ms), a, rungs, chart.Files{Loss: d.LossPlot(), Elo: d.EloPlot(), Speed: d.SpeedPlot(), Mistakes: d.MistakePlot()})
}

// chartPoints are the iterations of ms as the charts draw them.
func chartPoints(ms []Metrics) []chart.Point {
	ps := make([]chart.Point, len(ms))
	for i, m := range ms {
		sp, tr, mm := m.SelfPlay, m.Train, m.Eval.Mistakes
		ps[i] = chart.Point{Minutes: m.ElapsedSec / 60,
			Trained: tr.Steps > 0, LossTotal: tr.LossTotal, LossPolicy: tr.LossPolicy, LossValue: tr.LossValue,
			SelfPlayed: sp.Games > 0, SimsPerSec: sp.PositionsPerSec, RowsPerSec: sp.NetRowsPerSec, RowsPerCPU: sp.NetRowsPerCPU,
			Baseline: m.Eval.Baseline, Rating: m.Eval.Rating}
		if mm != nil && mm.Judged > 0 {
			ps[i].Judged, ps[i].MistakeRate, ps[i].LostPerMistake = true, mm.Rate, mm.LostPerMistake
		}
	}
	return ps
}
