package evalreport

import (
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/osbench/osbench/schemas"
)

// Comparison is a paired comparison of two models on the tasks both were
// evaluated on: the four cells of the 2×2 table and McNemar's exact
// two-sided p-value, which looks at the discordant tasks only (those one
// model resolved and the other did not). A task only one model has is left
// out, and counted in OnlyInA/OnlyInB, since it cannot be paired.
type Comparison struct {
	A, B                           string
	Tasks                          int // evaluated for both models
	BothResolved, Neither          int
	AOnlyResolved, BOnlyResolved   int // the discordant pairs
	PValue                         float64
	OnlyInA, OnlyInB               int
	AResolvedRate, BResolvedRate   float64
	AResolvedCI, BResolvedCI       schemas.Interval
	InfraInEither, NotGradedEither int // paired tasks one side of which says nothing about its model
}

// Compare pairs the reports of models a and b by instance. It fails when a
// model has no report, since a comparison with nothing would print p = 1
// for a typo.
func Compare(reports []schemas.EvalReport, a, b string) (Comparison, error) {
	ra, rb := byInstance(reports, a), byInstance(reports, b)
	if len(ra) == 0 {
		return Comparison{}, fmt.Errorf("evalreport: no report of model %q", a)
	}
	if len(rb) == 0 {
		return Comparison{}, fmt.Errorf("evalreport: no report of model %q", b)
	}
	c := Comparison{A: a, B: b}
	ids := make([]string, 0, len(ra))
	for id := range ra {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	resolvedA, resolvedB := 0, 0
	for _, id := range ids {
		x := ra[id]
		y, ok := rb[id]
		if !ok {
			c.OnlyInA++
			continue
		}
		c.Tasks++
		if ungraded(x) || ungraded(y) {
			if x.Outcome == schemas.OutcomeInfraFailure || y.Outcome == schemas.OutcomeInfraFailure {
				c.InfraInEither++
			} else {
				c.NotGradedEither++
			}
		}
		switch {
		case x.Resolved && y.Resolved:
			c.BothResolved++
		case x.Resolved:
			c.AOnlyResolved++
		case y.Resolved:
			c.BOnlyResolved++
		default:
			c.Neither++
		}
		if x.Resolved {
			resolvedA++
		}
		if y.Resolved {
			resolvedB++
		}
	}
	for id := range rb {
		if _, ok := ra[id]; !ok {
			c.OnlyInB++
		}
	}
	c.PValue = McNemarExact(c.AOnlyResolved, c.BOnlyResolved)
	c.AResolvedRate, c.AResolvedCI = percent(resolvedA, c.Tasks), interval(resolvedA, c.Tasks)
	c.BResolvedRate, c.BResolvedCI = percent(resolvedB, c.Tasks), interval(resolvedB, c.Tasks)
	return c, nil
}

func ungraded(r *schemas.EvalReport) bool {
	return r.Outcome == schemas.OutcomeInfraFailure || r.StageI.NotGraded != "" || r.StageII.NotGraded != ""
}

func byInstance(reports []schemas.EvalReport, model string) map[string]*schemas.EvalReport {
	m := map[string]*schemas.EvalReport{}
	for i := range reports {
		if reports[i].Model == model {
			m[reports[i].InstanceID] = &reports[i]
		}
	}
	return m
}

// WriteComparison prints the comparison as plain text: the table, the
// p-value, and what was left out of the pairing.
func WriteComparison(w io.Writer, c Comparison) error {
	a, b := terminalText(c.A), terminalText(c.B)
	_, err := fmt.Fprintf(w, "paired on %d tasks evaluated for both models\n"+
		"A = %s: resolved %s\n"+
		"B = %s: resolved %s\n"+
		"both resolved %d, only A %d, only B %d, neither %d\n"+
		"McNemar exact two-sided p = %s (on the %d discordant tasks)\n",
		c.Tasks,
		a, rateCI(c.AResolvedRate, c.AResolvedCI, c.Tasks, c.BothResolved+c.AOnlyResolved),
		b, rateCI(c.BResolvedRate, c.BResolvedCI, c.Tasks, c.BothResolved+c.BOnlyResolved),
		c.BothResolved, c.AOnlyResolved, c.BOnlyResolved, c.Neither,
		strconv.FormatFloat(c.PValue, 'g', 4, 64), c.AOnlyResolved+c.BOnlyResolved)
	if err != nil {
		return fmt.Errorf("evalreport: %w", err)
	}
	if c.InfraInEither+c.NotGradedEither > 0 {
		fmt.Fprintf(w, "of the paired tasks, %d had an infrastructure failure and %d a run not graded on one side (counted as not resolved there)\n",
			c.InfraInEither, c.NotGradedEither)
	}
	if c.OnlyInA+c.OnlyInB > 0 {
		fmt.Fprintf(w, "not paired: %d tasks only A was evaluated on, %d only B\n", c.OnlyInA, c.OnlyInB)
	}
	return nil
}

// rateCI spells n of total with its rate and 95% interval, the way every
// output shows a rate.
func rateCI(rate float64, ci schemas.Interval, total, n int) string {
	return fmt.Sprintf("%d/%d (%s%%, 95%% CI %s–%s)", n, total, pct(rate), pct(ci.Low), pct(ci.High))
}
