package lang

import "strings"

// Family is the languages whose files a repository of language name holds
// and whose rules its steps apply: C and C++ share headers (a .h file is
// C), so a C repository's regions can be in either.
func Family(name string) []string {
	switch name {
	case "c", "cpp":
		return []string{"c", "cpp"}
	}
	return []string{name}
}

// VerifyRulesKey names the versions of the verify rules the rules verifier
// applies to a repository of language name, for the verify step's key: a
// new version of one language's rules reruns that language's verify steps
// and nothing else. It is "" while every version is "1" — the absence of
// the field, so keys made before rule sets had versions stay what they
// were — and else "name=version" pairs, "c=2,cpp=1".
func VerifyRulesKey(name string) string {
	return rulesKey(name, func(l string) (string, bool) {
		v, ok := Default.Verify(l)
		if !ok {
			return "", false
		}
		return v.Version(), true
	})
}

// MaskRulesKey is VerifyRulesKey for the mask rules (the mask and
// mask-retry steps' keys).
func MaskRulesKey(name string) string {
	return rulesKey(name, func(l string) (string, bool) {
		m, ok := Default.Mask(l)
		if !ok {
			return "", false
		}
		return m.Version(), true
	})
}

func rulesKey(name string, version func(string) (string, bool)) string {
	var pairs []string
	changed := false
	for _, l := range Family(name) {
		v, ok := version(l)
		if !ok {
			continue // no rules: the step fails, saying so
		}
		if v != "1" {
			changed = true
		}
		pairs = append(pairs, l+"="+v)
	}
	if !changed {
		return ""
	}
	return strings.Join(pairs, ",")
}
