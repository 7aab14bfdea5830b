package chart

import (
	"fmt"
	"image/color"
	"sort"

	"kumalak/net"
	"kumalak/rating"
	"kumalak/train/ladder"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Point is one iteration as the charts draw it (package train fills it
// from a line of metrics.jsonl).
type Point struct {
	Minutes float64 // the run's training time at the iteration's end
	// Trained: the iteration took training steps, whose mean losses follow.
	Trained                          bool
	LossTotal, LossPolicy, LossValue float64
	// SelfPlayed: the iteration played self-play games, at these rates
	// (RowsPerCPU: network rows per CPU-second, 0 where unknown).
	SelfPlayed                         bool
	SimsPerSec, RowsPerSec, RowsPerCPU float64
	// Baseline holds the best network's matches against each baseline,
	// when it played them; Rating its Elo on the anchors' scale, when rated.
	Baseline map[string]rating.Match
	Rating   *rating.Rating
	// Judged: a tablebase judged the network's moves in the baseline games;
	// MistakeRate is the share that lost value, LostPerMistake the stones
	// each lost.
	Judged                      bool
	MistakeRate, LostPerMistake float64
}

// Files are the paths of the charts.
type Files struct {
	Loss     string // losses against training time
	Elo      string // strength against training time, with 95% intervals
	Speed    string // self-play's rates
	Mistakes string // the mistake rate, drawn only when some iteration was judged
}

// Draw draws the charts of the iterations ps into f. With anchors a (nil
// when the baselines are not rated) the Elo chart shows the network's
// rating on the baselines' scale and each baseline's rating as a level
// line; without, its Elo difference against each baseline. The ladder's
// rungs (rated in a too) are drawn at the time each was frozen, with
// their intervals.
func Draw(ps []Point, a *net.Anchors, rungs []ladder.Rung, f Files) error {
	elo := eloChart(ps)
	if a != nil {
		elo = ratingChart(ps, a, rungs)
	}
	charts := []struct {
		p    *plot.Plot
		path string
	}{{lossChart(ps), f.Loss}, {elo, f.Elo}, {speedChart(ps), f.Speed}, {mistakeChart(ps), f.Mistakes}}
	for _, c := range charts {
		if c.p == nil {
			continue
		}
		if err := c.p.Save(7*vg.Inch, 4*vg.Inch, c.path); err != nil {
			return fmt.Errorf("chart: %w", err)
		}
	}
	return nil
}

// mistakeChart draws the share of the network's judged moves that lost
// value, and the stones lost per mistake, against training time; nil when
// no iteration was judged.
func mistakeChart(ps []Point) *plot.Plot {
	var rate, lost plotter.XYs
	for _, p := range ps {
		if p.Judged {
			rate = append(rate, plotter.XY{X: p.Minutes, Y: 100 * p.MistakeRate})
			lost = append(lost, plotter.XY{X: p.Minutes, Y: p.LostPerMistake})
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
func speedChart(ps []Point) *plot.Plot {
	p := timeChart("self-play speed", "thousands per second")
	var sims, rows, perCPU plotter.XYs
	for _, pt := range ps {
		if pt.SelfPlayed {
			sims = append(sims, plotter.XY{X: pt.Minutes, Y: pt.SimsPerSec / 1000})
			rows = append(rows, plotter.XY{X: pt.Minutes, Y: pt.RowsPerSec / 1000})
			if pt.RowsPerCPU > 0 {
				perCPU = append(perCPU, plotter.XY{X: pt.Minutes, Y: pt.RowsPerCPU / 1000})
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

// lossChart draws the mean losses of each iteration that trained.
func lossChart(ps []Point) *plot.Plot {
	p := timeChart("training loss", "mean loss per iteration")
	series := []struct {
		name string
		get  func(Point) float64
	}{
		{"total", func(p Point) float64 { return p.LossTotal }},
		{"policy", func(p Point) float64 { return p.LossPolicy }},
		{"value", func(p Point) float64 { return p.LossValue }},
	}
	for i, s := range series {
		var pts plotter.XYs
		for _, pt := range ps {
			if pt.Trained {
				pts = append(pts, plotter.XY{X: pt.Minutes, Y: s.get(pt)})
			}
		}
		addLine(p, s.name, pts, i)
	}
	p.Legend.Top = true
	return p
}

// eloChart draws the Elo difference against each baseline, with its 95%
// interval, where the baselines are not rated.
func eloChart(ps []Point) *plot.Plot {
	p := timeChart("strength against fixed baselines", "Elo difference (95% interval)")
	names := map[string]bool{}
	for _, pt := range ps {
		for n := range pt.Baseline {
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
		for _, pt := range ps {
			b, ok := pt.Baseline[n]
			if !ok {
				continue
			}
			e := clamp800(b.Elo)
			pts = append(pts, plotter.XY{X: pt.Minutes, Y: e})
			errs = append(errs, struct{ Low, High float64 }{e - clamp800(b.EloLo), clamp800(b.EloHi) - e})
		}
		addLine(p, "vs "+n, pts, i)
		addErrors(p, pts, errs, i)
	}
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = color.Gray{Y: 160}
	p.Add(zero)
	p.Legend.Top = false // the curves rise: the bottom right stays clear
	return p
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

// clamp800 keeps an unbounded Elo (a 100% or 0% score) on the chart.
func clamp800(x float64) float64 { return max(-800, min(800, rating.ClampElo(x))) }
