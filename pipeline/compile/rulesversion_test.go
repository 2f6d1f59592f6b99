package compile

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/steps/maskrepo"
	"github.com/osbench/osbench/steps/verifyregions"
)

// TestRuleVersionReachesOnlyItsLanguage: a new version of one language's
// verify (or mask) rules changes the configuration of that language's
// verify (or mask and mask-retry) steps and of no other step, so a rule
// change reruns exactly what applies those rules (and, by early cutoff,
// only what their changed results feed).
func TestRuleVersionReachesOnlyItsLanguage(t *testing.T) {
	set := manifestSet(t, "examples")
	configs := func() map[string]string {
		steps, err := Compile(context.Background(), set, Options{ExecutorState: func(string) (string, error) { return t.TempDir(), nil }})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, s := range steps {
			b, err := json.Marshal(s.Config)
			if err != nil {
				t.Fatal(err)
			}
			out[s.ID] = s.Kind + " " + string(b)
		}
		return out
	}
	languageOf := map[string]string{}
	for _, r := range set.Repositories {
		languageOf[r.Name] = r.Language
	}
	before := configs()

	// bump gives a language's rules a version none has, the others what key gives.
	bump := func(language string, key func(string) string) func(string) string {
		return func(l string) string {
			if l == language {
				return l + "=next"
			}
			return key(l)
		}
	}
	for _, tc := range []struct {
		name     string
		set      func(language string)
		kinds    []string
		language string
	}{
		{"verify rules of go", func(l string) { verifyRulesKey = bump(l, lang.VerifyRulesKey) }, []string{verifyregions.Kind}, "go"},
		{"verify rules of rust", func(l string) { verifyRulesKey = bump(l, lang.VerifyRulesKey) }, []string{verifyregions.Kind}, "rust"},
		{"mask rules of c", func(l string) { maskRulesKey = bump(l, lang.MaskRulesKey) }, []string{maskrepo.Kind, maskrepo.RetryKind}, "c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() { verifyRulesKey, maskRulesKey = lang.VerifyRulesKey, lang.MaskRulesKey }()
			tc.set(tc.language)
			after := configs()
			var changed []string
			for id, c := range after {
				if before[id] != c {
					changed = append(changed, id)
				}
			}
			sort.Strings(changed)
			if len(changed) == 0 {
				t.Fatalf("no step's configuration changed")
			}
			for _, id := range changed {
				kind, repo := kindOf(after[id]), repoOf(id)
				if !slices.Contains(tc.kinds, kind) || languageOf[repo] != tc.language {
					t.Errorf("%s (%s, a %s repository) changed; only %v steps of %s repositories may", id, kind, languageOf[repo], tc.kinds, tc.language)
				}
			}
			// Every such step of the language changed.
			for id, c := range before {
				if slices.Contains(tc.kinds, kindOf(c)) && languageOf[repoOf(id)] == tc.language && after[id] == c {
					t.Errorf("%s kept its configuration", id)
				}
			}
		})
	}
}

func kindOf(config string) string { k, _, _ := strings.Cut(config, " "); return k }

func repoOf(stepID string) string { r, _, _ := strings.Cut(stepID, "/"); return r }
