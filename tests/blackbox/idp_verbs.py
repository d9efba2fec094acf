"""Verbs for federated sign-in (`accounts:signInWithIdp`) against a gateway in emulator mode.

In emulator mode an IdP credential may be fake: `postBody` `providerId=<p>&id_token=<claims>` where the
claims are JSON text or an unsigned JWT carrying `sub`, `email`, `email_verified`, `name`, `picture`.
Every test gets its own emulator gateway (`emu` fixture), so users never leak between tests.
"""

from __future__ import annotations

import itertools
import json
import time
from urllib.parse import urlencode

import pytest

from verbs import IDENTITY, LEGACY, admin_post, jwt_claims, lookup, ok_json, post_json, send, unsigned_token, update_raw

SIGN_IN_WITH_IDP = IDENTITY + "/accounts:signInWithIdp"
VERIFY_ASSERTION = LEGACY + "/verifyAssertion"
REQUEST_URI = "http://localhost"
ONLY_WHEN_MEANINGFUL = ("needConfirmation", "errorMessage", "pendingToken", "isNewUser")

_serial = itertools.count(1)


@pytest.fixture
def emu(make_gateway):
    """A fresh gateway in emulator mode (fake IdP credentials accepted, `Bearer owner` is admin from anywhere)."""
    return make_gateway(config={"emulator": True})


def unique(prefix: str = "sub") -> str:
    """A subject or local part no other call in this run uses."""
    return f"{prefix}-{next(_serial)}-{time.monotonic_ns()}"


def unique_email() -> str:
    return f"{unique('user')}@example.com"


# ---------------------------------------------------------------- fake credentials

def claims(sub: str, email: str | None = None, verified: bool | None = None, name: str | None = None,
           picture: str | None = None, **extra) -> dict:
    """IdP claims as a provider would put them in its ID token; only the given fields are present."""
    result = {"sub": sub}
    for key, value in (("email", email), ("email_verified", verified), ("name", name), ("picture", picture)):
        if value is not None:
            result[key] = value
    result.update(extra)
    return result


def id_token_text(idp_claims: dict, *, as_jwt: bool = False) -> str:
    return unsigned_token(idp_claims) if as_jwt else json.dumps(idp_claims, separators=(",", ":"))


def post_body(provider: str | None, idp_claims: dict | None, *, as_jwt: bool = False) -> str:
    fields = {}
    if provider is not None:
        fields["providerId"] = provider
    if idp_claims is not None:
        fields["id_token"] = id_token_text(idp_claims, as_jwt=as_jwt)
    return urlencode(fields)


def fake_credential(provider: str, sub: str, email: str | None = None, verified: bool | None = None,
                    name: str | None = None, picture: str | None = None, *, as_jwt: bool = False) -> str:
    """The form-encoded `postBody` of a fake IdP credential."""
    return post_body(provider, claims(sub, email, verified, name, picture), as_jwt=as_jwt)


# ---------------------------------------------------------------- signInWithIdp

def sign_in_with_idp_raw(gw, provider: str | None = None, idp_claims: dict | None = None, *,
                         id_token: str | None = None, return_idp_credential: bool = False,
                         return_secure_token: bool = True, pending_token: str | None = None,
                         auto_create: bool | None = None, request_uri: str | None = REQUEST_URI,
                         body_post: str | None = None, as_jwt: bool = False, path: str = SIGN_IN_WITH_IDP):
    """One signInWithIdp request; `body_post` overrides the postBody built from provider and claims."""
    body: dict = {"returnSecureToken": return_secure_token}
    if request_uri is not None:
        body["requestUri"] = request_uri
    if body_post is None and (provider is not None or idp_claims is not None):
        body_post = post_body(provider, idp_claims, as_jwt=as_jwt)
    if body_post is not None:
        body["postBody"] = body_post
    if return_idp_credential:
        body["returnIdpCredential"] = True
    if id_token is not None:
        body["idToken"] = id_token
    if pending_token is not None:
        body["pendingToken"] = pending_token
    if auto_create is not None:
        body["autoCreate"] = auto_create
    response = post_json(gw, path, body)
    if response.status_code == 200:
        assert_no_empty_signal_keys(response.json())
    return response


def assert_no_empty_signal_keys(body: dict) -> None:
    """Clients test these keys for presence, so a false or empty value would be read as an error."""
    for key in ONLY_WHEN_MEANINGFUL:
        if key in body:
            assert body[key] not in (False, None, "", [], {}), (key, body)


def sign_in_with_idp(gw, provider: str, idp_claims: dict, **kwargs) -> dict:
    """A signInWithIdp that must succeed with tokens (a plain success, no error keys)."""
    body = ok_json(sign_in_with_idp_raw(gw, provider, idp_claims, **kwargs))
    assert "errorMessage" not in body and "needConfirmation" not in body, body
    assert body.get("idToken") and body.get("localId"), body
    return body


def link_idp_raw(gw, user_id_token: str, provider: str, idp_claims: dict, **kwargs):
    return sign_in_with_idp_raw(gw, provider, idp_claims, id_token=user_id_token, **kwargs)


def link_idp(gw, user_id_token: str, provider: str, idp_claims: dict, **kwargs) -> dict:
    return sign_in_with_idp(gw, provider, idp_claims, id_token=user_id_token, **kwargs)


def sign_in_with_pending_token_raw(gw, pending_token: str, *, provider: str | None = None):
    """The updated credential's second use: JS sends no postBody; iOS sends `providerId` only."""
    return sign_in_with_idp_raw(gw, pending_token=pending_token, body_post=post_body(provider, None) if provider else None)


# ---------------------------------------------------------------- inspection

def claims_of(id_token: str) -> dict:
    return jwt_claims(id_token)


def identities_of(id_token: str) -> dict:
    return claims_of(id_token)["firebase"]["identities"]


def provider_ids(user: dict) -> set[str]:
    return {info["providerId"] for info in user.get("providerUserInfo", [])}


def provider_info(user: dict, provider: str) -> dict:
    matches = [info for info in user.get("providerUserInfo", []) if info["providerId"] == provider]
    assert len(matches) == 1, user
    return matches[0]


def assert_token_matches_account(gw, id_token: str) -> None:
    """`firebase.identities` in the token lists exactly the identities `lookup` shows (plus the email)."""
    user = lookup(gw, id_token)
    stored = {info["providerId"]: [info["rawId"]] for info in user.get("providerUserInfo", [])}
    if "email" in user:
        stored["email"] = [user["email"]]
    assert identities_of(id_token) == stored, (identities_of(id_token), user)


def assert_plain_success(body: dict, *, new_user: bool) -> None:
    """No error keys, and `isNewUser` present (true) exactly for a new user."""
    for key in ("needConfirmation", "errorMessage", "pendingToken"):
        assert key not in body, (key, body)
    if new_user:
        assert body["isNewUser"] is True, body
    else:
        assert "isNewUser" not in body, body


def assert_error_with_credential(body: dict, code: str, provider: str, sub: str) -> None:
    """A 200 that is an error: `errorMessage`, the IdP fields and a pendingToken, but no session."""
    assert body["errorMessage"] == code, body
    federated = "https://accounts.google.com/" + sub if provider == "google.com" else sub
    assert body["providerId"] == provider and body["federatedId"] == federated, body
    assert body.get("oauthIdToken"), body
    assert isinstance(body.get("pendingToken"), str) and body["pendingToken"], body
    for key in ("localId", "idToken", "refreshToken"):
        assert key not in body, (key, body)


# ---------------------------------------------------------------- admin

def users_with_identity(gw, provider: str, raw_id: str) -> list[dict]:
    """Admin lookup by federated user id: every user that holds (provider, raw_id)."""
    body = ok_json(admin_post(gw, "accounts:lookup", {"federatedUserId": [{"providerId": provider, "rawId": raw_id}]}))
    return body.get("users", [])


def users_with_email(gw, email: str) -> list[dict]:
    return ok_json(admin_post(gw, "accounts:lookup", {"email": [email]})).get("users", [])


def set_allow_duplicate_emails(gw, allowed: bool) -> dict:
    path = f"/emulator/v1/projects/{gw.project_id}/config"
    return ok_json(send(gw, "PATCH", path, key=None, json={"signIn": {"allowDuplicateEmails": allowed}}))


def unlink(gw, id_token: str, *providers: str) -> dict:
    return ok_json(update_raw(gw, {"idToken": id_token, "deleteProvider": list(providers)}))

