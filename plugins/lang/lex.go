package lang

import "unicode/utf8"

// RustChar returns the length of the character literal that starts at
// s[0] == '\” ('a', '\n', '\”, '\u{e9}', 'é'), or 0 when the quote
// starts a lifetime or a label instead ('a, 'static, 'outer:). It is the
// one copy of the rule, which Lex applies for every consumer. An escape runs to the next unescaped quote on
// its line; an unterminated one ends at the end of the line.
func RustChar[T ~string | ~[]byte](s T) int {
	if len(s) < 2 {
		return 0
	}
	if s[1] == '\\' {
		for j := 2; j < len(s) && s[j] != '\n'; j++ {
			if s[j] == '\'' && (j > 2 || s[j-1] != '\\') {
				return j + 1
			}
		}
		end := 0
		for end < len(s) && s[end] != '\n' {
			end++
		}
		return end
	}
	head := s[1:min(len(s), 1+utf8.UTFMax)]
	_, size := utf8.DecodeRuneInString(string(head))
	if next := 1 + size; size > 0 && next < len(s) && s[next] == '\'' {
		return next + 1
	}
	return 0
}

// ClassifyLines classifies the lines of src by Default's languages.
func ClassifyLines(language string, src []byte) []LineKind {
	return Default.ClassifyLines(language, src)
}
