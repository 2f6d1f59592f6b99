//! A test binary that dies mid-run: the abort kills the whole process, so
//! the test never reports and the tests after it never run.

#[test]
fn a_before_crash() {}

#[test]
fn b_aborts() {
    std::process::abort();
}

#[test]
fn c_never_runs() {}
