//! File attributes as each operating system keeps them.

use std::io;
use std::path::Path;

#[cfg(windows)]
const FILE_ATTRIBUTE_READONLY: u32 = 0x1;
#[cfg(windows)]
const FILE_ATTRIBUTE_HIDDEN: u32 = 0x2;

/// Reports whether the file at `path` is hidden: on Windows when it has
/// the hidden attribute, on Unix when its name starts with a dot. Fails
/// when the file does not exist.
pub fn is_hidden(path: &Path) -> io::Result<bool> {
    #[cfg(windows)]
    {
        use std::os::windows::fs::MetadataExt;
        let attributes = std::fs::metadata(path)?.file_attributes();
        Ok(attributes & FILE_ATTRIBUTE_HIDDEN != 0)
    }
    #[cfg(unix)]
    {
        std::fs::symlink_metadata(path)?;
        Ok(path
            .file_name()
            .map_or(false, |name| name.to_string_lossy().starts_with('.')))
    }
}

/// Reports whether the file at `path` is read-only: on Windows when it has
/// the read-only attribute, on Unix when no one has write permission.
pub fn is_read_only(path: &Path) -> io::Result<bool> {
    #[cfg(windows)]
    {
        use std::os::windows::fs::MetadataExt;
        let attributes = std::fs::metadata(path)?.file_attributes();
        Ok(attributes & FILE_ATTRIBUTE_READONLY != 0)
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)?.permissions().mode();
        Ok(mode & 0o222 == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    /// A fresh directory under the system's temp dir, removed on drop.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("rsplat-unit-{}-{}", name, std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).expect("create scratch dir");
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn missing_file_is_an_error() {
        let dir = Scratch::new("missing");
        let missing = dir.0.join("nothing-here");
        assert!(is_hidden(&missing).is_err());
        assert!(is_read_only(&missing).is_err());
    }

    #[test]
    fn plain_file_is_visible_and_writable() {
        let dir = Scratch::new("plain");
        let file = dir.0.join("plain.txt");
        fs::write(&file, "x").unwrap();
        assert!(!is_hidden(&file).unwrap());
        assert!(!is_read_only(&file).unwrap());
    }

    #[test]
    fn read_only_follows_permissions() {
        let dir = Scratch::new("readonly");
        let file = dir.0.join("locked.txt");
        fs::write(&file, "x").unwrap();
        let writable = fs::metadata(&file).unwrap().permissions();
        let mut locked = writable.clone();
        locked.set_readonly(true);
        fs::set_permissions(&file, locked).unwrap();
        assert!(is_read_only(&file).unwrap());
        // Back as it was: Windows refuses to delete read-only files.
        fs::set_permissions(&file, writable).unwrap();
        assert!(!is_read_only(&file).unwrap());
    }
}
