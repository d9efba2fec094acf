"""The Secure Token endpoint: refresh tokens exchanged for new ID tokens, and its error codes."""

from __future__ import annotations

import pytest

from verbs import (
    assert_business_error, delete_account, jwt_claims, lookup, refresh, refresh_raw, sign_up_anonymously,
)


@pytest.mark.parametrize("form", [False, True], ids=["json", "form"])
def test_refresh_issues_a_new_id_token_for_the_same_user(gw, form):
    account = sign_up_anonymously(gw)
    body = refresh(gw, account["refreshToken"], form=form)
    assert body["refresh_token"] == account["refreshToken"]
    assert body["access_token"] == body["id_token"]
    assert body["expires_in"] == "3600"
    assert body["token_type"] == "Bearer"
    assert body["user_id"] == account["localId"]
    assert isinstance(body["project_id"], str) and body["project_id"]

    old, new = jwt_claims(account["idToken"]), jwt_claims(body["id_token"])
    assert new["sub"] == old["sub"] == account["localId"]
    assert new["iat"] >= old["iat"]
    assert new["auth_time"] == old["auth_time"]
    assert new["firebase"]["sign_in_provider"] == "anonymous"
    assert lookup(gw, body["id_token"])["localId"] == account["localId"]


def test_refresh_token_can_be_used_repeatedly(gw):
    account = sign_up_anonymously(gw)
    for _ in range(3):
        assert refresh(gw, account["refreshToken"])["refresh_token"] == account["refreshToken"]


@pytest.mark.parametrize("form", [False, True], ids=["json", "form"])
def test_missing_grant_type(gw, form):
    assert_business_error(refresh_raw(gw, "anything", form=form, grant_type=None), "MISSING_GRANT_TYPE")


@pytest.mark.parametrize("form", [False, True], ids=["json", "form"])
def test_invalid_grant_type(gw, form):
    assert_business_error(refresh_raw(gw, "anything", form=form, grant_type="password"), "INVALID_GRANT_TYPE")


@pytest.mark.parametrize("form", [False, True], ids=["json", "form"])
def test_missing_refresh_token(gw, form):
    assert_business_error(refresh_raw(gw, None, form=form), "MISSING_REFRESH_TOKEN")


@pytest.mark.parametrize("garbage", ["garbage", "AAAA", "x" * 300, "eyJhbGciOiJub25lIn0.e30."])
def test_garbage_refresh_token_is_invalid(gw, garbage):
    assert_business_error(refresh_raw(gw, garbage), "INVALID_REFRESH_TOKEN")


def test_tampered_refresh_token_is_invalid(gw):
    token = sign_up_anonymously(gw)["refreshToken"]
    middle = len(token) // 2
    flipped = token[:middle] + ("A" if token[middle] != "A" else "z") + token[middle + 1:]
    assert_business_error(refresh_raw(gw, flipped), "INVALID_REFRESH_TOKEN")


def test_refresh_token_of_a_deleted_user_is_user_not_found(gw):
    account = sign_up_anonymously(gw)
    delete_account(gw, account["idToken"])
    assert_business_error(refresh_raw(gw, account["refreshToken"]), "USER_NOT_FOUND")
