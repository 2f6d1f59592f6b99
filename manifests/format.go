package manifests

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format returns src in canonical form: hclwrite's layout (indentation,
// aligned equals signs, spacing). `osbench fmt -check` compares it with src.
func Format(src []byte) []byte {
	return hclwrite.Format(src)
}

// FormatFile rewrites a manifest file in canonical form and reports whether
// it changed. A file with syntax errors is left alone: formatting only
// tokens could make such a file harder to repair. The new content replaces the
// old atomically, so an interrupted run never leaves half a manifest.
func FormatFile(path string) (changed bool, err error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	if deep := checkNesting(path, src); deep.HasErrors() {
		return false, fmt.Errorf("not formatting %s: %w", path, deep)
	}
	if _, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos); diags.HasErrors() {
		return false, fmt.Errorf("not formatting %s: %w", path, diags)
	}
	formatted := Format(src)
	if bytes.Equal(formatted, src) {
		return false, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return true, replaceFile(path, formatted, info.Mode().Perm())
}

// replaceFile writes data to a temporary file next to path and renames it
// over path.
func replaceFile(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
