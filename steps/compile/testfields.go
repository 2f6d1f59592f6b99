package compile

import (
	"github.com/osbench/osbench/engine"
	"github.com/osbench/osbench/plugins/parsers"
	"github.com/osbench/osbench/steps/taskpkg"
	"github.com/osbench/osbench/steps/testrun"
)

// testFields is the configuration of a test step, built the same way for a
// manifest's platform and for a task's recorded environment: the same
// fields in the same order give the same key, so evaluating a patch that
// restores a tree the build already ran (the gold patch gives back R+, the
// empty patch leaves R−) is served from the cache. source names where each
// field came from ("" when it has no manifest position).
func testFields(repository, platform, language string, e taskpkg.Environment, source func(field string) string) []engine.Field {
	fields := []engine.Field{
		{Name: "repository", Value: repository, Source: source("repository")},
		{Name: "platform", Value: platform},
		{Name: "language", Value: language, Source: source("language")},
		{Name: "executor", Value: e.Executor, Source: source("executor")},
		{Name: "user", Value: e.User, Source: source("user")},
		{Name: "toolchain", Value: e.Toolchain, Source: source("toolchain")},
		{Name: "env", Value: nonNil(e.Env), Source: source("env")},
		{Name: "test", Value: testrun.Command{Argv: nonNilList(e.TestCommand), Shell: e.Shell, Dir: e.Dir}, Source: source("test")},
		{Name: "timeout", Value: e.Timeout, Source: source("timeout")},
		{Name: "parser", Value: e.Parser, Source: source("parser")},
		{Name: "skip", Value: nonNilList(e.Skip), Source: source("skip")},
	}
	// Version 1 is the absence of the field: runs of parsers that never
	// changed keep the keys (and cached results) they always had.
	if v := parsers.VersionOf(e.Parser); v != "1" {
		fields = append(fields, engine.Field{Name: "parser_version", Value: v})
	}
	if re := e.Regex; re != nil {
		fields = append(fields, engine.Field{Name: "regex", Value: &testrun.Regex{Pattern: re.Pattern, Statuses: re.Statuses}, Source: source("regex")})
	}
	if b := e.Build; b != nil {
		fields = append(fields, engine.Field{Name: "build", Value: &testrun.Command{Argv: nonNilList(b.Argv), Shell: b.Shell, Dir: b.Dir}, Source: source("build")})
	}
	if e.Report != "" {
		fields = append(fields, engine.Field{Name: "report", Value: e.Report, Source: source("report")})
	}
	// The names, never the values: a run with another secret_env list is
	// another configuration; a new secret value is not.
	if len(e.SecretEnv) > 0 {
		fields = append(fields, engine.Field{Name: "secret_env", Value: e.SecretEnv, Source: source("secret_env")})
	}
	if e.CoverageFile != "" {
		fields = append(fields, engine.Field{Name: "coverage_file", Value: e.CoverageFile, Source: source("coverage_file")})
	}
	return fields
}
