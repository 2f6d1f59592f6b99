//! The native units of OS strings: UTF-16 code units on Windows, bytes on
//! Unix. File names and environment values are sequences of these, and not
//! every sequence is valid Unicode.

use std::ffi::{OsStr, OsString};

/// One unit of a native OS string.
#[cfg(windows)]
pub type NativeUnit = u16;
/// One unit of a native OS string.
#[cfg(unix)]
pub type NativeUnit = u8;

/// The native units of `s`.
pub fn to_native(s: &OsStr) -> Vec<NativeUnit> {
    #[cfg(windows)]
    {
        use std::os::windows::ffi::OsStrExt;
        s.encode_wide().collect()
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        s.as_bytes().to_vec()
    }
}

/// The OS string made of `units`, which need not be valid Unicode.
pub fn from_native(units: &[NativeUnit]) -> OsString {
    #[cfg(windows)]
    {
        use std::os::windows::ffi::OsStringExt;
        OsString::from_wide(units)
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(units).to_os_string()
    }
}

/// How many native units `s` takes.
pub fn native_len(s: &str) -> usize {
    to_native(OsStr::new(s)).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_count_native_units() {
        // "é" (U+00E9), "€" (U+20AC), "😀" (U+1F600, outside the BMP).
        let cases = [
            ("abc", 3, 3),
            ("\u{e9}", 1, 2),
            ("\u{20ac}", 1, 3),
            ("\u{1f600}", 2, 4),
        ];
        for (s, windows, unix) in cases {
            let want = if cfg!(windows) { windows } else { unix };
            assert_eq!(native_len(s), want, "native_len({:?})", s);
        }
    }

    #[test]
    fn invalid_units_survive_a_round_trip() {
        // An unpaired surrogate on Windows, a byte no UTF-8 uses on Unix.
        #[cfg(windows)]
        let units: Vec<NativeUnit> = vec![0x61, 0xD800, 0x62];
        #[cfg(unix)]
        let units: Vec<NativeUnit> = vec![0x61, 0xFF, 0x62];
        let s = from_native(&units);
        assert!(s.to_str().is_none());
        assert_eq!(to_native(&s), units);
    }
}
