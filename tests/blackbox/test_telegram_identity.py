"""Telegram OpenID Connect against a local stand-in for oauth.telegram.org (ID tokens and the PKCE code flow), and
the identity story: three forms, one Telegram user; anonymous upgrade; Apple and Telegram on one account;
credential-already-in-use answered with a pending token."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from urllib.parse import urlencode

import requests

from harness import clean_environment, free_loopback_port, gateway_binary
from telegram_stand_in import BOT_ID, BOT_TOKEN, CLIENT_SECRET, VECTOR_BOT_TOKEN
from telegram_verbs import (NONCE_DUPLICATE, fresh_user_id, init_data_for, nonce, raw_user_info, sign_in, sign_in_raw,
                            widget_for)
from verbs import IDENTITY, admin_post, assert_business_error, lookup, ok_json, post_json, sign_up_anonymously


def test_oidc_token_valid_and_each_check(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    user_id, raw = fresh_user_id(), nonce()
    token = telegram.id_token(user_id=user_id, nonce=raw, phone_number="989123456789", email="x@telegram.invalid")
    body = sign_in(gw, id_token=token, nonce=raw)
    assert body["federatedId"] == str(user_id) and body["oauthIdToken"] == token and "email" not in body
    assert body["displayName"] == "Token User" and body["screenName"] == "token_user"
    info = raw_user_info(body)
    assert info["sub"] == f"opaque-{user_id}-sub" and info["id"] == user_id and info["phone_number"] == "+989123456789"
    assert "phoneNumber" not in lookup(gw, body["idToken"]), "a Telegram phone number never becomes the account's"
    raw2 = nonce()
    cases = {
        "INVALID_IDP_RESPONSE : id_token signature is invalid": telegram.id_token(nonce=raw2, key=telegram.other_key),
        "INVALID_IDP_RESPONSE : id_token audience is not a configured Telegram bot id": telegram.id_token(nonce=raw2, aud="999"),
        "INVALID_IDP_RESPONSE : id_token issuer is not Telegram": telegram.id_token(nonce=raw2, iss="https://evil.example"),
        "INVALID_IDP_RESPONSE : id_token has no Telegram user id (the id claim)": telegram.id_token(nonce=raw2, user_id=None),
    }
    for message, bad in cases.items():
        assert_business_error(sign_in_raw(gw, id_token=bad, nonce=raw2), message)
    mismatch = telegram.id_token(nonce=raw2)
    assert_business_error(sign_in_raw(gw, id_token=mismatch, nonce=nonce()),
                          "MISSING_OR_INVALID_NONCE : The nonce in ID Token does not match the SHA256 hash of the raw nonce in the request.")
    assert_business_error(sign_in_raw(gw, id_token=token, nonce=raw), NONCE_DUPLICATE)


def test_oidc_code_flow_with_pkce_through_the_redirect_flow(make_gateway, telegram):
    config = telegram.gateway_config()
    config["authorizedDomains"] = ["localhost"]
    gw = make_gateway(config=config, env=telegram.gateway_env())
    started = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri", {
        "providerId": "telegram.org", "continueUri": "http://localhost/finish", "oauthScope": "phone"}))
    assert started["authUri"].startswith(telegram.base_url + "/auth?") and f"client_id={BOT_ID}" in started["authUri"]
    consent = requests.get(started["authUri"], allow_redirects=False, timeout=5)
    assert consent.status_code == 302 and consent.headers["Location"].startswith(gw.base_url + "/__/auth/handler?")
    handed = requests.get(consent.headers["Location"], allow_redirects=False, timeout=5)
    assert handed.status_code == 303 and handed.headers["Location"].startswith("http://localhost/finish#")
    finish = {"requestUri": handed.headers["Location"], "sessionId": started["sessionId"], "returnSecureToken": True}
    user = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", finish))
    assert user["federatedId"] == "4242" and user["displayName"] == "Redirect User"
    assert raw_user_info(user)["phone_number"] == "+989123456789"
    call = telegram.token_calls[-1]
    assert call["authorization"].startswith("Basic ") and "client_secret" not in call["form"]
    assert call["form"]["redirect_uri"] == gw.base_url + "/__/auth/handler" and len(call["form"]["code_verifier"]) >= 43
    assert_business_error(post_json(gw, IDENTITY + "/accounts:signInWithIdp", finish),
                          "INVALID_IDP_RESPONSE : The sign-in session is unknown, expired or already used; start again with createAuthUri")


def test_the_three_forms_map_to_one_identity(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    user_id = fresh_user_id()
    by_widget = sign_in(gw, access_token=widget_for(user_id))
    by_mini_app = sign_in(gw, access_token=init_data_for(user_id))
    raw = nonce()
    by_oidc = sign_in(gw, id_token=telegram.id_token(user_id=user_id, nonce=raw), nonce=raw)
    assert by_widget["isNewUser"] is True and "isNewUser" not in by_mini_app and "isNewUser" not in by_oidc
    assert by_widget["localId"] == by_mini_app["localId"] == by_oidc["localId"]
    user = lookup(gw, by_oidc["idToken"])
    assert [(p["providerId"], p["rawId"]) for p in user["providerUserInfo"]] == [("telegram.org", str(user_id))]


def stored_identity(gw, user_id: int) -> dict:
    """The identity row the gateway keeps for a Telegram user (read from its SQLite database while it runs)."""
    with sqlite3.connect(f"file:{gw.data_dir / 'gatehouse.sqlite'}?mode=ro", uri=True) as db:
        phone, raw = db.execute("SELECT phone_number, raw_user_info FROM identities WHERE provider_id = 'telegram.org' "
                                "AND federated_id = ?", (str(user_id),)).fetchone()
    return {"phone_number": phone, "raw_user_info": json.loads(raw)}


def test_oidc_sub_and_phone_stay_stored_after_widget_and_mini_app_sign_ins(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    user_id, raw = fresh_user_id(), nonce()
    by_oidc = sign_in(gw, id_token=telegram.id_token(user_id=user_id, nonce=raw, phone_number="989123456789"), nonce=raw)
    by_widget = sign_in(gw, access_token=widget_for(user_id, first_name="Later"))
    assert "sub" not in raw_user_info(by_widget), "the answer carries what this sign-in said"
    sign_in(gw, access_token=init_data_for(user_id))
    stored = stored_identity(gw, user_id)
    assert stored["phone_number"] == "+989123456789"
    info = stored["raw_user_info"]
    assert info["sub"] == f"opaque-{user_id}-sub" and info["phone_number"] == "+989123456789" and info["id"] == user_id
    assert info["first_name"] == "Sara", "the latest sign-in's fields win"
    user = ok_json(admin_post(gw, "accounts:lookup", {"localId": [by_oidc["localId"]]}))["users"][0]
    assert "phoneNumber" not in user, "a Telegram phone number never becomes the account's"
    assert [(p["providerId"], p["rawId"], p.get("phoneNumber")) for p in user["providerUserInfo"]] == [
        ("telegram.org", str(user_id), "+989123456789")]
    assert lookup(gw, by_widget["idToken"])["providerUserInfo"][0]["phoneNumber"] == "+989123456789"
    # The phone number links nothing: a phone sign-in with it is another account (and none holds it).
    assert ok_json(admin_post(gw, "accounts:lookup", {"phoneNumber": ["+989123456789"]})).get("users") is None


def test_anonymous_user_upgraded_by_telegram_keeps_its_uid(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    anonymous = sign_up_anonymously(gw)
    user_id = fresh_user_id()
    linked = sign_in(gw, access_token=init_data_for(user_id), link_to=anonymous["idToken"])
    assert linked["localId"] == anonymous["localId"]
    again = sign_in(gw, access_token=widget_for(user_id))
    assert again["localId"] == anonymous["localId"]
    assert [p["providerId"] for p in lookup(gw, again["idToken"])["providerUserInfo"]] == ["telegram.org"]


def apple_sign_in(gw, apple, sub: str, id_token: str | None = None) -> dict:
    raw = nonce()
    body = {"requestUri": "http://localhost", "returnSecureToken": True,
            "postBody": urlencode({"providerId": "apple.com", "id_token": apple.id_token(sub=sub, nonce=raw), "nonce": raw})}
    if id_token:
        body["idToken"] = id_token
    return ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", body))


def test_telegram_linked_to_an_apple_user_signs_in_with_each(make_gateway, telegram, apple):
    gw = make_gateway(config={**apple.gateway_config(), **telegram.gateway_config()}, env=telegram.gateway_env())
    apple_user = apple_sign_in(gw, apple, sub="apple-and-telegram")
    user_id = fresh_user_id()
    linked = sign_in(gw, access_token=widget_for(user_id), link_to=apple_user["idToken"])
    assert linked["localId"] == apple_user["localId"]
    assert sign_in(gw, access_token=init_data_for(user_id))["localId"] == apple_user["localId"]
    assert apple_sign_in(gw, apple, sub="apple-and-telegram")["localId"] == apple_user["localId"]
    providers = {p["providerId"]: p["rawId"] for p in lookup(gw, linked["idToken"])["providerUserInfo"]}
    assert providers == {"apple.com": "apple-and-telegram", "telegram.org": str(user_id)}


def test_credential_already_in_use_then_the_updated_credential_signs_in(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    user_id = fresh_user_id()
    owner = sign_in(gw, access_token=widget_for(user_id))
    anonymous = sign_up_anonymously(gw)
    data = init_data_for(user_id)
    conflict = ok_json(sign_in_raw(gw, access_token=data, link_to=anonymous["idToken"]))
    assert conflict["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED" and conflict["federatedId"] == str(user_id)
    assert conflict["oauthAccessToken"] == data and conflict["pendingToken"] and "idToken" not in conflict
    # The data itself was spent; the updated credential is the pending token.
    assert_business_error(sign_in_raw(gw, access_token=data),
                          "INVALID_IDP_RESPONSE : Duplicate credential received. Please try again with a new credential.")
    again = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", {
        "requestUri": "http://localhost", "postBody": "providerId=telegram.org", "pendingToken": conflict["pendingToken"],
        "returnSecureToken": True}))
    assert again["localId"] == owner["localId"] and again["federatedId"] == str(user_id)


def start_fails(tmp_path, config: dict, env: dict | None = None) -> str:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    result = subprocess.run([str(gateway_binary()), "serve", "--port", str(free_loopback_port()), "--data-dir",
                             str(tmp_path / "data"), "--config", str(path)],
                            capture_output=True, text=True, timeout=30, env=clean_environment(env))
    assert result.returncode != 0
    return result.stderr


def test_bot_tokens_come_from_env_or_files_and_never_reach_the_log(make_gateway, telegram, tmp_path):
    token_file = tmp_path / "bot.token"
    token_file.write_text(BOT_TOKEN + "\n")
    config = telegram.gateway_config()
    config["telegram"]["bots"][0]["tokenFile"] = str(token_file)
    env = {k: v for k, v in telegram.gateway_env().items() if not k.endswith(BOT_ID) or "SECRET" in k}
    gw = make_gateway(config=config, env=env)
    sign_in(gw, access_token=widget_for(fresh_user_id()))
    assert_business_error(sign_in_raw(gw, access_token=widget_for(fresh_user_id(), token="123456789:wrong")),
                          "INVALID_IDP_RESPONSE : Telegram Login Widget data hash does not match any configured bot")
    logs = gw.log_text() + gw.stderr_path.read_text()
    assert '"provider":"telegram.org"' in logs.replace(" ", "")
    for secret in (BOT_TOKEN, BOT_TOKEN.split(":")[1], VECTOR_BOT_TOKEN, CLIENT_SECRET):
        assert secret not in logs
    inline = start_fails(tmp_path, {"telegram": {"enabled": True, "bots": [{"id": BOT_ID, "token": BOT_TOKEN}]}})
    assert 'unknown config key "telegram.bots[0].token"' in inline and BOT_TOKEN not in inline
    missing = start_fails(tmp_path, {"telegram": {"enabled": True, "bots": [{"id": BOT_ID}]}})
    assert f"GATEHOUSE_TELEGRAM_BOT_TOKEN_{BOT_ID}" in missing
    wrong = start_fails(tmp_path, {"telegram": {"enabled": True, "bots": [{"id": "42"}]}},
                        env={"GATEHOUSE_TELEGRAM_BOT_TOKEN_42": BOT_TOKEN})
    assert "is not bot 42's" in wrong and BOT_TOKEN not in wrong
