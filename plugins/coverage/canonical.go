package coverage

import (
	"bytes"
	"slices"
)

// CanonicalProfile returns raw with the order `go test` gave it removed,
// so that two runs that executed the same code store the same bytes.
//
// A multi-package `go test -coverprofile` appends each test binary's
// profile as that binary finishes, so the order of blocks follows which
// package finished first — under load it varies from run to run, and a
// cached test result would differ from a rerun of it (verify-cache calls
// that nondeterminism, rightly). A profile is a set of block lines under
// one mode: GoCoverprofile merges repeated blocks whatever their order, so
// sorting loses nothing. The first mode line is kept first and the
// repeated ones (concatenated profiles) are dropped, since every run of
// one test command uses one mode.
//
// Anything that is not a Go coverprofile (no "mode: " first line) is
// returned unchanged: the other formats osbench reads are written whole by
// one tool, in an order of its own.
func CanonicalProfile(raw []byte) []byte {
	first, rest, _ := bytes.Cut(raw, []byte("\n"))
	mode := bytes.TrimRight(first, " \t\r")
	if !bytes.HasPrefix(mode, []byte("mode: ")) {
		return raw
	}
	var blocks [][]byte
	for _, line := range bytes.Split(rest, []byte("\n")) {
		line = bytes.TrimRight(line, " \t\r")
		if len(line) == 0 || bytes.Equal(line, mode) {
			continue
		}
		blocks = append(blocks, line)
	}
	slices.SortFunc(blocks, bytes.Compare)
	out := make([]byte, 0, len(raw))
	out = append(append(out, mode...), '\n')
	for _, b := range blocks {
		out = append(append(out, b...), '\n')
	}
	return out
}
