package manifests

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/osbench/osbench/plugins/lang"
	"github.com/osbench/osbench/schemas"
)

// The names the language itself fixes. Plugin names (parsers, executors,
// coverage formats) are not here: the CLI passes them in through Known.
var (
	platformNames = []string{"linux", "windows", "darwin"}
	shellNames    = []string{"bash", "pwsh", "cmd"}
	// userNames: "" keeps the default (an unprivileged user when osbench runs
	// as root); "root" is for the rare repository whose tests need it.
	userNames = []string{"", "root"}
	// skipStyles are the runners whose skip flags skip_args can spell
	// (plugins/lang: "ctest", "go", "gtest", "libtest").
	skipStyles = lang.SkipStyleNames()
)

// blockName is what a repository or preset may be called: the name ends up
// in task ids and directory names, so it stays plain.
var blockName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// commitHash is an abbreviated or full git commit id.
var commitHash = regexp.MustCompile(`^[0-9a-fA-F]{7,40}$`)

// duration is a timeout as written and as parsed; the text is what commands
// see as ${timeout}.
type duration struct {
	Text  string
	Value time.Duration
}

func asDuration(name string, value cty.Value) (duration, *valueError) {
	text, problem := asString(name, value)
	if problem != nil {
		return duration{}, problem
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return duration{}, invalidValue("%s must be a Go duration such as \"90s\" or \"10m\", not %q.", name, text)
	}
	if d <= 0 {
		return duration{}, invalidValue("%s must be positive, not %q.", name, text)
	}
	return duration{Text: text, Value: d}, nil
}

// knownName accepts a name that a plugin registry knows. A nil isKnown
// accepts every non-empty name; names, when given, feed the suggestion.
func knownName(kind string, isKnown func(string) bool, names []string) converter[string] {
	return func(name string, value cty.Value) (string, *valueError) {
		s, problem := asString(name, value)
		if problem != nil {
			return "", problem
		}
		if s == "" {
			return "", invalidValue("%s must not be empty.", name)
		}
		if isKnown == nil || isKnown(s) {
			return s, nil
		}
		detail := fmt.Sprintf("No %s named %q is registered.%s", kind, s, didYouMean(s, names))
		if len(names) > 0 {
			detail += fmt.Sprintf(" Registered %ss: %s.", kind, quotedList(names))
		}
		return "", &valueError{Summary: "Unknown " + kind, Detail: detail}
	}
}

// skipStyle accepts "" (no skipping) or a style that skip_args can spell
// and that the registry, when asked, also knows.
func skipStyle(isKnown func(string) bool) converter[string] {
	return func(name string, value cty.Value) (string, *valueError) {
		s, problem := asString(name, value)
		if problem != nil || s == "" {
			return s, problem
		}
		known := false
		for _, style := range skipStyles {
			known = known || s == style
		}
		if !known || (isKnown != nil && !isKnown(s)) {
			return "", &valueError{
				Summary: "Unknown skip style",
				Detail: fmt.Sprintf("No skip style named %q.%s Skip styles: %s.",
					s, didYouMean(s, skipStyles), quotedList(skipStyles)),
			}
		}
		return s, nil
	}
}

// relativePath accepts a path inside the repository, written with either
// separator, and returns it cleaned with "/". A path that is absolute on any
// OS or climbs out with ".." is refused: steps run with the repository as
// their root on every platform. mayBeRoot allows "" and "." (the root).
func relativePath(mayBeRoot bool) converter[string] {
	return func(name string, value cty.Value) (string, *valueError) {
		s, problem := asString(name, value)
		if problem != nil {
			return "", problem
		}
		slashed := strings.ReplaceAll(s, `\`, "/")
		switch {
		case strings.ContainsRune(s, 0):
			return "", invalidValue("%s must not contain NUL bytes.", name)
		case strings.HasPrefix(slashed, "/") || hasDriveLetter(slashed):
			return "", invalidValue("%s must be relative to the repository root, not absolute (%q).", name, s)
		}
		cleaned := path.Clean(slashed)
		if cleaned == ".." || strings.HasPrefix(cleaned, "../") {
			return "", invalidValue("%s must stay inside the repository; %q leaves it.", name, s)
		}
		if cleaned == "." {
			if !mayBeRoot {
				return "", invalidValue("%s must name a file inside the repository.", name)
			}
			return "", nil
		}
		return cleaned, nil
	}
}

func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

func asCommit(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem != nil {
		return "", problem
	}
	if !commitHash.MatchString(s) {
		return "", invalidValue("%s must be a git commit id of 7 to 40 hex digits, not %q.", name, s)
	}
	return s, nil
}

func nonEmptyString(name string, value cty.Value) (string, *valueError) {
	s, problem := asString(name, value)
	if problem == nil && s == "" {
		problem = invalidValue("%s must not be empty.", name)
	}
	return s, problem
}

// asDirections accepts a non-empty list of distinct "<os>-><os>" entries.
func asDirections(name string, value cty.Value) ([]Direction, *valueError) {
	entries, problem := asStringList(name, value)
	if problem != nil {
		return nil, problem
	}
	if len(entries) == 0 {
		return nil, invalidValue("%s must name at least one direction, as in [\"windows->linux\"].", name)
	}
	directions := make([]Direction, 0, len(entries))
	seen := make(map[string]bool, len(entries))
	for i, entry := range entries {
		at := indexPath(i)
		source, target, ok := strings.Cut(entry, "->")
		switch {
		case !ok || !isPlatformName(source) || !isPlatformName(target):
			return nil, &valueError{Path: at, Detail: fmt.Sprintf(
				"%q is not a migration direction; write \"<source>-><target>\" with each of %s.", entry, quotedList(platformNames))}
		case source == target:
			return nil, &valueError{Path: at, Detail: fmt.Sprintf("%q migrates a platform to itself.", entry)}
		case seen[entry]:
			return nil, &valueError{Path: at, Detail: fmt.Sprintf("%q is listed twice.", entry)}
		}
		seen[entry] = true
		directions = append(directions, Direction{Source: source, Target: target})
	}
	return directions, nil
}

func isPlatformName(name string) bool {
	for _, p := range platformNames {
		if name == p {
			return true
		}
	}
	return false
}

// asEnv accepts a map of environment variables with names a process can
// actually receive.
func asEnv(name string, value cty.Value) (map[string]string, *valueError) {
	env, problem := asStringMap(name, value)
	if problem != nil {
		return nil, problem
	}
	for _, key := range sortedKeys(env) {
		if key == "" || strings.ContainsAny(key, "=\x00") {
			return nil, &valueError{
				Detail: fmt.Sprintf("%q cannot be an environment variable name.", key),
				Path:   cty.IndexPath(cty.StringVal(key)),
			}
		}
		if strings.ContainsRune(env[key], 0) {
			return nil, &valueError{
				Detail: fmt.Sprintf("the value of %s must not contain NUL bytes.", key),
				Path:   cty.IndexPath(cty.StringVal(key)),
			}
		}
	}
	return env, nil
}

// asRegexPattern accepts a Go regular expression with the named groups the
// regex parser reads: "id" (the test id) and "status".
func asRegexPattern(name string, value cty.Value) (string, *valueError) {
	pattern, problem := asString(name, value)
	if problem != nil {
		return "", problem
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", invalidValue("%s is not a valid regular expression: %v.", name, err)
	}
	for _, group := range []string{"id", "status"} {
		if re.SubexpIndex(group) < 0 {
			return "", invalidValue("%s must have a named group (?P<%s>...).", name, group)
		}
	}
	return pattern, nil
}

// asStatuses accepts a map from captured status text to a status name.
func asStatuses(name string, value cty.Value) (map[string]string, *valueError) {
	statuses, problem := asStringMap(name, value)
	if problem != nil {
		return nil, problem
	}
	if len(statuses) == 0 {
		return nil, invalidValue("%s must map at least one captured text to a status.", name)
	}
	valid := make([]string, len(schemas.Statuses))
	for i, s := range schemas.Statuses {
		valid[i] = string(s)
	}
	for _, key := range sortedKeys(statuses) {
		if !schemas.Status(statuses[key]).Valid() {
			return nil, &valueError{
				Detail: fmt.Sprintf("%q is not a status; use one of %s.", statuses[key], quotedList(valid)),
				Path:   cty.IndexPath(cty.StringVal(key)),
			}
		}
	}
	return statuses, nil
}

// lmSettings are the keys an lm setting may hold.
var lmSettings = []string{"provider", "model", "base_url", "api_key_env", "azure_api_version", "temperature", "max_tokens"}

// asLMSettings accepts the language-model verifier's settings: a map of
// strings with known keys only, so a typo is an error rather than a
// silently ignored option. An API key never belongs here: api_key_env names
// the environment variable that holds it.
func asLMSettings(name string, value cty.Value) (map[string]string, *valueError) {
	m, problem := asStringMap(name, value)
	if problem != nil {
		return nil, problem
	}
	for _, key := range sortedKeys(m) {
		known := false
		for _, k := range lmSettings {
			known = known || k == key
		}
		if !known {
			return nil, &valueError{
				Detail: fmt.Sprintf("%q is not an lm setting; use %s.", key, quotedList(lmSettings)),
				Path:   cty.IndexPath(cty.StringVal(key)),
			}
		}
	}
	return m, nil
}

// asSecretEnv accepts the names of secret_env: variables a process can
// receive, each once.
func asSecretEnv(name string, value cty.Value) ([]string, *valueError) {
	names, problem := asStringList(name, value)
	if problem != nil {
		return nil, problem
	}
	seen := map[string]bool{}
	for i, n := range names {
		switch {
		case n == "" || strings.ContainsAny(n, "=\x00"):
			return nil, &valueError{Detail: fmt.Sprintf("%q cannot be an environment variable name.", n), Path: indexPath(i)}
		case seen[n]:
			return nil, &valueError{Detail: fmt.Sprintf("%s is listed twice.", n), Path: indexPath(i)}
		}
		seen[n] = true
	}
	return names, nil
}

// envCallWarnings warns when an env or command attribute uses a value of
// env(), directly or through locals: the value becomes part of the step's
// configuration, so it lands in keys, history, traces and logs. A secret
// belongs in secret_env, which passes the variable by name.
func envCallWarnings(attr *hcl.Attribute, sc *scope) hcl.Diagnostics {
	if attr == nil {
		return nil
	}
	value, diags := attr.Expr.Value(sc.commandContext(unknownCommandVariables()))
	if diags.HasErrors() || !value.HasMarkDeep(envMark) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Environment value in a key",
		Detail: fmt.Sprintf("%s uses env(): its value becomes part of the step's configuration and lands in keys, history, traces and logs. "+
			"To pass a secret, list the variable in secret_env instead, which passes it by name.", attr.Name),
		Subject: attr.Expr.Range().Ptr(),
	}}
}
