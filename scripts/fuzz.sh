#!/usr/bin/env bash
# Fuzzes openapi.yaml with schemathesis against two freshly started gateways, one plain and one in emulator mode
# (the emulator-only operations are fuzzed on the second; on the first they must answer 404); exits non-zero on
# any failure.
#   scripts/fuzz.sh [gateway binary]   (default .build/debug/gateway; needs .venv from scripts/bootstrap.sh)
# Environment: FUZZ_MAX_EXAMPLES (default 25).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

binary="${1:-.build/debug/gateway}"
work="$(mktemp -d)"
export GATEHOUSE_FUZZ_API_KEY="fuzz-key" GATEHOUSE_PROJECT_ID="demo-fuzz" GATEHOUSE_FUZZ_ADMIN_TOKEN="fuzz-admin-token-0123456789"

# Served only with `"emulator": true`; a plain gateway has no such routes.
emulator_operations=(emulator.projects.config.get emulator.projects.config.update emulator.projects.accounts.delete)
emulator_paths=(
  "GET /emulator/v1/projects/$GATEHOUSE_PROJECT_ID/config"
  "PATCH /emulator/v1/projects/$GATEHOUSE_PROJECT_ID/config"
  "DELETE /emulator/v1/projects/$GATEHOUSE_PROJECT_ID/accounts"
)

gateway_pid=""
stop_gateway() {
  if [[ -n "$gateway_pid" ]] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill -TERM "$gateway_pid"
    wait "$gateway_pid" || true
  fi
  gateway_pid=""
}
cleanup() {
  stop_gateway
  rm -rf "$work"
}
trap cleanup EXIT

# start_gateway NAME EMULATOR(true|false): starts a gateway with its own data directory; sets gateway_pid, port.
start_gateway() {
  local name="$1" emulator="$2"
  mkdir -p "$work/$name"
  port="$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  cat >"$work/$name/config.json" <<JSON
{"apiKeys": ["$GATEHOUSE_FUZZ_API_KEY"], "adminTokens": ["$GATEHOUSE_FUZZ_ADMIN_TOKEN"],
 "anonymous": {"signUpsPerIPPerHour": 1000000}, "emulator": $emulator}
JSON
  "$binary" serve --host 127.0.0.1 --port "$port" --data-dir "$work/$name/data" --project-id "$GATEHOUSE_PROJECT_ID" \
    --config "$work/$name/config.json" >"$work/$name/gateway.log" 2>&1 &
  gateway_pid=$!
  for _ in $(seq 1 200); do
    curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null && return 0
    kill -0 "$gateway_pid" 2>/dev/null || { cat "$work/$name/gateway.log"; echo "fuzz: $name gateway exited early" >&2; exit 1; }
    sleep 0.1
  done
  curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" || { echo "fuzz: $name gateway never became ready" >&2; exit 1; }
}

# finish_gateway NAME: fails the run if the gateway died while fuzzing or does not exit cleanly on SIGTERM.
finish_gateway() {
  local name="$1" gateway_status=0
  if ! kill -0 "$gateway_pid" 2>/dev/null; then
    echo "fuzz: the $name gateway died during fuzzing" >&2
    tail -n 50 "$work/$name/gateway.log" >&2
    exit 1
  fi
  kill -TERM "$gateway_pid"
  wait "$gateway_pid" || gateway_status=$?
  gateway_pid=""
  if ((gateway_status != 0)); then
    echo "fuzz: the $name gateway exited with $gateway_status after SIGTERM" >&2
    status=1
  fi
}

# Every built-in check is on by default; tests/schemathesis.toml switches off the few that contradict the
# Firebase wire contract, per operation (passing --checks all would override those per-operation settings).
run_schemathesis() {
  .venv/bin/schemathesis --config-file tests/schemathesis.toml run openapi.yaml \
    --url "http://127.0.0.1:$port" --max-examples "${FUZZ_MAX_EXAMPLES:-25}" \
    --workers 1 --request-timeout 10 "$@" || status=$?
}

status=0

echo "fuzz: plain gateway (emulator-only operations excluded)"
start_gateway plain false
excluded=()
for operation in "${emulator_operations[@]}"; do excluded+=(--exclude-operation-id "$operation"); done
run_schemathesis "${excluded[@]}"
for route in "${emulator_paths[@]}"; do
  method="${route%% *}" body=()
  [[ "$method" == PATCH ]] && body=(-H 'Content-Type: application/json' --data-binary '{}')
  answer="$(curl -sS -o /dev/null -w '%{http_code}' -X "$method" "${body[@]}" "http://127.0.0.1:$port${route#* }")"
  if [[ "$answer" != 404 ]]; then
    echo "fuzz: a plain gateway answered $answer (not 404) to the emulator-only route $route" >&2
    status=1
  fi
done
finish_gateway plain

echo "fuzz: emulator-mode gateway (all operations)"
start_gateway emulator true
run_schemathesis
finish_gateway emulator

exit "$status"
