"""firebase-admin (Python) pointed at a gateway in the two supported ways, for the admin-API suites.

* emulator mode: an unmodified firebase-admin with FIREBASE_AUTH_EMULATOR_HOST against `gateway serve --emulator`
  (`Bearer owner`, no signature checks in the SDK), as app test suites use it;
* production mode: the `gatehouse_admin` adapter (clients/python) against a normal gateway, with a service
  account the CLI created: access tokens from the gateway's token endpoint, signatures checked.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import firebase_admin

import gatehouse_admin
from email_verbs import CHEAP_SCRYPT
from harness import Gateway, run_cli
from verbs import IDENTITY, LEGACY, ok_json, post_json

_app_names = itertools.count()


@dataclass
class AdminSetup:
    """A firebase-admin app and the gateway it talks to."""

    app: firebase_admin.App
    gw: Gateway
    mode: str  # "emulator" or "production"


def gateway_config(emulator: bool) -> dict:
    return {"emulator": emulator, "email": {"scrypt": CHEAP_SCRYPT}}


def create_service_account(gw: Gateway, name: str, key_file: Path) -> dict:
    """`gateway service-accounts create` against the gateway's database; returns the key file's contents."""
    done = run_cli("service-accounts", "create", name, "--key-file", str(key_file), "--data-dir", str(gw.data_dir),
                   "--project-id", gw.project_id, "--gateway-url", gw.base_url)
    assert done.returncode == 0, done.stderr
    return json.loads(key_file.read_text())


def emulator_app(make_gateway, monkeypatch) -> AdminSetup:
    gw = make_gateway(config=gateway_config(emulator=True))
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", gw.host_port)
    app = firebase_admin.initialize_app(options={"projectId": gw.project_id}, name=f"emu-{next(_app_names)}")
    return AdminSetup(app, gw, "emulator")


def production_app(make_gateway, monkeypatch, tmp_path) -> AdminSetup:
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    gw = make_gateway(config=gateway_config(emulator=False))
    key_file = tmp_path / "backend.json"
    create_service_account(gw, "backend-app", key_file)
    app = gatehouse_admin.initialize_app(gw.base_url, key_file, name=f"prod-{next(_app_names)}")
    return AdminSetup(app, gw, "production")


def sign_in_with_password(gw: Gateway, email: str, password: str) -> dict:
    return ok_json(post_json(gw, IDENTITY + "/accounts:signInWithPassword",
                             {"email": email, "password": password, "returnSecureToken": True}))


def sign_in_with_custom_token_raw(gw: Gateway, token: str | bytes, *, legacy: bool = False):
    path = LEGACY + "/verifyCustomToken" if legacy else IDENTITY + "/accounts:signInWithCustomToken"
    token = token.decode() if isinstance(token, bytes) else token
    return post_json(gw, path, {"token": token, "returnSecureToken": True})


def sign_in_with_custom_token(gw: Gateway, token: str | bytes, **kwargs) -> dict:
    return ok_json(sign_in_with_custom_token_raw(gw, token, **kwargs))
