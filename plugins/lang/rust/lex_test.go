package rust

import (
	"reflect"
	"testing"
)

func TestLexRust(t *testing.T) {
	src := "let s = r##\"a\"# }\"##; 'a: loop { x::<'b>('c', b'\\'', \"\\\"{\") } /* /* */ } */ 1..2 br\"]\" r#fn"
	var got []string
	for _, tok := range lexRust([]byte(src)) {
		got = append(got, tok.text)
	}
	want := []string{"let", "s", "=", `r##"a"# }"##`, ";", "'a", ":", "loop", "{", "x", "::", "<", "'b", ">", "(", "'c'", ",", `b'\''`, ",", `"\"{"`, ")", "}", "1", ".", ".", "2", `br"]"`, "r#fn"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens:\n%q\nwant:\n%q", got, want)
	}
}
