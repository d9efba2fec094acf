"""Anonymous accounts over the v1 REST API and its legacy v3 aliases."""

from __future__ import annotations

import re
from datetime import datetime

import pytest

from verbs import (
    IDENTITY, LEGACY, admin_post, assert_business_error, delete_account, delete_account_raw, lookup, lookup_raw, ok_json,
    post_json, sign_up_anonymously, sign_up_anonymously_raw, update_raw,
)

DIGITS = re.compile(r"^[0-9]+$")


def test_sign_up_returns_the_documented_fields(gw):
    body = sign_up_anonymously(gw)
    assert body["kind"] == "identitytoolkit#SignupNewUserResponse"
    assert body["localId"]
    assert body["idToken"].count(".") == 2
    assert body["refreshToken"]
    assert body["expiresIn"] == "3600"


def test_lookup_describes_a_fresh_anonymous_user(gw):
    account = sign_up_anonymously(gw)
    user = lookup(gw, account["idToken"])
    assert user["localId"] == account["localId"]
    assert "email" not in user
    assert user["providerUserInfo"] == []
    assert user["emailVerified"] is False
    assert user["disabled"] is False
    for field in ("validSince", "createdAt", "lastLoginAt"):
        assert DIGITS.match(user[field]), (field, user[field])
    assert int(user["createdAt"]) > 0
    assert int(user["lastLoginAt"]) >= int(user["createdAt"]) - 1000
    assert datetime.fromisoformat(user["lastRefreshAt"].replace("Z", "+00:00")).year >= 2024


def test_two_sign_ups_create_two_users(gw):
    assert sign_up_anonymously(gw)["localId"] != sign_up_anonymously(gw)["localId"]


def test_update_sets_and_deletes_display_name_and_photo(gw):
    account = sign_up_anonymously(gw)
    token = account["idToken"]
    body = ok_json(update_raw(gw, {"idToken": token, "displayName": "Ann", "photoUrl": "https://example.com/a.png"}))
    assert body["kind"] == "identitytoolkit#SetAccountInfoResponse"
    assert body["localId"] == account["localId"]
    assert body["displayName"] == "Ann"
    assert body["photoUrl"] == "https://example.com/a.png"
    user = lookup(gw, token)
    assert (user["displayName"], user["photoUrl"]) == ("Ann", "https://example.com/a.png")

    ok_json(update_raw(gw, {"idToken": token, "deleteAttribute": ["DISPLAY_NAME", "PHOTO_URL"]}))
    user = lookup(gw, token)
    assert "displayName" not in user and "photoUrl" not in user


def test_update_treats_null_as_delete_and_accepts_photoURL_alias(gw):
    token = sign_up_anonymously(gw)["idToken"]
    ok_json(update_raw(gw, {"idToken": token, "displayName": "Bo", "photoURL": "https://example.com/b.png"}))
    assert lookup(gw, token)["photoUrl"] == "https://example.com/b.png"

    body = ok_json(update_raw(gw, {"idToken": token, "displayName": None, "photoURL": None,
                                   "deleteAttribute": None, "returnSecureToken": True}))
    assert "displayName" not in body
    user = lookup(gw, token)
    assert "displayName" not in user and "photoUrl" not in user


def test_delete_removes_the_account(gw):
    account = sign_up_anonymously(gw)
    delete_account(gw, account["idToken"])
    assert_business_error(lookup_raw(gw, account["idToken"]), "USER_NOT_FOUND")
    assert_business_error(delete_account_raw(gw, account["idToken"]), "USER_NOT_FOUND")


def test_missing_id_token_is_reported(gw):
    assert_business_error(post_json(gw, IDENTITY + "/accounts:lookup", {}), "MISSING_ID_TOKEN")
    assert_business_error(post_json(gw, IDENTITY + "/accounts:delete", {}), "MISSING_ID_TOKEN")
    assert_business_error(post_json(gw, IDENTITY + "/accounts:update", {"displayName": "x"}), "MISSING_ID_TOKEN")


@pytest.mark.parametrize("body,code", [
    ({"email": "a@example.com"}, "MISSING_PASSWORD"),
    ({"password": "secret123"}, "MISSING_EMAIL"),
])
def test_sign_up_with_half_a_password_credential_is_refused(gw, body, code):
    """Any of email/password/idToken makes signUp a password sign-up, which needs both fields."""
    assert_business_error(post_json(gw, IDENTITY + "/accounts:signUp", body), code)


def test_legacy_v3_routes_behave_like_v1(gw):
    body = ok_json(sign_up_anonymously_raw(gw, LEGACY + "/signupNewUser"))
    assert body["kind"] == "identitytoolkit#SignupNewUserResponse"
    assert body["expiresIn"] == "3600"
    token = body["idToken"]

    info = ok_json(lookup_raw(gw, token, LEGACY + "/getAccountInfo"))
    assert info["kind"] == "identitytoolkit#GetAccountInfoResponse"
    assert [u["localId"] for u in info["users"]] == [body["localId"]]

    updated = ok_json(update_raw(gw, {"idToken": token, "displayName": "Legacy"}, LEGACY + "/setAccountInfo"))
    assert updated["kind"] == "identitytoolkit#SetAccountInfoResponse"
    assert updated["displayName"] == "Legacy"
    assert lookup(gw, token)["displayName"] == "Legacy"

    deleted = ok_json(delete_account_raw(gw, token, LEGACY + "/deleteAccount"))
    assert deleted == {"kind": "identitytoolkit#DeleteAccountResponse"}
    assert_business_error(lookup_raw(gw, token, LEGACY + "/getAccountInfo"), "USER_NOT_FOUND")


def test_api_key_in_header_is_accepted(gw):
    response = post_json(gw, IDENTITY + "/accounts:signUp", {}, key=None, headers={"x-goog-api-key": "hdr-key"})
    assert ok_json(response)["kind"] == "identitytoolkit#SignupNewUserResponse"


def test_admin_lookup_and_delete_by_uid(gw):
    account = sign_up_anonymously(gw)
    found = ok_json(admin_post(gw, "accounts:lookup", {"localId": [account["localId"]]}))
    assert [u["localId"] for u in found["users"]] == [account["localId"]]

    assert ok_json(admin_post(gw, "accounts:delete", {"localId": account["localId"]})) == {
        "kind": "identitytoolkit#DeleteAccountResponse"}
    assert ok_json(admin_post(gw, "accounts:lookup", {"localId": [account["localId"]]})) == {
        "kind": "identitytoolkit#GetAccountInfoResponse"}
    assert_business_error(admin_post(gw, "accounts:delete", {"localId": account["localId"]}), "USER_NOT_FOUND")
