package fakelm

import (
	"os"
	"path/filepath"
)

// CodexVersion is the @openai/codex release `make tools` installs from npm
// (by the lock file scripts/codex/package-lock.json, integrity checked).
const CodexVersion = "0.171.0"

// Codex finds the pinned Codex CLI that `make tools` installs
// (OSBENCH_CODEX, else its place in the tools cache); "" when it is not
// installed.
func Codex() string {
	if p := os.Getenv("OSBENCH_CODEX"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, ".cache", "osbench-tools", "codex-"+CodexVersion, "node_modules", ".bin", "codex")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// CodexArgs are the arguments that run `codex exec` on task without a
// terminal against a Responses API at base (…/v1): no approvals and no
// sandbox of its own (osbench's is the sandbox), no session files kept,
// commands in a plain shell (a login shell's profile resets PATH), nothing
// that phones home (analytics, plugin and app sync reach github.com and
// chatgpt.com), the fake's model of that name, its last message written
// to last.
func CodexArgs(base, model, task, last string) []string {
	return []string{
		"exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--ephemeral",
		"--color", "never", "--model", model, "--output-last-message", last,
		"-c", "model_provider=fake", "-c", "allow_login_shell=false", "-c", "check_for_update_on_startup=false",
		"-c", "analytics.enabled=false", "--disable", "plugins", "--disable", "apps",
		"-c", `model_providers.fake={name="fake",base_url="` + base + `",wire_api="responses",env_key="OSBENCH_FAKE_KEY"}`,
		task,
	}
}

// CodexEnv keeps Codex's state in home and gives it the fake's key.
func CodexEnv(home string) []string {
	return []string{"CODEX_HOME=" + home, "HOME=" + home, "OSBENCH_FAKE_KEY=fake", "TERM=dumb", "NO_COLOR=1"}
}
