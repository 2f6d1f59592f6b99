package config

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

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

func TestParseReadError(t *testing.T) {
	boom := errors.New("boom")
	if _, err := Parse(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("Parse(failing reader) error = %v, want one wrapping %v", err, boom)
	}
}

// TestSaveErrors covers the failures Save reports on every platform.
func TestSaveErrors(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, root string) // breaks the configuration root
		file    string
		values  Settings
		want    error // nil when the error differs between platforms
	}{
		{"bad_file_name", nil, "../x.conf", Settings{"k": "v"}, ErrBadName},
		{"bad_key", nil, "settings.conf", Settings{"a=b": "v"}, ErrSyntax},
		{"root_is_a_file", func(t *testing.T, root string) {
			if err := os.WriteFile(filepath.Join(root, "demo"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "settings.conf", Settings{"k": "v"}, syscall.ENOTDIR},
		{"file_is_a_directory", func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, "demo", "settings.conf"), 0o700); err != nil {
				t.Fatal(err)
			}
		}, "settings.conf", Settings{"k": "v"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := useConfigRoot(t)
			if tt.prepare != nil {
				tt.prepare(t, root)
			}
			err := Save("demo", tt.file, tt.values)
			if err == nil {
				t.Fatalf("Save(%q) succeeded, want an error", tt.file)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("Save(%q) error = %v, want one wrapping %v", tt.file, err, tt.want)
			}
		})
	}
}

func TestNoConfigDir(t *testing.T) {
	setEnv(t, nil)
	if _, err := File("demo", "settings.conf"); !errors.Is(err, ErrNoConfigDir) {
		t.Errorf("File with no environment: error = %v, want one wrapping %v", err, ErrNoConfigDir)
	}
	if _, err := Load("demo", "settings.conf"); !errors.Is(err, ErrNoConfigDir) {
		t.Errorf("Load with no environment: error = %v, want one wrapping %v", err, ErrNoConfigDir)
	}
}
