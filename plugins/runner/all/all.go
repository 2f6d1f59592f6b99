// Package all registers every built-in test runner with plugins/runner:
// import it for its side effect wherever a run's runner is looked up. A
// new runner is one package under plugins/runner and one line here
// (docs/extending.md, "Adding a test runner").
package all

import (
	_ "github.com/osbench/osbench/plugins/runner/ctest"
	_ "github.com/osbench/osbench/plugins/runner/gotest"
	_ "github.com/osbench/osbench/plugins/runner/junit"
	_ "github.com/osbench/osbench/plugins/runner/libtest"
	_ "github.com/osbench/osbench/plugins/runner/regex"
	_ "github.com/osbench/osbench/plugins/runner/tap"
	_ "github.com/osbench/osbench/plugins/runner/trx"
)
