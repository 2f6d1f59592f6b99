package config

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"runtime"
	"strings"
	"testing"

	"example.com/lineend"
)

// useConfigRoot points the running platform's configuration directory at a
// fresh temporary directory and returns it.
func useConfigRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	setEnv(t, map[string]string{"APPDATA": root, "HOME": root, "XDG_CONFIG_HOME": root})
	return root
}

// nativeText turns LF-terminated text into what the running platform writes.
func nativeText(text string) string {
	if runtime.GOOS == "windows" {
		return strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Settings
	}{
		{"lf", "a = 1\nb=2\n", Settings{"a": "1", "b": "2"}},
		{"crlf", "a = 1\r\nb=2\r\n", Settings{"a": "1", "b": "2"}},
		{"comments_and_blanks", "# top\n\n  \r\nname = two words \n", Settings{"name": "two words"}},
		{"last_value_wins", "k = old\nk = new", Settings{"k": "new"}},
		{"empty_value", "k =\n", Settings{"k": ""}},
		{"empty", "", Settings{}},
	}
	for _, tt := range tests {
		got, err := Parse(strings.NewReader(tt.in))
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("%s: Parse(%q) = %v, %v; want %v, nil", tt.name, tt.in, got, err, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in       string
		wantLine string
	}{
		{"a = 1\nnovalue\n", "line 2"},
		{"# c\r\n = x\r\n", "line 2"},
	}
	for _, tt := range tests {
		_, err := Parse(strings.NewReader(tt.in))
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), tt.wantLine) {
			t.Errorf("Parse(%q) error = %v, want %v at %s", tt.in, err, ErrSyntax, tt.wantLine)
		}
	}
}

func TestWrite(t *testing.T) {
	var buf strings.Builder
	if err := Write(&buf, Settings{"theme": "dark", "editor": "vi -n"}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), nativeText("editor = vi -n\ntheme = dark\n"); got != want {
		t.Errorf("Write = %q, want %q", got, want)
	}
}

func TestWriteErrors(t *testing.T) {
	tests := []struct {
		settings Settings
		want     error
	}{
		{Settings{"": "x"}, ErrSyntax},
		{Settings{"a=b": "x"}, ErrSyntax},
		{Settings{"#a": "x"}, ErrSyntax},
		{Settings{" pad": "x"}, ErrSyntax},
		{Settings{"k": "two\nlines"}, lineend.ErrLineBreak},
	}
	for _, tt := range tests {
		if err := Write(&strings.Builder{}, tt.settings); !errors.Is(err, tt.want) {
			t.Errorf("Write(%q) error = %v, want one wrapping %v", tt.settings, err, tt.want)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	useConfigRoot(t)
	saved := Settings{"theme": "dark", "editor": "vi"}
	if err := Save("demo", "settings.conf", saved); err != nil {
		t.Fatal(err)
	}

	path, err := File("demo", "settings.conf")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(raw), nativeText("editor = vi\ntheme = dark\n"); got != want {
		t.Errorf("%s holds %q, want %q", path, got, want)
	}

	loaded, err := Load("demo", "settings.conf")
	if err != nil || !maps.Equal(loaded, saved) {
		t.Errorf("Load = %v, %v; want %v, nil", loaded, err, saved)
	}
}

func TestLoadMissing(t *testing.T) {
	useConfigRoot(t)
	if _, err := Load("demo", "absent.conf"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(absent) error = %v, want one wrapping %v", err, fs.ErrNotExist)
	}
}

func TestFileRejectsBadNames(t *testing.T) {
	useConfigRoot(t)
	for _, name := range []string{"", "../escape.conf", "sub/x.conf"} {
		if got, err := File("demo", name); !errors.Is(err, ErrBadName) {
			t.Errorf("File(%q, %q) = %q, %v; want error %v", "demo", name, got, err, ErrBadName)
		}
	}
}
