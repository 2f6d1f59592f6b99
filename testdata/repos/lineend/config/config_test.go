package config

import (
	"errors"
	"runtime"
	"testing"
)

// family names the rule Dir follows on the running platform.
func family() string {
	switch runtime.GOOS {
	case "windows", "darwin":
		return runtime.GOOS
	default:
		return "xdg"
	}
}

// setEnv sets every variable Dir may read, leaving out none, so that the
// real environment of the test process cannot leak into a result.
func setEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, name := range []string{"APPDATA", "HOME", "XDG_CONFIG_HOME"} {
		t.Setenv(name, env[name])
	}
}

func TestDir(t *testing.T) {
	tests := []struct {
		family  string // the platform rule the row describes
		name    string
		env     map[string]string
		want    string
		wantErr error
	}{
		{"windows", "appdata", map[string]string{"APPDATA": `C:\Users\tester\AppData\Roaming`}, `C:\Users\tester\AppData\Roaming\demo`, nil},
		{"windows", "home_is_not_used", map[string]string{"HOME": `C:\Users\tester`, "XDG_CONFIG_HOME": `C:\xdg`}, "", ErrNoConfigDir},
		{"darwin", "home", map[string]string{"HOME": "/Users/tester", "XDG_CONFIG_HOME": "/xdg"}, "/Users/tester/Library/Application Support/demo", nil},
		{"darwin", "no_home", nil, "", ErrNoConfigDir},
		{"xdg", "config_home", map[string]string{"XDG_CONFIG_HOME": "/xdg", "HOME": "/home/tester"}, "/xdg/demo", nil},
		{"xdg", "relative_config_home", map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/home/tester"}, "/home/tester/.config/demo", nil},
		{"xdg", "home", map[string]string{"HOME": "/home/tester"}, "/home/tester/.config/demo", nil},
		{"xdg", "nothing_set", nil, "", ErrNoConfigDir},
	}
	for _, tt := range tests {
		t.Run(tt.family+"/"+tt.name, func(t *testing.T) {
			if tt.family != family() {
				t.Skipf("describes %s, running on %s", tt.family, runtime.GOOS)
			}
			setEnv(t, tt.env)
			got, err := Dir("demo")
			if got != tt.want || !errors.Is(err, tt.wantErr) {
				t.Errorf("Dir(%q) = %q, %v; want %q, %v", "demo", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestDirRejectsBadNames covers the name check every platform shares.
func TestDirRejectsBadNames(t *testing.T) {
	setEnv(t, map[string]string{"APPDATA": "appdata", "HOME": "home", "XDG_CONFIG_HOME": "/xdg"})
	for _, app := range []string{"", ".", "..", "a/b", `a\b`, "../up"} {
		if got, err := Dir(app); !errors.Is(err, ErrBadName) {
			t.Errorf("Dir(%q) = %q, %v; want error %v", app, got, err, ErrBadName)
		}
	}
}
