package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/osbench/osbench/engine/cache/httpcache/nginxtest"
)

// benchRemote compares a build of the examples served by a remote cache
// (nginx on loopback, a fresh empty local cache: every record and blob is
// downloaded and verified) with the same build served by the local cache
// alone. cache already holds the examples' build.
func benchRemote(bin, root, tmp, cache string) ([]row, error) {
	srv, err := nginxtest.Launch(filepath.Join(tmp, "nginx"), nginxtest.Options{})
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	examples := filepath.Join(root, "manifests/examples")
	if _, _, err := timed(bin, "--cache-dir", cache, "--remote-cache", srv.URL, "cache", "push"); err != nil {
		return nil, err
	}
	local, out, err := timed(bin, "--cache-dir", cache, "--log-level", "warn", "build", examples)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(out, " 0 ran,") {
		return nil, fmt.Errorf("local-hit build ran steps:\n%s", out)
	}
	remote, out, err := timed(bin, "--cache-dir", filepath.Join(tmp, "fresh-cache"), "--remote-cache", srv.URL, "--log-level", "warn", "build", examples)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(out, " 0 ran,") {
		return nil, fmt.Errorf("remote-hit build ran steps:\n%s", out)
	}
	ratio := remote.Seconds() / local.Seconds()
	return []row{{"remote-hit build / local-hit build of the examples (fresh cache, nginx on loopback)",
		fmt.Sprintf("%.2f (%s / %s)", ratio, remote.Round(time.Millisecond), local.Round(time.Millisecond)), "(reference)", true}}, nil
}
