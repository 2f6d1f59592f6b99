package parsers

import (
	"bufio"
	"io"
)

// maxLineBytes bounds the memory one line of runner output can take. Longer
// lines are cut short: everything a parser looks for sits at a line's start,
// and a test that prints megabytes without a newline must not exhaust memory.
const maxLineBytes = 1 << 20

// lineScanner yields the lines of r without their "\n" or "\r\n", cutting
// lines longer than maxLineBytes. Unlike bufio.Scanner it never fails on a
// long line.
type lineScanner struct {
	r    *bufio.Reader
	line []byte
	err  error
}

func newLineScanner(r io.Reader) *lineScanner {
	return &lineScanner{r: bufio.NewReaderSize(r, 64<<10)}
}

// Scan advances to the next line and reports whether there is one.
func (s *lineScanner) Scan() bool {
	s.line = s.line[:0]
	got := false
	for {
		chunk, more, err := s.r.ReadLine()
		if err != nil {
			if err != io.EOF {
				s.err = err
			}
			return got && s.err == nil
		}
		got = true
		if room := maxLineBytes - len(s.line); room > 0 {
			if len(chunk) > room {
				chunk = chunk[:room]
			}
			s.line = append(s.line, chunk...)
		}
		if !more {
			return true
		}
	}
}

// Bytes returns the current line; it is valid until the next call to Scan.
func (s *lineScanner) Bytes() []byte { return s.line }

// Err returns the first read error other than io.EOF.
func (s *lineScanner) Err() error { return s.err }
