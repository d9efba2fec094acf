"""ID tokens verify against the gateway's published keys with google-auth, and tampering is caught."""

from __future__ import annotations

import google.oauth2.id_token as google_id_token
import jwt
import pytest
from google.auth.transport.requests import Request

from verbs import JWKS_PATH, X509_PATH, sign_up_anonymously, with_claims


@pytest.fixture
def token_and_uid(gw):
    account = sign_up_anonymously(gw)
    return account["idToken"], account["localId"]


def test_verifies_through_the_x509_certificate_map(gw, token_and_uid):
    token, uid = token_and_uid
    claims = google_id_token.verify_token(token, Request(), audience=gw.project_id, certs_url=gw.url(X509_PATH))
    assert claims["sub"] == uid


def test_verifies_through_the_jwks(gw, token_and_uid):
    token, uid = token_and_uid
    claims = google_id_token.verify_token(token, Request(), audience=gw.project_id, certs_url=gw.url(JWKS_PATH))
    assert claims["sub"] == uid


def test_verify_firebase_token_with_patched_certs_url(gw, token_and_uid, monkeypatch):
    token, uid = token_and_uid
    monkeypatch.setattr(google_id_token, "_GOOGLE_APIS_CERTS_URL", gw.url(X509_PATH))
    claims = google_id_token.verify_firebase_token(token, Request(), audience=gw.project_id)
    assert claims["user_id"] == uid


def test_tampered_token_fails_on_the_x509_path(gw, token_and_uid):
    tampered = with_claims(token_and_uid[0], sub="someone-else", user_id="someone-else")
    with pytest.raises(ValueError):
        google_id_token.verify_token(tampered, Request(), audience=gw.project_id, certs_url=gw.url(X509_PATH))


def test_tampered_token_fails_on_the_jwks_path(gw, token_and_uid):
    tampered = with_claims(token_and_uid[0], sub="someone-else", user_id="someone-else")
    with pytest.raises(jwt.exceptions.InvalidSignatureError):
        google_id_token.verify_token(tampered, Request(), audience=gw.project_id, certs_url=gw.url(JWKS_PATH))


def test_wrong_audience_fails(gw, token_and_uid):
    with pytest.raises(ValueError):
        google_id_token.verify_token(token_and_uid[0], Request(), audience="another-project",
                                     certs_url=gw.url(X509_PATH))
