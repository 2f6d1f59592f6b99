package golang_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// quietFixture is one failure pattern seen on real repositories, small: a
// package lib (one file), the regions a verifier would keep in it, and a
// program that calls into the masked package the way the package's own
// callers do. The mask is quiet when that program ends on its own, without
// a panic, within a few seconds.
type quietFixture struct {
	lib     string
	regions []schemas.VerifiedRegion
	main    string
	coarse  bool // the retry's mode
	// beside holds more files of package lib, unmasked (mask.Input.Dir).
	beside map[string]string
}

var quietFixtures = map[string]quietFixture{
	// A length check removed while the index it guards stays: token[3]
	// panics on a short line.
	"guard before an index": {
		lib: `package lib

import (
	"errors"
	"strings"
)

var errShort = errors.New("short line")

// Field returns the fourth field of a line.
func Field(line string) (string, error) {
	tokens := strings.Fields(line)
	if len(tokens) < 4 {
		return "", errShort
	}
	return tokens[3], nil
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(13, 15)},
		main:    `_, err := lib.Field("a b"); fmt.Println("ok", err != nil)`,
	},
	// The same in a function the source compiles too: the guarded block
	// keeps its guard, and what it guarded is not reached.
	"shared guard before an index": {
		lib: `package lib

// Volume returns the drive of a Windows path ("C:").
func Volume(p string, windows bool) string {
	if windows {
		if len(p) < 2 || p[1] != ':' {
			return ""
		}
		return p[:2]
	}
	return ""
}
`,
		regions: []schemas.VerifiedRegion{masktest.Shared(6, 8)},
		main:    `fmt.Println("ok", lib.Volume("x", true))`,
	},
	// A try-lock whose placeholder says "not yet" (false, nil) inside its
	// caller's retry loop: the caller retries forever.
	"retry loop around a try-lock": {
		lib: `package lib

import (
	"os"
	"syscall"
	"time"
)

// TryLock takes the lock if it is free.
func TryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}

// Lock retries TryLock until it holds the lock or fails.
func Lock(f *os.File) error {
	for {
		ok, err := TryLock(f)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(11, 15)},
		main:    `f, _ := os.CreateTemp("", "lock"); defer os.Remove(f.Name()); fmt.Println("ok", lib.Lock(f) != nil)`,
	},
	// A polling loop whose body (and with it the loop's exit) was removed:
	// for { } spins forever.
	"busy loop": {
		lib: `package lib

// WaitReady polls ready until it says so or fails.
func WaitReady(ready func() (bool, error)) error {
	for {
		ok, err := ready()
		if err != nil {
			return err
		}
		if ok {
			break
		}
	}
	return nil
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(6, 12)},
		main:    `fmt.Println("ok", lib.WaitReady(func() (bool, error) { return true, nil }))`,
	},
	// A constructor whose placeholder returns a nil pointer with a nil
	// error: the caller checks the error, then dereferences.
	"struct pointer callers dereference": {
		lib: `package lib

import "os"

// Info describes a file.
type Info struct{ Size int64 }

// Stat describes the file at name.
func Stat(name string) (*Info, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	return &Info{Size: fi.Size()}, nil
}

// Size is the size of the file at name, or -1.
func Size(name string) int64 {
	info, err := Stat(name)
	if err != nil {
		return -1
	}
	return info.Size
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(10, 14)},
		main:    `fmt.Println("ok", lib.Size(os.Args[0]))`,
	},
	// A caller (a test, an example) that panics on any error crashes on
	// the neutral error: the retry's coarse mode returns a nil one.
	"a caller that panics on any error, coarse": {
		lib: `package lib

import "strings"

// Split splits a command line into words.
func Split(line string) ([]string, error) {
	return strings.Fields(line), nil
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(7, 7)},
		main:    `words, err := lib.Split("a b"); if err != nil { panic(err) }; fmt.Println("ok", len(words))`,
		coarse:  true,
	},
	// A caller that notes the error and goes on to read the interface
	// result (a test's t.Error(err), then ts.ModTime()): a nil Timespec
	// panics there. The placeholder returns a zero value of the package's
	// own implementation, declared in the masked file, whose methods come
	// from a file beside it (djherbis/times).
	"interface result read after the error": {
		lib: `package lib

import (
	"os"
	"time"
)

type timespec struct {
	mtime
	ctime
}

// Stat returns the times of the file at name.
func Stat(name string) (Timespec, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	return timespec{mtime{fi.ModTime()}, ctime{time.Now()}}, nil
}
`,
		beside: map[string]string{"times.go": `package lib

import "time"

// Timespec gives a file's times.
type Timespec interface {
	ModTime() time.Time
	ChangeTime() time.Time
}

type mtime struct{ v time.Time }

func (m mtime) ModTime() time.Time { return m.v }

type ctime struct{ v time.Time }

func (c ctime) ChangeTime() time.Time { return c.v }
`},
		regions: []schemas.VerifiedRegion{masktest.Region(15, 19)},
		main:    `ts, err := lib.Stat(os.Args[0]); fmt.Println("ok", err != nil, ts.ModTime().IsZero(), ts.ChangeTime().IsZero())`,
	},
	// The coarse retry of a try-lock whose fine mask crashed a caller that
	// panics on any error (an Example's panic(err)), where a poller
	// (TryLockContext) retries until the try says true: (false, nil)
	// hangs the poller, (true, nil) ends it (gofrs/flock).
	"a poller and a caller that panics on any error, coarse": {
		lib: `package lib

import (
	"os"
	"syscall"
	"time"
)

// TryLock takes the lock if it is free.
func TryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}

// TryLockPoll retries TryLock until it holds the lock or fails.
func TryLockPoll(f *os.File) (bool, error) {
	for {
		if ok, err := TryLock(f); ok || err != nil {
			return ok, err
		}
		time.Sleep(time.Millisecond)
	}
}
`,
		regions: []schemas.VerifiedRegion{masktest.Region(11, 15)},
		main:    `f, _ := os.CreateTemp("", "lock"); defer os.Remove(f.Name()); if _, err := lib.TryLock(f); err != nil { panic(err) }; ok, err := lib.TryLockPoll(f); fmt.Println("ok", ok, err)`,
		coarse:  true,
	},
}

// TestQuietPlaceholders masks each fixture, builds it with the program
// that calls it, and runs that: a panic or a hang is a loud mask.
func TestQuietPlaceholders(t *testing.T) {
	masktest.NeedTool(t, "go")
	goEnv := []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0"}
	for name, fx := range quietFixtures {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := map[string][]byte{}
			for f, text := range fx.beside {
				dir[f] = []byte(text)
			}
			out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "lib/lib.go", Source: []byte(fx.lib), Regions: fileRegions(fx.regions, "lib/lib.go"), Coarse: fx.coarse, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if string(out.Source) == fx.lib {
				t.Fatalf("nothing masked: %+v", out.Actions)
			}
			tmp := t.TempDir()
			imports := `"fmt"`
			if strings.Contains(fx.main, "os.") {
				imports += "\n\t\"os\""
			}
			files := map[string]string{
				"go.mod":     "module quiet\n\ngo 1.21\n",
				"lib/lib.go": string(out.Source),
				"main.go":    "package main\n\nimport (\n\t" + imports + "\n\n\t\"quiet/lib\"\n)\n\nfunc main() {\n\t" + fx.main + "\n}\n",
			}
			for f, text := range fx.beside {
				files["lib/"+f] = text
			}
			for f, text := range files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, f)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(tmp, f), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			masktest.Run(t, tmp, goEnv, "go", "build", "-o", "prog", ".")
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(tmp, "prog"))
			got, err := cmd.CombinedOutput()
			switch {
			case errors.Is(ctx.Err(), context.DeadlineExceeded):
				t.Errorf("the masked program hung\nmasked lib.go:\n%s", out.Source)
			case err != nil || !strings.HasPrefix(string(got), "ok"):
				t.Errorf("the masked program failed (%v):\n%s\nmasked lib.go:\n%s", err, got, out.Source)
			}
		})
	}
}

func fileRegions(rs []schemas.VerifiedRegion, file string) []schemas.VerifiedRegion {
	out := make([]schemas.VerifiedRegion, len(rs))
	for i, r := range rs {
		r.File = file
		out[i] = r
	}
	return out
}
