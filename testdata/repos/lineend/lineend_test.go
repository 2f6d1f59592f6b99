package lineend

import (
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// TestFlakyOnPurpose is flaky by design: it fails on the second of
// osbench's repeated runs (OSBENCH_RUN=2) and passes otherwise, so the flake
// quarantine has something to catch without racing parallel runs.
func TestFlakyOnPurpose(t *testing.T) {
	if os.Getenv("OSBENCH_RUN") == "2" {
		t.Fatal("fails on the second repeated run, on purpose")
	}
}

func TestNative(t *testing.T) {
	want := LF
	if runtime.GOOS == "windows" {
		want = CRLF
	}
	if got := Native(); got != want {
		t.Errorf("Native() = %q on %s, want %q", got, runtime.GOOS, want)
	}
}

func TestWriterUsesNativeEnding(t *testing.T) {
	var buf strings.Builder
	w := NewWriter(&buf)
	for _, line := range []string{"first", "", "third"} {
		if err := w.WriteLine(line); err != nil {
			t.Fatal(err)
		}
	}
	want := "first\n\nthird\n"
	if runtime.GOOS == "windows" {
		want = "first\r\n\r\nthird\r\n"
	}
	if got := buf.String(); got != want {
		t.Errorf("written %q, want %q", got, want)
	}
}

func TestWriterRefusesLineBreaks(t *testing.T) {
	for _, line := range []string{"a\nb", "a\r", "\r\n"} {
		var buf strings.Builder
		if err := NewWriter(&buf).WriteLine(line); !errors.Is(err, ErrLineBreak) {
			t.Errorf("WriteLine(%q) error = %v, want one wrapping %v", line, err, ErrLineBreak)
		}
		if buf.Len() != 0 {
			t.Errorf("WriteLine(%q) wrote %q, want nothing", line, buf.String())
		}
	}
}

func TestWriterReportsWriteError(t *testing.T) {
	if err := NewWriter(failingWriter{}).WriteLine("x"); !errors.Is(err, errWrite) {
		t.Errorf("WriteLine to a failing writer: error = %v, want one wrapping %v", err, errWrite)
	}
}

// failingWriter fails every write.
type failingWriter struct{}

var errWrite = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

// TestReadLines covers the reader, which is the same on every platform: it
// accepts what either platform writes.
func TestReadLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\r\nb\nc", []string{"a", "b", "c"}},
		{"\r\n\n", []string{"", ""}},
		{"lone\rcr\n", []string{"lone\rcr"}},
		{"", nil},
	}
	for _, tt := range tests {
		got, err := ReadLines(strings.NewReader(tt.in))
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ReadLines(%q) = %q, %v; want %q, nil", tt.in, got, err, tt.want)
		}
	}
}

func TestReadLinesReportsReadError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("ok\npart"), iotest.ErrReader(boom))
	got, err := ReadLines(r)
	if !errors.Is(err, boom) {
		t.Errorf("ReadLines(failing reader) error = %v, want one wrapping %v", err, boom)
	}
	if want := []string{"ok", "part"}; !slices.Equal(got, want) {
		t.Errorf("ReadLines(failing reader) = %q, want the lines before the error %q", got, want)
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"a\nb\n", LF},
		{"a\r\nb\r\n", CRLF},
		{"a\r\nb\n", ""},
		{"no ending", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Detect([]byte(tt.in)); got != tt.want {
			t.Errorf("Detect(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
