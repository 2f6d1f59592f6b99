package compile

import (
	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/plugins/runner"
	"github.com/osbench/osbench/schemas"
	"github.com/osbench/osbench/steps/testrun"
)

// testFields is the configuration of a test step, built the same way for a
// manifest's platform and for a task's recorded environment: the same
// fields in the same order give the same key, so evaluating a patch that
// restores a tree the build already ran (the gold patch gives back R+, the
// empty patch leaves R−) is served from the cache. source names where each
// field came from ("" when it has no manifest position).
func testFields(repository, platform, language string, e schemas.TestEnvironment, source func(field string) string) []engine.Field {
	return engine.Fields(testConfig(repository, platform, language, e), source)
}

// testConfig is the test step's configuration for an environment.
func testConfig(repository, platform, language string, e schemas.TestEnvironment) testrun.Config {
	cfg := testrun.Config{
		Repository: repository,
		Platform:   platform,
		Language:   language,
		Executor:   e.Executor,
		User:       e.User,
		Toolchain:  e.Toolchain,
		Env:        e.Env,
		Test:       testrun.Command{Argv: nonNilList(e.TestCommand), Shell: e.Shell, Dir: e.Dir},
		Timeout:    e.Timeout,
		Parser:     e.Parser,
		Skip:       e.Skip,
		Report:     e.Report,
		// The names, never the values: a run with another secret_env
		// list is another configuration; a new secret value is not.
		SecretEnv: e.SecretEnv,
		Coverage:  e.CoverageFile,
	}
	// Version 1 is the absence of the field: runs of parsers that never
	// changed keep the keys (and cached results) they always had.
	if v := parsers.VersionOf(e.Parser); v != "1" {
		cfg.ParserVersion = v
	}
	// Likewise the runners' (plugins/runner): the parser's and the
	// language's home runner.
	cfg.RunnerVersion = runner.KeyVersion(language, e.Parser, platform)
	if re := e.Regex; re != nil {
		cfg.Regex = &testrun.Regex{Pattern: re.Pattern, Statuses: re.Statuses}
	}
	if c := e.Compile; c != nil {
		cfg.Compile = &testrun.Command{Argv: nonNilList(c.Argv), Shell: c.Shell, Dir: c.Dir}
	}
	if b := e.Build; b != nil {
		cfg.Build = &testrun.Command{Argv: nonNilList(b.Argv), Shell: b.Shell, Dir: b.Dir}
		cfg.BuildTimeout = e.BuildTimeout
	}
	return cfg
}
