package train

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"kumalak/net"
	"kumalak/rating"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plot redraws the run's loss and Elo curves from metrics.jsonl.
func (r *Run) plot() error {
	ms, err := ReadMetrics(r.dir.Metrics())
	if err != nil {
		return err
	}
	a, rungs := r.anch, r.rungs
	if a == nil { // a resumed run before its first baseline evaluation
		f, err := loadAnchors(r.dir.Anchors())
		if err != nil {
			return err
		}
		if f != nil && r.rates(&f.Anchors) {
			a, rungs = &f.Anchors, f.Ladder
		}
	}
	return Plot(ms, a, rungs, r.dir)
}

// Plot draws d.LossPlot (losses against training time), d.EloPlot
// (strength against training time, with 95% intervals), d.SpeedPlot
// (self-play's rates: a run must not slow down as it trains) and, when the
// network's moves were judged, d.MistakePlot. With anchors (nil
// when the baselines are not rated) the Elo plot shows the network's rating on
// the baselines' scale and each baseline's rating as a level line; without,
// its Elo difference against each baseline. The ladder's rungs (rated in
// a too) are drawn at the time each was frozen, with their intervals.
func Plot(ms []Metrics, a *net.Anchors, ladder []Rung, d Dir) error {
	chart := eloChart(ms)
	if a != nil {
		chart = ratingChart(ms, a, ladder)
	}
	if err := lossChart(ms).Save(7*vg.Inch, 4*vg.Inch, d.LossPlot()); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	if err := chart.Save(7*vg.Inch, 4*vg.Inch, d.EloPlot()); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	if err := speedChart(ms).Save(7*vg.Inch, 4*vg.Inch, d.SpeedPlot()); err != nil {
		return fmt.Errorf("train: plot: %w", err)
	}
	if m := mistakeChart(ms); m != nil {
		if err := m.Save(7*vg.Inch, 4*vg.Inch, d.MistakePlot()); err != nil {
			return fmt.Errorf("train: plot: %w", err)
		}
	}
	return nil
}

// mistakeChart draws the share of the network's judged moves that lost
// value, and the stones lost per mistake, against training time; nil when
// no iteration was judged.
func mistakeChart(ms []Metrics) *plot.Plot {
	var rate, lost plotter.XYs
	for _, m := range ms {
		if mm := m.Eval.Mistakes; mm != nil && mm.Judged > 0 {
			x := m.ElapsedSec / 60
			rate = append(rate, plotter.XY{X: x, Y: 100 * mm.Rate})
			lost = append(lost, plotter.XY{X: x, Y: mm.LostPerMistake})
		}
	}
	if len(rate) == 0 {
		return nil
	}
	p := timeChart("mistakes in tablebase positions (baseline games)", "% of moves losing value; stones lost per mistake")
	addLine(p, "mistake rate (%)", rate, 0)
	addLine(p, "stones lost per mistake", lost, 1)
	p.Y.Min = 0
	p.Legend.Top = true
	return p
}

// speedChart draws self-play's simulations and network rows per second,
// and network rows per CPU-second, of each iteration, in thousands,
// against training time, with the first iterations' rows per CPU-second
// less 15% as a floor line: a run whose network grew subnormal weights,
// or whose trees grew, would fall below it.
func speedChart(ms []Metrics) *plot.Plot {
	p := timeChart("self-play speed", "thousands per second")
	var sims, rows, perCPU plotter.XYs
	for _, m := range ms {
		if m.SelfPlay.Games > 0 {
			x := m.ElapsedSec / 60
			sims = append(sims, plotter.XY{X: x, Y: m.SelfPlay.PositionsPerSec / 1000})
			rows = append(rows, plotter.XY{X: x, Y: m.SelfPlay.NetRowsPerSec / 1000})
			if m.SelfPlay.NetRowsPerCPU > 0 {
				perCPU = append(perCPU, plotter.XY{X: x, Y: m.SelfPlay.NetRowsPerCPU / 1000})
			}
		}
	}
	addLine(p, "simulations/s", sims, 0)
	addLine(p, "network rows/s", rows, 1)
	// The floor follows rows per CPU-second where the metrics have them:
	// on a shared machine the wall-clock rates measure the process's share
	// of the cores as much as its speed.
	ref, name := rows, "rows/s"
	if len(perCPU) > 0 {
		addLine(p, "network rows per CPU-second", perCPU, 2)
		ref, name = perCPU, "rows per CPU-second"
	}
	if n := min(5, len(ref)); n > 0 {
		var first float64
		for _, r := range ref[:n] {
			first += r.Y / float64(n)
		}
		floor := plotter.NewFunction(func(float64) float64 { return 0.85 * first })
		floor.Color = color.Gray{Y: 160}
		p.Add(floor)
		p.Legend.Add("85% of the first iterations' "+name, floor)
	}
	p.Y.Min = 0
	p.Legend.Top = false
	return p
}

func lossChart(ms []Metrics) *plot.Plot {
	p := timeChart("training loss", "mean loss per iteration")
	series := []struct {
		name string
		get  func(TrainMetrics) float64
	}{
		{"total", func(t TrainMetrics) float64 { return t.LossTotal }},
		{"policy", func(t TrainMetrics) float64 { return t.LossPolicy }},
		{"value", func(t TrainMetrics) float64 { return t.LossValue }},
	}
	for i, s := range series {
		var pts plotter.XYs
		for _, m := range ms {
			if m.Train.Steps > 0 {
				pts = append(pts, plotter.XY{X: m.ElapsedSec / 60, Y: s.get(m.Train)})
			}
		}
		addLine(p, s.name, pts, i)
	}
	p.Legend.Top = true
	return p
}

func eloChart(ms []Metrics) *plot.Plot {
	p := timeChart("strength against fixed baselines", "Elo difference (95% interval)")
	names := map[string]bool{}
	for _, m := range ms {
		for n := range m.Eval.Baseline {
			names[n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for i, n := range sorted {
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, m := range ms {
			b, ok := m.Eval.Baseline[n]
			if !ok {
				continue
			}
			e := clamp800(b.Elo)
			pts = append(pts, plotter.XY{X: m.ElapsedSec / 60, Y: e})
			errs = append(errs, struct{ Low, High float64 }{e - clamp800(b.EloLo), clamp800(b.EloHi) - e})
		}
		addLine(p, "vs "+n, pts, i)
		if len(pts) > 0 {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYer
				plotter.YErrorer
			}{pts, errs})
			if err == nil {
				eb.Color = plotutil.Color(i)
				p.Add(eb)
			}
		}
	}
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = color.Gray{Y: 160}
	p.Add(zero)
	p.Legend.Top = false // the curves rise: the bottom right stays clear
	return p
}

func ratingChart(ms []Metrics, a *net.Anchors, ladder []Rung) *plot.Plot {
	p := timeChart(fmt.Sprintf("strength: Elo on the baselines' scale (%s = 0)", a.ZeroName()), "Elo (95% interval)")
	var pts plotter.XYs
	var errs plotter.YErrors
	end := 0.0
	for _, m := range ms {
		end = max(end, m.ElapsedSec/60)
		if r := m.Eval.Rating; r != nil {
			pts = append(pts, plotter.XY{X: m.ElapsedSec / 60, Y: r.Elo})
			errs = append(errs, struct{ Low, High float64 }{r.Err, r.Err})
		}
	}
	rungs := map[string]bool{}
	for _, rg := range ladder {
		rungs[rg.Name] = true
	}
	// The fixed baselines: a dashed level each, in the legend.
	names := make([]string, 0, len(a.Ratings))
	for n := range a.Ratings {
		if !rungs[n] {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool { return a.Ratings[names[i]] > a.Ratings[names[j]] })
	for i, n := range names {
		level := a.Ratings[n]
		f := plotter.NewFunction(func(float64) float64 { return level })
		f.Color = plotutil.Color(i + 2)
		f.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(f)
		p.Legend.Add(fmt.Sprintf("%s (%.0f)", n, level), f)
	}
	addLine(p, "network", pts, 0)
	addErrors(p, pts, errs, 0)
	// The ladder: each rung at the time it was frozen, with its interval
	// and its rating written beside it, and a dotted level from then on,
	// the strength it stands for in later evaluations.
	var rpts plotter.XYs
	var rerrs plotter.YErrors
	var labels []string
	for _, rg := range ladder {
		x := rg.ElapsedSec / 60
		rpts = append(rpts, plotter.XY{X: x, Y: rg.Elo})
		rerrs = append(rerrs, struct{ Low, High float64 }{rg.Err, rg.Err})
		labels = append(labels, fmt.Sprintf(" %s", signed(rg.Elo)))
		if lvl, err := plotter.NewLine(plotter.XYs{{X: x, Y: rg.Elo}, {X: max(end, x), Y: rg.Elo}}); err == nil {
			lvl.Color = rungColor
			lvl.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
			p.Add(lvl)
		}
	}
	if len(rpts) > 0 {
		if s, err := plotter.NewScatter(rpts); err == nil {
			s.Color, s.Shape, s.Radius = rungColor, draw.PyramidGlyph{}, vg.Points(4)
			p.Add(s)
			p.Legend.Add(fmt.Sprintf("ladder: %d frozen networks (rungs)", len(rpts)), s)
		}
		if eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{rpts, rerrs}); err == nil {
			eb.Color, eb.Width = rungColor, vg.Points(1.5)
			p.Add(eb)
		}
		if l, err := plotter.NewLabels(plotter.XYLabels{XYs: rpts, Labels: labels}); err == nil {
			for i := range l.TextStyle {
				l.TextStyle[i].Color = rungColor
			}
			l.Offset = vg.Point{X: vg.Points(-22), Y: vg.Points(6)}
			p.Add(l)
		}
	}
	// Show every anchor's level but random's, which would flatten the curve.
	lo, hi := math.Inf(1), math.Inf(-1)
	for n, v := range a.Ratings {
		if n != "random" {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	for i, pt := range pts {
		lo, hi = min(lo, pt.Y-errs[i].Low), max(hi, pt.Y+errs[i].High)
	}
	for i, pt := range rpts {
		lo, hi = min(lo, pt.Y-rerrs[i].Low), max(hi, pt.Y+rerrs[i].High)
	}
	if lo < hi {
		pad := (hi - lo) / 20
		p.Y.Min, p.Y.Max = lo-pad, hi+pad
	}
	// A grid every 50 Elo (labels every 100): steps of 50 at the top read
	// off the chart.
	p.Y.Tick.Marker = eloTicks{}
	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal.Color = color.Gray{Y: 225}
	p.Add(grid)
	p.Legend.Top = false
	p.Legend.Left = false
	return p
}

// rungColor draws the ladder's rungs.
var rungColor = color.Gray{Y: 20}

// eloTicks marks the Elo axis every 50, labelled every 100 (every 200,
// 100 apart, on a range over 1500).
type eloTicks struct{}

// Ticks returns the ticks between lo and hi.
func (eloTicks) Ticks(lo, hi float64) []plot.Tick {
	step, label := 50.0, 100.0
	if hi-lo > 1500 {
		step, label = 100, 200
	}
	var ts []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		t := plot.Tick{Value: v}
		if math.Mod(math.Abs(v), label) == 0 {
			t.Label = fmt.Sprintf("%.0f", v)
		}
		ts = append(ts, t)
	}
	return ts
}

// addErrors adds 95% error bars at pts, in the i-th colour.
func addErrors(p *plot.Plot, pts plotter.XYs, errs plotter.YErrors, i int) {
	if len(pts) == 0 {
		return
	}
	if eb, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{pts, errs}); err == nil {
		eb.Color = plotutil.Color(i)
		p.Add(eb)
	}
}

// timeChart returns an empty chart with its title and y label, whose x axis
// is training time in minutes.
func timeChart(title, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "training time (minutes)"
	p.Y.Label.Text = y
	return p
}

// addLine adds a line with points, in the i-th colour, when pts is not empty.
func addLine(p *plot.Plot, name string, pts plotter.XYs, i int) {
	if len(pts) == 0 {
		return
	}
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		return
	}
	l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
	s.Shape = plotutil.Shape(i)
	p.Add(l, s)
	p.Legend.Add(name, l, s)
}

// clamp800 keeps an unbounded Elo (a 100% or 0% score) on the chart.
func clamp800(x float64) float64 { return max(-800, min(800, rating.ClampElo(x))) }
