// Package steps lists every step kind: importing it registers them all with
// the engine, so a process that runs steps it did not compile (a worker)
// knows every kind. A new kind's package is added here; a test checks that
// none is missing.
package steps

import (
	_ "github.com/osbench/osbench/steps/agentsolve"    // solve
	_ "github.com/osbench/osbench/steps/checkout"      // checkout
	_ "github.com/osbench/osbench/steps/covimport"     // coverage
	_ "github.com/osbench/osbench/steps/depset"        // deps
	_ "github.com/osbench/osbench/steps/diffcov"       // diffcov
	_ "github.com/osbench/osbench/steps/maskrepo"      // mask, mask-retry
	_ "github.com/osbench/osbench/steps/patchapply"    // apply
	_ "github.com/osbench/osbench/steps/tamperscan"    // tamper-scan
	_ "github.com/osbench/osbench/steps/taskbuild"     // task, tasks
	_ "github.com/osbench/osbench/steps/tasksplit"     // split
	_ "github.com/osbench/osbench/steps/testrun"       // test
	_ "github.com/osbench/osbench/steps/toolchain"     // toolchain
	_ "github.com/osbench/osbench/steps/verdict"       // verdict
	_ "github.com/osbench/osbench/steps/verifyregions" // verify
)
