"""Google sign-in (`google.com`): the OpenID Connect provider with Google's settings built in, against a
stand-in for Google's endpoints (the issuer stays `accounts.google.com`)."""

from __future__ import annotations

import sqlite3
import time
from urllib.parse import parse_qs, urlparse

import firebase_admin
import requests
from firebase_admin import auth

import gatehouse_admin
from admin_sdk import create_service_account
from test_oidc import sign_in_raw
from verbs import IDENTITY, admin_post, assert_business_error, ok_json, post_json


def test_id_token_with_either_issuer_and_gmail_linking(make_gateway, google_idp, oidc_idp):
    gw = make_gateway(config={"google": google_idp.google_section(),
                              "oidc": {"providers": [oidc_idp.provider_entry("oidc.corp")]}})
    user = ok_json(sign_in_raw(gw, "google.com", id_token=google_idp.id_token(sub="1001", email="ada@gmail.com")))
    assert user["providerId"] == "google.com" and user["federatedId"] == "https://accounts.google.com/1001" and user["emailVerified"] is True
    short = google_idp.id_token(sub="1002", iss="accounts.google.com")
    assert ok_json(sign_in_raw(gw, "google.com", id_token=short))["federatedId"] == "https://accounts.google.com/1002"
    assert_business_error(sign_in_raw(gw, "google.com", id_token=google_idp.id_token(sub="x", iss="https://evil.example")),
                          "INVALID_IDP_RESPONSE : id_token issuer is not Google")
    assert_business_error(sign_in_raw(gw, "google.com", id_token=google_idp.id_token(sub="x", aud="another.apps.googleusercontent.com")),
                          "INVALID_IDP_RESPONSE : id_token audience is not a configured client ID")
    # gmail: Google owns the mailbox, so a verified gmail address links to the account that has it.
    owner = ok_json(sign_in_raw(gw, "oidc.corp", id_token=oidc_idp.id_token(sub="corp-1", email="grace@gmail.com")))
    linked = ok_json(sign_in_raw(gw, "google.com", id_token=google_idp.id_token(sub="1003", email="grace@gmail.com")))
    assert linked["localId"] == owner["localId"]
    # Another domain on a Google account: verified once by Google, but Google is not its mail host.
    other = ok_json(sign_in_raw(gw, "oidc.corp", id_token=oidc_idp.id_token(sub="corp-2", email="bob@corp.example")))
    attempt = ok_json(sign_in_raw(gw, "google.com", id_token=google_idp.id_token(sub="1004", email="bob@corp.example")))
    assert attempt["needConfirmation"] is True and attempt["localId"] == other["localId"]


def test_a_nonce_claim_is_checked_only_when_a_raw_nonce_is_sent(make_gateway, google_idp, oidc_idp):
    """Google Sign-In for iOS puts its own nonce in the token; Firebase's Android (`getCredential(idToken, null)`)
    and JS (`GoogleAuthProvider.credential(idToken)`) SDKs send no raw nonce. Other OIDC providers keep
    "both or neither"."""
    gw = make_gateway(config={"google": google_idp.google_section(),
                              "oidc": {"providers": [oidc_idp.provider_entry("oidc.corp")]}})
    raw = "raw-nonce-" + "0123456789abcdef"
    unsent = google_idp.id_token(sub="5001", nonce=raw)
    assert ok_json(sign_in_raw(gw, "google.com", id_token=unsent))["federatedId"] == "https://accounts.google.com/5001"
    sent = google_idp.id_token(sub="5002", nonce=raw)
    assert_business_error(sign_in_raw(gw, "google.com", id_token=sent, raw_nonce=raw + "-other"),
                          "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
    assert ok_json(sign_in_raw(gw, "google.com", id_token=sent, raw_nonce=raw))["federatedId"] == "https://accounts.google.com/5002"
    assert_business_error(sign_in_raw(gw, "google.com", id_token=sent, raw_nonce=raw),
                          "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
    assert_business_error(sign_in_raw(gw, "oidc.corp", id_token=oidc_idp.id_token(sub="corp-n", nonce=raw)),
                          "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")


def test_access_token_checked_at_token_info_with_its_audience(make_gateway, google_idp):
    gw = make_gateway(config={"google": google_idp.google_section()})
    info = {"aud": google_idp.client_id, "azp": google_idp.client_id, "sub": "2001", "exp": str(int(time.time()) + 600),
            "email": "ann@gmail.com", "email_verified": "true", "scope": "openid email profile"}
    google_idp.grant_access_token("ya29.good", {"sub": "2001", "name": "Ann", "picture": "https://example.com/ann.png"}, info)
    user = ok_json(sign_in_raw(gw, "google.com", access_token="ya29.good"))
    assert user["federatedId"] == "https://accounts.google.com/2001" and user["displayName"] == "Ann" and user["email"] == "ann@gmail.com"
    assert user["oauthAccessToken"] == "ya29.good"
    google_idp.grant_access_token("ya29.foreign", {"sub": "2001"}, dict(info, aud="someone-else.apps.googleusercontent.com"))
    assert_business_error(sign_in_raw(gw, "google.com", access_token="ya29.foreign"),
                          "INVALID_IDP_RESPONSE : access_token audience is not a configured client ID")
    assert_business_error(sign_in_raw(gw, "google.com", access_token="ya29.unknown"),
                          "INVALID_IDP_RESPONSE : Google refused the access_token")


def test_redirect_flow(make_gateway, google_idp):
    gw = make_gateway(config={"google": google_idp.google_section()},
                      env={"GATEHOUSE_GOOGLE_CLIENT_SECRET": google_idp.client_secret})
    google_idp.next_user = {"sub": "3001", "email": "web@gmail.com"}
    started = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {
        "providerId": "google.com", "continueUri": "http://localhost/finish", "customParameter": {"prompt": "select_account"}}))
    query = {k: v[0] for k, v in parse_qs(urlparse(started["authUri"]).query).items()}
    assert started["authUri"].startswith(google_idp.base_url + "/authorize?") and query["prompt"] == "select_account"
    consent = requests.get(started["authUri"], allow_redirects=False, timeout=5)
    handed = requests.get(consent.headers["Location"], allow_redirects=False, timeout=5)
    user = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", {
        "requestUri": handed.headers["Location"], "sessionId": started["sessionId"], "returnSecureToken": True}))
    assert user["federatedId"] == "https://accounts.google.com/3001" and user["providerId"] == "google.com" and user["email"] == "web@gmail.com"


def import_google_user(data_dir, local_id: str, google_sub: str, email: str) -> None:
    """Writes the rows an import of a Firebase user with a Google identity leaves (user + providerUserInfo),
    straight into a stopped gateway's SQLite database."""
    now = int(time.time() * 1000)
    with sqlite3.connect(data_dir / "gatehouse.sqlite") as db:
        db.execute("INSERT INTO users (local_id, email, email_verified, email_link_signin, disabled, valid_since, created_at) "
                   "VALUES (?, ?, 1, 0, 0, ?, ?)", (local_id, email, now // 1000 - 86400, now - 86_400_000))
        db.execute("INSERT INTO identities (provider_id, federated_id, local_id, email, email_lower, linked_at) "
                   "VALUES ('google.com', ?, ?, ?, ?, ?)", (google_sub, local_id, email, email.lower(), now - 86_400_000))


def test_an_imported_google_user_keeps_signing_in(make_gateway, google_idp):
    gw = make_gateway(config={"google": google_idp.google_section()})
    assert gw.stop() == 0
    import_google_user(gw.data_dir, "firebase-uid-42", "117000000000000000042", "imported@gmail.com")
    gw.start()
    user = ok_json(sign_in_raw(gw, "google.com", id_token=google_idp.id_token(sub="117000000000000000042", email="imported@gmail.com")))
    assert user["localId"] == "firebase-uid-42" and "isNewUser" not in user


def test_google_users_imported_through_firebase_admin_sign_in(make_gateway, google_idp, tmp_path, monkeypatch):
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    gw = make_gateway(config={"google": google_idp.google_section()})
    key_file = tmp_path / "backend.json"
    create_service_account(gw, "migration", key_file)
    app = gatehouse_admin.initialize_app(gw.base_url, key_file, name="google-import")
    try:
        user = auth.ImportUserRecord(uid="firebase-uid-43", email="moved@gmail.com", email_verified=True,
                                     provider_data=[auth.UserProvider(uid="117000000000000000043", provider_id="google.com",
                                                                      email="moved@gmail.com", display_name="Moved")])
        result = auth.import_users([user], app=app)
        assert (result.success_count, result.failure_count) == (1, 0)
        assert [(p.provider_id, p.uid) for p in auth.get_user("firebase-uid-43", app=app).provider_data] == [
            ("google.com", "117000000000000000043")]
    finally:
        firebase_admin.delete_app(app)
    token = google_idp.id_token(sub="117000000000000000043", email="moved@gmail.com")
    signed_in = ok_json(sign_in_raw(gw, "google.com", id_token=token))
    assert signed_in["localId"] == "firebase-uid-43" and "isNewUser" not in signed_in

    # An export that names the Google identity only by its federatedId URL (no rawId): stored as the bare sub,
    # so the user's next Google sign-in finds the account.
    imported = ok_json(admin_post(gw, "accounts:batchCreate", {"users": [{
        "localId": "firebase-uid-44", "email": "url@gmail.com", "emailVerified": True,
        "providerUserInfo": [{"providerId": "google.com", "federatedId": "https://accounts.google.com/117000000000000000044"}]}]}))
    assert not imported.get("error")
    stored = ok_json(admin_post(gw, "accounts:lookup", {"localId": ["firebase-uid-44"]}))["users"][0]
    assert [(p["providerId"], p["rawId"]) for p in stored["providerUserInfo"]] == [("google.com", "117000000000000000044")]
    again = ok_json(sign_in_raw(gw, "google.com", id_token=google_idp.id_token(sub="117000000000000000044", email="url@gmail.com")))
    assert again["localId"] == "firebase-uid-44" and "isNewUser" not in again
