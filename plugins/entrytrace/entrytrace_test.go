package entrytrace

import "testing"

func TestGoTest(t *testing.T) {
	for _, tc := range []struct {
		symbol string
		name   string
		ok     bool
	}{
		{"example.com/m/pkg.TestAdd", "TestAdd", true},
		{"example.com/m/pkg_test.TestAdd", "TestAdd", true},
		{"example.com/m/pkg.Test", "Test", true},
		{"example.com/m/pkg.Test_under", "Test_under", true},
		{"example.com/m/pkg.Testing", "", false}, // lower case after the prefix
		{"example.com/m/pkg.ExampleAdd", "ExampleAdd", true},
		{"example.com/m/pkg.BenchmarkAdd", "BenchmarkAdd", true},
		{"example.com/m/pkg.FuzzParse", "FuzzParse", true},
		{"example.com/m/pkg.TestAdd.func1", "", false}, // a closure
		{"example.com/m/pkg.(*T).TestAdd", "", false},  // a method
		{"example.com/m/pkg.TestAdd.abi0", "", false},  // an ABI wrapper
		{"example.com/m/pkg.helper", "", false},        // not a test
		{"example.com/m/v2.TestX", "TestX", true},      // a major-version path element
		{"gopkg.in/yaml%2ev3.TestY", "TestY", true},    // the linker escapes dots of the last element
		{"main.TestMain", "TestMain", true},            // TestMain is a function like the others
		{"example.com/a.b/pkg.TestZ", "TestZ", true},   // dots before the last slash
	} {
		name, ok := GoTest(tc.symbol)
		if name != tc.name || ok != tc.ok {
			t.Errorf("GoTest(%q) = %q, %v; want %q, %v", tc.symbol, name, ok, tc.name, tc.ok)
		}
	}
}

func TestRustTests(t *testing.T) {
	sel := RustTests("rsplat")
	for _, tc := range []struct {
		symbol string
		name   string
		ok     bool
	}{
		// Legacy mangling, rustc's default: the test, and the closure
		// libtest's harness wraps it in, name the same test.
		{"_ZN6rsplat5paths5tests10separators17h00cd31f759ed773fE", "paths::tests::separators", true},
		{"_ZN6rsplat5paths5tests10separators28_$u7b$$u7b$closure$u7d$$u7d$17h6a0cd6a9ed635deaE", "paths::tests::separators", true},
		{"_ZN6rsplat5attrs5tests7Scratch3new17h77595fc4171c683cE", "attrs::tests::Scratch::new", true}, // a helper: armed, never asked about
		{"_ZN8platform20dot_files_are_hidden17h5cd21f179c6d2122E", "", false},                          // another crate
		{"_ZN3std2rt10lang_start17h0123456789abcdefE", "", false},
		{"_ZN52_$LT$rsplat..Foo$u20$as$u20$core..fmt..Debug$GT$3fmt17h0123456789abcdefE", "", false}, // a trait impl
		{"_ZN6rsplat1f28_$u7b$$u7b$closure$u7d$$u7d$28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE", "", false},
		{"_ZN6rsplat5paths5tests10separators17h00cdE", "", false},  // no hash
		{"_ZN6rsplat17h00cd31f759ed773fE", "", false},              // the crate alone
		{"_ZN6rsplat5paths99tests17h00cd31f759ed773fE", "", false}, // a length past the end
		// v0 (-C symbol-mangling-version=v0), with the instantiating
		// crate after the path.
		{"_RNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5tests10separators", "paths::tests::separators", true},
		{"_RNCNvNtNtCs7Ki3xCtWVbG_6rsplat5paths5tests10separators0B7_", "paths::tests::separators", true},
		{"_RNvCs7Ki3xCtWVbG_6rsplat4main", "main", true},
		{"_RNvMNtNtCs7Ki3xCtWVbG_6rsplat5attrs5testsNtB2_7Scratch3new", "", false}, // an inherent impl
		{"_RINvNtNtCs7Ki3xCtWVbG_6rsplat5paths5tests10on_windowsbEB6_", "", false}, // generic
		{"_RNCINvNtCsjrHSEGnQ3l9_3std2rt10lang_startuE0Cs7Ki3xCtWVbG_6rsplat", "", false},
		{"_RNvCs7Ki3xCtWVbG_6rsplat5__1abc", "_1abc", true}, // "_" separates a length from an identifier starting with a digit or "_"
		{"_RNvNtCs7Ki3xCtWVbG_6rsplatu3abc", "", false},     // punycode
		{"_RNvNtCs7Ki3xCtWVbG_6rsplat", "", false},          // cut short
		{"main", "", false},
	} {
		name, ok := sel(tc.symbol)
		if name != tc.name || ok != tc.ok {
			t.Errorf("RustTests(rsplat)(%q) = %q, %v; want %q, %v", tc.symbol, name, ok, tc.name, tc.ok)
		}
	}
	for program, crate := range map[string]string{
		"/w/_osbench_target/debug/deps/rsplat-fbe50f0aabcb0eb9": "rsplat",
		"target/debug/deps/my_crate-0123456789abcdef":           "my_crate",
		"target/debug/deps/it-0123456789abcdef.exe":             "it",
		"nohash": "nohash",
	} {
		if got := RustCrate(program); got != crate {
			t.Errorf("RustCrate(%q) = %q, want %q", program, got, crate)
		}
	}
}

func TestParseRecord(t *testing.T) {
	r := ParseRecord([]byte("images 1\narmed TestA\narmed TestB\nentered TestA\n"))
	if r == nil || r.Images != 1 || !r.Armed["TestB"] || !r.Entered["TestA"] || r.Entered["TestB"] {
		t.Fatalf("parsed %+v", r)
	}
	if r.NotEntered("TestA") || !r.NotEntered("TestB") || r.NotEntered("TestC") {
		t.Errorf("NotEntered: TestA %v (entered), TestB %v (armed only), TestC %v (not armed)", r.NotEntered("TestA"), r.NotEntered("TestB"), r.NotEntered("TestC"))
	}
	for _, in := range []string{"untraced ptrace: operation not permitted\n", "images 0\n", ""} {
		if r := ParseRecord([]byte(in)); r != nil {
			t.Errorf("ParseRecord(%q) = %+v, want nil (no evidence either way)", in, r)
		}
	}
	var none *Record
	if none.NotEntered("TestA") {
		t.Error("a missing record denied a test")
	}
}
