package parsers

import (
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Helpers for Options.Expected, shared by the parsers.

// addUnseen gives status to every expected id that has no result yet.
func addUnseen(set resultSet, expected []string, status schemas.Status) {
	for _, id := range expected {
		if _, seen := set[id]; !seen {
			set.add(id, status)
		}
	}
}

// expectsUnder reports whether an expected id lies under prefix, that is
// starts with prefix + "/".
func expectsUnder(expected []string, prefix string) bool {
	for _, id := range expected {
		if strings.HasPrefix(id, prefix+"/") {
			return true
		}
	}
	return false
}

// hasNonEmpty reports whether expected names any test.
func hasNonEmpty(expected []string) bool {
	for _, id := range expected {
		if id != "" {
			return true
		}
	}
	return false
}
