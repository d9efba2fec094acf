"""Revocation is immediate for refresh tokens: a session issued before a password change or an admin revoke
never refreshes after it, even within the same second, while a session issued after it keeps working.

Each scenario runs several times and asserts on every try; `validSince` has one-second granularity, so the
tests also check that at least one try really had the old session and the revocation in the same second
(the case whole-second comparisons let through)."""

from __future__ import annotations

import time

from email_verbs import CHEAP_SCRYPT, sign_in_raw, sign_up
from verbs import (
    admin_post, assert_business_error, jwt_claims, lookup, ok_json, refresh, refresh_raw, update_raw,
)

TRIES = 5


def email_gateway(make_gateway):
    return make_gateway(config={"email": {"scrypt": CHEAP_SCRYPT}})


def test_password_change_ends_earlier_refresh_tokens_in_the_same_second(make_gateway):
    gw = email_gateway(make_gateway)
    same_second = 0
    for attempt in range(TRIES):
        address = f"change{attempt}@example.com"
        account = sign_up(gw, address, "old-password")
        other_device = ok_json(sign_in_raw(gw, address, "old-password"))
        changed = ok_json(update_raw(gw, {"idToken": account["idToken"], "password": "new-password",
                                          "returnSecureToken": True}))
        same_second += jwt_claims(other_device["idToken"])["iat"] == jwt_claims(changed["idToken"])["iat"]

        for old in (account["refreshToken"], other_device["refreshToken"]):
            assert_business_error(refresh_raw(gw, old), "TOKEN_EXPIRED")
        assert refresh(gw, changed["refreshToken"])["user_id"] == account["localId"]
        assert lookup(gw, changed["idToken"])["localId"] == account["localId"]
    assert same_second > 0, "no try had the old session and the change in the same second"


def test_admin_revoke_ends_earlier_refresh_tokens_in_the_same_second(make_gateway):
    gw = email_gateway(make_gateway)
    same_second = 0
    for attempt in range(TRIES):
        address = f"revoke{attempt}@example.com"
        account = sign_up(gw, address, "password1")
        # What firebase-admin's revoke_refresh_tokens sends: the caller's current second.
        valid_since = int(time.time())
        ok_json(admin_post(gw, "accounts:update", {"localId": account["localId"], "validSince": valid_since}))
        after = ok_json(sign_in_raw(gw, address, "password1"))
        same_second += jwt_claims(account["idToken"])["iat"] == valid_since

        assert_business_error(refresh_raw(gw, account["refreshToken"]), "TOKEN_EXPIRED")
        assert refresh(gw, after["refreshToken"])["user_id"] == account["localId"]
    assert same_second > 0, "no try had the old session and the revocation in the same second"
