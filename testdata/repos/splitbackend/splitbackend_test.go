package splitbackend

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestConfigDir(t *testing.T) {
	var want string
	if runtime.GOOS == "windows" {
		t.Setenv("APPDATA", `C:\Users\u\AppData\Roaming`)
		want = `C:\Users\u\AppData\Roaming\splitbackend`
	} else {
		t.Setenv("XDG_CONFIG_HOME", "/xdg/config")
		want = "/xdg/config/splitbackend"
	}
	got, err := ConfigDir()
	if err != nil {
		t.Fatalf("ConfigDir: %v", err)
	}
	if got != want {
		t.Errorf("ConfigDir = %q, want %q", got, want)
	}
}

func TestConfigDirFallback(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Setenv("APPDATA", "")
		if _, err := ConfigDir(); err == nil {
			t.Errorf("ConfigDir without %%APPDATA%%: no error")
		}
		return
	}
	t.Setenv("XDG_CONFIG_HOME", "relative/not/allowed")
	t.Setenv("HOME", "/home/u")
	got, err := ConfigDir()
	if err != nil || got != filepath.Join("/home/u", ".config", App) {
		t.Errorf("ConfigDir = %q, %v; want the $HOME/.config fallback", got, err)
	}
}

func TestQuoteArg(t *testing.T) {
	for _, tc := range []struct{ in, unix, windows string }{
		{"plain", "plain", "plain"},
		{"two words", "'two words'", `"two words"`},
		{`it's`, `'it'\''s'`, `it's`},
		{`say "hi"`, `'say "hi"'`, `"say \"hi\""`},
		{`C:\dir with space\`, `'C:\dir with space\'`, `"C:\dir with space\\"`},
	} {
		want := tc.unix
		if runtime.GOOS == "windows" {
			want = tc.windows
		}
		if got := QuoteArg(tc.in); got != want {
			t.Errorf("QuoteArg(%q) = %q, want %q", tc.in, got, want)
		}
	}
}

func TestQuoteArgs(t *testing.T) {
	want := "a 'b c'"
	if runtime.GOOS == "windows" {
		want = `a "b c"`
	}
	if got := QuoteArgs([]string{"a", "b c"}); got != want {
		t.Errorf("QuoteArgs = %q, want %q", got, want)
	}
}

// TestEmpty runs the code every platform shares.
func TestEmpty(t *testing.T) {
	if got := QuoteArgs(nil); got != "" {
		t.Errorf("QuoteArgs(nil) = %q", got)
	}
	if got := QuoteArg(""); got != emptyArg {
		t.Errorf("QuoteArg(\"\") = %q, want %q", got, emptyArg)
	}
}
