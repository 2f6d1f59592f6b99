package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"example.com/lineend"
)

// ErrSyntax means a settings line is neither blank, a "#" comment, nor
// "key = value" with a non-empty key.
var ErrSyntax = errors.New("syntax error")

// Settings maps setting names to values.
type Settings map[string]string

// Parse reads settings from r. Either line ending is accepted, so a file
// copied from another platform reads the same. A key given twice keeps its
// last value.
func Parse(r io.Reader) (Settings, error) {
	lines, err := lineend.ReadLines(r)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	s := Settings{}
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, fmt.Errorf("config: line %d: %q: %w", i+1, line, ErrSyntax)
		}
		s[key] = strings.TrimSpace(value)
	}
	return s, nil
}

// Write writes s to w as "key = value" lines sorted by key, ending each with
// the platform's native line ending.
func Write(w io.Writer, s Settings) error {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	lw := lineend.NewWriter(w)
	for _, k := range keys {
		if k == "" || strings.ContainsAny(k, "=#") || strings.TrimSpace(k) != k {
			return fmt.Errorf("config: key %q: %w", k, ErrSyntax)
		}
		if err := lw.WriteLine(k + " = " + s[k]); err != nil {
			return fmt.Errorf("config: key %q: %w", k, err)
		}
	}
	return nil
}

// File returns the path of the settings file name in the configuration
// directory of app.
func File(app, name string) (string, error) {
	if err := checkName(name); err != nil {
		return "", err
	}
	dir, err := Dir(app)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// Load reads the settings file name in the configuration directory of app.
func Load(app, name string) (Settings, error) {
	path, err := File(app, name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	return Parse(f)
}

// Save writes s to the settings file name in the configuration directory of
// app, creating the directory (readable by the user only) when needed.
func Save(app, name string, s Settings) error {
	path, err := File(app, name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var text strings.Builder
	if err := Write(&text, s); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o600); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}
