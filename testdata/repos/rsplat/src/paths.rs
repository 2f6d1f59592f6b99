//! Path syntax: separators, drive letters, and PATH-style lists.

/// The separator [`join`] writes.
#[cfg(windows)]
pub const SEPARATOR: char = '\\';
/// The separator [`join`] writes.
#[cfg(unix)]
pub const SEPARATOR: char = '/';

/// The separator of PATH-style lists.
#[cfg(windows)]
pub const LIST_SEPARATOR: char = ';';
/// The separator of PATH-style lists.
#[cfg(unix)]
pub const LIST_SEPARATOR: char = ':';

/// Reports whether `c` separates path components: `\` and `/` on Windows,
/// only `/` on Unix.
pub fn is_separator(c: char) -> bool {
    #[cfg(windows)]
    {
        c == '\\' || c == '/'
    }
    #[cfg(unix)]
    {
        c == '/'
    }
}

/// The drive letter of `path` in upper case (`C` for `c:\x`), or `None`;
/// always `None` on Unix, where paths have no drives.
pub fn drive(path: &str) -> Option<char> {
    #[cfg(windows)]
    {
        let mut chars = path.chars();
        match (chars.next(), chars.next()) {
            (Some(letter), Some(':')) if letter.is_ascii_alphabetic() => {
                Some(letter.to_ascii_uppercase())
            }
            _ => None,
        }
    }
    #[cfg(unix)]
    {
        let _ = path;
        None
    }
}

/// Joins `dir` and `name` with exactly one native separator between them.
pub fn join(dir: &str, name: &str) -> String {
    let dir_trimmed = dir.trim_end_matches(is_separator);
    let name = name.trim_start_matches(is_separator);
    if dir_trimmed.is_empty() && dir.is_empty() {
        return name.to_string();
    }
    format!("{}{}{}", dir_trimmed, SEPARATOR, name)
}

/// Splits a PATH-style list into its entries, dropping empty ones.
///
/// On Windows an entry may be quoted to hold the list separator
/// (`"C:\a;b";C:\c`); the quotes are removed.
///
/// ```
/// use rsplat::paths::{join_list, split_list};
///
/// let list = join_list(&["bin", "tools"]);
/// assert_eq!(split_list(&list), vec!["bin", "tools"]);
/// assert!(split_list("").is_empty());
/// ```
pub fn split_list(list: &str) -> Vec<String> {
    #[cfg(windows)]
    {
        split_quoted(list)
    }
    #[cfg(unix)]
    {
        list.split(LIST_SEPARATOR)
            .filter(|entry| !entry.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Joins entries into a PATH-style list with the native list separator.
pub fn join_list(entries: &[&str]) -> String {
    entries.join(&LIST_SEPARATOR.to_string())
}

/// Splits a Windows list, where a separator inside double quotes belongs
/// to the entry.
#[cfg(windows)]
fn split_quoted(list: &str) -> Vec<String> {
    let mut entries = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in list.chars() {
        match c {
            '"' => quoted = !quoted,
            LIST_SEPARATOR if !quoted => {
                if !current.is_empty() {
                    entries.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(c),
        }
    }
    if !current.is_empty() {
        entries.push(current);
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Picks the expectation of the platform the test runs on, so each
    /// test has one name on both platforms.
    fn on_windows<T>(windows: T, unix: T) -> T {
        if cfg!(windows) {
            windows
        } else {
            unix
        }
    }

    #[test]
    fn separators() {
        assert!(is_separator('/'));
        assert_eq!(is_separator('\\'), on_windows(true, false));
        assert!(!is_separator(':'));
    }

    #[test]
    fn drive_letters() {
        let cases = [
            ("c:\\x", on_windows(Some('C'), None)),
            ("D:", on_windows(Some('D'), None)),
            ("1:\\x", None),
            ("/c:/x", None),
            ("", None),
        ];
        for (path, want) in cases {
            assert_eq!(drive(path), want, "drive({:?})", path);
        }
    }

    #[test]
    fn join_uses_one_native_separator() {
        let cases = [
            ("dir", "file", on_windows("dir\\file", "dir/file")),
            ("dir/", "/file", on_windows("dir\\file", "dir/file")),
            ("dir\\", "file", on_windows("dir\\file", "dir\\/file")),
            ("", "file", "file"),
            ("/", "file", on_windows("\\file", "/file")),
        ];
        for (dir, name, want) in cases {
            assert_eq!(join(dir, name), want, "join({:?}, {:?})", dir, name);
        }
    }

    #[test]
    fn split_list_rules() {
        let cases: [(&str, Vec<&str>); 3] = [
            ("a;b:c", on_windows(vec!["a", "b:c"], vec!["a;b", "c"])),
            ("\"x;y\";z", on_windows(vec!["x;y", "z"], vec!["\"x;y\";z"])),
            ("::;;", on_windows(vec!["::"], vec![";;"])),
        ];
        for (list, want) in cases {
            assert_eq!(split_list(list), want, "split_list({:?})", list);
        }
    }
}
