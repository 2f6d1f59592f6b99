package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/osbench/osbench/schemas"
)

// LLVMJSON imports the JSON that `llvm-cov export -format=text` writes for
// clang's source-based coverage (-fprofile-instr-generate
// -fcoverage-mapping) and Rust's (-C instrument-coverage):
//
//	{"type": "llvm.coverage.json.export", "version": "2.0.1",
//	 "data": [{"files": [{"filename": "/w/repo/calc.c",
//	                      "segments": [[5, 23, 1, true, true, false], ...]}],
//	           "functions": [...], "totals": {...}}]}
//
// A segment is [line, column, count, hasCount, isRegionEntry, isGapRegion]
// (exports before version 2 have no isGapRegion). Lines are derived from a
// file's segments the way llvm-cov derives its own line coverage (its
// LineCoverageStats), so the result is what `llvm-cov export -format=lcov`
// and llvm-cov's reports say:
//
//   - The lines from a file's first segment to its last are considered in
//     turn. A line is instrumented when the segment in force as the line
//     starts (the last segment of an earlier line) has a count, or when a
//     region that has a count and is not a gap starts on it; a line on
//     which a region without a count starts (code the compiler skipped) is
//     not.
//   - An instrumented line is executed when the segment in force or one of
//     the regions starting on it has a count above zero.
//
// Everything but files[].filename and files[].segments (functions,
// branches, expansions, summaries) is skipped; the document is read token
// by token. A file without "segments" is an error, never a file without
// coverage: `llvm-cov export -summary-only` writes only each file's
// summary, which holds no line numbers, and an import that silently gave
// empty coverage would make every line look unexecuted. A filename goes through RepoRelative, and a file outside the
// repository is dropped. Several documents, or several data entries, that
// name one file are merged. Malformed input is an error naming its byte
// offset.
type LLVMJSON struct{}

var _ Importer = (*LLVMJSON)(nil)

// llvmSegment is one segment of a file.
type llvmSegment struct {
	line, col   int
	ran         bool // count above zero
	hasCount    bool
	regionEntry bool
	gap         bool
}

// Import implements Importer.
func (*LLVMJSON) Import(r io.Reader, opts Options) ([]schemas.FileCoverage, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	collected := newReportCollector()
	fail := func(err error) error {
		return fmt.Errorf("llvm-json: JSON at byte %d: %w", dec.InputOffset(), err)
	}
	for dec.More() {
		err := forEachKey(dec, func(key string) error {
			if key != "data" {
				return skipValue(dec)
			}
			entry := 0
			return forEachElement(dec, func() error {
				entry++
				return readLLVMData(dec, entry-1, opts, collected)
			})
		})
		if err != nil {
			return nil, fail(err)
		}
	}
	if tok, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = fmt.Errorf("want a document, got %v", describeToken(tok))
		}
		return nil, fail(err)
	}
	files, err := collected.coverage()
	if err != nil {
		return nil, fmt.Errorf("llvm-json: %w", err)
	}
	return files, nil
}

// readLLVMData reads entry number entry of data[].
func readLLVMData(dec *json.Decoder, entry int, opts Options, collected *reportCollector) error {
	return forEachKey(dec, func(key string) error {
		if key != "files" {
			return skipValue(dec) // functions, totals
		}
		file := 0
		return forEachElement(dec, func() error {
			file++
			filename, segments, err := readLLVMFile(dec)
			if err != nil {
				return fmt.Errorf("data[%d].files[%d]: %w", entry, file-1, err)
			}
			rel, ok := RepoRelative(opts.Root, filename)
			if !ok {
				return nil
			}
			collected.addFile(rel)
			return addLLVMLines(collected, rel, segments)
		})
	})
}

// readLLVMFile reads one entry of files[].
func readLLVMFile(dec *json.Decoder) (string, []llvmSegment, error) {
	var filename string
	var segments []llvmSegment
	sawSegments, sawSummary := false, false
	err := forEachKey(dec, func(key string) error {
		switch key {
		case "summary":
			sawSummary = true
		case "filename":
			var err error
			filename, err = readString(dec)
			return err
		case "segments":
			sawSegments = true
			return forEachElement(dec, func() error {
				var fields []any
				if err := dec.Decode(&fields); err != nil {
					return fmt.Errorf("segment: %w", err)
				}
				s, err := parseLLVMSegment(fields)
				if err != nil {
					return fmt.Errorf("segment %d: %w", len(segments), err)
				}
				segments = append(segments, s)
				return nil
			})
		}
		return skipValue(dec)
	})
	switch {
	case err != nil:
	case filename == "":
		err = errors.New("a file without a filename")
	case !sawSegments && sawSummary:
		err = errors.New(`a summary but no "segments": the export has no line data, as ` +
			"`llvm-cov export -summary-only` writes it; export again without -summary-only")
	case !sawSegments:
		err = errors.New(`no "segments": the export has no line data; ` +
			"export with `llvm-cov export -format=text` (without -summary-only)")
	}
	return filename, segments, err
}

// parseLLVMSegment reads [line, col, count, hasCount, isRegionEntry
// (, isGapRegion)].
func parseLLVMSegment(fields []any) (llvmSegment, error) {
	var s llvmSegment
	if len(fields) < 5 {
		return s, fmt.Errorf("has %d fields, want at least 5", len(fields))
	}
	var err error
	if s.line, err = parseLineNumber(numberText(fields[0])); err != nil {
		return s, err
	}
	if s.col, err = parseNatural(numberText(fields[1]), "column"); err != nil {
		return s, err
	}
	if s.ran, err = countRan(numberText(fields[2])); err != nil {
		return s, err
	}
	flags := []*bool{&s.hasCount, &s.regionEntry, &s.gap}
	for i, flag := range flags {
		if 3+i >= len(fields) {
			break // no isGapRegion before export version 2
		}
		if *flag, err = jsonFlag(fields[3+i]); err != nil {
			return s, err
		}
	}
	return s, nil
}

// numberText returns the text of a JSON number, or a text no number
// parser accepts for anything else.
func numberText(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return fmt.Sprintf("<%T>", v)
}

// jsonFlag reads a boolean, written as true/false or as 0/1.
func jsonFlag(v any) (bool, error) {
	switch t := v.(type) {
	case bool:
		return t, nil
	case json.Number:
		switch t {
		case "0":
			return false, nil
		case "1":
			return true, nil
		}
	}
	return false, fmt.Errorf("flag %v is neither a boolean nor 0 or 1", v)
}

// addLLVMLines derives a file's lines from its segments (see LLVMJSON).
func addLLVMLines(collected *reportCollector, path string, segments []llvmSegment) error {
	sort.SliceStable(segments, func(i, j int) bool {
		if segments[i].line != segments[j].line {
			return segments[i].line < segments[j].line
		}
		return segments[i].col < segments[j].col
	})
	var wrapped *llvmSegment // the segment in force as the line starts
	for i := 0; i < len(segments); {
		line := segments[i].line
		end := i
		for end < len(segments) && segments[end].line == line {
			end++
		}
		if instrumented, ran := llvmLineStats(segments[i:end], wrapped); instrumented {
			if err := collected.addLines(path, line, line, ran); err != nil {
				return err
			}
		}
		wrapped = &segments[end-1]
		// The lines up to the next segment have no segment of their own:
		// the segment in force decides for all of them.
		if end < len(segments) && segments[end].line > line+1 && wrapped.hasCount {
			if err := collected.addLines(path, line+1, segments[end].line-1, wrapped.ran); err != nil {
				return err
			}
		}
		i = end
	}
	return nil
}

// llvmLineStats says whether a line with the given segments starting on it
// is instrumented and executed, given the segment in force as it starts.
func llvmLineStats(starting []llvmSegment, wrapped *llvmSegment) (instrumented, ran bool) {
	regionStarts := 0
	for _, s := range starting {
		if s.startsRegion() {
			regionStarts++
		}
	}
	skipped := !starting[0].hasCount && starting[0].regionEntry
	instrumented = !skipped && ((wrapped != nil && wrapped.hasCount) || regionStarts > 0)
	if !instrumented {
		return false, false
	}
	if wrapped != nil {
		ran = wrapped.ran
	}
	for _, s := range starting {
		if s.startsRegion() && s.ran {
			ran = true
		}
	}
	return true, ran
}

// startsRegion: the segment opens a region that has a count and is not a
// gap between regions.
func (s *llvmSegment) startsRegion() bool {
	return !s.gap && s.hasCount && s.regionEntry
}
