package rust

import (
	"slices"
	"strings"
	"testing"
)

const taskLib = `pub fn double(x: i32) -> i32 {
    x * 2
}

mod inner {
    pub fn one() -> i32 { 1 }

    #[cfg(test)]
    mod tests {
        #[test]
        fn one_is_one() { assert_eq!(super::one(), 1); }
    }
}

#[cfg(all(test, windows))]
use std::os::windows::ffi::OsStrExt;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles() {
        assert_eq!(double(2), 4);
    }
}
`

func TestRestoreTestCode(t *testing.T) {
	cases := []struct {
		name      string
		patched   string
		want      string // "" means the task's file
		wantItems []string
		problem   string
	}{
		{
			name:    "a non-test edit keeps the file as patched",
			patched: strings.Replace(taskLib, "x * 2", "x + x", 1),
			want:    strings.Replace(taskLib, "x * 2", "x + x", 1),
		},
		{
			name:      "an emptied test module gets its body back",
			patched:   strings.Replace(taskLib, "assert_eq!(double(2), 4);", "", 1),
			wantItems: []string{"mod tests"},
		},
		{
			name:      "a test emptied inside a nested module",
			patched:   strings.Replace(taskLib, "assert_eq!(super::one(), 1);", "", 1),
			wantItems: []string{"mod inner / mod tests"},
		},
		{
			name:      "a test function the patch adds is removed",
			patched:   taskLib + "\n#[test]\nfn forged() {}\n",
			want:      taskLib + "\n\n",
			wantItems: []string{"fn forged() (added by the patch, removed)"},
		},
		{
			name: "a test module the patch removes is put back at the end",
			patched: strings.Replace(taskLib, `#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles() {
        assert_eq!(double(2), 4);
    }
}
`, "", 1),
			wantItems: []string{"mod tests (removed by the patch, put back)"},
		},
		{
			name:    "a module holding test code that the patch removes is a problem",
			patched: taskLib[:strings.Index(taskLib, "mod inner")] + taskLib[strings.Index(taskLib, "#[cfg(all"):],
			problem: `test item "mod tests" cannot be put back: the patch removed its module "mod inner"`,
		},
		{
			name:    "a cfg(test) use changed is put back",
			patched: strings.Replace(taskLib, "use std::os::windows::ffi::OsStrExt;", "use std::io;", 1),
			want: strings.Replace(taskLib, "#[cfg(all(test, windows))]\nuse std::os::windows::ffi::OsStrExt;", "", 1) +
				"\n#[cfg(all(test, windows))]\nuse std::os::windows::ffi::OsStrExt;\n",
			wantItems: []string{"use std::io (added by the patch, removed)", "use std::os::windows::ffi::OsStrExt (removed by the patch, put back)"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, items, problem := RestoreTestCode([]byte(taskLib), []byte(tc.patched))
			if problem != tc.problem {
				t.Fatalf("problem = %q, want %q", problem, tc.problem)
			}
			if problem != "" {
				return
			}
			if !slices.Equal(items, tc.wantItems) {
				t.Errorf("items = %q, want %q", items, tc.wantItems)
			}
			want := tc.want
			if want == "" && tc.wantItems != nil {
				want = taskLib
			}
			if tc.name == "a test module the patch removes is put back at the end" {
				// The module lands at the end, after the item that now
				// ends the file; the restored file has the same test items.
				if !strings.Contains(string(out), "assert_eq!(double(2), 4);") {
					t.Fatalf("module not put back:\n%s", out)
				}
				if _, again, _ := RestoreTestCode([]byte(taskLib), out); again != nil {
					t.Errorf("restoring the restored file changes %q", again)
				}
				return
			}
			if string(out) != want {
				t.Errorf("restored file:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

func TestRestoreTestCodeWholeFile(t *testing.T) {
	task := "#![cfg(test)]\nuse super::*;\n#[test]\nfn t() { assert!(true); }\n"
	out, items, problem := RestoreTestCode([]byte(task), []byte("#![cfg(test)]\n"))
	if problem != "" || string(out) != task || len(items) != 1 {
		t.Fatalf("got %q %q %q", out, items, problem)
	}
}

func TestTestModules(t *testing.T) {
	src := []byte("pub mod fs;\n#[cfg(test)]\nmod helpers;\n#[cfg(test)]\nmod tests { #[test] fn t() {} }\n")
	cases := map[string][]string{
		"src/lib.rs":     {"src/helpers.rs", "src/helpers/mod.rs"},
		"src/fs/mod.rs":  {"src/fs/helpers.rs", "src/fs/helpers/mod.rs"},
		"src/windows.rs": {"src/windows/helpers.rs", "src/windows/helpers/mod.rs"},
	}
	for p, want := range cases {
		if got := TestModules(p, src); !slices.Equal(got, want) {
			t.Errorf("TestModules(%s) = %q, want %q", p, got, want)
		}
	}
}

func FuzzRestoreTestCode(f *testing.F) {
	f.Add([]byte(taskLib), []byte(strings.Replace(taskLib, "assert_eq!(double(2), 4);", "", 1)))
	f.Add([]byte("#[cfg(test)] mod t { fn x( }"), []byte("}{#[test]"))
	f.Fuzz(func(t *testing.T, task, patched []byte) {
		// Any bytes: no panic, and the same answer twice (the restored
		// tree is part of a cached result).
		out, items, problem := RestoreTestCode(task, patched)
		again, items2, problem2 := RestoreTestCode(task, patched)
		if string(out) != string(again) || !slices.Equal(items, items2) || problem != problem2 {
			t.Fatalf("two answers for one input: %q %q / %q %q", items, problem, items2, problem2)
		}
	})
}
