package golang_test

import (
	"context"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// timesDecls is a package in the shape of a file-times library: an
// interface of accessors, value types carrying one time each, and a
// platform file composing them.
const timesDecls = `package times

import "time"

// Timespec gives a file's times.
type Timespec interface {
	ModTime() time.Time
	HasChangeTime() bool
}

type mtime struct{ v time.Time }

func (m mtime) ModTime() time.Time { return m.v }

type ctime struct{ v time.Time }

func (ctime) HasChangeTime() bool { return true }
`

// placeholderCase is one file masked whole with the files beside it: want
// is the return its first function's placeholder must be.
type placeholderCase struct {
	file   string            // lib.go's source; its function Stat is masked
	beside map[string]string // the other files of the directory
	coarse bool
	want   string
	// noBuild: the masked package is not compiled, because the directory
	// is no package that builds (on purpose) or the compiler takes
	// exponential time over it (the fan-out of embeddings).
	noBuild bool
}

var placeholderCases = map[string]placeholderCase{
	// The platform file's own type implements the interface through the
	// methods its embedded fields promote.
	"interface-embedded-methods": {
		file: `package times

type timespec struct {
	mtime
	ctime
}

func Stat(name string) (Timespec, error) {
	return nil, nil
}
`,
		beside: map[string]string{"times.go": timesDecls},
		want:   `return timespec{}, errors.New("not implemented on this platform")`,
	},
	// Pointer receivers: only *conn implements the interface.
	"interface-pointer-receivers": {
		file: `package net

type Conn interface {
	Close() error
}

type conn struct{ fd int }

func (c *conn) Close() error { return nil }

func Dial(addr string) Conn {
	return &conn{}
}
`,
		want: `return new(conn)`,
	},
	// The interface embeds another of the package's interfaces; a type of
	// a file every platform compiles implements both.
	"interface-embedding-interface": {
		file: `package store

func Open(path string) (ReadCloser, error) {
	return nil, nil
}
`,
		beside: map[string]string{"store.go": `package store

type Reader interface{ Read(p []byte) (n int, err error) }

type ReadCloser interface {
	Reader
	Close() error
}

type file struct{}

func (file) Read([]byte) (int, error) { return 0, nil }
func (file) Close() error             { return nil }
`},
		want: `return file{}, errors.New("not implemented on this platform")`,
	},
	// The only implementation lives in a file another platform compiles:
	// nil stays (the type would not exist on the target).
	"interface-implementation-elsewhere": {
		file: `package times

func Stat(name string) (Timespec, error) {
	return nil, nil
}
`,
		beside: map[string]string{
			"times.go": timesDecls,
			"times_windows.go": `package times

type winspec struct {
	mtime
	ctime
}
`,
			"times_bsd.go": `//go:build freebsd

package times

type bsdspec struct {
	mtime
	ctime
}
`,
		},
		want: `return *new(Timespec), errors.New("not implemented on this platform")`,
	},
	// A method of the right name and another signature does not count.
	"interface-signature-differs": {
		file: `package times

type timespec struct{ mtime }

func (timespec) HasChangeTime() int { return 0 }

func Stat(name string) (Timespec, error) {
	return nil, nil
}
`,
		beside: map[string]string{"times.go": timesDecls},
		want:   `return *new(Timespec), errors.New("not implemented on this platform")`,
	},
	// Two embedded fields promoting the same method: the compiler would
	// not promote it, so the type does not implement the interface.
	"interface-ambiguous-promotion": {
		file: `package times

import "time"

type other struct{}

func (other) ModTime() time.Time { return time.Time{} }

type timespec struct {
	mtime
	other
	ctime
}

func Stat(name string) (Timespec, error) {
	return nil, nil
}
`,
		beside: map[string]string{"times.go": timesDecls},
		want:   `return *new(Timespec), errors.New("not implemented on this platform")`,
	},
	// An interface embedding another package's interface: its methods are
	// unknown here, so nil stays.
	"interface-embeds-other-package": {
		file: `package rw

import "io"

type File interface {
	io.Reader
}

type file struct{}

func (file) Read(p []byte) (int, error) { return 0, nil }

func Open() File {
	return file{}
}
`,
		want: `return nil`,
	},
	// A test file or another package beside the file declares nothing of
	// the package.
	"interface-test-and-other-package": {
		file: `package times

func Stat(name string) (Timespec, error) {
	return nil, nil
}
`,
		beside: map[string]string{
			"times.go":           timesDecls,
			"fake_test.go":       "package times\n\ntype fake struct{ mtime; ctime }\n",
			"main_ignored.go":    "package main\n\ntype prog struct{ mtime; ctime }\n",
			"cgo_times.go":       "package times\n\nimport \"C\"\n\ntype cspec struct{ mtime; ctime }\n",
			"README.md":          "not Go",
			"broken_syntax.go":   "package times\n\ntype (\n",
			"constrained_old.go": "// +build linux\n\npackage times\n\ntype oldspec struct{ mtime; ctime }\n",
		},
		want:    `return *new(Timespec), errors.New("not implemented on this platform")`,
		noBuild: true,
	},
	// A type embedding a pointer to itself: the embedding cycle ends, and
	// ModTime, which mtime promotes at depth 1 and *node again deeper,
	// goes to the shallower.
	"interface-embedding-cycle": {
		file: `package times

type node struct {
	*node
	mtime
	ctime
}

func Stat(name string) (Timespec, error) {
	return nil, nil
}
`,
		beside: map[string]string{"times.go": timesDecls},
		want:   `return node{}, errors.New("not implemented on this platform")`,
	},
	// Forty types each embedding the two before it: each type's methods
	// are worked out once (without that, 2^40 walks).
	"interface-fan-out-embeddings": {
		file:    fanOut(40),
		beside:  map[string]string{"times.go": timesDecls},
		want:    `return t39{}, errors.New("not implemented on this platform")`,
		noBuild: true,
	},
	// The coarse mode: a nil error says the call worked, and the bool
	// beside it says so too.
	"coarse-bool-beside-error": {
		file: `package flock

func TryLock(path string) (bool, error) {
	return false, nil
}
`,
		coarse: true,
		want:   `return true, nil`,
	},
	// A bool without an error result is no claim of success: it stays
	// false in the coarse mode.
	"coarse-bool-alone": {
		file: `package flock

func TryLock(path string) bool {
	return false
}
`,
		coarse: true,
		want:   `return false`,
	},
	// The fine mode's bool beside the neutral error stays false.
	"fine-bool-beside-error": {
		file: `package flock

func TryLock(path string) (bool, error) {
	return false, nil
}
`,
		want: `return false, errors.New("not implemented on this platform")`,
	},
	// Named results that all stay zero keep the bare return; a coarse
	// true spells every value.
	"coarse-named-results": {
		file: `package flock

func TryLock(path string) (locked bool, err error) {
	return false, nil
}
`,
		coarse: true,
		want:   `return true, nil`,
	},
	// A parameter named like the implementing type would shadow it: nil
	// stays.
	"interface-type-shadowed": {
		file: `package times

type timespec struct {
	mtime
	ctime
}

func Stat(timespec string) (Timespec, error) {
	return nil, nil
}
`,
		beside: map[string]string{"times.go": timesDecls},
		want:   `return *new(Timespec), errors.New("not implemented on this platform")`,
	},
}

// fanOut is a platform file whose n types each embed the two before it
// (which makes their ModTime ambiguous, as the compiler says: several
// paths of the same depth lead to mtime), the last one, t<n-1>,
// implementing Timespec through fields of its own.
func fanOut(n int) string {
	var b strings.Builder
	b.WriteString("package times\n\ntype t0 struct{ mtime }\n\ntype t1 struct{ t0 }\n")
	for i := 2; i < n-1; i++ {
		fmt.Fprintf(&b, "\ntype t%d struct {\n\tt%d\n\tt%d\n}\n", i, i-1, i-2)
	}
	fmt.Fprintf(&b, "\ntype t%d struct {\n\tctime\n\tmtime\n\tx t%d\n\tt%d\n}\n", n-1, n-2, n-3)
	b.WriteString("\nfunc Stat(name string) (Timespec, error) {\n\treturn nil, nil\n}\n")
	return b.String()
}

// TestPlaceholderValues masks the last function of each case whole (its
// file only the target compiles) and checks its placeholder return,
// against the table and the golden file.
func TestPlaceholderValues(t *testing.T) {
	for name, tc := range placeholderCases {
		t.Run(name, func(t *testing.T) {
			lines := strings.Count(tc.file, "\n")
			startLine := strings.Count(tc.file[:strings.LastIndex(tc.file, "\nfunc ")], "\n") + 2
			dir := map[string][]byte{}
			for f, src := range tc.beside {
				dir[f] = []byte(src)
			}
			region := schemas.VerifiedRegion{
				Region:  schemas.Region{File: "lib.go", Start: startLine, End: lines},
				Verdict: schemas.Verdict{Label: schemas.LabelAPI, Verifier: "test"},
			}
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "lib.go", Source: []byte(tc.file),
				Regions: []schemas.VerifiedRegion{region}, Coarse: tc.coarse, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out.Source), "\t"+tc.want+"\n") {
				t.Errorf("placeholder: want %q in\n%s", tc.want, out.Source)
			}
			if formatted, err := format.Source(out.Source); err != nil || string(formatted) != string(out.Source) {
				t.Errorf("masked file is not gofmt-clean (err %v)", err)
			}
			masktest.CheckGolden(t, "placeholder-"+name, masktest.Render(out), *update)
		})
	}
}

// TestPlaceholderValuesTypeCheck: each case's masked package, with the
// files beside it, compiles for Linux and Windows, so the
// concrete types the placeholders name do implement the interface.
func TestPlaceholderValuesTypeCheck(t *testing.T) {
	masktest.NeedTool(t, "go")
	for name, tc := range placeholderCases {
		if tc.noBuild {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir := map[string][]byte{}
			for f, src := range tc.beside {
				dir[f] = []byte(src)
			}
			lines := strings.Count(tc.file, "\n")
			startLine := strings.Count(tc.file[:strings.LastIndex(tc.file, "\nfunc ")], "\n") + 2
			region := schemas.VerifiedRegion{
				Region:  schemas.Region{File: "lib.go", Start: startLine, End: lines},
				Verdict: schemas.Verdict{Label: schemas.LabelAPI, Verifier: "test"},
			}
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "lib.go", Source: []byte(tc.file),
				Regions: []schemas.VerifiedRegion{region}, Coarse: tc.coarse, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			files := map[string][]byte{"go.mod": []byte("module lib\n\ngo 1.21\n"), "lib.go": out.Source}
			for f, src := range dir {
				files[f] = src
			}
			for f, src := range files {
				if err := os.WriteFile(filepath.Join(tmp, f), src, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, goos := range []string{"linux", "windows"} {
				masktest.Run(t, tmp, []string{"GOOS=" + goos, "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0"}, "go", "build", ".")
			}
		})
	}
}
