package fakelm

// MiniSWEAgentVersion is the mini-swe-agent release `make tools` installs
// from PyPI.
const MiniSWEAgentVersion = "2.4.6"

// MiniArgs are the arguments that run mini-swe-agent's `mini` on task
// without a terminal: no confirmations, no prompt at the end, the
// trajectory written to traj, the fake's model of that name.
func MiniArgs(model, task, traj string) []string {
	return []string{"--yolo", "--exit-immediately", "--model", "openai/" + model, "--task", task, "--output", traj}
}

// MiniEnv points mini-swe-agent (and litellm under it) at an OpenAI API
// base URL and keeps it off everything else: litellm's model cost map is
// the one it ships (it downloads a fresh one by default), cost is not
// tracked (the fake model has no price), the first-run set-up is skipped
// and its configuration lives in home.
func MiniEnv(apiBase, home string) []string {
	return []string{
		"OPENAI_API_BASE=" + apiBase, "OPENAI_BASE_URL=" + apiBase, "OPENAI_API_KEY=fake",
		"LITELLM_LOCAL_MODEL_COST_MAP=True", "MSWEA_COST_TRACKING=ignore_errors",
		"MSWEA_CONFIGURED=true", "MSWEA_GLOBAL_CONFIG_DIR=" + home, "MSWEA_SILENT_STARTUP=1",
		"HOME=" + home, "TERM=dumb", "NO_COLOR=1",
	}
}
