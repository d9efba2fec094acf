"""Telegram Login Widget and Mini App data against the real binary: each check on the wire, the published
Mini App vector (first-party HMAC and Telegram's Ed25519 signature), and single use across a restart."""

from __future__ import annotations

import json
import time

from telegram_stand_in import VECTOR_AUTH_DATE, VECTOR_BOT_ID, VECTOR_INIT_DATA, VECTOR_USER_ID, init_data, user_json
from telegram_verbs import DUPLICATE, fresh_user_id, init_data_for, raw_user_info, sign_in, sign_in_raw, widget_for
from verbs import assert_business_error, lookup

WIDGET = "INVALID_IDP_RESPONSE : Telegram Login Widget data"
MINI_APP = "INVALID_IDP_RESPONSE : Telegram Mini App init data"


def refused_checks(gw) -> list[str]:
    entries = [json.loads(line) for line in gw.log_lines()]
    return [e["check"] for e in entries if e.get("msg") == "credential refused" and e.get("provider") == "telegram.org"]


def test_valid_widget_login(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    user_id = fresh_user_id()
    data = widget_for(user_id)
    body = sign_in(gw, access_token=data)
    assert body["providerId"] == "telegram.org" and body["federatedId"] == str(user_id) and body["isNewUser"] is True
    assert body["displayName"] == "Ada Lovelace" and body["screenName"] == f"ada{user_id}"
    assert body["photoUrl"] == f"https://t.me/i/userpic/320/{user_id}.jpg"
    assert "email" not in body and body["oauthAccessToken"] == data
    assert raw_user_info(body)["id"] == user_id
    user = lookup(gw, body["idToken"])
    assert "email" not in user
    assert [(p["providerId"], p["rawId"]) for p in user["providerUserInfo"]] == [("telegram.org", str(user_id))]


def test_widget_tampered_and_added_fields(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    data = widget_for(fresh_user_id(), first_name="Ada")
    assert_business_error(sign_in_raw(gw, access_token=data.replace("first_name=Ada", "first_name=Eve")),
                          f"{WIDGET} hash does not match any configured bot")
    assert_business_error(sign_in_raw(gw, access_token=data + "&is_admin=1"), f"{WIDGET} hash does not match any configured bot")
    other_bot = widget_for(fresh_user_id(), token="987654321:not-our-bot")
    assert_business_error(sign_in_raw(gw, access_token=other_bot), f"{WIDGET} hash does not match any configured bot")
    assert refused_checks(gw) == ["signature"] * 3
    # The untouched data still signs in: none of the attempts above spent it.
    assert sign_in(gw, access_token=data)["isNewUser"] is True


def test_widget_field_telegram_adds_later_is_signed_like_the_rest(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    body = sign_in(gw, access_token=widget_for(fresh_user_id(), allows_write_to_pm="true"))
    assert raw_user_info(body)["allows_write_to_pm"] == "true"


def test_widget_stale_and_future_auth_date(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    now = int(time.time())
    assert_business_error(sign_in_raw(gw, access_token=widget_for(fresh_user_id(), auth_date=now - 86_400 - 120)),
                          f"{WIDGET} is older than 1 day")
    assert_business_error(sign_in_raw(gw, access_token=widget_for(fresh_user_id(), auth_date=now + 3600)),
                          f"{WIDGET} has an auth_date in the future")
    assert refused_checks(gw) == ["age", "issued_at"]


def test_widget_window_is_configurable(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(authDateWindowSeconds=600), env=telegram.gateway_env())
    assert_business_error(sign_in_raw(gw, access_token=widget_for(fresh_user_id(), auth_date=int(time.time()) - 900)),
                          f"{WIDGET} is older than 10 minutes")


def test_widget_replay_refused_also_after_a_restart(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    data = widget_for(fresh_user_id())
    sign_in(gw, access_token=data)
    assert_business_error(sign_in_raw(gw, access_token=data), DUPLICATE)
    gw.restart()
    assert_business_error(sign_in_raw(gw, access_token=data), DUPLICATE)
    assert refused_checks(gw) == ["replay", "replay"]


def test_mini_app_valid_published_vector(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(vector_window=True), env=telegram.gateway_env())
    body = sign_in(gw, access_token=VECTOR_INIT_DATA)
    assert body["federatedId"] == VECTOR_USER_ID and body["screenName"] == "vdkfrost"
    assert body["displayName"] == "Vladislav + - ? / Kibenko"
    assert body["rawUserInfo"].startswith('{"id":279058397,"first_name":"Vladislav + - ? \\/"')


def test_mini_app_fresh_data_and_plus_in_names(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    user_id = fresh_user_id()
    body = sign_in(gw, access_token=init_data_for(user_id, first_name="C++ fan"))
    assert body["federatedId"] == str(user_id) and body["displayName"] == "C++ fan Ahmadi"
    # A client that leaves `+` unencoded: still a plus, never a space.
    literal = init_data([("user", user_json(fresh_user_id(), "A+B")), ("auth_date", str(int(time.time())))])
    assert "A+B" not in literal and "A%2BB" in literal
    assert sign_in(gw, access_token=literal.replace("%2B", "+"))["displayName"] == "A+B"


def test_mini_app_missing_signature(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(vector_window=True), env=telegram.gateway_env())
    stripped = "&".join(p for p in VECTOR_INIT_DATA.split("&") if not p.startswith("signature="))
    assert_business_error(sign_in_raw(gw, access_token=stripped), f"{MINI_APP} hash does not match any configured bot")
    fresh = init_data_for(fresh_user_id())
    assert_business_error(sign_in_raw(gw, access_token="&".join(p for p in fresh.split("&") if not p.startswith("signature="))),
                          f"{MINI_APP} hash does not match any configured bot")


def test_mini_app_replay(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(vector_window=True), env=telegram.gateway_env())
    data = init_data_for(fresh_user_id())
    sign_in(gw, access_token=data)
    assert_business_error(sign_in_raw(gw, access_token=data), DUPLICATE)
    sign_in(gw, access_token=VECTOR_INIT_DATA)
    assert_business_error(sign_in_raw(gw, access_token=VECTOR_INIT_DATA), DUPLICATE)


def test_mini_app_ed25519_third_party_path(make_gateway, telegram):
    """The vector's bot allowlisted for Telegram's Ed25519 check, its token not given to the gateway."""
    window = int(time.time()) - VECTOR_AUTH_DATE + 3600
    config = {"telegram": {"enabled": True, "authDateWindowSeconds": window,
                           "thirdPartyMiniApps": {"botIds": [VECTOR_BOT_ID], "publicKey": "production"}}}
    gw = make_gateway(config=config)
    tampered = VECTOR_INIT_DATA.replace("chat_type=private", "chat_type=group")
    assert_business_error(sign_in_raw(gw, access_token=tampered), f"{MINI_APP} signature is not Telegram's for an allowed bot")
    body = sign_in(gw, access_token=VECTOR_INIT_DATA)
    assert body["federatedId"] == VECTOR_USER_ID
    # The hash is not covered by the Ed25519 signature; rewriting it does not make the data new.
    assert_business_error(sign_in_raw(gw, access_token=VECTOR_INIT_DATA.replace("hash=a433", "hash=b433")), DUPLICATE)
    test_key = make_gateway(config={"telegram": dict(config["telegram"], thirdPartyMiniApps={
        "botIds": [VECTOR_BOT_ID], "publicKey": "test"})})
    assert_business_error(sign_in_raw(test_key, access_token=VECTOR_INIT_DATA),
                          f"{MINI_APP} signature is not Telegram's for an allowed bot")
    other_bot = make_gateway(config={"telegram": dict(config["telegram"], thirdPartyMiniApps={"botIds": ["1111111"]})})
    assert_business_error(sign_in_raw(other_bot, access_token=VECTOR_INIT_DATA),
                          f"{MINI_APP} signature is not Telegram's for an allowed bot")


def test_garbage_access_tokens_are_clear_400s(make_gateway, telegram):
    gw = make_gateway(config=telegram.gateway_config(), env=telegram.gateway_env())
    for junk, message in [("%", f"{WIDGET} has no hash"), ("hash=zz", f"{WIDGET} has a hash that is not 64 hex digits"),
                          ("user=%7B&hash=" + "0" * 64, f"{MINI_APP} hash does not match any configured bot"),
                          ("x" * 20_000, f"{WIDGET} is too long")]:
        assert_business_error(sign_in_raw(gw, access_token=junk), message)
    assert_business_error(sign_in_raw(gw), "INVALID_IDP_RESPONSE : Telegram sign-in needs access_token (Login Widget "
                                            "data or Mini App initData) or id_token with nonce")
