// Package lineend reads and writes line-oriented text the way each platform
// expects it: Windows tools write "\r\n", Unix tools write "\n", and a
// reader must accept both because files travel between the two.
package lineend

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
)

const (
	// LF ends lines on Unix.
	LF = "\n"
	// CRLF ends lines on Windows.
	CRLF = "\r\n"
)

// ErrLineBreak means a line handed to a Writer already contains a line
// break, which would make the written lines differ from the lines given.
var ErrLineBreak = errors.New("line contains a line break")

// Native returns the line ending of text files on the running platform.
func Native() string {
	if runtime.GOOS == "windows" {
		return CRLF
	}
	return LF
}

// Writer writes lines with the platform's native ending.
type Writer struct {
	w      io.Writer
	ending string
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, ending: Native()}
}

// WriteLine writes line followed by the native line ending. A line holding
// '\r' or '\n' is refused with an error wrapping ErrLineBreak.
func (lw *Writer) WriteLine(line string) error {
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		return fmt.Errorf("lineend: write %q: byte %d: %w", line, i, ErrLineBreak)
	}
	if _, err := io.WriteString(lw.w, line+lw.ending); err != nil {
		return fmt.Errorf("lineend: write %q: %w", line, err)
	}
	return nil
}

// ReadLines reads r to the end and returns its lines without their endings.
// "\n" and "\r\n" both end a line, even mixed in one input; a last line
// without an ending is kept.
func ReadLines(r io.Reader) ([]string, error) {
	var lines []string
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if line != "" {
			line = strings.TrimSuffix(line, "\n")
			lines = append(lines, strings.TrimSuffix(line, "\r"))
		}
		if err == io.EOF {
			return lines, nil
		}
		if err != nil {
			return lines, fmt.Errorf("lineend: read line %d: %w", n, err)
		}
	}
}

// Detect returns the line ending that data uses: CRLF or LF when every line
// ends the same way, "" when data has no line ending or mixes both.
func Detect(data []byte) string {
	crlf := bytes.Count(data, []byte(CRLF))
	lf := bytes.Count(data, []byte(LF)) - crlf
	switch {
	case crlf > 0 && lf == 0:
		return CRLF
	case lf > 0 && crlf == 0:
		return LF
	default:
		return ""
	}
}
