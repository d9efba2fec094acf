#!/usr/bin/env bash
# Installs what building, serving and testing Gatehouse need on Debian 12, and nothing twice.
#   scripts/bootstrap.sh                 system packages + .venv (test clients, pinned in tests/requirements.txt)
#   scripts/bootstrap.sh --system-only   system packages only (enough to build and serve)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

system_only=false
[[ "${1:-}" == "--system-only" ]] && system_only=true

packages=(libssl-dev libcrypt-dev libsqlite3-dev libcurl4-openssl-dev libpq-dev pkg-config python3-venv curl wrk sqlite3 postgresql)

say() { printf 'bootstrap: %s\n' "$*"; }

install_missing_packages() {
  local missing=() pkg
  for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if ((${#missing[@]} == 0)); then
    return
  fi
  if ! command -v apt-get >/dev/null; then
    say "missing packages ${missing[*]} and no apt-get: install them by hand" >&2
    exit 1
  fi
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || { say "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  say "installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

check_swift() {
  if ! command -v swift >/dev/null; then
    if [[ -x /opt/swift/usr/bin/swift ]]; then
      say "swift is at /opt/swift/usr/bin but not on PATH: export PATH=/opt/swift/usr/bin:\$PATH" >&2
    else
      say "swift is not on PATH; install the Swift 6 toolchain for Debian 12 (swift.org) and add its usr/bin to PATH" >&2
    fi
    exit 1
  fi
}

create_venv() {
  local requirements=tests/requirements.txt stamp=.venv/.requirements.sha256 wanted
  wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
  if [[ -x .venv/bin/python && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
    return
  fi
  say "creating .venv from $requirements"
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check -r "$requirements"
  echo "$wanted" >"$stamp"
}

install_missing_packages
check_swift
$system_only || create_venv
say "ready"
