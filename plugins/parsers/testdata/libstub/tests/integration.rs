#[test]
fn smoke() {
    assert_eq!(libstub::add(0, 0), 0);
}

#[test]
fn prints_uncaptured() {
    // Output that bypasses the test harness's capture lands between the
    // test's name and its result.
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(b"uncaptured line\n");
}
