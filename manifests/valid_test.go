package manifests

import (
	"path/filepath"
	"testing"
)

// Every file under testdata/valid loads without a single diagnostic, and
// yields all the repositories it declares.
func TestValidManifests(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.hcl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no valid manifests found: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			set, diags := Load([]string{file}, testOptions())
			for _, d := range diags {
				t.Errorf("unexpected diagnostic: %s", d.Error())
			}
			if len(set.Repositories) == 0 {
				t.Errorf("no repositories loaded")
			}
			if _, ok := set.Sources[file]; !ok {
				t.Errorf("Sources lacks %s", file)
			}
		})
	}
}
