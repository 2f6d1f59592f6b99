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
