#!/bin/sh
# mini-swe-agent under the agent contract (docs/agents.md): the instruction
# is its task, model $OSBENCH_MODEL of the LM at $OSBENCH_LM (through
# litellm's openai/ provider) its model, its trajectory an artifact.
# litellm keeps to the cost map it ships (it would download one), cost is
# not tracked (a local model has no price), the first-run set-up is
# skipped, a command may take 10 minutes (mini's default is 30 s, less
# than a cold build on a busy machine, or a Windows run through Wine), and
# budget.steps ($OSBENCH_MAX_STEPS) is mini's step limit (0: none).
set -eu
: "${MINI_VENV:?set by the declaration}" "${OSBENCH_LM:?set by the declaration}" "${OSBENCH_MODEL:?set by the declaration}"
export OPENAI_API_BASE="$OSBENCH_LM" OPENAI_BASE_URL="$OSBENCH_LM" \
  LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_COST_TRACKING=ignore_errors MSWEA_CONFIGURED=true \
  MSWEA_GLOBAL_CONFIG_DIR="$HOME/.mini" MSWEA_SILENT_STARTUP=1 TERM=dumb NO_COLOR=1
exec "$MINI_VENV/bin/mini" --yolo --exit-immediately --model "openai/$OSBENCH_MODEL" \
  --config mini.yaml --config environment.timeout=600 --config "agent.step_limit=${OSBENCH_MAX_STEPS:-0}" \
  --task "$(cat "$OSBENCH_INSTRUCTION")" --output "$OSBENCH_ARTIFACTS/trajectory.json"
