# mini-swe-agent (PyPI 2.4.6; `make tools` installs it in a venv) on any
# server that speaks the OpenAI chat completions API. Set OSBENCH_MINI_VENV
# (the venv, e.g. ~/.cache/osbench-tools/mini-swe-agent-2.4.6),
# OSBENCH_LM_ENDPOINT (host:port) and OSBENCH_LM_URL (its base URL, …/v1),
# OSBENCH_MODEL, and OPENAI_API_KEY, which reaches the agent by name only.
agent "mini" {
  command    = ["mini.sh"]
  files      = ["mini.sh"]
  env        = { MINI_VENV = env("OSBENCH_MINI_VENV"), OSBENCH_LM = env("OSBENCH_LM_URL"), OSBENCH_MODEL = env("OSBENCH_MODEL") }
  secret_env = ["OPENAI_API_KEY"]
  budget {
    wall  = "5h"
    steps = 100
  }
  network {
    allow = [env("OSBENCH_LM_ENDPOINT")]
  }
}
