//! The crate seen from outside: real files in the temp dir, paths built
//! with the crate's own rules.

use std::fs;
use std::path::{Path, PathBuf};

use rsplat::{attrs, paths, units};

/// A fresh directory under the system's temp dir, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("rsplat-it-{}-{}", name, std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("temp dir is valid Unicode")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn joined_paths_name_real_files() {
    let dir = Scratch::new("join");
    let file = paths::join(dir.path(), "data.txt");
    fs::write(&file, "x").unwrap();
    assert!(Path::new(&file).is_file());
    assert_eq!(
        file.matches(paths::SEPARATOR).count(),
        dir.path().matches(paths::SEPARATOR).count() + 1
    );
    assert_eq!(paths::drive(dir.path()).is_some(), cfg!(windows));
}

#[test]
fn dot_files_are_hidden() {
    // Windows has no dot-file rule of its own, but Wine, like the Unix
    // tools on Windows, marks dot files hidden when it creates them; on
    // real Windows the test sets the attribute itself.
    let dir = Scratch::new("hidden");
    let file = dir.0.join(".secret");
    fs::write(&file, "x").unwrap();
    #[cfg(windows)]
    set_hidden(&file);
    assert!(attrs::is_hidden(&file).unwrap());
    assert!(!attrs::is_hidden(&dir.0).unwrap());
}

/// Gives path the hidden attribute through the Win32 API, unless the file
/// system already did.
#[cfg(windows)]
fn set_hidden(path: &Path) {
    use std::os::windows::ffi::OsStrExt;
    use std::os::windows::fs::MetadataExt;

    #[link(name = "kernel32")]
    extern "system" {
        fn SetFileAttributesW(name: *const u16, attributes: u32) -> i32;
    }
    const FILE_ATTRIBUTE_HIDDEN: u32 = 0x2;

    let attributes = fs::metadata(path).unwrap().file_attributes();
    if attributes & FILE_ATTRIBUTE_HIDDEN != 0 {
        return;
    }
    let name: Vec<u16> = path.as_os_str().encode_wide().chain(Some(0)).collect();
    // SAFETY: name is a NUL-terminated UTF-16 string that outlives the call.
    let ok = unsafe { SetFileAttributesW(name.as_ptr(), attributes | FILE_ATTRIBUTE_HIDDEN) };
    assert!(
        ok != 0,
        "SetFileAttributesW failed: {}",
        std::io::Error::last_os_error()
    );
}

#[test]
fn search_lists_round_trip_through_the_environment() {
    let entries = ["alpha", "beta"];
    let list = paths::join_list(&entries);
    std::env::set_var("RSPLAT_TEST_LIST", &list);
    let back = std::env::var("RSPLAT_TEST_LIST").unwrap();
    assert_eq!(paths::split_list(&back), entries);
    let wide = if cfg!(windows) { 1 } else { 2 };
    assert_eq!(units::native_len("\u{e9}"), wide);
}
