package executors

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// fakeExecutor is a registry entry; its methods are never meant to run.
type fakeExecutor struct {
	name string
	cfg  Config
}

func (f *fakeExecutor) Name() string     { return f.name }
func (f *fakeExecutor) Platform() string { return "fake" }
func (f *fakeExecutor) Fingerprint(context.Context, string) (string, error) {
	return "fake", nil
}
func (f *fakeExecutor) Run(context.Context, Cmd) (Result, error) {
	return Result{}, errors.New("fake executor cannot run")
}

func fakeFactory(name string) Factory {
	return func(cfg Config) (Executor, error) { return &fakeExecutor{name: name, cfg: cfg}, nil }
}

func TestRegistryCreate(t *testing.T) {
	r := newRegistry()
	r.register("wine", fakeFactory("wine"))
	r.register("local", fakeFactory("local"))
	r.register("broken", func(Config) (Executor, error) { return nil, errors.New("no wine installed") })

	tests := []struct {
		name     string
		wantName string
		wantErr  string
	}{
		{name: "local", wantName: "local"},
		{name: "wine", wantName: "wine"},
		{name: "Local", wantErr: `unknown executor "Local" (known: broken, local, wine)`},
		{name: "", wantErr: `unknown executor "" (known: broken, local, wine)`},
		{name: "broken", wantErr: `creating executor "broken": no wine installed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{StateDir: "/state/" + tt.name}
			ex, err := r.create(tt.name, cfg)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("create(%q) error = %v, want %q", tt.name, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("create(%q): %v", tt.name, err)
			}
			fake := ex.(*fakeExecutor)
			if fake.name != tt.wantName || fake.cfg != cfg {
				t.Errorf("create(%q) = %+v, want name %q and config %+v", tt.name, fake, tt.wantName, cfg)
			}
		})
	}
}

func TestRegistryEmpty(t *testing.T) {
	r := newRegistry()
	if got := r.names(); len(got) != 0 {
		t.Errorf("names() = %q, want none", got)
	}
	_, err := r.create("local", Config{})
	if err == nil || !strings.Contains(err.Error(), "no executors are registered") {
		t.Errorf("create on an empty registry: error = %v", err)
	}
}

func TestRegistryRejectsBadRegistrations(t *testing.T) {
	tests := []struct {
		desc    string
		name    string
		factory Factory
		want    string
	}{
		{"empty name", "", fakeFactory("x"), "empty name"},
		{"nil factory", "x", nil, `Register("x") called with a nil factory`},
		{"duplicate", "taken", fakeFactory("taken"), `executor "taken" registered twice`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := newRegistry()
			r.register("taken", fakeFactory("taken"))
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, tt.want) {
					t.Errorf("register(%q) panicked with %q, want it to mention %q", tt.name, msg, tt.want)
				}
			}()
			r.register(tt.name, tt.factory)
		})
	}
}

func TestBuiltinExecutors(t *testing.T) {
	if names := Names(); !slices.Contains(names, LocalName) || !slices.IsSorted(names) {
		t.Errorf("Names() = %q, want a sorted list containing %q", names, LocalName)
	}
	ex, err := New(LocalName, Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatalf("New(%q): %v", LocalName, err)
	}
	if ex.Name() != LocalName {
		t.Errorf("New(%q).Name() = %q", LocalName, ex.Name())
	}
	_, err = New("wien", Config{})
	if err == nil || !strings.Contains(err.Error(), `unknown executor "wien"`) || !strings.Contains(err.Error(), LocalName) {
		t.Errorf("New(%q) error = %v, want an unknown-executor error listing %q", "wien", err, LocalName)
	}
}
