package testrun

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/schemas"
)

// What the tested code leaves at the coverage path is read without
// following links, without blocking, and never outside the repository.
func TestReadUntrusted(t *testing.T) {
	repo := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(outside, []byte("root-only secret"), 0o600)
	os.WriteFile(filepath.Join(repo, "cover.out"), []byte("mode: set\n"), 0o644)
	os.Symlink(outside, filepath.Join(repo, "link.out"))
	os.Symlink("cover.out", filepath.Join(repo, "inner-link.out"))
	if err := syscall.Mkfifo(filepath.Join(repo, "fifo.out"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(repo, "dir.out"), 0o755)

	if b, err := readUntrusted(repo, "cover.out"); err != nil || string(b) != "mode: set\n" {
		t.Errorf("regular file: %q, %v", b, err)
	}
	if _, err := readUntrusted(repo, "none.out"); !isMissing(err) {
		t.Errorf("missing file: %v, want not-exist", err)
	}
	for _, rel := range []string{"link.out", "inner-link.out", "fifo.out", "dir.out"} {
		done := make(chan error, 1)
		go func() { _, err := readUntrusted(repo, rel); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, errNotRegular) {
				t.Errorf("%s: %v, want %v", rel, err, errNotRegular)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("%s: the error quotes content: %v", rel, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading blocked", rel)
		}
	}
	if _, err := readUntrusted(repo, "../"+filepath.Base(filepath.Dir(outside))+"/secret"); err == nil {
		t.Errorf("a path out of the repository was read")
	}
}

type stopEarly struct{}

func (stopEarly) Parse(r io.Reader, opts parsers.Options) ([]schemas.TestResult, error) {
	buf := make([]byte, 10)
	r.Read(buf)
	return nil, errors.New("bad first line")
}

// A parser that gives up early does not block the test command's output.
func TestStreamParseParserStopsEarly(t *testing.T) {
	ps := streamParse(stopEarly{}, parsers.Options{})
	done := make(chan struct{})
	go func() {
		for i := 0; i < 1000; i++ {
			ps.Write([]byte(strings.Repeat("x", 1024)))
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the writer blocked after the parser stopped")
	}
	if _, err := ps.finish(); err == nil || err.Error() != "bad first line" {
		t.Errorf("finish: %v", err)
	}
}
