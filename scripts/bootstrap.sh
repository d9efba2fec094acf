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
# Only the tests need these: nginx with a throwaway certificate in front of a gateway, systemd-analyze for the unit,
# chromium for the JS SDK's popup and redirect sign-in.
$system_only || packages+=(nginx openssl systemd chromium)

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

# The Firebase JS SDK for the browser tests of popup sign-in: a registry package that bundles a build of it
# (firebase 11.3.1 inside a small web component), fetched without its dependencies and checked by hash.
firebase_js_wheel=streamlit_firebase_auth-1.1.6-py3-none-any.whl
firebase_js_sha256=ff14e3ad27d05c0ea7ee9e93bc67ade1c77089d561ab18f30aed4f6bf9f34e7b
fetch_firebase_js() {
  local dir=.venv/firebase-js
  if [[ -f "$dir/$firebase_js_wheel" ]] && echo "$firebase_js_sha256  $dir/$firebase_js_wheel" | sha256sum -c --quiet; then
    return
  fi
  say "fetching the Firebase JS SDK bundle ($firebase_js_wheel)"
  .venv/bin/python -m pip download -q --disable-pip-version-check --no-deps -d "$dir" streamlit-firebase-auth==1.1.6
  echo "$firebase_js_sha256  $dir/$firebase_js_wheel" | sha256sum -c --quiet
}

install_missing_packages
check_swift
$system_only || { create_venv; fetch_firebase_js; }
say "ready"
