"""firebase-admin (Python) against the gateway, in emulator mode and with real RS256 verification."""

from __future__ import annotations

import itertools

import firebase_admin
import pytest
from firebase_admin import auth

from verbs import X509_PATH, assert_business_error, jwt_claims, refresh_raw, sign_up_anonymously

_app_names = itertools.count()


@pytest.fixture
def admin_app(gw, monkeypatch):
    """A firebase-admin app whose auth client talks to the gateway (the variable is read on first use)."""
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", gw.host_port)
    app = firebase_admin.initialize_app(options={"projectId": gw.project_id}, name=f"blackbox-{next(_app_names)}")
    yield app
    firebase_admin.delete_app(app)


def test_get_user_returns_the_anonymous_user(admin_app, gw):
    uid = sign_up_anonymously(gw)["localId"]
    user = auth.get_user(uid, app=admin_app)
    assert user.uid == uid
    assert user.email is None
    assert user.provider_data == []
    assert user.disabled is False
    assert user.user_metadata.creation_timestamp > 0
    assert user.user_metadata.last_sign_in_timestamp >= user.user_metadata.creation_timestamp - 1000


def test_delete_user_then_get_user_raises_not_found(admin_app, gw):
    uid = sign_up_anonymously(gw)["localId"]
    auth.delete_user(uid, app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(uid, app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.delete_user(uid, app=admin_app)


def test_get_user_of_unknown_uid_raises_not_found(admin_app):
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("no-such-uid", app=admin_app)


def test_verify_id_token_in_emulator_mode(admin_app, gw):
    account = sign_up_anonymously(gw)
    claims = auth.verify_id_token(account["idToken"], app=admin_app)
    assert claims["uid"] == account["localId"]


def test_non_emulated_verify_id_token_checks_rs256_against_gateway_keys(admin_app, gw, monkeypatch):
    account = sign_up_anonymously(gw)
    verifier = auth._get_client(admin_app)._token_verifier.id_token_verifier
    verifier.cert_url = gw.url(X509_PATH)
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST")

    claims = auth.verify_id_token(account["idToken"], app=admin_app)
    assert claims["uid"] == account["localId"]
    assert claims["firebase"]["sign_in_provider"] == "anonymous"

    header, payload, signature = account["idToken"].split(".")
    forged_signature = ("A" if signature[0] != "A" else "B") + signature[1:]
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(f"{header}.{payload}.{forged_signature}", app=admin_app)


def test_revoke_refresh_tokens_ends_the_refresh_token_at_once(admin_app, gw):
    # Signed up and revoked within the same second on (nearly) every try: the refresh token must die anyway.
    for _ in range(5):
        account = sign_up_anonymously(gw)
        auth.revoke_refresh_tokens(account["localId"], app=admin_app)
        assert_business_error(refresh_raw(gw, account["refreshToken"]), "TOKEN_EXPIRED")
        valid_after = auth.get_user(account["localId"], app=admin_app).tokens_valid_after_timestamp
        assert valid_after // 1000 >= jwt_claims(account["idToken"])["iat"]
