# The Codex CLI (npm @openai/codex 0.171.0; `make tools` installs it from
# scripts/codex/package-lock.json) on any server that speaks the OpenAI
# Responses API. Set OSBENCH_CODEX_DIR (the npm prefix, e.g.
# ~/.cache/osbench-tools/codex-0.171.0), OSBENCH_LM_ENDPOINT (host:port)
# and OSBENCH_LM_URL (its base URL, …/v1), OSBENCH_MODEL, and
# OPENAI_API_KEY, which reaches the agent by name only.
agent "codex" {
  command    = ["codex.sh"]
  files      = ["codex.sh"]
  env        = { CODEX_DIR = env("OSBENCH_CODEX_DIR"), OSBENCH_LM = env("OSBENCH_LM_URL"), OSBENCH_MODEL = env("OSBENCH_MODEL") }
  secret_env = ["OPENAI_API_KEY"]
  budget {
    wall  = "5h"
    steps = 100
  }
  network {
    allow = [env("OSBENCH_LM_ENDPOINT")]
  }
}
