#!/usr/bin/env bash
# Builds the release gateway and runs it in the foreground.
#   scripts/serve.sh [serve flags...]   e.g. scripts/serve.sh --port 9199 --config gatehouse.json
# With no flags the gateway's own defaults apply: 127.0.0.1:9099, data in ./gatehouse-data.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

scripts/bootstrap.sh --system-only
swift build -c release --product gateway
exec .build/release/gateway serve "$@"
