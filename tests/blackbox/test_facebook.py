"""Facebook Login against the real binary and a local stand-in for Facebook (facebook_stand_in.py)."""

from __future__ import annotations

import json
import secrets
import subprocess
from urllib.parse import parse_qs, urlencode, urlparse

import requests

from facebook_stand_in import APP_ID, APP_SECRET, appsecret_proof
from harness import clean_environment, free_loopback_port, gateway_binary
from verbs import IDENTITY, admin_post, assert_business_error, ok_json, post_json, send, sign_up_anonymously

SIGN_IN = IDENTITY + "/accounts:signInWithIdp"
EVENTS = "/gatehouse/v1/providers/facebook.com/events"


def nonce() -> str:
    return "n-" + secrets.token_urlsafe(24)


def sign_in_raw(gw, *, access_token=None, id_token=None, raw_nonce=None, **extra):
    pairs = {"providerId": "facebook.com"}
    if access_token is not None:
        pairs["access_token"] = access_token
    if id_token is not None:
        pairs["id_token"] = id_token
    if raw_nonce is not None:
        pairs["nonce"] = raw_nonce
    body = {"requestUri": "http://localhost", "postBody": urlencode(pairs), "returnSecureToken": True,
            "returnIdpCredential": True}
    body.update(extra)
    return post_json(gw, SIGN_IN, body)


def start(make_gateway, facebook, *, extra_config=None, **settings):
    config = facebook.gateway_config(**settings)
    config.update(extra_config or {})
    return make_gateway(config=config, env=facebook.gateway_env())


def refusal_checks(gw) -> list[str]:
    """The failed checks the gateway logged for refused credentials, in order."""
    lines = [json.loads(line) for line in gw.log_lines() if '"credential refused"' in line]
    return [line.get("check") for line in lines]


def admin_user(gw, local_id):
    users = ok_json(admin_post(gw, "accounts:lookup", {"localId": [local_id]})).get("users", [])
    return users[0] if users else None


def callback(gw, kind, signed_request=None, **form):
    if signed_request is not None:
        form["signed_request"] = signed_request
    params = {"callback": kind} if kind else {}
    return send(gw, "POST", EVENTS, key=None, params=params, data=form)


# ---------------------------------------------------------------- classic access tokens

def test_valid_classic_token_signs_in_with_the_graph_profile(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    token = facebook.issue(user_id="fb-100", email="Ada@Example.com")
    user = ok_json(sign_in_raw(gw, access_token=token))
    assert user["providerId"] == "facebook.com" and user["federatedId"] == "fb-100" and user["isNewUser"] is True
    assert user["displayName"] == "Ada Lovelace" and user["photoUrl"] == "https://cdn.example/fb-100.jpg"
    assert user["email"] == "ada@example.com" and user["emailVerified"] is False
    assert user["oauthAccessToken"] == token and "oauthIdToken" not in user
    raw = json.loads(user["rawUserInfo"])
    assert raw["id"] == "fb-100" and raw["first_name"] == "Ada" and raw["picture"]["data"]["url"].endswith("fb-100.jpg")
    assert raw["granted_scopes"] == ["public_profile", "email"]
    # The stand-in refuses /me without a valid appsecret_proof; every call the gateway made carried one.
    assert facebook.me_calls and all(call["proof_ok"] for call in facebook.me_calls)
    again = ok_json(sign_in_raw(gw, access_token=token))
    assert again["localId"] == user["localId"] and "isNewUser" not in again
    assert APP_SECRET not in gw.log_text() and token not in gw.log_text()


def test_the_stand_in_checks_appsecret_proof(facebook):
    token = facebook.issue()
    me = facebook.base_url + "/v25.0/me"
    assert requests.get(me, params={"access_token": token}, timeout=5).status_code == 400
    assert requests.get(me, params={"access_token": token, "appsecret_proof": appsecret_proof(token, "other")},
                        timeout=5).json()["error"]["code"] == 100
    assert requests.get(me, params={"access_token": token, "appsecret_proof": appsecret_proof(token)},
                        timeout=5).status_code == 200


def test_each_classic_check_refuses_on_the_wire(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    cases = [
        (facebook.issue(app_id="999999"), "INVALID_IDP_RESPONSE : Facebook access token was issued to another app",
         "audience"),
        (facebook.issue(is_valid=False), "INVALID_IDP_RESPONSE : Facebook access token is invalid", "token_rejected"),
        ("EAAB-never-issued", "INVALID_IDP_RESPONSE : Facebook access token is invalid (Graph error 190)",
         "token_rejected"),
        (facebook.issue(is_valid=False, error_subcode=463), "INVALID_IDP_RESPONSE : Facebook access token has expired",
         "expiry"),
        (facebook.issue(expires_at=1_600_000_000), "INVALID_IDP_RESPONSE : Facebook access token has expired", "expiry"),
        (facebook.issue(token_type="PAGE"), "INVALID_IDP_RESPONSE : Facebook access token is not a user access token",
         "token_type"),
        (facebook.issue(user_id="fb-1", profile_id="fb-2"),
         "INVALID_IDP_RESPONSE : Facebook profile does not belong to the access token's user", "subject_mismatch"),
    ]
    for token, message, _ in cases:
        response = sign_in_raw(gw, access_token=token)
        assert_business_error(response, message)
        assert response.json()["error"]["message"] == message
    assert refusal_checks(gw) == [check for _, _, check in cases]
    assert_business_error(sign_in_raw(gw), "INVALID_IDP_RESPONSE : access_token or id_token is missing; Facebook sign-in needs one of them")


def test_missing_email_is_a_user_without_email(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    user = ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="phone-only", email=None)))
    assert user["federatedId"] == "phone-only" and "email" not in user
    assert "email" not in admin_user(gw, user["localId"])


def test_graph_down_rate_limited_or_slow_is_a_clean_error(make_gateway, facebook):
    gw = start(make_gateway, facebook, requestTimeoutSeconds=1)
    token = facebook.issue()
    facebook.mode = "down"
    assert_business_error(sign_in_raw(gw, access_token=token),
                          "INVALID_IDP_RESPONSE : Facebook is unavailable or rate limiting this app (Graph error 2); try again later")
    facebook.mode = "rate_limited"
    assert_business_error(sign_in_raw(gw, access_token=token),
                          "INVALID_IDP_RESPONSE : Facebook is unavailable or rate limiting this app (Graph error 4); try again later")
    facebook.mode = "slow"
    assert_business_error(sign_in_raw(gw, access_token=token),
                          "INVALID_IDP_RESPONSE : Facebook did not answer in time; try again")
    facebook.mode = "normal"
    facebook.stop()
    assert_business_error(sign_in_raw(gw, access_token=token),
                          "INVALID_IDP_RESPONSE : Facebook could not be reached; try again")
    assert refusal_checks(gw) == ["provider_unavailable"] * 4
    assert gw.log_text().count("facebook graph un") == 4  # one warning per failed call: unavailable / unreachable


# ---------------------------------------------------------------- Limited Login

def test_limited_login_valid_and_each_check(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    raw = nonce()
    token = facebook.limited_token(sub="ll-1", nonce=raw)
    user = ok_json(sign_in_raw(gw, id_token=token, raw_nonce=raw))
    assert user["federatedId"] == "ll-1" and user["oauthIdToken"] == token and user["displayName"] == "Ada Lovelace"
    assert user["emailVerified"] is False and json.loads(user["rawUserInfo"])["given_name"] == "Ada"
    assert not facebook.me_calls, "Limited Login tokens never go to Graph"

    assert_business_error(sign_in_raw(gw, id_token=token, raw_nonce=raw),
                          "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
    from cryptography.hazmat.primitives.asymmetric import rsa
    other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cases = {
        "INVALID_IDP_RESPONSE : id_token signature is invalid": lambda n: facebook.limited_token(nonce=n, key=other_key),
        "INVALID_IDP_RESPONSE : id_token audience is not the configured Facebook app ID":
            lambda n: facebook.limited_token(nonce=n, aud="999999"),
        "INVALID_IDP_RESPONSE : id_token issuer is not Facebook": lambda n: facebook.limited_token(nonce=n, iss="https://evil.example"),
    }
    for message, make in cases.items():
        fresh = nonce()
        assert_business_error(sign_in_raw(gw, id_token=make(fresh), raw_nonce=fresh), message)
    fresh = nonce()
    assert_business_error(sign_in_raw(gw, id_token=facebook.limited_token(nonce=fresh), raw_nonce=nonce()),
                          "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
    assert_business_error(sign_in_raw(gw, id_token=facebook.limited_token(nonce=fresh)),
                          "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
    raw_in_token = nonce()
    assert_business_error(sign_in_raw(gw, id_token=facebook.limited_token(hashed_nonce=raw_in_token), raw_nonce=raw_in_token),
                          "MISSING_OR_INVALID_NONCE")
    ok_json(sign_in_raw(gw, id_token=facebook.limited_token(nonce=fresh, iss="https://limited.facebook.com"), raw_nonce=fresh))


def test_raw_nonce_in_the_token_only_behind_the_setting(make_gateway, facebook):
    gw = start(make_gateway, facebook, acceptRawNonce=True)
    raw = nonce()
    ok_json(sign_in_raw(gw, id_token=facebook.limited_token(hashed_nonce=raw), raw_nonce=raw))


# ---------------------------------------------------------------- linking

def test_apple_user_links_facebook_then_signs_in_with_either(make_gateway, facebook, apple):
    config = facebook.gateway_config()
    config.update(apple.gateway_config())
    gw = make_gateway(config=config, env=facebook.gateway_env())
    apple_nonce = nonce()
    apple_user = ok_json(post_json(gw, SIGN_IN, {
        "requestUri": "http://localhost", "returnSecureToken": True,
        "postBody": urlencode({"providerId": "apple.com", "nonce": apple_nonce,
                               "id_token": apple.id_token(sub="apple-sub", nonce=apple_nonce, email="ada@icloud.example")})}))
    linked = ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-linked"), idToken=apple_user["idToken"]))
    assert linked["localId"] == apple_user["localId"]
    stored = admin_user(gw, apple_user["localId"])
    assert sorted(p["providerId"] for p in stored["providerUserInfo"]) == ["apple.com", "facebook.com"]

    by_facebook = ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-linked")))
    assert by_facebook["localId"] == apple_user["localId"] and "isNewUser" not in by_facebook
    again = nonce()
    by_apple = ok_json(post_json(gw, SIGN_IN, {
        "requestUri": "http://localhost", "returnSecureToken": True,
        "postBody": urlencode({"providerId": "apple.com", "nonce": again,
                               "id_token": apple.id_token(sub="apple-sub", nonce=again)})}))
    assert by_apple["localId"] == apple_user["localId"]


def test_facebook_email_of_an_existing_account_needs_confirmation(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    owner = ok_json(post_json(gw, IDENTITY + "/accounts:signUp",
                              {"email": "owner@example.com", "password": "secret123", "returnSecureToken": True}))
    token = facebook.issue(user_id="fb-same-email", email="owner@example.com")
    body = ok_json(sign_in_raw(gw, access_token=token))
    assert body["needConfirmation"] is True and body["localId"] == owner["localId"]
    assert "idToken" not in body and body["oauthAccessToken"] == token and body["email"] == "owner@example.com"
    assert [p["providerId"] for p in admin_user(gw, owner["localId"]).get("providerUserInfo", [])] == ["password"]
    # The answer carries the Facebook credential as a pendingToken: the user signs in the existing way and links it.
    assert body["pendingToken"]
    linked = ok_json(post_json(gw, SIGN_IN, {"requestUri": "http://localhost", "postBody": "providerId=facebook.com",
                                             "pendingToken": body["pendingToken"], "idToken": owner["idToken"],
                                             "returnSecureToken": True}))
    assert linked["localId"] == owner["localId"]
    providers = {p["providerId"]: p["rawId"] for p in admin_user(gw, owner["localId"])["providerUserInfo"]}
    assert providers == {"password": "owner@example.com", "facebook.com": "fb-same-email"}


def test_credential_already_in_use_then_sign_in_with_the_updated_credential(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    owner = ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-owner")))
    anonymous = sign_up_anonymously(gw)
    token = facebook.issue(user_id="fb-owner")
    conflict = ok_json(sign_in_raw(gw, access_token=token, idToken=anonymous["idToken"]))
    assert conflict["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED" and conflict["oauthAccessToken"] == token
    assert "idToken" not in conflict
    again = ok_json(post_json(gw, SIGN_IN, {"requestUri": "http://localhost", "postBody": "providerId=facebook.com",
                                            "pendingToken": conflict["pendingToken"], "returnSecureToken": True}))
    assert again["localId"] == owner["localId"]


# ---------------------------------------------------------------- web redirect flow

def test_web_redirect_flow_end_to_end(make_gateway, facebook):
    gw = start(make_gateway, facebook, extra_config={"authorizedDomains": ["localhost"]})
    started = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {
        "providerId": "facebook.com", "continueUri": "http://localhost/finish", "oauthScope": "user_birthday"}))
    dialog = urlparse(started["authUri"])
    assert dialog.path == "/v25.0/dialog/oauth" and started["providerId"] == "facebook.com"
    asked = {k: v[0] for k, v in parse_qs(dialog.query).items()}
    assert asked["client_id"] == APP_ID and asked["scope"] == "public_profile,email,user_birthday"
    assert asked["redirect_uri"] == gw.base_url + "/__/auth/handler" and asked["code_challenge_method"] == "S256"

    consented = requests.get(started["authUri"], allow_redirects=False, timeout=5)  # Facebook's dialog
    assert consented.status_code == 302 and consented.headers["Location"].startswith(gw.base_url + "/__/auth/handler?")
    handed = requests.get(consented.headers["Location"], allow_redirects=False, timeout=5)  # the browser follows
    assert handed.status_code == 303
    location = handed.headers["Location"]
    assert location.startswith("http://localhost/finish#") and "code=" in location

    finish = {"requestUri": location, "sessionId": started["sessionId"], "returnSecureToken": True,
              "returnIdpCredential": True}
    user = ok_json(post_json(gw, SIGN_IN, finish))
    assert user["federatedId"] == "web-user-1" and user["displayName"] == "Web User" and user["isNewUser"] is True
    assert user["oauthAccessToken"].startswith("EAAB")
    exchange = facebook.exchanges[-1]
    assert exchange["redirect_uri"] == gw.base_url + "/__/auth/handler" and exchange["client_secret"] == APP_SECRET
    assert exchange.get("code_verifier")
    assert_business_error(post_json(gw, SIGN_IN, finish),
                          "INVALID_IDP_RESPONSE : The sign-in session is unknown, expired or already used; start again with createAuthUri")
    assert requests.get(consented.headers["Location"], allow_redirects=False, timeout=5).status_code == 400  # state spent


def test_web_redirect_flow_with_a_refused_code(make_gateway, facebook):
    gw = start(make_gateway, facebook, extra_config={"authorizedDomains": ["localhost"]})
    started = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {
        "providerId": "facebook.com", "continueUri": "http://localhost/finish"}))
    consented = requests.get(started["authUri"], allow_redirects=False, timeout=5)
    query = parse_qs(urlparse(consented.headers["Location"]).query)
    forged = gw.base_url + "/__/auth/handler?" + urlencode({"code": "forged-code", "state": query["state"][0]})
    location = requests.get(forged, allow_redirects=False, timeout=5).headers["Location"]
    assert_business_error(post_json(gw, SIGN_IN, {"requestUri": location, "sessionId": started["sessionId"]}),
                          "INVALID_IDP_RESPONSE : Facebook refused the authorization code (Graph error 100)")
    assert refusal_checks(gw) == ["code_exchange"]


# ---------------------------------------------------------------- deauthorize and data-deletion callbacks

def test_data_deletion_callback_deletes_and_serves_a_status_page(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    only_facebook = ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-delete-me")))
    signed = facebook.signed_request("fb-delete-me")
    reply = ok_json(callback(gw, "deletion", signed))
    assert set(reply) == {"url", "confirmation_code"}
    assert reply["url"] == f"{gw.base_url}/gatehouse/v1/providers/facebook.com/deletion?code={reply['confirmation_code']}"
    assert admin_user(gw, only_facebook["localId"]) is None
    page = requests.get(reply["url"], timeout=5)
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html")
    assert reply["confirmation_code"] in page.text and "Your account was deleted" in page.text
    # Facebook retries: the same answer, nothing changes again, and the page still says what was done.
    assert ok_json(callback(gw, "deletion", signed)) == reply
    assert "Your account was deleted" in requests.get(reply["url"], timeout=5).text
    assert requests.get(reply["url"].replace(reply["confirmation_code"], "0" * 20), timeout=5).status_code == 404


def test_data_deletion_keeps_an_account_with_other_sign_in_methods(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    owner = ok_json(post_json(gw, IDENTITY + "/accounts:signUp",
                              {"email": "keep@example.com", "password": "secret123", "returnSecureToken": True}))
    ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-keep"), idToken=owner["idToken"]))
    reply = ok_json(callback(gw, "deletion", facebook.signed_request("fb-keep")))
    user = admin_user(gw, owner["localId"])
    assert [p["providerId"] for p in user["providerUserInfo"]] == ["password"]
    assert "Your account itself stays" in requests.get(reply["url"], timeout=5).text
    unknown = ok_json(callback(gw, "deletion", facebook.signed_request("fb-never-seen")))
    assert "We held no data" in requests.get(unknown["url"], timeout=5).text


def test_deauthorize_callback_unlinks_and_disables_a_facebook_only_user(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    only_facebook = ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-deauth")))
    signed = facebook.signed_request("fb-deauth")
    assert ok_json(callback(gw, "deauthorize", signed)) == {}
    assert ok_json(callback(gw, "deauthorize", signed)) == {}
    user = admin_user(gw, only_facebook["localId"])
    assert user["disabled"] is True and user.get("providerUserInfo", []) == []
    assert_business_error(post_json(gw, IDENTITY + "/accounts:lookup", {"idToken": only_facebook["idToken"]}),
                          "USER_DISABLED")

    owner = ok_json(post_json(gw, IDENTITY + "/accounts:signUp",
                              {"email": "stays@example.com", "password": "secret123", "returnSecureToken": True}))
    ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-deauth-2"), idToken=owner["idToken"]))
    assert ok_json(callback(gw, "deauthorize", facebook.signed_request("fb-deauth-2"))) == {}
    user = admin_user(gw, owner["localId"])
    assert user.get("disabled", False) is False and [p["providerId"] for p in user["providerUserInfo"]] == ["password"]
    assert '"event":"deauthorize"' in gw.log_text().replace(" ", "")


def test_forged_and_malformed_callbacks_are_refused(make_gateway, facebook):
    gw = start(make_gateway, facebook)
    user = ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-target")))
    cases = [
        ("deletion", facebook.signed_request("fb-target", secret="forged-secret"), "signed_request signature is invalid"),
        ("deauthorize", facebook.signed_request("fb-target", secret="forged-secret"), "signed_request signature is invalid"),
        ("deletion", "garbage", "signed_request is not <signature>.<payload> in base64url"),
        ("deauthorize", facebook.signed_request("fb-target", algorithm="HMAC-SHA1"),
         'signed_request must use HMAC-SHA256, not "HMAC-SHA1"'),
        ("deletion", facebook.signed_request("fb-target", issued_at=1_600_000_000), "signed_request is too old"),
        ("deletion", None, "signed_request is missing (a form field)"),
        (None, facebook.signed_request("fb-target"),
         "register the callback URL with ?callback=deauthorize or ?callback=deletion"),
    ]
    for kind, signed, detail in cases:
        assert_business_error(callback(gw, kind, signed), "INVALID_IDP_RESPONSE : " + detail)
    json_body = send(gw, "POST", EVENTS, key=None, params={"callback": "deletion"},
                     json={"signed_request": facebook.signed_request("fb-target")})
    assert_business_error(json_body, "INVALID_IDP_RESPONSE : signed_request is missing (a form field)")
    target = admin_user(gw, user["localId"])
    assert target["providerUserInfo"][0]["rawId"] == "fb-target" and target.get("disabled", False) is False
    assert refusal_checks(gw) == ["signature", "signature", "format", "algorithm", "age", "missing", "missing", "missing"]


# ---------------------------------------------------------------- configuration

def test_enabled_without_a_secret_refuses_to_start(tmp_path, facebook):
    config = tmp_path / "config.json"
    config.write_text(json.dumps(facebook.gateway_config()))
    result = subprocess.run([str(gateway_binary()), "serve", "--port", str(free_loopback_port()), "--data-dir",
                             str(tmp_path / "data"), "--config", str(config)],
                            capture_output=True, text=True, timeout=30, env=clean_environment())
    assert result.returncode != 0
    assert "GATEHOUSE_FACEBOOK_APP_SECRET" in result.stderr and "facebook.appSecretFile" in result.stderr


def test_app_secret_from_a_file(make_gateway, facebook, tmp_path):
    secret_file = tmp_path / "facebook-secret"
    secret_file.write_text(APP_SECRET + "\n")
    gw = make_gateway(config=facebook.gateway_config(appSecretFile=str(secret_file)))
    ok_json(sign_in_raw(gw, access_token=facebook.issue(user_id="fb-file")))
