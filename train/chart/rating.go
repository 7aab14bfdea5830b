package chart

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"kumalak/net"
	"kumalak/train/ladder"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ratingChart draws the network's rating on the anchors' scale, the
// baselines' levels and the ladder's rungs.
func ratingChart(ps []Point, a *net.Anchors, rungs []ladder.Rung) *plot.Plot {
	p := timeChart(fmt.Sprintf("strength: Elo on the baselines' scale (%s = 0)", a.ZeroName()), "Elo (95% interval)")
	var pts plotter.XYs
	var errs plotter.YErrors
	end := 0.0
	for _, pt := range ps {
		end = max(end, pt.Minutes)
		if r := pt.Rating; r != nil {
			pts = append(pts, plotter.XY{X: pt.Minutes, Y: r.Elo})
			errs = append(errs, struct{ Low, High float64 }{r.Err, r.Err})
		}
	}
	addLevels(p, a, rungs)
	addLine(p, "network", pts, 0)
	addErrors(p, pts, errs, 0)
	rpts, rerrs := addRungs(p, rungs, end)
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

// addLevels draws the fixed baselines of a (the anchors but the rungs): a
// dashed level each, in the legend.
func addLevels(p *plot.Plot, a *net.Anchors, rungs []ladder.Rung) {
	names := make([]string, 0, len(a.Ratings))
	for n := range a.Ratings {
		if ladder.Find(rungs, n) == nil {
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
}

// addRungs draws the ladder: each rung at the time it was frozen, with its
// interval and its rating written beside it, and a dotted level from then
// on to end, the strength it stands for in later evaluations. It returns
// the rungs' points and errors.
func addRungs(p *plot.Plot, rungs []ladder.Rung, end float64) (plotter.XYs, plotter.YErrors) {
	var rpts plotter.XYs
	var rerrs plotter.YErrors
	var labels []string
	for _, rg := range rungs {
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
	if len(rpts) == 0 {
		return nil, nil
	}
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
	return rpts, rerrs
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

// signed writes an Elo with its sign, 0 unsigned.
func signed(x float64) string {
	if math.Abs(x) < 0.5 {
		return "0"
	}
	return fmt.Sprintf("%+.0f", x)
}
