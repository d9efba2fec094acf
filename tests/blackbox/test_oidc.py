"""Generic OpenID Connect providers (`oidc.<name>`) against the real binary and a local stand-in issuer."""

from __future__ import annotations

import secrets
import time
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
import pytest
import requests

from oidc_stand_in import s256
from verbs import IDENTITY, assert_business_error, ok_json, post_json


def nonce() -> str:
    return "n-" + secrets.token_urlsafe(24)


def sign_in_raw(gw, provider_id, *, id_token=None, raw_nonce=None, access_token=None, **extra):
    pairs = {"providerId": provider_id}
    if id_token is not None:
        pairs["id_token"] = id_token
    if raw_nonce is not None:
        pairs["nonce"] = raw_nonce
    if access_token is not None:
        pairs["access_token"] = access_token
    body = {"requestUri": "http://localhost", "postBody": urlencode(pairs), "returnSecureToken": True}
    body.update(extra)
    return post_json(gw, IDENTITY + "/accounts:signInWithIdp", body)


def config(*entries, **extra) -> dict:
    return {"oidc": {"providers": list(entries)}, **extra}


def test_valid_token_and_each_check_on_the_wire(make_gateway, oidc_idp):
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.acme", displayName="Acme", maxTokenAgeSeconds=300)))
    raw = nonce()
    user = ok_json(sign_in_raw(gw, "oidc.acme", id_token=oidc_idp.id_token(nonce=raw, email="ada@example.com"), raw_nonce=raw))
    assert user["providerId"] == "oidc.acme" and user["federatedId"] == "user-1" and user["isNewUser"] is True
    assert user["email"] == "ada@example.com" and user["emailVerified"] is True
    now = int(time.time())
    raw = nonce()
    cases = {
        "INVALID_IDP_RESPONSE : id_token issuer is not Acme": oidc_idp.id_token(nonce=raw, iss="https://evil.example"),
        "INVALID_IDP_RESPONSE : id_token audience is not a configured client ID": oidc_idp.id_token(nonce=raw, aud="other-app"),
        "INVALID_IDP_RESPONSE : id_token has expired": oidc_idp.id_token(nonce=raw, iat=now - 500, exp=now - 120),
        "INVALID_IDP_RESPONSE : id_token is older than 5 minutes": oidc_idp.id_token(nonce=raw, iat=now - 400),
        "INVALID_IDP_RESPONSE : id_token must be signed with RS256, not none":
            jwt.encode({"sub": "x"}, None, algorithm="none", headers={"kid": "k1"}),
        "INVALID_IDP_RESPONSE : id_token must be signed with RS256, not HS256":
            jwt.encode({"sub": "x"}, "shared-secret-of-32-bytes-or-more!!", algorithm="HS256", headers={"kid": "k1"}),
    }
    for message, token in cases.items():
        assert_business_error(sign_in_raw(gw, "oidc.acme", id_token=token, raw_nonce=raw), message)
    bound = oidc_idp.id_token(sub="n1", nonce=raw)
    assert_business_error(sign_in_raw(gw, "oidc.acme", id_token=bound), "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    assert_business_error(sign_in_raw(gw, "oidc.acme", id_token=bound, raw_nonce=nonce()),
                          "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
    ok_json(sign_in_raw(gw, "oidc.acme", id_token=bound, raw_nonce=raw))
    assert_business_error(sign_in_raw(gw, "oidc.acme", id_token=oidc_idp.id_token(sub="n2", nonce=raw), raw_nonce=raw),
                          "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")


def test_an_algorithm_must_be_pinned_to_be_accepted(make_gateway, oidc_idp):
    kid = oidc_idp.add_ec_key()
    rs_only = make_gateway(config=config(oidc_idp.provider_entry("oidc.acme")))
    es_token = oidc_idp.id_token(sub="ec-user", kid=kid, alg="ES256")
    assert_business_error(sign_in_raw(rs_only, "oidc.acme", id_token=es_token),
                          "INVALID_IDP_RESPONSE : id_token must be signed with RS256, not ES256")
    both = make_gateway(config=config(oidc_idp.provider_entry("oidc.acme", algorithms=["RS256", "ES256"])))
    assert ok_json(sign_in_raw(both, "oidc.acme", id_token=es_token))["federatedId"] == "ec-user"


def test_key_rotation_and_rate_limited_refetch_for_unknown_kids(make_gateway, oidc_idp):
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.acme", keyRefreshIntervalSeconds=1)))
    ok_json(sign_in_raw(gw, "oidc.acme", id_token=oidc_idp.id_token()))
    cached_at = time.monotonic()
    assert oidc_idp.fetches["/jwks"] == 1
    new_kid = oidc_idp.rotate()
    # A refetch for an unknown kid happens at most once a second (the least interval the gateway accepts).
    time.sleep(max(0.0, cached_at + 1.2 - time.monotonic()))
    assert ok_json(sign_in_raw(gw, "oidc.acme", id_token=oidc_idp.id_token(sub="rotated", kid=new_kid)))["federatedId"] == "rotated"
    assert oidc_idp.fetches["/jwks"] == 2
    for n in range(10):
        forged = jwt.encode({"iss": oidc_idp.issuer, "aud": oidc_idp.client_id, "sub": "x", "iat": int(time.time()),
                             "exp": int(time.time()) + 600}, oidc_idp.rsa_keys["k1"], algorithm="RS256",
                            headers={"kid": f"forged-{n}"})
        assert_business_error(sign_in_raw(gw, "oidc.acme", id_token=forged),
                              "INVALID_IDP_RESPONSE : id_token was signed with a key oidc.acme does not publish")
    assert oidc_idp.fetches["/jwks"] <= 3, "forged key ids cost at most one refetch per second, not one each"
    assert oidc_idp.fetches["/.well-known/openid-configuration"] == 1


def test_two_providers_at_once(make_gateway, oidc_idp, second_idp):
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.one"), second_idp.provider_entry("oidc.two")))
    one = ok_json(sign_in_raw(gw, "oidc.one", id_token=oidc_idp.id_token(sub="same-sub")))
    two = ok_json(sign_in_raw(gw, "oidc.two", id_token=second_idp.id_token(sub="same-sub")))
    assert one["localId"] != two["localId"]
    assert_business_error(sign_in_raw(gw, "oidc.two", id_token=oidc_idp.id_token(sub="x")),
                          "INVALID_IDP_RESPONSE : id_token signature is invalid")  # the other provider's key


def test_unverified_email_needs_confirmation_verified_links_when_allowed(make_gateway, oidc_idp, second_idp):
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.trusting", emailLinking={"verifiedEmails": True}),
                                    second_idp.provider_entry("oidc.default")))
    owner = ok_json(sign_in_raw(gw, "oidc.trusting", id_token=oidc_idp.id_token(sub="owner", email="ada@example.com")))
    unverified = ok_json(sign_in_raw(gw, "oidc.default", id_token=second_idp.id_token(
        sub="stranger", email="ada@example.com", email_verified=False)))
    assert unverified["needConfirmation"] is True and unverified["localId"] == owner["localId"] and "idToken" not in unverified
    verified_elsewhere = ok_json(sign_in_raw(gw, "oidc.default", id_token=second_idp.id_token(sub="s2", email="ada@example.com")))
    assert verified_elsewhere["needConfirmation"] is True, "verified, but this provider's emails never link (the default)"
    grace = ok_json(sign_in_raw(gw, "oidc.default", id_token=second_idp.id_token(sub="grace", email="grace@example.com")))
    linked = ok_json(sign_in_raw(gw, "oidc.trusting", id_token=oidc_idp.id_token(sub="grace-too", email="grace@example.com")))
    assert linked["localId"] == grace["localId"] and "needConfirmation" not in linked and "idToken" in linked


def test_access_token_through_userinfo_only_when_switched_on(make_gateway, oidc_idp, second_idp):
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.on", acceptUserInfoAccessTokens=True),
                                    second_idp.provider_entry("oidc.off")))
    oidc_idp.grant_access_token("at-1", {"sub": "ui-user", "name": "Ui User", "email": "ui@example.com"})
    user = ok_json(sign_in_raw(gw, "oidc.on", access_token="at-1"))
    assert user["federatedId"] == "ui-user" and user["displayName"] == "Ui User" and user["oauthAccessToken"] == "at-1"
    assert_business_error(sign_in_raw(gw, "oidc.on", access_token="never-issued"), "INVALID_IDP_RESPONSE : oidc.on refused the access_token")
    second_idp.grant_access_token("at-2", {"sub": "x"})
    assert_business_error(sign_in_raw(gw, "oidc.off", access_token="at-2"),
                          "INVALID_IDP_RESPONSE : oidc.off accepts an id_token only; send the id_token")
    assert second_idp.fetches["/userinfo"] == 0


def test_redirect_flow_with_pkce(make_gateway, oidc_idp):
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.acme")),
                      env={"GATEHOUSE_OIDC_ACME_CLIENT_SECRET": oidc_idp.client_secret})
    started = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {
        "providerId": "oidc.acme", "continueUri": "http://localhost/finish", "oauthScope": "email"}))
    query = {k: v[0] for k, v in parse_qs(urlparse(started["authUri"]).query).items()}
    assert query["response_type"] == "code" and query["code_challenge_method"] == "S256" and query["scope"] == "openid email"
    consent = requests.get(started["authUri"], allow_redirects=False, timeout=5)
    assert consent.status_code == 302 and consent.headers["Location"].startswith(gw.base_url + "/__/auth/handler?")
    handed = requests.get(consent.headers["Location"], allow_redirects=False, timeout=5)
    assert handed.status_code == 303
    location = handed.headers["Location"]
    assert location.startswith("http://localhost/finish#")
    finish = {"requestUri": location, "sessionId": started["sessionId"], "returnSecureToken": True}
    user = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", finish))
    assert user["federatedId"] == "web-user" and user["providerId"] == "oidc.acme"
    exchange = oidc_idp.token_calls[-1]
    assert s256(exchange["code_verifier"]) == query["code_challenge"] and "client_secret" not in exchange
    assert_business_error(post_json(gw, IDENTITY + "/accounts:signInWithIdp", finish),
                          "INVALID_IDP_RESPONSE : The sign-in session is unknown, expired or already used; start again with createAuthUri")


def test_redirect_code_without_the_sessions_verifier_is_refused(make_gateway, oidc_idp):
    """The stand-in refuses a verifier that does not match the challenge, so a code replayed into another session
    (whose verifier differs) never signs in."""
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.acme")),
                      env={"GATEHOUSE_OIDC_ACME_CLIENT_SECRET": oidc_idp.client_secret})
    first = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {"providerId": "oidc.acme", "continueUri": "http://localhost/"}))
    second = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {"providerId": "oidc.acme", "continueUri": "http://localhost/"}))
    consent = requests.get(first["authUri"], allow_redirects=False, timeout=5)
    code = parse_qs(urlparse(consent.headers["Location"]).query)["code"][0]
    second_state = parse_qs(urlparse(second["authUri"]).query)["state"][0]
    crossed = {"requestUri": "http://localhost/#" + urlencode({"code": code, "state": second_state}),
               "sessionId": second["sessionId"], "returnSecureToken": True}
    assert_business_error(post_json(gw, IDENTITY + "/accounts:signInWithIdp", crossed),
                          "INVALID_IDP_RESPONSE : oidc.acme refused the authorization code (invalid_grant)")


def test_bad_configuration_refuses_to_start(make_gateway, oidc_idp):
    gw = make_gateway(config=config(oidc_idp.provider_entry("oidc.acme", responseType="code")), start=False)
    with pytest.raises(AssertionError, match=r"oidc\.providers\[0\]\.responseType code needs a client secret"):
        gw.start()
