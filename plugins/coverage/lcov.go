package coverage

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Lcov imports an lcov tracefile, as lcov/geninfo, `llvm-cov export
// -format=lcov`, grcov, c8 and others write it:
//
//	SF:/w/repo/calc/calc.c
//	DA:5,1
//	DA:14,0
//	end_of_record
//
// The records are read as follows.
//
//   - SF opens a file's record; its path goes through RepoRelative (a
//     relative path is taken as relative to Root), and a record of a file
//     outside the repository is dropped. end_of_record closes it; a record
//     cut short by the end of the input counts as closed.
//   - DA:<line>,<count>[,<checksum>] makes the line instrumented, and
//     executed when the count is not zero (see countRan for negative
//     counts). A line reported twice, in one record or in records for the
//     same file (tracefiles concatenated from several runs), is executed if
//     any report says so.
//   - A file with a record but no DA line is listed with no lines: it was
//     compiled.
//   - Every other record (TN, FN, FNDA, FNF, FNH, FNL, FNA, BRDA, BRF, BRH,
//     LF, LH, VER) and blank lines are ignored.
//
// A malformed DA line, or one outside a record, is an error naming its line.
type Lcov struct{}

var _ Importer = (*Lcov)(nil)

// Import implements Importer.
func (*Lcov) Import(r io.Reader, opts Options) ([]schemas.FileCoverage, error) {
	collected := newReportCollector()
	inRecord := false
	file := "" // repo path of the record's file; "" when outside the repo
	err := scanReportLines(r, "lcov", func(line string) error {
		line = strings.TrimSpace(line)
		switch {
		case line == "end_of_record":
			inRecord, file = false, ""
		case strings.HasPrefix(line, "SF:"):
			source := strings.TrimSpace(line[len("SF:"):])
			if source == "" {
				return errors.New("SF names no file")
			}
			inRecord, file = true, ""
			if rel, ok := RepoRelative(opts.Root, source); ok {
				file = rel
				collected.addFile(file)
			}
		case strings.HasPrefix(line, "DA:"):
			if !inRecord {
				return errors.New("DA outside a file record (no SF before it)")
			}
			number, ran, err := parseLcovDA(line[len("DA:"):])
			if err != nil {
				return fmt.Errorf("%w in %q", err, clip(line))
			}
			if file != "" {
				return collected.addLines(file, number, number, ran)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	files, err := collected.coverage()
	if err != nil {
		return nil, fmt.Errorf("lcov: %w", err)
	}
	return files, nil
}

// parseLcovDA reads "<line>,<count>[,<checksum>]".
func parseLcovDA(s string) (line int, ran bool, err error) {
	fields := strings.Split(s, ",")
	if len(fields) < 2 || len(fields) > 3 {
		return 0, false, errors.New(`want "DA:<line>,<count>[,<checksum>]"`)
	}
	if line, err = parseLineNumber(strings.TrimSpace(fields[0])); err != nil {
		return 0, false, err
	}
	if ran, err = countRan(strings.TrimSpace(fields[1])); err != nil {
		return 0, false, err
	}
	return line, ran, nil
}
