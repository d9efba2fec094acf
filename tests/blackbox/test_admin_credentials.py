"""Who is an administrator of a production gateway, and what a backend's firebase-admin refuses.

Admin calls without credentials, with a forged service-account JWT, with `Bearer owner` outside emulator mode or from
a network that is not listed are refused; service-account access tokens work until the account is deleted; the
adapter verifies ID tokens and session cookies with their signatures checked and will not start with the emulator
variable set."""

from __future__ import annotations

import json
import os
import stat
import time

import firebase_admin
import google.auth.exceptions
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from firebase_admin import auth

import gatehouse_admin
from admin_sdk import (create_service_account, gateway_config, production_app, sign_in_with_custom_token_raw,
                       sign_in_with_password)
from harness import run_cli
from verbs import (IDENTITY, admin_post, assert_business_error, b64url_encode, jwt_claims, ok_json, post_json,
                   sign_up_anonymously, unsigned_token, with_claims)

TOKEN_PATH = "/oauth2.googleapis.com/token"
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"


def assert_unauthenticated(response: requests.Response) -> None:
    assert response.status_code == 401, response.text
    assert response.json()["error"]["status"] == "UNAUTHENTICATED"


def signed_assertion(key_file: dict, *, private_key=None, audience: str = "https://oauth2.googleapis.com/token") -> str:
    """A JWT-bearer assertion as google-auth makes it, signed with the key file's key or `private_key`."""
    import jwt  # PyJWT, pinned in tests/requirements.txt

    now = int(time.time())
    pem = (private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode()
           if private_key is not None else key_file["private_key"])
    claims = {"iss": key_file["client_email"], "aud": audience, "scope": "https://www.googleapis.com/auth/cloud-platform",
              "iat": now, "exp": now + 3600}
    return jwt.encode(claims, pem, algorithm="RS256", headers={"kid": key_file["private_key_id"]})


def grant(gw, assertion: str) -> requests.Response:
    return requests.post(gw.url(TOKEN_PATH), data={"grant_type": JWT_BEARER, "assertion": assertion}, timeout=10)


# ---------------------------------------------------------------- refusals on the wire

def test_no_credentials_and_unknown_bearers_are_refused(gw):
    path = f"{IDENTITY}/projects/{gw.project_id}/accounts:lookup"
    assert_unauthenticated(post_json(gw, path, {"localId": ["x"]}, key=None))
    for token in ["nope", "ya29.looks-like-google", "gha1.AAAA"]:
        assert_unauthenticated(admin_post(gw, "accounts:lookup", {"localId": ["x"]}, token=token))


def test_bearer_owner_is_refused_outside_emulator_mode_even_from_loopback(gw):
    assert_unauthenticated(admin_post(gw, "accounts:lookup", {"localId": ["x"]}, token="owner"))
    assert_unauthenticated(admin_post(gw, "accounts", {}, token="owner"))


def test_bearer_owner_only_from_listed_networks(make_gateway):
    listed = make_gateway(config={"trustedAdminNetworks": ["127.0.0.0/8"]})
    assert ok_json(admin_post(listed, "accounts:lookup", {"localId": ["x"]}, token="owner")) == {
        "kind": "identitytoolkit#GetAccountInfoResponse"}
    assert "Bearer owner is admin" in listed.log_text()
    elsewhere = make_gateway(config={"trustedAdminNetworks": ["10.0.0.0/8"]})
    assert_unauthenticated(admin_post(elsewhere, "accounts:lookup", {"localId": ["x"]}, token="owner"))


def test_bearer_owner_is_admin_in_emulator_mode(make_gateway):
    emu = make_gateway(config={"emulator": True})
    assert admin_post(emu, "accounts:lookup", {"localId": ["x"]}, token="owner").status_code == 200


def test_service_account_grant_gives_an_admin_access_token_until_the_account_is_deleted(make_gateway, tmp_path):
    gw = make_gateway(config=gateway_config(emulator=False))
    key_file = create_service_account(gw, "backend-grant", tmp_path / "sa.json")
    answer = ok_json(grant(gw, signed_assertion(key_file)))
    assert answer["token_type"] == "Bearer" and answer["expires_in"] == 3600
    token = answer["access_token"]
    assert admin_post(gw, "accounts:lookup", {"localId": ["x"]}, token=token).status_code == 200
    own_audience = signed_assertion(key_file, audience=gw.url(TOKEN_PATH))
    assert grant(gw, own_audience).status_code == 200
    done = run_cli("service-accounts", "delete", key_file["client_email"], "--data-dir", str(gw.data_dir))
    assert done.returncode == 0, done.stderr
    assert_unauthenticated(admin_post(gw, "accounts:lookup", {"localId": ["x"]}, token=token))
    assert grant(gw, signed_assertion(key_file)).json()["error"] == "invalid_grant"


def test_forged_service_account_jwt_is_refused(make_gateway, tmp_path):
    gw = make_gateway(config=gateway_config(emulator=False))
    key_file = create_service_account(gw, "backend-real", tmp_path / "sa.json")
    impostor = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = grant(gw, signed_assertion(key_file, private_key=impostor))
    assert forged.status_code == 400 and forged.json()["error"] == "invalid_grant"
    unsigned = unsigned_token({"iss": key_file["client_email"], "aud": "https://oauth2.googleapis.com/token",
                               "iat": int(time.time()), "exp": int(time.time()) + 60})
    assert grant(gw, unsigned).json()["error"] == "invalid_grant"
    stranger = dict(key_file, client_email="stranger@demo-blackbox.iam.gserviceaccount.com")
    assert grant(gw, signed_assertion(stranger)).json()["error"] == "invalid_grant"
    # firebase-admin with a key file whose private key is not the registered one gets no token at all.
    forged_file = dict(key_file, private_key=impostor.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode())
    app = gatehouse_admin.initialize_app(gw.base_url, forged_file, name="forged-key-file")
    try:
        with pytest.raises(google.auth.exceptions.RefreshError, match="invalid_grant"):
            auth.get_user("anyone", app=app)
    finally:
        firebase_admin.delete_app(app)


# ---------------------------------------------------------------- what the adapter verifies

@pytest.fixture
def production(make_gateway, monkeypatch, tmp_path):
    setup = production_app(make_gateway, monkeypatch, tmp_path)
    yield setup
    firebase_admin.delete_app(setup.app)


def test_forged_unsigned_id_token_is_refused(production):
    app, gw = production.app, production.gw
    account = sign_up_anonymously(gw)
    assert auth.verify_id_token(account["idToken"], app=app)["uid"] == account["localId"]
    forged = unsigned_token(dict(jwt_claims(account["idToken"]), sub="someone-else", user_id="someone-else"))
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(forged, app=app)
    # A real header and signature over altered claims fail the signature check.
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(with_claims(account["idToken"], sub="someone-else"), app=app)


def test_tokens_of_another_gateway_are_refused(production, make_gateway):
    stranger = make_gateway()
    foreign = sign_up_anonymously(stranger)["idToken"]
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(foreign, app=production.app)


def test_forged_session_cookie_is_refused(production):
    app, gw = production.app, production.gw
    auth.create_user(uid="cookie-owner", email="owner@example.com", password="secret-pass", app=app)
    session = sign_in_with_password(gw, "owner@example.com", "secret-pass")
    cookie = auth.create_session_cookie(session["idToken"], expires_in=600, app=app)
    assert auth.verify_session_cookie(cookie, app=app)["uid"] == "cookie-owner"
    with pytest.raises(auth.InvalidSessionCookieError):
        auth.verify_session_cookie(unsigned_token(dict(jwt_claims(cookie), sub="x")), app=app)
    with pytest.raises(auth.InvalidSessionCookieError):
        auth.verify_session_cookie(with_claims(cookie, sub="x"), app=app)
    # An ID token is not a session cookie, nor the reverse.
    with pytest.raises(auth.InvalidSessionCookieError):
        auth.verify_session_cookie(session["idToken"], app=app)
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(cookie, app=app)


def test_unsigned_custom_tokens_and_other_projects_tokens_are_refused(production, make_gateway, tmp_path):
    app, gw = production.app, production.gw
    unsigned = unsigned_token({"iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com",
                               "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
                               "uid": "intruder", "iat": int(time.time()), "exp": int(time.time()) + 600})
    assert_business_error(sign_in_with_custom_token_raw(gw, unsigned), "INVALID_CUSTOM_TOKEN")
    other = make_gateway()
    other_key = create_service_account(other, "other-backend", tmp_path / "other.json")
    other_app = gatehouse_admin.initialize_app(other.base_url, other_key, name="other-gateway")
    try:
        foreign = auth.create_custom_token("intruder", app=other_app)
        assert_business_error(sign_in_with_custom_token_raw(gw, foreign), "CREDENTIAL_MISMATCH")
    finally:
        firebase_admin.delete_app(other_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("intruder", app=app)


def test_adapter_refuses_the_emulator_variable_and_plain_http_to_other_hosts(make_gateway, monkeypatch, tmp_path):
    gw = make_gateway()
    key_file = create_service_account(gw, "backend-guard", tmp_path / "sa.json")
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", gw.host_port)
    with pytest.raises(gatehouse_admin.GatewayConfigurationError, match="FIREBASE_AUTH_EMULATOR_HOST"):
        gatehouse_admin.initialize_app(gw.base_url, key_file, name="guarded")
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST")
    with pytest.raises(gatehouse_admin.GatewayConfigurationError, match="plain HTTP"):
        gatehouse_admin.initialize_app("http://auth.example.com", key_file, name="guarded")
    assert "guarded" not in firebase_admin._apps


def test_with_the_emulator_variable_firebase_admin_accepts_forged_tokens(make_gateway, monkeypatch):
    """Why the emulator variable must never be set in production: firebase-admin then skips signatures."""
    gw = make_gateway(config={"emulator": True})
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", gw.host_port)
    app = firebase_admin.initialize_app(options={"projectId": gw.project_id}, name="emulated-verifier")
    try:
        forged = unsigned_token({"iss": f"https://securetoken.google.com/{gw.project_id}", "aud": gw.project_id,
                                 "sub": "anyone-at-all", "iat": int(time.time()), "exp": int(time.time()) + 600})
        assert auth.verify_id_token(forged, app=app)["uid"] == "anyone-at-all"
    finally:
        firebase_admin.delete_app(app)


# ---------------------------------------------------------------- the CLI

def test_cli_writes_a_private_google_format_key_file_and_registers_certificates(make_gateway, tmp_path):
    gw = make_gateway()
    path = tmp_path / "sa.json"
    key_file = create_service_account(gw, "cli-backend", path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert key_file["type"] == "service_account" and key_file["project_id"] == gw.project_id
    assert key_file["client_email"] == f"cli-backend@{gw.project_id}.iam.gserviceaccount.com"
    assert key_file["token_uri"] == gw.url(TOKEN_PATH)
    assert key_file["private_key"].startswith("-----BEGIN PRIVATE KEY-----")
    again = run_cli("service-accounts", "create", "cli-backend", "--key-file", str(path), "--data-dir", str(gw.data_dir))
    assert again.returncode != 0 and "exists" in again.stderr
    # An existing (e.g. Google) service account: its public certificate and key id.
    external = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = external.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    (tmp_path / "ext.pem").write_bytes(pem)
    email = "legacy-backend@some-project.iam.gserviceaccount.com"
    done = run_cli("service-accounts", "register", email, "--certificate", str(tmp_path / "ext.pem"), "--key-id", "ext-1",
                   "--data-dir", str(gw.data_dir))
    assert done.returncode == 0, done.stderr
    listed = run_cli("service-accounts", "list", "--data-dir", str(gw.data_dir)).stdout
    assert email in listed and key_file["client_email"] in listed
    ext_key = {"client_email": email, "private_key_id": "ext-1"}
    assert grant(gw, signed_assertion(ext_key, private_key=external)).status_code == 200
    bad = run_cli("service-accounts", "register", "x@y.z", "--certificate", str(path), "--data-dir", str(gw.data_dir))
    assert bad.returncode != 0
