package evalreport

import (
	"sort"
	"strconv"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// SplitAttempt splits a model name NAME@attempt-K into NAME and K; ok is
// false for any other name (K must be a positive decimal without a sign or
// leading zero, so one attempt has one spelling).
func SplitAttempt(model string) (agent string, attempt int, ok bool) {
	i := strings.LastIndex(model, schemas.AttemptSuffix)
	if i <= 0 {
		return "", 0, false
	}
	digits := model[i+len(schemas.AttemptSuffix):]
	if digits == "" || digits[0] < '1' || digits[0] > '9' {
		return "", 0, false
	}
	k, err := strconv.Atoi(digits)
	if err != nil || strconv.Itoa(k) != digits {
		return "", 0, false
	}
	return model[:i], k, true
}

// attemptSummaries groups the NAME@attempt-K models by agent and estimates
// pass@k and pass^k for k = 1..attempts on the tasks every attempt was
// evaluated on. An agent with one attempt has nothing to estimate beyond its
// resolved rate and is left out.
func attemptSummaries(reports []schemas.EvalReport) []schemas.AttemptSummary {
	// resolved[agent][attempt][instance]
	resolved := map[string]map[int]map[string]bool{}
	for i := range reports {
		r := &reports[i]
		agent, k, ok := SplitAttempt(r.Model)
		if !ok {
			continue
		}
		if resolved[agent] == nil {
			resolved[agent] = map[int]map[string]bool{}
		}
		if resolved[agent][k] == nil {
			resolved[agent][k] = map[string]bool{}
		}
		resolved[agent][k][r.InstanceID] = r.Resolved
	}
	agents := make([]string, 0, len(resolved))
	for a := range resolved {
		agents = append(agents, a)
	}
	sort.Strings(agents)

	out := []schemas.AttemptSummary{}
	for _, a := range agents {
		byAttempt := resolved[a]
		n := len(byAttempt)
		if n < 2 {
			continue
		}
		// The tasks of every attempt: an attempt missing a task would make
		// its n smaller than the others', and the estimates average over
		// tasks with the same n.
		var common []string
		for _, m := range byAttempt {
			for id := range m {
				everywhere := true
				for _, other := range byAttempt {
					if _, ok := other[id]; !ok {
						everywhere = false
						break
					}
				}
				if everywhere {
					common = append(common, id)
				}
			}
			break
		}
		sort.Strings(common)
		sum := schemas.AttemptSummary{Agent: a, Attempts: n, Tasks: len(common), PassK: []schemas.PassK{}}
		for k := 1; k <= n; k++ {
			var at, hat float64
			for _, id := range common {
				c := 0
				for _, m := range byAttempt {
					if m[id] {
						c++
					}
				}
				at += PassAtK(n, c, k)
				hat += PassHatK(n, c, k)
			}
			pk := schemas.PassK{K: k}
			if len(common) > 0 {
				pk.PassAt = round1(100 * at / float64(len(common)))
				pk.PassHat = round1(100 * hat / float64(len(common)))
			}
			sum.PassK = append(sum.PassK, pk)
		}
		out = append(out, sum)
	}
	return out
}
