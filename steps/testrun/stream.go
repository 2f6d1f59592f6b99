package testrun

import (
	"io"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// parsing is a parser reading a test command's output as it is written.
type parsing struct {
	w    *io.PipeWriter
	done chan struct{}
	res  []schemas.TestResult
	err  error
}

// streamParse starts p on a pipe; the caller writes the output to the
// returned writer and then calls finish.
func streamParse(p parsers.Parser, opts parsers.Options) *parsing {
	r, w := io.Pipe()
	ps := &parsing{w: w, done: make(chan struct{})}
	go func() {
		defer close(ps.done)
		ps.res, ps.err = p.Parse(r, opts)
		// A parser that stops early must not block the writer: the rest
		// of the output still goes to the log.
		io.Copy(io.Discard, r)
		r.Close()
	}()
	return ps
}

func (ps *parsing) Write(b []byte) (int, error) { return ps.w.Write(b) }

// finish ends the output and waits for the parser's results.
func (ps *parsing) finish() ([]schemas.TestResult, error) {
	ps.w.Close()
	<-ps.done
	return ps.res, ps.err
}
