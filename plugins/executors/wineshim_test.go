package executors

import "testing"

// versionedTracerDigest is the digest of wineshim/entrytrace.c that the
// go-test runner's current Windows version (3) stands for. The tracer's record
// decides verdicts, but its source is in no key by itself (the wine
// executor's fingerprint leaves it out on purpose, so that a tracer change
// does not rekey every Windows step of every language): a change to it
// must bump go-test's Windows version (plugins/runner/gotest/gotest.go),
// and this test says so.
const versionedTracerDigest = "42416fe7d5c066bf3c9d3c3ee8ad496f5dccc2f5f20850a378f5f904b1d1b0a0"

func TestTracerSourceChangeBumpsGoTestVersion(t *testing.T) {
	if got := tracerDigest(); got != versionedTracerDigest {
		t.Fatalf("wineshim/entrytrace.c changed (sha256 %s): bump the go-test runner's Windows version in plugins/runner/gotest/gotest.go (PlatformVersions) so cached Windows Go test results are recomputed, then set versionedTracerDigest here", got)
	}
}
