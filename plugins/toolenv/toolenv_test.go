package toolenv

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMergeKeepsToolchainGOFLAGS(t *testing.T) {
	got := Merge([]string{"PATH=/bin", "GOFLAGS=-modcacherw"}, map[string]string{"GOFLAGS": "-mod=mod", "B": "2", "A": "1"})
	want := []string{"PATH=/bin", "GOFLAGS=-modcacherw -mod=mod", "A=1", "B=2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge = %v, want %v", got, want)
	}
}

func TestEnv(t *testing.T) {
	state := t.TempDir()
	stateDir := func(parts ...string) (string, error) { return filepath.Join(append([]string{state}, parts...)...), nil }
	tests := []struct {
		language, version string
		want              []string // variables that must be set, by prefix
		writable          int
	}{
		{"go", "go1.25.0", []string{"GOTOOLCHAIN=go1.25.0", "GOCACHE=" + filepath.Join(state, "go", "build-cache", "go1.25.0-windows"), "GOPATH=/w/gopath", "GOENV=off"}, 2},
		{"go", "", []string{"GOTOOLCHAIN=local", "GOCACHE=" + filepath.Join(state, "go", "build-cache", "local-windows")}, 2},
		{"rust", "", []string{"CARGO_HOME=" + filepath.Join(state, "cargo", "home")}, 1},
		{"c", "", []string{"PATH="}, 0},
	}
	for _, tt := range tests {
		env, writable, err := Env(stateDir, "/w", tt.language, tt.version, "windows")
		if err != nil {
			t.Fatal(err)
		}
		joined := "\n" + strings.Join(env, "\n") + "\n"
		for _, w := range tt.want {
			if !strings.Contains(joined, "\n"+w) {
				t.Errorf("%s %s: %q not in %v", tt.language, tt.version, w, env)
			}
		}
		if len(writable) != tt.writable {
			t.Errorf("%s: writable %v, want %d dirs", tt.language, writable, tt.writable)
		}
	}
}

func TestOffline(t *testing.T) {
	state := t.TempDir()
	stateDir := func(parts ...string) (string, error) { return filepath.Join(append([]string{state}, parts...)...), nil }
	tests := []struct {
		language string
		want     []string // entries that must be there
		gone     []string // variables that must not
		writable int
		readOnly []string
		cow      []string
	}{
		{"go", []string{
			"GOPROXY=file://" + filepath.ToSlash(filepath.Join(state, "go", "mod-cache", "cache", "download")),
			"GOSUMDB=off", "GOFLAGS=-modcacherw -mod=mod", "GOTOOLCHAIN=go1.25.0",
		}, []string{"GONOSUMDB", "GOPRIVATE"}, 1, []string{filepath.Join(state, "go", "mod-cache")}, nil},
		{"rust", []string{"CARGO_NET_OFFLINE=true", "RUSTC_WRAPPER=", "RUSTC_WORKSPACE_WRAPPER=", "RUSTC=rustc", "RUSTDOC=rustdoc",
			"CARGO_HOME=" + filepath.Join(state, "cargo", "home")}, nil, 0, nil, []string{filepath.Join(state, "cargo", "home")}},
		{"c", []string{"PATH="}, []string{"CARGO_NET_OFFLINE", "GOPROXY"}, 0, nil, nil},
	}
	for _, tt := range tests {
		env, writable, err := Env(stateDir, "/w", tt.language, "go1.25.0", "windows")
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, "GONOSUMDB=example.com", "GOPRIVATE=example.com")
		if tt.language == "c" {
			env = env[:len(env)-2]
		}
		off, w, ro, cow := Offline(env, writable, tt.language)
		joined := "\n" + strings.Join(off, "\n") + "\n"
		for _, want := range tt.want {
			if !strings.Contains(joined, "\n"+want+"\n") && !(strings.HasSuffix(want, "=") && strings.Contains(joined, "\n"+want)) {
				t.Errorf("%s: %q not in %v", tt.language, want, off)
			}
		}
		for _, name := range tt.gone {
			if strings.Contains(joined, "\n"+name+"=") {
				t.Errorf("%s: %s still set: %v", tt.language, name, off)
			}
		}
		if len(w) != tt.writable || !reflect.DeepEqual(ro, tt.readOnly) || !reflect.DeepEqual(cow, tt.cow) {
			t.Errorf("%s: writable %v read-only %v copy-on-write %v", tt.language, w, ro, cow)
		}
	}
}
