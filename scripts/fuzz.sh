#!/usr/bin/env bash
# Fuzzes openapi.yaml against a freshly started gateway with schemathesis; exits non-zero on any failure.
#   scripts/fuzz.sh [gateway binary]   (default .build/debug/gateway; needs .venv from scripts/bootstrap.sh)
# Environment: FUZZ_MAX_EXAMPLES (default 25).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

binary="${1:-.build/debug/gateway}"
work="$(mktemp -d)"
port="$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export GATEHOUSE_FUZZ_API_KEY="fuzz-key" GATEHOUSE_PROJECT_ID="demo-fuzz"

cat >"$work/config.json" <<JSON
{"apiKeys": ["$GATEHOUSE_FUZZ_API_KEY"], "anonymous": {"signUpsPerIPPerHour": 1000000}}
JSON

"$binary" serve --host 127.0.0.1 --port "$port" --data-dir "$work/data" --project-id "$GATEHOUSE_PROJECT_ID" \
  --config "$work/config.json" >"$work/gateway.log" 2>&1 &
gateway_pid=$!
stop_gateway() {
  if kill -0 "$gateway_pid" 2>/dev/null; then
    kill -TERM "$gateway_pid"
    wait "$gateway_pid" || true
  fi
  rm -rf "$work"
}
trap stop_gateway EXIT

for _ in $(seq 1 200); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null && break
  kill -0 "$gateway_pid" 2>/dev/null || { cat "$work/gateway.log"; echo "fuzz: gateway exited early" >&2; exit 1; }
  sleep 0.1
done
curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" || { echo "fuzz: gateway never became ready" >&2; exit 1; }

status=0
.venv/bin/schemathesis --config-file tests/schemathesis.toml run openapi.yaml \
  --url "http://127.0.0.1:$port" --checks all --max-examples "${FUZZ_MAX_EXAMPLES:-25}" \
  --workers 1 --request-timeout 10 || status=$?

if ! kill -0 "$gateway_pid" 2>/dev/null; then
  echo "fuzz: the gateway died during fuzzing" >&2
  tail -n 50 "$work/gateway.log" >&2
  exit 1
fi
kill -TERM "$gateway_pid"
gateway_status=0
wait "$gateway_pid" || gateway_status=$?
if ((gateway_status != 0)); then
  echo "fuzz: gateway exited with $gateway_status after SIGTERM" >&2
  status=1
fi
exit "$status"
