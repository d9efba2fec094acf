"""Phone sign-in against the real binary: codes delivered by a Telegram Gateway stand-in and an SMS webhook
receiver, every check on the wire, linking and conflicts, fallback between senders, delivery reports, test numbers
and emulator mode."""

from __future__ import annotations

import json
import time

from phone_stand_ins import wait_for
from phone_verbs import REPORTS, SEND, SIGN_IN, phone_setup, send_code, send_code_raw, sign_in, sign_in_by_code, sign_in_raw
from telegram_verbs import fresh_user_id, widget_for
from telegram_verbs import sign_in as telegram_sign_in
from verbs import IDENTITY, LEGACY, admin_post, assert_business_error, lookup, ok_json, post_json, send, sign_up_anonymously


def log_entries(gw) -> list[dict]:
    return [json.loads(line) for line in gw.log_lines()]


def test_a_code_by_telegram_signs_up_then_signs_in(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    first = sign_in_by_code(gw, tg_gateway, "+15551230001")
    assert first["isNewUser"] is True and first["phoneNumber"] == "+15551230001" and first["expiresIn"] == "3600"
    assert lookup(gw, first["idToken"])["phoneNumber"] == "+15551230001"
    message = tg_gateway.sent_to("+15551230001")[0]
    assert message["ttl"] == 300 and message["payload"].startswith("phone-") and len(message["code"]) == 6
    assert tg_gateway.calls[:2] == ["checksendability", "sendverificationmessage"]
    again = sign_in_by_code(gw, tg_gateway, "+15551230001", after=1)
    assert again["isNewUser"] is False and again["localId"] == first["localId"]


def test_wrong_code_reuse_and_too_many_attempts(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway, attemptsPerCode=2)
    gw = make_gateway(config=config, env=env)
    session = send_code(gw, "+15551230002")
    code = tg_gateway.code_for("+15551230002")
    wrong = "000000" if code != "000000" else "111111"
    assert_business_error(sign_in_raw(gw, sessionInfo=session, code=wrong), "INVALID_CODE")
    ok_json(sign_in_raw(gw, sessionInfo=session, code=code))
    assert_business_error(sign_in_raw(gw, sessionInfo=session, code=code), "INVALID_SESSION_INFO")
    session = send_code(gw, "+15551230002")
    code = tg_gateway.code_for("+15551230002", after=1)
    for _ in range(2):
        assert_business_error(sign_in_raw(gw, sessionInfo=session, code=wrong), "INVALID_CODE")
    assert_business_error(sign_in_raw(gw, sessionInfo=session, code=code), "TOO_MANY_ATTEMPTS_TRY_LATER")


def test_missing_and_malformed_fields(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    assert_business_error(send_code_raw(gw, None), "INVALID_PHONE_NUMBER : Invalid format.")
    assert_business_error(send_code_raw(gw, "15551230003"), "INVALID_PHONE_NUMBER : Invalid format.")
    assert_business_error(sign_in_raw(gw, code="123456"), "MISSING_SESSION_INFO")
    assert_business_error(sign_in_raw(gw, sessionInfo="x"), "MISSING_CODE")
    assert_business_error(sign_in_raw(gw, sessionInfo="x", code="123456"), "INVALID_SESSION_INFO")
    assert_business_error(sign_in_raw(gw, temporaryProof="x"), "MISSING_PHONE_NUMBER")
    assert_business_error(sign_in_raw(gw, temporaryProof="x", phoneNumber="+15551230003"), "INVALID_TEMPORARY_PROOF")


def test_switched_off_by_default(gw):
    assert_business_error(send_code_raw(gw, "+15551230004"), "OPERATION_NOT_ALLOWED")


def test_send_limits_per_number_and_per_client(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway, sendsPerPhonePerHour=2, sendsPerIPPerHour=3)
    gw = make_gateway(config=config, env=env)
    send_code(gw, "+15551230005")
    send_code(gw, "+15551230005")
    assert_business_error(send_code_raw(gw, "+15551230005"), "TOO_MANY_ATTEMPTS_TRY_LATER")
    send_code(gw, "+15551230006")
    assert_business_error(send_code_raw(gw, "+15551230007"), "TOO_MANY_ATTEMPTS_TRY_LATER")
    wait_for(lambda: len(tg_gateway.messages) == 3)
    time.sleep(0.5)
    assert len(tg_gateway.messages) == 3


def test_link_a_phone_to_a_telegram_user(make_gateway, tg_gateway, telegram):
    config, env = phone_setup(tg=tg_gateway, telegram_section=telegram.gateway_config()["telegram"])
    gw = make_gateway(config=config, env={**env, **telegram.gateway_env()})
    tg_user = telegram_sign_in(gw, access_token=widget_for(fresh_user_id()))
    linked = sign_in_by_code(gw, tg_gateway, "+15551230008", idToken=tg_user["idToken"])
    assert linked["localId"] == tg_user["localId"] and linked["isNewUser"] is False
    providers = {p["providerId"] for p in lookup(gw, linked["idToken"])["providerUserInfo"]}
    assert providers == {"telegram.org", "phone"}
    assert sign_in_by_code(gw, tg_gateway, "+15551230008", after=1)["localId"] == tg_user["localId"]


def test_phone_number_used_by_another_account(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    owner = sign_in_by_code(gw, tg_gateway, "+15551230009")
    other = sign_up_anonymously(gw)
    answer = sign_in_by_code(gw, tg_gateway, "+15551230009", after=1, idToken=other["idToken"])
    assert set(answer) == {"phoneNumber", "temporaryProof", "temporaryProofExpiresIn"}
    assert answer["temporaryProofExpiresIn"] == "3600"
    assert_business_error(sign_in_raw(gw, temporaryProof=answer["temporaryProof"], phoneNumber="+15551230009",
                                      idToken=other["idToken"]), "PHONE_NUMBER_EXISTS")
    signed_in = sign_in(gw, temporaryProof=answer["temporaryProof"], phoneNumber="+15551230009")
    assert signed_in["localId"] == owner["localId"]
    assert lookup(gw, other["idToken"]).get("phoneNumber") is None


def test_reauthentication(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    session = send_code(gw, "+15551230010")
    assert_business_error(sign_in_raw(gw, sessionInfo=session, code=tg_gateway.code_for("+15551230010"), operation="REAUTH"),
                          "USER_NOT_FOUND")
    owner = sign_in_by_code(gw, tg_gateway, "+15551230010", after=1)
    again = sign_in_by_code(gw, tg_gateway, "+15551230010", after=2, operation="REAUTH")
    assert again["localId"] == owner["localId"] and again["isNewUser"] is False


def test_delivery_reports_need_telegrams_signature(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    send_code(gw, "+15551230011")
    tg_gateway.code_for("+15551230011")
    message = tg_gateway.sent_to("+15551230011")[0]
    assert tg_gateway.report(gw.url(REPORTS), message, token="someone-elses-token").status_code == 400
    assert tg_gateway.report(gw.url(REPORTS), message, timestamp=int(time.time()) - 3600).status_code == 400
    assert tg_gateway.report(gw.url(REPORTS), message, "delivered").status_code == 200
    refused = [e for e in log_entries(gw) if e.get("msg") == "credential refused" and e.get("provider") == "gateway.telegram.org"]
    assert [e["check"] for e in refused] == ["signature", "expiry"]
    reports = [e for e in log_entries(gw) if e.get("msg") == "telegram gateway delivery report"]
    assert [e["status"] for e in reports] == ["delivered"]


def test_gateway_down_falls_back_to_the_webhook(make_gateway, tg_gateway, sms_webhook):
    config, env = phone_setup(tg=tg_gateway, sms=sms_webhook)
    gw = make_gateway(config=config, env=env)
    tg_gateway.mode = "down"
    user = sign_in_by_code(gw, sms_webhook, "+15551230012")
    assert user["phoneNumber"] == "+15551230012"
    accepted = sms_webhook.accepted[0]
    assert accepted["text"] == f"{accepted['code']} is your verification code." and accepted["ttlSeconds"] == 300


def test_slow_gateway_falls_back_to_the_webhook(make_gateway, tg_gateway, sms_webhook):
    config, env = phone_setup(tg=tg_gateway, sms=sms_webhook, _tg={"timeoutSeconds": 1})
    gw = make_gateway(config=config, env=env)
    tg_gateway.mode, tg_gateway.delay = "slow", 4
    user = sign_in_by_code(gw, sms_webhook, "+15551230013")
    assert user["isNewUser"] is True


def test_number_not_on_telegram_falls_back(make_gateway, tg_gateway, sms_webhook):
    config, env = phone_setup(tg=tg_gateway, sms=sms_webhook)
    gw = make_gateway(config=config, env=env)
    tg_gateway.not_on_telegram.add("+15551230014")
    sign_in_by_code(gw, sms_webhook, "+15551230014")
    assert tg_gateway.sent_to("+15551230014") == []
    # A number that is on Telegram still goes there.
    sign_in_by_code(gw, tg_gateway, "+15551230015")


def test_gateway_down_without_fallback_delivers_once_back_and_across_a_restart(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    tg_gateway.mode = "down"
    session = send_code(gw, "+15551230016")
    wait_for(lambda: "sendverificationmessage" in tg_gateway.calls or "checksendability" in tg_gateway.calls)
    gw.restart()
    tg_gateway.mode = "working"
    user = sign_in(gw, sessionInfo=session, code=tg_gateway.code_for("+15551230016"))
    assert user["phoneNumber"] == "+15551230016"


def test_webhook_with_the_wrong_secret_is_refused_by_the_receiver(make_gateway, sms_webhook):
    config, env = phone_setup(sms=sms_webhook)
    gw = make_gateway(config=config, env={"GATEHOUSE_PHONE_WEBHOOK_SECRET": "not-the-receivers-secret"})
    send_code(gw, "+15551230017")
    wait_for(lambda: sms_webhook.refused >= 1)
    assert sms_webhook.accepted == []
    wait_for(lambda: any(e.get("msg") == "mail abandoned: it cannot be delivered" for e in log_entries(gw)))
    assert "not-the-receivers-secret" not in gw.log_text()


def test_test_numbers_use_their_fixed_code_and_send_nothing(make_gateway):
    gw = make_gateway(config={"phone": {"enabled": True, "testNumbers": {"+15555550100": "246810"}, "sendsPerIPPerHour": 3}})
    session = send_code(gw, "+15555550100")
    assert_business_error(sign_in_raw(gw, sessionInfo=session, code="123456"), "INVALID_CODE")
    assert sign_in(gw, sessionInfo=session, code="246810")["phoneNumber"] == "+15555550100"
    assert_business_error(send_code_raw(gw, "+15551230018"), "OPERATION_NOT_ALLOWED : No code sender is configured for phone numbers")
    # Every session is more guesses at the fixed code: one client gets sendsPerIPPerHour of them, not endless ones.
    send_code(gw, "+15555550100")
    send_code(gw, "+15555550100")
    assert_business_error(send_code_raw(gw, "+15555550100"), "TOO_MANY_ATTEMPTS_TRY_LATER")


def test_emulator_mode_lists_codes_instead_of_sending(make_gateway):
    gw = make_gateway(config={"emulator": True})
    session = send_code(gw, "+15551230019")
    listing = ok_json(send(gw, "GET", f"/emulator/v1/projects/{gw.project_id}/verificationCodes", key=None))
    entry = next(e for e in listing["verificationCodes"] if e["sessionInfo"] == session)
    assert entry["phoneNumber"] == "+15551230019" and len(entry["code"]) == 6
    assert sign_in(gw, sessionInfo=session, code=entry["code"])["isNewUser"] is True


def test_legacy_paths_and_app_verification_answers(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    session = ok_json(post_json(gw, LEGACY + "/sendVerificationCode", {"phoneNumber": "+15551230020",
                                                                        "recaptchaToken": "ignored"}))["sessionInfo"]
    user = ok_json(post_json(gw, LEGACY + "/verifyPhoneNumber",
                             {"sessionInfo": session, "code": tg_gateway.code_for("+15551230020")}))
    assert user["phoneNumber"] == "+15551230020"
    params = ok_json(send(gw, "GET", IDENTITY + "/recaptchaParams"))
    assert params["recaptchaSiteKey"].startswith("Fake-key")
    config = ok_json(send(gw, "GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig",
                          params={"clientType": "CLIENT_TYPE_WEB", "version": "RECAPTCHA_ENTERPRISE"}))
    assert {"provider": "PHONE_PROVIDER", "enforcementState": "OFF"} in config["recaptchaEnforcementState"]


def test_codes_and_tokens_never_reach_the_log(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    session = send_code(gw, "+15551230021")
    code = tg_gateway.code_for("+15551230021")
    sign_in(gw, sessionInfo=session, code=code)
    text = gw.log_text()
    assert session not in text and f'"{code}"' not in text and "AAF-blackbox-gateway-token" not in text


def test_accounts_an_admin_made_with_a_number_sign_in_by_phone(make_gateway, tg_gateway):
    config, env = phone_setup(tg=tg_gateway)
    gw = make_gateway(config=config, env=env)
    created = ok_json(admin_post(gw, "accounts", {"phoneNumber": "+15551230022", "displayName": "Made by admin"}))
    assert_business_error(admin_post(gw, "accounts", {"phoneNumber": "+15551230022"}), "PHONE_NUMBER_EXISTS")
    found = ok_json(admin_post(gw, "accounts:lookup", {"phoneNumber": ["+15551230022"]}))["users"]
    assert [u["localId"] for u in found] == [created["localId"]]
    user = sign_in_by_code(gw, tg_gateway, "+15551230022")
    assert user["localId"] == created["localId"] and user["isNewUser"] is False
    ok_json(post_json(gw, IDENTITY + "/accounts:update", {"idToken": user["idToken"], "deleteProvider": ["phone"]}))
    assert sign_in_by_code(gw, tg_gateway, "+15551230022", after=1)["isNewUser"] is True


def test_two_instances_on_postgres_share_codes_attempts_and_limits(make_gateway, pg_database, tg_gateway):
    config, env = phone_setup(tg=tg_gateway, attemptsPerCode=3, sendsPerPhonePerHour=3)
    env = {**env, "GATEHOUSE_MASTER_KEY": "5e" * 32}
    a, b = (make_gateway(config=config, env=env, database_url=pg_database) for _ in range(2))
    session = send_code(a, "+15551230030")
    code = tg_gateway.code_for("+15551230030")
    wrong = "000000" if code != "000000" else "111111"
    assert_business_error(sign_in_raw(a, sessionInfo=session, code=wrong), "INVALID_CODE")
    assert_business_error(sign_in_raw(b, sessionInfo=session, code=wrong), "INVALID_CODE")
    assert_business_error(sign_in_raw(a, sessionInfo=session, code=wrong), "INVALID_CODE")
    assert_business_error(sign_in_raw(b, sessionInfo=session, code=code), "TOO_MANY_ATTEMPTS_TRY_LATER")
    session = send_code(b, "+15551230030")
    user = sign_in(a, sessionInfo=session, code=tg_gateway.code_for("+15551230030", after=1))
    assert_business_error(sign_in_raw(b, sessionInfo=session, code=tg_gateway.code_for("+15551230030", after=1)),
                          "INVALID_SESSION_INFO")
    send_code(a, "+15551230030")
    assert_business_error(send_code_raw(b, "+15551230030"), "TOO_MANY_ATTEMPTS_TRY_LATER")
    assert lookup(b, user["idToken"])["phoneNumber"] == "+15551230030"
