//! rsplat: small helpers whose rules come from the operating system.
//!
//! - [`paths`]: path separators, drive letters and PATH-style lists
//!   (`\` and `;` on Windows, `/` and `:` on Unix);
//! - [`attrs`]: hidden and read-only files, asked through
//!   `std::os::windows::fs::MetadataExt` or `std::os::unix::fs`;
//! - [`units`]: the native units of OS strings, UTF-16 code units on
//!   Windows and bytes on Unix (`std::os::{windows,unix}::ffi`).
//!
//! Every item is written for both platforms, with `#[cfg(windows)]` and
//! `#[cfg(unix)]` choosing the code.

pub mod attrs;
pub mod paths;
pub mod units;
