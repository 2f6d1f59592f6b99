//! Test stub for the libtest parser: each test shows one outcome.

/// Adds two numbers.
///
/// ```
/// assert_eq!(libstub::add(2, 3), 5);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// A doctest that fails, and one that is ignored.
///
/// ```
/// assert_eq!(libstub::sub(2, 3), 1);
/// ```
///
/// ```ignore
/// this is not compiled
/// ```
pub fn sub(a: i32, b: i32) -> i32 {
    a - b
}

/// A doctest that must not compile.
///
/// ```compile_fail
/// let x: i32 = "text";
/// ```
pub struct Point;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 1), 2);
    }

    #[test]
    fn fails() {
        assert_eq!(add(1, 1), 3, "deliberate failure");
    }

    #[test]
    #[ignore]
    fn ignored() {}

    #[test]
    #[ignore = "needs a network"]
    fn ignored_with_reason() {}

    #[test]
    #[should_panic(expected = "boom")]
    fn panics_as_expected() {
        panic!("boom");
    }

    mod nested {
        #[test]
        fn deep() {
            println!("captured output that is not shown for passing tests");
        }
    }
}
