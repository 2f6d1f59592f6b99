#!/bin/sh
# mini-swe-agent under the agent contract (docs/agents.md): the instruction
# is its task, model $OSBENCH_MODEL of the LM at $OSBENCH_LM (through
# litellm's openai/ provider) its model, its trajectory an artifact.
# litellm keeps to the cost map it ships (it would download one), a model
# it has no price for costs 0 (a local model), the first-run set-up is
# skipped, a command may take 10 minutes (mini's default is 30 s, less
# than a cold build on a busy machine, or a Windows run through Wine),
# budget.steps ($OSBENCH_MAX_STEPS) is mini's step limit (0: none) and
# budget.cost ($OSBENCH_MAX_COST) its cost limit (unset: mini's default).
# mini saves its trajectory after every step; while it runs, its model
# calls and cost so far are reported to osbench ($OSBENCH_USAGE) from it,
# every few seconds and once at the end.
set -eu
: "${MINI_VENV:?set by the declaration}" "${OSBENCH_LM:?set by the declaration}" "${OSBENCH_MODEL:?set by the declaration}"
export OPENAI_API_BASE="$OSBENCH_LM" OPENAI_BASE_URL="$OSBENCH_LM" \
  LITELLM_LOCAL_MODEL_COST_MAP=True MSWEA_COST_TRACKING=ignore_errors MSWEA_CONFIGURED=true \
  MSWEA_GLOBAL_CONFIG_DIR="$HOME/.mini" MSWEA_SILENT_STARTUP=1 TERM=dumb NO_COLOR=1
trajectory="$OSBENCH_ARTIFACTS/trajectory.json"
last=
report() {
  [ -n "${OSBENCH_USAGE:-}" ] || return 0
  line=$("$MINI_VENV/bin/python" -c 'import json,sys
try: s = json.load(open(sys.argv[1]))["info"]["model_stats"]
except Exception: sys.exit(0)
print(json.dumps({"steps": s["api_calls"], "cost_usd": s["instance_cost"]}))' "$trajectory") || return 0
  if [ -n "$line" ] && [ "$line" != "$last" ]; then
    echo "$line" >> "$OSBENCH_USAGE"
    last=$line
  fi
}
"$MINI_VENV/bin/mini" --yolo --exit-immediately --model "openai/$OSBENCH_MODEL" \
  --config mini.yaml --config environment.timeout=600 --config "agent.step_limit=${OSBENCH_MAX_STEPS:-0}" \
  ${OSBENCH_MAX_COST:+--config} ${OSBENCH_MAX_COST:+agent.cost_limit=$OSBENCH_MAX_COST} \
  --task "$(cat "$OSBENCH_INSTRUCTION")" --output "$trajectory" &
mini=$!
while kill -0 "$mini" 2>/dev/null; do
  report
  sleep 3
done
status=0
wait "$mini" || status=$?
report
exit "$status"
