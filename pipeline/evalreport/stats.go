package evalreport

import (
	"math"
)

// z95 is the standard normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Wilson is the 95% Wilson score interval of k successes in n trials, as
// proportions in [0, 1]. Wilson rather than the normal approximation
// because task sets are small and rates near 0 or 1 are common, where the
// normal interval leaves [0, 1] or collapses to a point; n = 0 gives the
// uninformative [0, 1].
func Wilson(k, n int) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	p := float64(k) / float64(n)
	nn := float64(n)
	z2 := z95 * z95
	denom := 1 + z2/nn
	center := (p + z2/(2*nn)) / denom
	half := z95 / denom * math.Sqrt(p*(1-p)/nn+z2/(4*nn*nn))
	return math.Max(0, center-half), math.Min(1, center+half)
}

// binom is C(n, k) as a float64, exact for the task counts a benchmark has
// (it multiplies ratios, so it does not overflow the way n! would).
func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// PassAtK is the unbiased estimator of pass@k for one task with n attempts
// of which c passed (Chen et al. 2021, "Evaluating Large Language Models
// Trained on Code"): the chance that at least one of k attempts drawn
// without replacement passes, 1 − C(n−c, k)/C(n, k). Written as a product,
// as the paper does, so it stays exact for large n.
func PassAtK(n, c, k int) float64 {
	if k <= 0 || k > n {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod
}

// PassHatK is the unbiased estimator of pass^k (Yao et al. 2024,
// τ-bench): the chance that all of k attempts drawn without replacement
// pass, C(c, k)/C(n, k) — how reliably an agent solves a task, where pass@k
// says whether it can at all.
func PassHatK(n, c, k int) float64 {
	if k <= 0 || k > n {
		return math.NaN()
	}
	return binom(c, k) / binom(n, k)
}

// McNemarExact is the two-sided exact McNemar p-value for a paired
// comparison with b tasks only the first model solved and c only the
// second: under the null hypothesis each discordant task is a fair coin, so
// p = min(1, 2·P[X ≤ min(b, c)]) for X ~ Binomial(b+c, ½). No discordant
// task gives p = 1.
func McNemarExact(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	m := min(b, c)
	// Sum in log space: 2^-n underflows long before C(n, i) overflows
	// would matter, at n past a thousand.
	sum := 0.0
	for i := 0; i <= m; i++ {
		lg := lgammaInt(n+1) - lgammaInt(i+1) - lgammaInt(n-i+1) - float64(n)*math.Ln2
		sum += math.Exp(lg)
	}
	return math.Min(1, 2*sum)
}

func lgammaInt(x int) float64 {
	v, _ := math.Lgamma(float64(x))
	return v
}
