package evalreport

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/osbench/osbench/schemas"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestWilsonReference checks the interval against scipy 1.17.1, computed
// with
//
//	python3 -c 'from scipy.stats import binomtest; ci = binomtest(k, n).proportion_ci(0.95, method="wilson"); print(repr(ci.low), repr(ci.high))'
//
// for each (k, n) below; 1 of 3 was also worked out by hand (see
// handWilson in summarize_test.go).
func TestWilsonReference(t *testing.T) {
	for _, tc := range []struct {
		k, n      int
		low, high float64
	}{
		{0, 10, 0.0, 0.27753279986288926},
		{7, 20, 0.1811918241010821, 0.5671457233147637},
		{43, 43, 0.9179901967742088, 1.0},
		{12, 50, 0.1429739139699173, 0.3741268375794292},
		{1, 3, 0.06149194472039626, 0.7923403991979523},
	} {
		lo, hi := Wilson(tc.k, tc.n)
		if !near(lo, tc.low) || !near(hi, tc.high) {
			t.Errorf("Wilson(%d, %d) = [%v, %v], want scipy's [%v, %v]", tc.k, tc.n, lo, hi, tc.low, tc.high)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("Wilson(0, 0) = [%v, %v], want the uninformative [0, 1]", lo, hi)
	}
}

// TestMcNemarExact: the by-hand values are 2·P[X ≤ min] for X ~ B(n, ½):
// b=0, c=5 gives 2·(1/32); b=1, c=4 gives 2·(1+5)/32; b=2, c=2 is capped
// at 1. The others are scipy 1.17.1's
// binomtest(min(b, c), b + c, 0.5).pvalue.
func TestMcNemarExact(t *testing.T) {
	for _, tc := range []struct {
		b, c int
		want float64
	}{
		{0, 0, 1},
		{0, 5, 0.0625},
		{5, 0, 0.0625},
		{1, 4, 0.375},
		{2, 2, 1},
		{3, 12, 0.03515625},
		{10, 10, 1.0},
		{1, 0, 1.0},
		{40, 60, 0.05688793364098089},
		{7, 20, 0.0191572904586792},
	} {
		if got := McNemarExact(tc.b, tc.c); !near(got, tc.want) {
			t.Errorf("McNemarExact(%d, %d) = %v, want %v", tc.b, tc.c, got, tc.want)
		}
	}
}

// TestPassK: by hand, n=10, c=3: pass@1 = 3/10; pass@5 = 1 − C(7,5)/C(10,5)
// = 1 − 21/252; pass^2 = C(3,2)/C(10,2) = 3/45. n=200, c=17, k=50 is
// 1 − comb(183, 50)/comb(200, 50) from Python's math.comb, where the
// product form has to stay exact.
func TestPassK(t *testing.T) {
	for _, tc := range []struct {
		n, c, k     int
		at, hat     float64
		atOnly      bool
		description string
	}{
		{10, 3, 1, 0.3, 0.3, false, "k=1 is the resolved rate both ways"},
		{10, 3, 5, 1 - 21.0/252, 0, false, "pass^5 of 3 passes is 0"},
		{10, 3, 2, 1 - 21.0/45, 3.0 / 45, false, "pass^2 = C(3,2)/C(10,2)"},
		{10, 10, 10, 1, 1, false, "all pass"},
		{10, 0, 3, 0, 0, false, "none pass"},
		{10, 8, 3, 1, 56.0 / 120, false, "fewer failures than k: pass@k is 1"},
		{200, 17, 50, 0.9941008800868965, 0, true, "large n"},
	} {
		if got := PassAtK(tc.n, tc.c, tc.k); !near(got, tc.at) {
			t.Errorf("%s: PassAtK(%d, %d, %d) = %v, want %v", tc.description, tc.n, tc.c, tc.k, got, tc.at)
		}
		if tc.atOnly {
			continue
		}
		if got := PassHatK(tc.n, tc.c, tc.k); !near(got, tc.hat) {
			t.Errorf("%s: PassHatK(%d, %d, %d) = %v, want %v", tc.description, tc.n, tc.c, tc.k, got, tc.hat)
		}
	}
	if !math.IsNaN(PassAtK(3, 1, 4)) || !math.IsNaN(PassHatK(3, 1, 0)) {
		t.Error("k outside 1..n must give NaN, not a number that looks like an estimate")
	}
}

func TestSplitAttempt(t *testing.T) {
	for _, tc := range []struct {
		model string
		agent string
		k     int
		ok    bool
	}{
		{"shell@attempt-1", "shell", 1, true},
		{"a@b@attempt-12", "a@b", 12, true},
		{"shell@attempt-0", "", 0, false},
		{"shell@attempt-01", "", 0, false},
		{"shell@attempt-+1", "", 0, false},
		{"shell@attempt-", "", 0, false},
		{"@attempt-1", "", 0, false},
		{"shell", "", 0, false},
	} {
		agent, k, ok := SplitAttempt(tc.model)
		if agent != tc.agent || k != tc.k || ok != tc.ok {
			t.Errorf("SplitAttempt(%q) = %q, %d, %t; want %q, %d, %t", tc.model, agent, k, ok, tc.agent, tc.k, tc.ok)
		}
	}
}

func inst(id string) func(*schemas.EvalReport) {
	return func(r *schemas.EvalReport) { r.InstanceID = id }
}

// attemptReports: agent "sh" made 3 attempts at tasks a, b, c; a resolved
// 3 times, b once, c never; attempt 3 was not evaluated on d, so d is left
// out. By hand: pass@1 = (1 + 1/3 + 0)/3 = 44.4%; pass@2 = (1 + (1 −
// C(2,2)/C(3,2)) + 0)/3 = (1 + 2/3)/3 = 55.6%; pass@3 = 2/3 = 66.7%;
// pass^2 = (1 + 0 + 0)/3 = 33.3%, pass^3 the same.
func attemptReports() []schemas.EvalReport {
	var rs []schemas.EvalReport
	for k, outcomes := range [][]string{
		{"resolved", "resolved", "unresolved", "resolved"},
		{"resolved", "unresolved", "unresolved", "resolved"},
		{"resolved", "unresolved", "unresolved"},
	} {
		for i, o := range outcomes {
			rs = append(rs, verdict("sh@attempt-"+string(rune('1'+k)), o, inst(string(rune('a'+i)))))
		}
	}
	return append(rs, verdict("single@attempt-1", "resolved"))
}

func TestAttemptSummaries(t *testing.T) {
	s := Summarize(attemptReports())
	if len(s.Agents) != 1 {
		t.Fatalf("agents = %+v, want sh alone (single has one attempt)", s.Agents)
	}
	a := s.Agents[0]
	want := []schemas.PassK{{K: 1, PassAt: 44.4, PassHat: 44.4}, {K: 2, PassAt: 55.6, PassHat: 33.3}, {K: 3, PassAt: 66.7, PassHat: 33.3}}
	if a.Agent != "sh" || a.Attempts != 3 || a.Tasks != 3 || len(a.PassK) != 3 {
		t.Fatalf("summary = %+v", a)
	}
	for i := range want {
		if a.PassK[i] != want[i] {
			t.Errorf("k=%d: %+v, want %+v", i+1, a.PassK[i], want[i])
		}
	}
}

// TestCompare: A resolves a, b, c; B resolves b, c, d, e, f; e is an infra
// failure for A; g only A has. By hand: both 2 (b, c), only A 1 (a), only B
// 3 (d, e, f), neither 0 of the 6 paired; p = 2·(1 + 4)/16 = 0.625.
func TestCompare(t *testing.T) {
	var rs []schemas.EvalReport
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		a, b := "unresolved", "unresolved"
		if strings.Contains("abcg", id) {
			a = "resolved"
		}
		if strings.Contains("bcdef", id) {
			b = "resolved"
		}
		if id == "e" {
			a = "infra"
		}
		rs = append(rs, verdict("A", a, inst(id)))
		if id != "g" {
			rs = append(rs, verdict("B", b, inst(id)))
		}
	}
	c, err := Compare(rs, "A", "B")
	if err != nil {
		t.Fatal(err)
	}
	got := [7]int{c.Tasks, c.BothResolved, c.AOnlyResolved, c.BOnlyResolved, c.Neither, c.OnlyInA, c.InfraInEither}
	if want := [7]int{6, 2, 1, 3, 0, 1, 1}; got != want {
		t.Errorf("tasks, both, only A, only B, neither, unpaired A, infra = %v, want %v", got, want)
	}
	if !near(c.PValue, 0.625) {
		t.Errorf("p = %v, want 0.625", c.PValue)
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, c); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"paired on 6 tasks", "A = A: resolved 3/6 (50.0%, 95% CI 18.8–81.2)", "B = B: resolved 5/6 (83.3%, 95% CI 43.6–97.0)",
		"both resolved 2, only A 1, only B 3, neither 0", "p = 0.625 (on the 4 discordant tasks)",
		"1 had an infrastructure failure", "not paired: 1 tasks only A",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("comparison lacks %q:\n%s", line, out.String())
		}
	}
	if _, err := Compare(rs, "A", "typo"); err == nil {
		t.Error("a model with no report compared without an error")
	}
}

// TestAttemptsMarkdownGolden keeps the attempts section of summary.md and
// report.html (the fixture run has no attempts).
func TestAttemptsMarkdownGolden(t *testing.T) {
	s := Summarize(attemptReports())
	var md, page bytes.Buffer
	if err := Markdown(&md, s); err != nil {
		t.Fatal(err)
	}
	golden(t, "attempts.md", md.Bytes())
	if err := HTML(&page, s, attemptReports()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `<tr><td class="model">sh</td><td class="n">3</td><td class="n">3</td><td class="n">2</td><td class="n">55.6</td><td class="n">33.3</td></tr>`) {
		t.Error("report.html lacks sh's pass@2 row")
	}
}
