package executors

import "testing"

// versionedTracerDigest is the digest of wineshim/entrytrace.c that the
// current Windows versions of the runners using it stand for: go-test's
// (3), libtest's (2) and ctest's (2). The tracer's record decides
// verdicts, but its source is in no key by itself (the wine executor's
// fingerprint leaves it out on purpose, so that a tracer change does not
// rekey every Windows step of every language): a change to it must bump
// each of those Windows versions (PlatformVersions in
// plugins/runner/{gotest,libtest,ctest}), and this test says so.
const versionedTracerDigest = "42416fe7d5c066bf3c9d3c3ee8ad496f5dccc2f5f20850a378f5f904b1d1b0a0"

func TestTracerSourceChangeBumpsGoTestVersion(t *testing.T) {
	if got := tracerDigest(); got != versionedTracerDigest {
		t.Fatalf("wineshim/entrytrace.c changed (sha256 %s): bump the Windows versions (PlatformVersions) of the go-test, libtest and ctest runners (plugins/runner/gotest, libtest, ctest) so cached Windows Go, Rust and C/C++ test results are recomputed, then set versionedTracerDigest here", got)
	}
}
