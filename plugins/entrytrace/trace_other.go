//go:build !(linux && amd64)

package entrytrace

import (
	"context"
	"os"
)

// Command is a program to trace and the functions to watch; see the
// Linux amd64 build for the fields' meaning.
type Command struct {
	Path                  string
	Args                  []string
	Env                   []string
	Dir                   string
	Stdin, Stdout, Stderr *os.File
	Target                string
	Select                func(symbol string) (name string, ok bool)
	Within                string
}

// Trace has no tracer on this platform.
func Trace(ctx context.Context, c Command) (*Result, error) { return nil, ErrUnsupported }

// Available reports that this platform has no tracer.
func Available() error { return ErrUnsupported }
