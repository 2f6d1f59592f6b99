// Package config stores an application's settings in the directory each
// platform reserves for per-user configuration, as "key = value" lines
// written with the platform's line ending.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

var (
	// ErrNoConfigDir means the environment does not say where per-user
	// configuration lives.
	ErrNoConfigDir = errors.New("no configuration directory")
	// ErrBadName means an application or file name is empty or is not a
	// single path component.
	ErrBadName = errors.New("name must be one path component")
)

// Dir returns the configuration directory of the application app:
//
//	windows  %APPDATA%\app
//	darwin   $HOME/Library/Application Support/app
//	other    $XDG_CONFIG_HOME/app, or $HOME/.config/app
//
// A relative $XDG_CONFIG_HOME is ignored, as the XDG base directory
// specification asks. Dir only computes the name; it creates nothing.
func Dir(app string) (string, error) {
	if err := checkName(app); err != nil {
		return "", err
	}
	base, err := baseDir()
	if err != nil {
		return "", fmt.Errorf("config: directory of %q: %w", app, err)
	}
	return filepath.Join(base, app), nil
}

// baseDir returns the per-user configuration directory of the platform.
func baseDir() (string, error) {
	switch runtime.GOOS {
	case "windows":
		if appData := os.Getenv("APPDATA"); appData != "" {
			return appData, nil
		}
		return "", fmt.Errorf("%w: %%APPDATA%% is not set", ErrNoConfigDir)
	case "darwin":
		home := os.Getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("%w: $HOME is not set", ErrNoConfigDir)
		}
		return filepath.Join(home, "Library", "Application Support"), nil
	default:
		if xdg := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(xdg) {
			return xdg, nil
		}
		home := os.Getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("%w: neither $XDG_CONFIG_HOME nor $HOME is set", ErrNoConfigDir)
		}
		return filepath.Join(home, ".config"), nil
	}
}

// checkName makes sure name is one path component on every platform, so a
// name from a user cannot point outside the configuration directory.
func checkName(name string) error {
	if !filepath.IsLocal(name) || strings.ContainsAny(name, `/\`) || name == "." {
		return fmt.Errorf("config: %q: %w", name, ErrBadName)
	}
	return nil
}
