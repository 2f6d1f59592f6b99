/// Whether c separates path elements; 'a lifetimes and '\'' chars alike.
pub fn is_separator<'a>(c: char, _s: &'a str) -> bool {
    #[cfg(windows)]
    {
        return c == '\\' || c == '/'; // osbench:target
    }
    #[cfg(not(windows))]
    {
        c == '/'
    }
}
