package gotest

import (
	"runtime"
	"testing"
)

func TestGoBuildContext(t *testing.T) {
	if c := goBuildContext("windows", map[string]string{"GOARCH": "arm64", "CGO_ENABLED": "0"}); c.GOOS != "windows" || c.GOARCH != "arm64" || c.CgoEnabled {
		t.Errorf("windows/arm64 without cgo: %s/%s cgo %v", c.GOOS, c.GOARCH, c.CgoEnabled)
	}
	if c := goBuildContext("linux", nil); c.GOARCH != runtime.GOARCH {
		t.Errorf("default GOARCH %s, want the host's %s", c.GOARCH, runtime.GOARCH)
	}
	if c := goBuildContext("windows", nil); runtime.GOOS != "windows" && c.CgoEnabled {
		t.Errorf("cgo on for a cross build without CGO_ENABLED")
	}
}
