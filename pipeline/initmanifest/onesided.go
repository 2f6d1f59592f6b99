package initmanifest

import (
	"sort"

	"github.com/osbench/osbench/schemas"
)

// FailingWhereOnly names, per platform, the tests that fail or time out
// there and that no other platform runs (go-sysinfo's Linux-only tests
// failed 23 times while init said "no test fails on one platform only",
// issue 22). They are named, not proposed as skips: like a test that
// fails on both platforms, a test failing at the source version enters no
// label set on its platform, and the other never runs it, so skipping it
// changes no task while it changes the runs. The curator reads why (a
// sandbox, a missing tool) and decides.
func FailingWhereOnly(runs []PlatformRun) map[string][]Skip {
	ran := map[string]map[string]bool{}
	for _, r := range runs {
		ids := map[string]bool{}
		for _, t := range r.Tests {
			ids[t.ID] = true
		}
		ran[r.Platform] = ids
	}
	out := map[string][]Skip{}
	for _, r := range runs {
		reasons := readReasons(r.Log)
		other := otherPlatform(r.Platform, runs)
		var list []Skip
		for _, t := range r.Tests {
			if t.Status != schemas.StatusFail && t.Status != schemas.StatusTimeout {
				continue
			}
			elsewhere := false
			for p, ids := range ran {
				elsewhere = elsewhere || (p != r.Platform && ids[t.ID])
			}
			if elsewhere {
				continue
			}
			reason := "fails on " + r.Platform + "; " + other + " does not run it"
			if t.Status == schemas.StatusTimeout {
				reason = "timed out on " + r.Platform + "; " + other + " does not run it"
			} else if o := reasons[t.ID]; o.first != "" {
				reason = o.first + " (" + other + " does not run it)"
			}
			list = append(list, Skip{Test: t.ID, Reason: reason})
		}
		if len(list) > 0 {
			sort.Slice(list, func(i, j int) bool { return list[i].Test < list[j].Test })
			out[r.Platform] = list
		}
	}
	return out
}
