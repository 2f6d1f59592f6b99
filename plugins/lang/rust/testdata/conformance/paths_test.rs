#[test]
fn slash() {}
