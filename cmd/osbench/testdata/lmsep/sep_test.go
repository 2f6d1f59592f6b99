package lmsep

import (
	"runtime"
	"strings"
	"testing"
)

func TestSep(t *testing.T) {
	want := "/"
	if runtime.GOOS == "windows" {
		want = `\`
	}
	if got := Sep(); got != want {
		t.Errorf("Sep() = %q, want %q", got, want)
	}
}

func TestJoinKeepsElements(t *testing.T) {
	if got := Join("a", "b"); !strings.HasPrefix(got, "a") || !strings.HasSuffix(got, "b") {
		t.Errorf("Join = %q", got)
	}
}
