"""Sign in with Apple against the real binary and a local stand-in for Apple's endpoints."""

from __future__ import annotations

import json
import secrets
import subprocess
import time
from urllib.parse import urlencode, urlparse, parse_qs

import jwt
import requests

from harness import gateway_binary, clean_environment, free_loopback_port
from verbs import IDENTITY, admin_post, assert_business_error, lookup, ok_json, post_json, send, sign_up_anonymously

DUPLICATE = "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential."


def nonce() -> str:
    return "n-" + secrets.token_urlsafe(24)


def sign_in_raw(gw, token, raw_nonce, **extra):
    pairs = {"providerId": "apple.com", "id_token": token}
    if raw_nonce is not None:
        pairs["nonce"] = raw_nonce
    pairs.update(extra.pop("post", {}))
    body = {"requestUri": "http://localhost", "postBody": urlencode(pairs), "returnSecureToken": True,
            "returnIdpCredential": True}
    body.update(extra)
    return post_json(gw, IDENTITY + "/accounts:signInWithIdp", body)


def sign_in(gw, apple, **claims):
    raw = nonce()
    post = claims.pop("post", {})
    return ok_json(sign_in_raw(gw, apple.id_token(nonce=raw, **claims), raw, post=post))


def wait_for(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def key_file(tmp_path, apple):
    path = tmp_path / "AuthKey_KEY1234567.p8"
    path.write_text(apple.p8_pem())
    return path


def test_sign_in_and_each_check_on_the_wire(make_gateway, apple):
    gw = make_gateway(config=apple.gateway_config())
    user = sign_in(gw, apple, email="ada@example.com", post={"user": json.dumps({"name": {"firstName": "Ada"}})})
    assert user["providerId"] == "apple.com" and user["isNewUser"] is True and user["displayName"] == "Ada"
    raw = nonce()
    now = int(time.time())
    cases = {
        "INVALID_IDP_RESPONSE : id_token audience is not a configured bundle ID or Services ID":
            apple.id_token(nonce=raw, aud="com.other.app"),
        "INVALID_IDP_RESPONSE : id_token issuer is not Apple": apple.id_token(nonce=raw, iss="https://evil.example"),
        "INVALID_IDP_RESPONSE : id_token has expired": apple.id_token(nonce=raw, iat=now - 500, exp=now - 120),
        "INVALID_IDP_RESPONSE : id_token is older than 10 minutes": apple.id_token(nonce=raw, iat=now - 700, exp=now + 300),
        "INVALID_IDP_RESPONSE : id_token must be signed with RS256, not none":
            jwt.encode({"sub": "x"}, None, algorithm="none", headers={"kid": "k1"}),
    }
    for message, token in cases.items():
        assert_business_error(sign_in_raw(gw, token, raw), message)
    assert_business_error(sign_in_raw(gw, apple.id_token(nonce=raw), None),
                          "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    assert_business_error(sign_in_raw(gw, apple.id_token(nonce=raw), nonce()),
                          "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")


def test_key_rotation_and_unknown_kid(make_gateway, apple):
    gw = make_gateway(config=apple.gateway_config(keyRefreshIntervalSeconds=1))
    sign_in(gw, apple)  # caches k1
    cached_at = time.monotonic()
    new_kid = apple.rotate()
    # The gateway re-fetches for an unknown kid at most once a second (the least interval it accepts).
    time.sleep(max(0.0, cached_at + 1.2 - time.monotonic()))
    user = sign_in(gw, apple, sub="rotated-user", kid=new_kid)
    assert user["federatedId"] == "rotated-user"
    raw = nonce()
    unpublished = jwt.encode({"iss": "https://appleid.apple.com", "aud": "com.example.app", "iat": int(time.time()),
                              "exp": int(time.time()) + 600, "sub": "x"},
                             apple.rsa_keys["k1"], algorithm="RS256", headers={"kid": "not-published"})
    assert_business_error(sign_in_raw(gw, unpublished, raw),
                          "INVALID_IDP_RESPONSE : id_token was signed with a key Apple does not publish")


def test_nonce_is_single_use_across_two_processes_on_one_database(make_gateway, apple, tmp_path):
    first = make_gateway(config=apple.gateway_config())
    second = make_gateway(config=apple.gateway_config(), data_dir=first.data_dir)
    raw = nonce()
    token = apple.id_token(nonce=raw)
    assert ok_json(sign_in_raw(first, token, raw))["isNewUser"] is True
    assert_business_error(sign_in_raw(second, token, raw), DUPLICATE)
    second.restart()
    assert_business_error(sign_in_raw(second, token, raw), DUPLICATE)


def test_relay_email_never_links_by_email(make_gateway, apple):
    gw = make_gateway(config=apple.gateway_config())
    relay = "abc123@privaterelay.appleid.com"
    owner = sign_in(gw, apple, sub="first", email=relay, is_private_email="true")
    assert owner["emailVerified"] is True  # Apple verified it (as Firebase reports); it still never links
    other = sign_in(gw, apple, sub="second", email=relay, is_private_email=True)
    assert other.get("needConfirmation") is True and "idToken" not in other


def test_link_conflict_then_sign_in_with_updated_credential(make_gateway, apple):
    gw = make_gateway(config=apple.gateway_config())
    owner = sign_in(gw, apple, sub="owner")
    anonymous = sign_up_anonymously(gw)
    raw = nonce()
    token = apple.id_token(nonce=raw, sub="owner")
    conflict = ok_json(sign_in_raw(gw, token, raw, idToken=anonymous["idToken"]))
    assert conflict["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED" and conflict["oauthIdToken"] == token
    assert_business_error(sign_in_raw(gw, token, raw), DUPLICATE)
    again = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", {
        "requestUri": "http://localhost", "postBody": "providerId=apple.com",
        "pendingToken": conflict["pendingToken"], "returnSecureToken": True}))
    assert again["localId"] == owner["localId"]


def test_delete_revokes_and_retries_while_apple_is_down(make_gateway, apple, tmp_path):
    gw = make_gateway(config=apple.gateway_config(key_file(tmp_path, apple)))
    apple.accept_code("code-1")
    user = sign_in(gw, apple, sub="deleted-user", post={"code": "code-1"})
    assert apple.token_calls and apple.token_calls[0]["client_id"] == "com.example.app"
    assert "rt-code-1" not in gw.log_text()
    apple.failing = True
    ok_json(post_json(gw, IDENTITY + "/accounts:delete", {"idToken": user["idToken"]}))
    assert_business_error(post_json(gw, IDENTITY + "/accounts:lookup", {"idToken": user["idToken"]}), "USER_NOT_FOUND")
    assert wait_for(lambda: "provider token revocation failed" in gw.log_text())
    apple.failing = False
    assert wait_for(lambda: apple.revoked == ["rt-code-1"], timeout=30)


def test_admin_delete_revokes(make_gateway, apple, tmp_path):
    gw = make_gateway(config=apple.gateway_config(key_file(tmp_path, apple)))
    apple.accept_code("code-2")
    user = sign_in(gw, apple, sub="admin-deleted", post={"code": "code-2"})
    ok_json(admin_post(gw, "accounts:delete", {"localId": user["localId"]}))
    assert wait_for(lambda: apple.revoked == ["rt-code-2"])


def test_revoke_token_api(make_gateway, apple, tmp_path):
    gw = make_gateway(config=apple.gateway_config(key_file(tmp_path, apple)))
    user = sign_in(gw, apple)
    apple.accept_code("code-3")
    path = "/identitytoolkit.googleapis.com/v2/accounts:revokeToken"
    assert ok_json(post_json(gw, path, {"idToken": user["idToken"], "providerId": "apple.com", "tokenType": "3",
                                        "token": "code-3"})) == {}
    assert ok_json(post_json(gw, path, {"idToken": user["idToken"], "providerId": "apple.com",
                                        "tokenType": "REFRESH_TOKEN", "token": "rt-other"})) == {}
    assert apple.revoked == ["rt-code-3", "rt-other"]


def test_server_to_server_events(make_gateway, apple):
    gw = make_gateway(config=apple.gateway_config())
    anonymous = sign_up_anonymously(gw)
    raw = nonce()
    linked = ok_json(sign_in_raw(gw, apple.id_token(nonce=raw, sub="s2s-user"), raw, idToken=anonymous["idToken"]))
    path = "/gatehouse/v1/apple/notifications"
    event = apple.notification("consent-revoked", "s2s-user", jti="j-1")
    assert ok_json(send(gw, "POST", path, key=None, json={"payload": event})) == {}
    assert ok_json(send(gw, "POST", path, key=None, json={"payload": event})) == {}
    user = ok_json(admin_post(gw, "accounts:lookup", {"localId": [linked["localId"]]}))["users"][0]
    assert user["providerUserInfo"] == []
    assert send(gw, "POST", path, key=None, json={"payload": "forged"}).status_code == 400


def test_redirect_flow_end_to_end(make_gateway, apple, tmp_path):
    config = apple.gateway_config(key_file(tmp_path, apple))
    config["authorizedDomains"] = ["localhost"]
    gw = make_gateway(config=config)
    started = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {
        "providerId": "apple.com", "continueUri": "http://localhost/finish", "oauthScope": "name email"}))
    consent = requests.get(started["authUri"], timeout=5).json()
    assert consent["action"] == gw.base_url + "/__/auth/handler"
    handed = requests.post(consent["action"], data=consent["fields"], allow_redirects=False, timeout=5)
    assert handed.status_code == 303
    location = handed.headers["Location"]
    assert location.startswith("http://localhost/finish#")
    finish = {"requestUri": location, "sessionId": started["sessionId"], "returnSecureToken": True}
    user = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", finish))
    assert user["federatedId"] == "web-user" and user["displayName"] == "Web User"
    assert apple.token_calls[-1]["redirect_uri"] == gw.base_url + "/__/auth/handler"
    assert_business_error(post_json(gw, IDENTITY + "/accounts:signInWithIdp", finish),
                          "INVALID_IDP_RESPONSE : The sign-in session is unknown, expired or already used; start again with createAuthUri")
    tampered = requests.post(consent["action"], data=dict(consent["fields"], state="forged"), allow_redirects=False,
                             timeout=5)
    assert tampered.status_code == 400


def test_zero_key_refresh_interval_refuses_to_start(tmp_path, apple):
    config = tmp_path / "config.json"
    config.write_text(json.dumps(apple.gateway_config(keyRefreshIntervalSeconds=0)))
    result = subprocess.run([str(gateway_binary()), "serve", "--port", str(free_loopback_port()), "--data-dir",
                             str(tmp_path / "data"), "--config", str(config)],
                            capture_output=True, text=True, timeout=30, env=clean_environment())
    assert result.returncode != 0
    assert "apple.keyRefreshIntervalSeconds must be at least 1" in result.stderr


def test_enabled_without_ids_refuses_to_start(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"apple": {"enabled": True}}))
    result = subprocess.run([str(gateway_binary()), "serve", "--port", str(free_loopback_port()), "--data-dir",
                             str(tmp_path / "data"), "--config", str(config)],
                            capture_output=True, text=True, timeout=30, env=clean_environment())
    assert result.returncode != 0
    assert "apple.bundleIds" in result.stderr and "apple.servicesIds" in result.stderr
