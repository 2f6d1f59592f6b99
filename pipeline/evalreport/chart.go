package evalreport

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/osbench/osbench/schemas"
)

// A chart is one inline SVG grouped bar chart with all its geometry worked
// out here, so the page needs no script and renders the same everywhere.
// Per group, each model gets two bars side by side: resolved (solid) and
// target-only (pale); the pale bar's excess height is the gap.
type chart struct {
	Key    string // data-chart
	Title  string
	Axis   string // x-axis label
	Width  int
	Height int
	// Plot area.
	Left, Top, Right, Bottom int
	Grid                     []gridLine
	Groups                   []groupLabel
	Bars                     []bar
	Legend                   []legendEntry
	KeyY                     int // baseline of the resolved/target-only key
	AxisX, AxisY             int // x-axis title position
	YTitleX, YTitleY         int // y-axis title position (rotated)
}

type gridLine struct {
	Y     int
	Label string
}

type groupLabel struct {
	X, Y  int
	Label string
}

type bar struct {
	Model      string
	Kind       string // "resolved" or "target-only"
	Color      string
	X, W       int
	Y, H       string // fractional pixels
	Tooltip    string
	FillOpaque bool
	// The 95% interval's whisker: x, and y of its two ends.
	WhiskerX, WhiskerLow, WhiskerHigh string
}

type legendEntry struct {
	Model   string
	Display string // shortened for the page; the full name is in Model
	Color   string
	X, Y    int // swatch corner
	TextX   int
	TextY   int
	Tooltip string
}

// Chart geometry, in SVG user units (pixels at 100%).
const (
	plotHeight     = 200
	marginLeft     = 56
	marginRight    = 16
	marginTop      = 16
	barWidth       = 14
	pairGap        = 2  // between a model's two bars
	modelGap       = 8  // between models within a group
	groupPad       = 28 // between groups
	charWidth      = 7  // rough width of one character of 12px text
	legendRow      = 20
	maxLegendRunes = 60
	minChartWidth  = 440
)

// palette gives each model a colour by its position in the summary, which
// is sorted by name, so a model keeps its colour across charts.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"}

func modelColor(i int) string { return palette[i%len(palette)] }

// groupSeries is what one chart plots: per group, per model (in summary
// order), the counts, or ok=false where a model has no task in the group.
type groupSeries struct {
	label  string
	counts []schemas.EvalCounts
	ok     []bool
}

func overallChart(s schemas.EvalSummary) chart {
	g := groupSeries{label: "all tasks"}
	for _, m := range s.Models {
		g.counts = append(g.counts, m.EvalCounts)
		g.ok = append(g.ok, true)
	}
	return layoutChart("overall", "Overall", "every task of the run", s, []groupSeries{g})
}

func breakdownChart(s schemas.EvalSummary, b breakdown) chart {
	var series []groupSeries
	for _, name := range b.groups(s) {
		g := groupSeries{label: name}
		for i := range s.Models {
			c, ok := b.of(&s.Models[i])[name]
			g.counts = append(g.counts, c)
			g.ok = append(g.ok, ok)
		}
		series = append(series, g)
	}
	return layoutChart(b.Key, b.Title, b.Group, s, series)
}

func layoutChart(key, title, axis string, s schemas.EvalSummary, series []groupSeries) chart {
	n := len(s.Models)
	c := chart{Key: key, Title: title, Axis: axis, Left: marginLeft, Top: marginTop}
	c.Bottom = c.Top + plotHeight
	for pctTick := 0; pctTick <= 100; pctTick += 25 {
		c.Grid = append(c.Grid, gridLine{Y: c.Bottom - pctTick*plotHeight/100, Label: strconv.Itoa(pctTick) + "%"})
	}

	inner := n*(2*barWidth+pairGap) + max(n-1, 0)*modelGap
	x := c.Left + groupPad/2
	for _, g := range series {
		width := max(inner, utf8.RuneCountInString(g.label)*charWidth)
		barsStart := x + (width-inner)/2
		for i, m := range s.Models {
			if !g.ok[i] {
				continue
			}
			bx := barsStart + i*(2*barWidth+pairGap+modelGap)
			counts := g.counts[i]
			c.Bars = append(c.Bars,
				c.bar(m.Model, "resolved", modelColor(i), bx, counts.ResolvedRate, true,
					fmt.Sprintf("%s · %s: resolved %s", m.Model, g.label, rateCI(counts.ResolvedRate, counts.ResolvedCI, counts.Total, counts.Resolved)),
					counts.ResolvedCI),
				c.bar(m.Model, "target-only", modelColor(i), bx+barWidth+pairGap, counts.TargetOnlyRate, false,
					fmt.Sprintf("%s · %s: target-only %s, gap %s", m.Model, g.label,
						rateCI(counts.TargetOnlyRate, counts.TargetOnlyCI, counts.Total, counts.TargetOnly),
						fraction(counts.Gap, counts.Total, counts.GapRate)),
					counts.TargetOnlyCI))
		}
		c.Groups = append(c.Groups, groupLabel{X: x + width/2, Y: c.Bottom + 18, Label: g.label})
		x += width + groupPad
	}
	c.Right = x - groupPad/2
	c.AxisX, c.AxisY = (c.Left+c.Right)/2, c.Bottom+40
	c.YTitleX, c.YTitleY = 16, c.Top+plotHeight/2

	c.KeyY = c.AxisY + 28
	legendWidth := 0
	for i, m := range s.Models {
		display := shorten(m.Model, maxLegendRunes)
		y := c.KeyY + (i+1)*legendRow
		c.Legend = append(c.Legend, legendEntry{
			Model: m.Model, Display: display, Color: modelColor(i),
			X: c.Left, Y: y - 11, TextX: c.Left + 2*barWidth + pairGap + 8, TextY: y,
			Tooltip: fmt.Sprintf("%s: resolved %s, target-only %s", m.Model,
				rateCI(m.ResolvedRate, m.ResolvedCI, m.Total, m.Resolved), rateCI(m.TargetOnlyRate, m.TargetOnlyCI, m.Total, m.TargetOnly)),
		})
		legendWidth = max(legendWidth, 2*barWidth+pairGap+8+utf8.RuneCountInString(display)*charWidth)
	}
	c.Width = max(c.Right+marginRight, c.Left+legendWidth+marginRight, minChartWidth)
	c.Height = c.KeyY + n*legendRow + 16
	return c
}

// bar places one bar on the plot. A rate of zero still gets a one-pixel
// bar, so that a model with nothing solved is visibly there and has a
// tooltip to hover.
// Its whisker spans the rate's 95% interval, so two bars whose whiskers
// overlap are not read as different.
func (c *chart) bar(model, kind, color string, x int, rate float64, opaque bool, tooltip string, ci schemas.Interval) bar {
	h := math.Max(rate*plotHeight/100, 1)
	return bar{
		Model: model, Kind: kind, Color: color, X: x, W: barWidth,
		Y: px(float64(c.Bottom) - h), H: px(h), Tooltip: tooltip, FillOpaque: opaque,
		WhiskerX:   px(float64(x) + barWidth/2.0),
		WhiskerLow: px(float64(c.Bottom) - ci.Low*plotHeight/100), WhiskerHigh: px(float64(c.Bottom) - ci.High*plotHeight/100),
	}
}

// px spells a coordinate with at most one decimal, so the page's bytes do
// not depend on floating-point noise.
func px(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// shorten cuts s to at most n runes, marking the cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
