package retry

import "strings"

// Joined joins parts with the Windows separator.
func Joined(parts []string) string {
	return strings.Join(parts,
		`\`)
}
