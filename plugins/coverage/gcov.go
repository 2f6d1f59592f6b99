package coverage

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// Gcov imports gcov's reports (gcc's and mingw-w64's), in either of its
// formats, told apart by their first bytes:
//
//   - The text of .gcov files, several concatenated into one input. Each
//     starts with "-:0:Source:<path>"; then every line is
//     "<count>:<line>:<source text>", where <count> is "-" for a line with
//     no code, "#####" or "=====" for a line that never ran ("=====": only
//     reachable through exceptions), or a number, perhaps with a "*"
//     (some of the line's blocks did not run) or a unit (gcov -H: "1.2k").
//     Lines of gcov -a, -b and -f ("5-block 0" with "$$$$$" and "%%%%%"
//     markers, "branch", "call", "function" lines, template
//     specialisations) and other headers are ignored. C++ names, which
//     gcov -m prints demangled in its "function" and specialisation lines
//     ("function geo::Polygon::label[abi:cxx11](int) const called 1 ...",
//     "int geo::scaled<int>(int, int):"), hold ':' of their own: a line
//     whose first field starts like a name (a letter or "_"), or whose
//     second field is empty (the "::" of a name, as in "(anonymous
//     namespace)::f<int>(int):") while its first is no count, is not a
//     count line. The file is the path after "Source:", whatever it holds.
//   - gcov --json-format (.gcov.json.gz files: gzip, perhaps several
//     members one after another) or its uncompressed form (gcov --stdout
//     --json-format): JSON documents, one per object file, with
//     files[].file and files[].lines[].line_number/count. A relative file
//     is relative to the document's current_working_directory. The
//     document is read token by token; functions and branches are skipped.
//
// A source path goes through RepoRelative (a relative path of the text
// format is taken as relative to Root), and a file outside the repository
// is dropped. Lines with a count are instrumented, and executed when the
// count is not zero (see countRan). A file reported by several object files
// (a header) or several runs is merged: a line is executed if any report
// says so. Malformed input is an error naming its line (text) or byte
// offset (JSON).
type Gcov struct{}

var _ Importer = (*Gcov)(nil)

// Import implements Importer.
func (*Gcov) Import(r io.Reader, opts Options) ([]schemas.FileCoverage, error) {
	br := bufio.NewReader(r)
	collected := newReportCollector()
	var err error
	switch gcovFormatOf(br) {
	case gcovGzip:
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(br); err != nil {
			return nil, fmt.Errorf("gcov: %w", err)
		}
		err = importGcovJSON(zr, opts, collected)
	case gcovJSON:
		err = importGcovJSON(br, opts, collected)
	default:
		err = importGcovText(br, opts, collected)
	}
	if err != nil {
		return nil, err
	}
	files, err := collected.coverage()
	if err != nil {
		return nil, fmt.Errorf("gcov: %w", err)
	}
	return files, nil
}

type gcovFormat int

const (
	gcovText gcovFormat = iota
	gcovJSON
	gcovGzip
)

// gcovFormatOf tells the formats apart by the first bytes of the input
// (after blanks, for JSON), without consuming them.
func gcovFormatOf(br *bufio.Reader) gcovFormat {
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		return gcovGzip
	}
	for i := 1; ; i++ {
		head, err := br.Peek(i)
		if len(head) < i {
			return gcovText // only blanks, or nothing
		}
		switch c := head[i-1]; c {
		case ' ', '\t', '\r', '\n':
			if err != nil {
				return gcovText
			}
			continue
		case '{':
			return gcovJSON
		default:
			return gcovText
		}
	}
}

// importGcovText reads concatenated .gcov files.
func importGcovText(r io.Reader, opts Options, collected *reportCollector) error {
	sawSource := false
	file := "" // repo path of the current file; "" when outside the repo
	return scanReportLines(r, "gcov", func(line string) error {
		countText, rest, ok := strings.Cut(line, ":")
		if !ok {
			return nil // "function ...", "branch ...", "------------------"
		}
		lineText, source, ok := strings.Cut(rest, ":")
		if !ok {
			return nil // a template specialisation's "_Z3fooIiEvv:"
		}
		countText, lineText = strings.TrimSpace(countText), strings.TrimSpace(lineText)
		if startsLikeName(countText) || (lineText == "" && !countShaped(countText)) {
			// A C++ name: "function ns::f(int) called 1 ...", or the
			// specialisation header "int ns::f<int>(int):".
			return nil
		}
		if lineText == "0" {
			if path, ok := strings.CutPrefix(source, "Source:"); ok {
				sawSource, file = true, ""
				if rel, ok := RepoRelative(opts.Root, strings.TrimSpace(path)); ok {
					file = rel
					collected.addFile(file)
				}
			}
			return nil // other headers: Graph, Data, Runs, Programs
		}
		if strings.Contains(lineText, "-block") || countText == "-" {
			return nil // a block of gcov -a, or a line without code
		}
		number, err := parseLineNumber(lineText)
		if err != nil {
			return fmt.Errorf("%w in %q", err, clip(line))
		}
		ran, err := gcovCountRan(countText)
		if err != nil {
			return fmt.Errorf("%w in %q", err, clip(line))
		}
		if !sawSource {
			return errors.New(`a count before any "Source:" header`)
		}
		if file != "" {
			return collected.addLines(file, number, number, ran)
		}
		return nil
	})
}

// startsLikeName reports whether s starts as an identifier does; no count
// or gcov marker does.
func startsLikeName(s string) bool {
	if s == "" {
		return false
	}
	c := s[0] | 0x20 // ASCII lower case
	return c >= 'a' && c <= 'z' || s[0] == '_'
}

// countShaped reports whether s is made of what gcov's counts and markers
// are made of.
func countShaped(s string) bool {
	return s != "" && strings.Trim(s, "0123456789*.kMGTPE#=%$-") == ""
}

// gcovCountRan reads the count column of a .gcov line (see Gcov).
func gcovCountRan(count string) (bool, error) {
	switch count {
	case "#####", "=====":
		return false, nil
	}
	digits := strings.TrimSuffix(count, "*")
	if i := strings.IndexAny(digits, "kMGTPE"); i > 0 && i == len(digits)-1 {
		// gcov -H: "1.2k", "15M"; only counts of at least 1000 get a unit.
		whole, fraction, _ := strings.Cut(digits[:i], ".")
		if whole != "" && strings.Trim(whole+fraction, "0123456789") == "" {
			return true, nil
		}
	}
	ran, err := countRan(digits)
	if err != nil {
		return false, fmt.Errorf("count %q is neither a number nor a gcov marker", count)
	}
	return ran, nil
}

// importGcovJSON reads a stream of gcov JSON documents.
func importGcovJSON(r io.Reader, opts Options, collected *reportCollector) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	for dec.More() {
		if err := readGcovDocument(dec, opts, collected); err != nil {
			return fmt.Errorf("gcov: JSON at byte %d: %w", dec.InputOffset(), err)
		}
	}
	// More is false at the end of the input and on bad input; Token tells
	// them apart.
	if tok, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			err = fmt.Errorf("want a document, got %v", describeToken(tok))
		}
		return fmt.Errorf("gcov: JSON at byte %d: %w", dec.InputOffset(), err)
	}
	return nil
}

// gcovJSONLine is one entry of files[].lines[].
type gcovJSONLine struct {
	LineNumber json.Number `json:"line_number"`
	Count      json.Number `json:"count"`
}

// gcovJSONFile is what one entry of files[] reported, until the document's
// working directory is known (gcov writes it after the files).
type gcovJSONFile struct {
	file  string
	lines []reportedLine
}

// readGcovDocument reads one gcov JSON document.
func readGcovDocument(dec *json.Decoder, opts Options, collected *reportCollector) error {
	var cwd string
	var files []gcovJSONFile
	err := forEachKey(dec, func(key string) error {
		var err error
		switch key {
		case "current_working_directory":
			if cwd, err = readString(dec); err != nil {
				return fmt.Errorf("current_working_directory: %w", err)
			}
		case "files":
			err = forEachElement(dec, func() error {
				f, err := readGcovFile(dec)
				files = append(files, f)
				return err
			})
			if err != nil {
				return fmt.Errorf("files: %w", err)
			}
		default:
			return skipValue(dec)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, f := range files {
		rel, ok := RepoRelative(opts.Root, joinReportPath(cwd, f.file))
		if !ok {
			continue
		}
		collected.addFile(rel)
		for _, l := range f.lines {
			if err := collected.addLines(rel, l.number, l.number, l.ran); err != nil {
				return err
			}
		}
	}
	return nil
}

// readGcovFile reads one entry of files[].
func readGcovFile(dec *json.Decoder) (gcovJSONFile, error) {
	var f gcovJSONFile
	err := forEachKey(dec, func(key string) error {
		switch key {
		case "file":
			var err error
			f.file, err = readString(dec)
			return err
		case "lines":
			return forEachElement(dec, func() error {
				var l gcovJSONLine
				if err := dec.Decode(&l); err != nil {
					return err
				}
				number, err := parseLineNumber(l.LineNumber.String())
				if err != nil {
					return err
				}
				ran, err := countRan(l.Count.String())
				if err != nil {
					return err
				}
				f.lines = append(f.lines, reportedLine{number, ran})
				return nil
			})
		}
		return skipValue(dec)
	})
	if err == nil && f.file == "" {
		err = errors.New("a file without a name")
	}
	return f, err
}
