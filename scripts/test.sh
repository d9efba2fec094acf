#!/usr/bin/env bash
# Everything CI checks, in order: warning-free build, Swift tests, black-box tests, API fuzzing.
# Exits non-zero if any step fails; the last line is a step summary.
#
# The PostgreSQL store tests need a server: when GATEHOUSE_TEST_POSTGRES_URL is not set (a developer's
# machine), a throwaway cluster is started here (scripts/postgres.sh) and stopped at the end; `.ci/run`
# starts its own and passes it in. Either way the tests require it (GATEHOUSE_REQUIRE_POSTGRES=1).
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

logs=.build/test-logs
passed=0
failed=0
failed_steps=()

step() {
  local name=$1; shift
  printf '\n==> %s\n' "$name"
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failed_steps+=("$name")
  fi
}

finish() {
  printf '\n'
  ((failed > 0)) && printf 'failed steps: %s\n' "${failed_steps[*]}"
  printf 'steps: %d passed, %d failed\n' "$passed" "$failed"
  if ((failed > 0)); then exit 1; fi
  exit 0
}

build_without_warnings() {
  mkdir -p "$logs"
  swift build --build-tests 2>&1 | tee "$logs/build.log"
  local build_status=${PIPESTATUS[0]}
  ((build_status == 0)) || return "$build_status"
  if grep -E '(Sources|Tests)/[^:]*:[0-9]+:[0-9]+: warning:' "$logs/build.log"; then
    echo "test: the build above has compiler warnings in Sources/ or Tests/" >&2
    return 1
  fi
  # GatehouseAuthTests start these two processes during `swift test --skip-build`.
  local binary
  for binary in .build/debug/gateway .build/debug/GatehouseAuthTLSProbe; do
    [[ -x "$binary" ]] || { echo "test: the build made no $binary (the Swift client tests run it)" >&2; return 1; }
  done
}

blackbox() {
  GATEHOUSE_BIN="$repo_root/.build/debug/gateway" .venv/bin/python -m pytest tests/blackbox -q
}

scripts/bootstrap.sh || { echo "test: bootstrap failed" >&2; exit 1; }

if [[ -z "${GATEHOUSE_TEST_POSTGRES_URL:-}" ]]; then
  own_cluster="$(mktemp -d /tmp/gatehouse-test-postgres.XXXXXX)"
  stop_own_cluster() {
    scripts/postgres.sh stop "$own_cluster" >/dev/null 2>&1 || true
    rm -rf "$own_cluster"
  }
  trap stop_own_cluster EXIT
  GATEHOUSE_TEST_POSTGRES_URL="$(scripts/postgres.sh start "$own_cluster")" \
    || { echo "test: could not start a PostgreSQL cluster (see $own_cluster/server.log)" >&2; exit 1; }
  export GATEHOUSE_TEST_POSTGRES_URL GATEHOUSE_TEST_POSTGRES_DIR="$own_cluster"
fi
export GATEHOUSE_REQUIRE_POSTGRES=1

step "build (zero warnings)" build_without_warnings
if ((failed > 0)); then
  finish
fi
step "swift test" swift test --skip-build
step "gateway binary" swift build --product gateway
step "black-box tests" blackbox
step "API fuzzing (schemathesis)" scripts/fuzz.sh .build/debug/gateway
finish
