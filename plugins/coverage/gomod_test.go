package coverage

import (
	"errors"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestModulesFromGoMod(t *testing.T) {
	mod := func(text string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(text)} }
	tree := fstest.MapFS{
		"go.mod":                  mod("module example.com/m\n\ngo 1.22\n"),
		"main.go":                 mod("package main\n"),
		"tools/go.mod":            mod("// tools live apart\nmodule \"example.com/m/tools\" // quoted\n"),
		"internal/gen/go.mod":     mod("module example.com/gen\n"),
		"nomodule/go.mod":         mod("go 1.22\n"),
		"testdata/go.mod":         mod("module example.com/fixture\n"),
		"vendor/x/y/go.mod":       mod("module example.com/vendored\n"),
		".git/go.mod":             mod("module example.com/hidden\n"),
		"_old/go.mod":             mod("module example.com/old\n"),
		"b/go.mod":                mod("module example.com/dup\n"),
		"a/c/go.mod":              mod("module example.com/dup\n"),
		"go.mod.d/README":         mod("not a go.mod\n"),
		"docs/go.mod/placeholder": mod("a directory named go.mod\n"),
	}
	got, err := ModulesFromGoMod(tree)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"example.com/m":       "",
		"example.com/m/tools": "tools",
		"example.com/gen":     "internal/gen",
		"example.com/dup":     "b", // shallower than a/c
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestModulesFromGoModStub(t *testing.T) {
	got, err := ModulesFromGoMod(os.DirFS("testdata/covstub"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"example.com/covstub": "", "example.com/covstub/tools": "tools"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// brokenFS fails every Open, like an unreadable directory.
type brokenFS struct{}

func (brokenFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
}

func TestModulesFromGoModError(t *testing.T) {
	_, err := ModulesFromGoMod(brokenFS{})
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "go.mod") {
		t.Errorf("got %v, want a permission error that says what was being done", err)
	}
}
