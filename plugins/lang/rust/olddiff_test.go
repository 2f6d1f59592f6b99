package rust

import (
	"reflect"
	"strings"
	"testing"
)

func FuzzOldLexRust(f *testing.F) {
	f.Add("let s = r##\"a\"# }\"##; 'a: loop { x::<'b>('c', b'\\'', \"\\\"{\") } /* /* */ } */ 1..2 br\"]\" r#fn cr\"x\" c\"y\"")
	f.Add("fn f<'a>(x: &'a str) -> u8 { match x { _ => 1.5e3 as u8 } }")
	f.Fuzz(func(t *testing.T, src string) {
		if knownRustDivergence(src) {
			return
		}
		old, got := oldLexRust([]byte(src)), lexRust([]byte(src))
		if len(old) == 0 && len(got) == 0 {
			return
		}
		if !reflect.DeepEqual(old, got) {
			t.Fatalf("%q:\nold %+v\nnew %+v", src, old, got)
		}
	})
}

// knownRustDivergence: a byte character b'…' that lang.RustChar does not
// accept ends at its line (the verify lexer's rule), where the old masker
// lexer ran on to the next quote.
func knownRustDivergence(src string) bool { return strings.Contains(src, "b'") }
