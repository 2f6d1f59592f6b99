#!/bin/sh
# The Codex CLI under the agent contract (docs/agents.md): the instruction
# is its prompt; model $OSBENCH_MODEL of the Responses API at $OSBENCH_LM
# (a provider of its own, the key from OPENAI_API_KEY) its model; its state
# in a home of its own; no sandbox nor approvals of its own (osbench's
# sandbox is the sandbox); its events (JSON lines) on stdout and its last
# message an artifact. Its commands run in a plain shell (a login shell's
# profile would reset PATH, and osbench-target and the toolchain are on
# it), and nothing phones home: no update check, no analytics, no plugin
# or app sync (they would reach github.com and chatgpt.com, which the
# proxy refuses and egress.log lists).
set -eu
: "${CODEX_DIR:?set by the declaration}" "${OSBENCH_LM:?set by the declaration}" "${OSBENCH_MODEL:?set by the declaration}"
export CODEX_HOME="$HOME/.codex" TERM=dumb NO_COLOR=1
mkdir -p "$CODEX_HOME"
exec "$CODEX_DIR/node_modules/.bin/codex" exec --skip-git-repo-check \
  --dangerously-bypass-approvals-and-sandbox --ephemeral --color never --json \
  --model "$OSBENCH_MODEL" --output-last-message "$OSBENCH_ARTIFACTS/last-message.txt" \
  -c model_provider=osbench -c allow_login_shell=false -c check_for_update_on_startup=false \
  -c analytics.enabled=false --disable plugins --disable apps \
  -c "model_providers.osbench={name=\"osbench\",base_url=\"$OSBENCH_LM\",wire_api=\"responses\",env_key=\"OPENAI_API_KEY\"}" \
  "$(cat "$OSBENCH_INSTRUCTION")"
