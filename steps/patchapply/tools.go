package patchapply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/osbench/osbench/schemas"
)

// commandTimeout bounds each git or patch command. Applying a patch takes
// milliseconds; a command still running after this is stuck.
const commandTimeout = 2 * time.Minute

// maxReason bounds the tool message kept as a patch-failed reason.
const maxReason = 2000

// attributes shut out the repository's own .gitattributes while patches
// are applied and the tree is reset: no line-ending conversion, keyword
// expansion or filter may make the files differ from the task's bytes.
// $GIT_DIR/info/attributes takes precedence over every .gitattributes.
const attributes = "* -text -eol -ident -filter -working-tree-encoding\n"

// attempt is one way of applying a patch.
type attempt struct {
	method string
	argv   []string
}

// attempts are tried in order, the first that applies wins. git apply is
// exact; --3way can merge a patch made against a nearby version whose blob
// the repository holds; GNU patch tolerates drifted context. patch is held
// to unified diffs (--unified: no ed scripts, which it would hand to ed,
// and no context diffs, whose names the header rules do not read) and
// never reverses a hunk that looks already applied (--forward), which
// --batch alone would do silently.
var attempts = []attempt{
	{schemas.ApplyGit, []string{"git", "apply", "--whitespace=nowarn"}},
	{schemas.ApplyGit3Way, []string{"git", "apply", "--3way", "--whitespace=nowarn"}},
	{schemas.ApplyPatchFuzzy, []string{"patch", "--batch", "--fuzz=5", "-p1", "--no-backup-if-mismatch", "--unified", "--forward"}},
}

// applier runs the apply tools in one repository.
type applier struct {
	repo string
	log  io.Writer // every command and its output
}

// prepare makes the repository's git behave the same on every machine.
func (a *applier) prepare() error {
	info := filepath.Join(a.repo, ".git", "info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(info, "attributes"), []byte(attributes), 0o644)
}

// apply tries each attempt on a pristine tree and returns the method that
// applied the patch, or "" and the last tool's message when none did. An
// error is trouble with the tools themselves, not with the patch.
func (a *applier) apply(ctx context.Context, patch []byte) (method, message string, err error) {
	for _, at := range attempts {
		if err := a.reset(ctx); err != nil {
			return "", "", err
		}
		out, exitErr, err := a.run(ctx, patch, at.argv...)
		if err != nil {
			return "", "", err
		}
		if exitErr == nil {
			return at.method, "", nil
		}
		message = toolMessage(at.argv[0], out, a.repo)
	}
	if err := a.reset(ctx); err != nil {
		return "", "", err
	}
	return "", message, nil
}

// reset puts the work tree back to the commit: tracked files restored,
// everything else removed (-ff also removes nested repositories).
func (a *applier) reset(ctx context.Context) error {
	for _, argv := range [][]string{{"git", "reset", "--hard", "--quiet"}, {"git", "clean", "-ffdxq"}} {
		out, exitErr, err := a.run(ctx, nil, argv...)
		if err != nil {
			return err
		}
		if exitErr != nil {
			return fmt.Errorf("%s: %v: %s", strings.Join(argv, " "), exitErr, bytes.TrimSpace(out))
		}
	}
	return nil
}

// run runs argv (never through a shell) in the repository with stdin as
// input. A command that ran and failed gives its combined output and exit
// error; a command that could not run, or timed out, is an error.
func (a *applier) run(ctx context.Context, stdin []byte, argv ...string) (out []byte, exitErr *exec.ExitError, err error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = a.repo
	cmd.Env = toolEnv(a.repo)
	cmd.Stdin = bytes.NewReader(stdin)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.WaitDelay = 5 * time.Second
	fmt.Fprintf(a.log, "$ %s\n", strings.Join(argv, " "))
	runErr := cmd.Run()
	a.log.Write(buf.Bytes())
	if ctx.Err() != nil {
		return nil, nil, fmt.Errorf("%s: %w", strings.Join(argv, " "), ctx.Err())
	}
	if errors.As(runErr, &exitErr) {
		fmt.Fprintf(a.log, "[exit %d]\n", exitErr.ExitCode())
		return buf.Bytes(), exitErr, nil
	}
	if runErr != nil {
		return nil, nil, fmt.Errorf("%s: %w", strings.Join(argv, " "), runErr)
	}
	return buf.Bytes(), nil, nil
}

// toolEnv is the whole environment of the tools: the search path, and
// settings that shut out the machine's and the user's git configuration
// and patch's environment options (VERSION_CONTROL, POSIXLY_CORRECT...),
// so the same patch gives the same result anywhere. Git may not look for
// a repository above repo.
func toolEnv(repo string) []string {
	env := []string{
		"LC_ALL=C",
		"TZ=UTC",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(repo),
		// The user-level attributes file lives under HOME; name none.
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=core.attributesFile",
		"GIT_CONFIG_VALUE_0=" + os.DevNull,
		"HOME=" + os.DevNull,
	}
	for _, key := range []string{"PATH", "SYSTEMROOT"} {
		if v, ok := os.LookupEnv(key); ok {
			env = append(env, key+"="+v)
		}
	}
	return env
}

// toolMessage turns a failed tool's output into a stable reason: trimmed,
// the work dir replaced, bounded.
func toolMessage(tool string, out []byte, repo string) string {
	msg := strings.TrimSpace(strings.ReplaceAll(string(out), repo, "."))
	if msg == "" {
		msg = tool + " failed without a message"
	}
	if len(msg) > maxReason {
		msg = msg[:maxReason] + " [...]"
	}
	return msg
}
