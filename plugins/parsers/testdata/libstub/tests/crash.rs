//! A test binary that dies mid-run: the abort kills the whole process, so
//! the test never reports. It is the binary's only test, so that what the
//! binary prints does not depend on how libtest's threads interleave.

#[test]
fn aborts() {
    std::process::abort();
}
