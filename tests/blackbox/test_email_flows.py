"""Email provider end to end: real gateway, real SMTP server on loopback, links followed like a person would."""

from __future__ import annotations

import time

from email_verbs import (email_config, follow, link_in, link_params, read_form, send_oob_raw, sign_in_raw, sign_up)
from verbs import IDENTITY, assert_business_error, lookup, ok_json, post_json, send, sign_up_anonymously


def test_verification_mail_link_verifies_the_address(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port))
    user = sign_up(gw, "Ada@Example.com")
    ok_json(send_oob_raw(gw, {"requestType": "VERIFY_EMAIL", "idToken": user["idToken"]}))
    mail = smtp_sink.wait_for("ada@example.com")
    assert mail.mail_from == "noreply@example.com"
    assert "Verify your email" in mail.subject
    link = link_in(mail.text)
    assert link_params(link)["mode"] == "verifyEmail"
    assert link_params(link)["apiKey"] == "blackbox-key"
    assert link in mail.html.replace("&amp;", "&")
    page = follow(gw, link)  # opening the link (as a mail scanner would) only shows a confirm button
    assert page.status_code == 200 and page.headers["Referrer-Policy"] == "no-referrer"
    assert lookup(gw, user["idToken"])["emailVerified"] is False
    form = read_form(page.text)
    done = send(gw, "POST", form.action, key=None, data=form.fields)
    assert done.status_code == 200 and "verified" in done.text
    assert lookup(gw, user["idToken"])["emailVerified"] is True
    assert follow(gw, link).status_code == 400  # used up


def test_password_reset_through_the_action_page_form(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port))
    sign_up(gw, "bob@example.com", "old-password")
    ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": "bob@example.com"}))
    link = link_in(smtp_sink.wait_for("bob@example.com").text)
    code = link_params(link)["oobCode"]
    peek = ok_json(post_json(gw, IDENTITY + "/accounts:resetPassword", {"oobCode": code}))
    assert peek["requestType"] == "PASSWORD_RESET" and peek["email"] == "bob@example.com"

    form = read_form(follow(gw, link).text)
    form.fields["newPassword"] = "new-password"
    done = send(gw, "POST", form.action, key=None, data=form.fields)
    assert done.status_code == 200, done.text
    assert_business_error(sign_in_raw(gw, "bob@example.com", "old-password"), "INVALID_PASSWORD")
    assert ok_json(sign_in_raw(gw, "bob@example.com", "new-password"))["registered"] is True
    assert_business_error(post_json(gw, IDENTITY + "/accounts:resetPassword",
                                    {"oobCode": code, "newPassword": "third-one"}), "INVALID_OOB_CODE")
    assert_business_error(post_json(gw, IDENTITY + "/accounts:resetPassword",
                                    {"oobCode": "made-up", "newPassword": "third-one"}), "INVALID_OOB_CODE")


def test_email_link_sign_in_via_redirect_and_link_to_anonymous_user(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port))
    ok_json(send_oob_raw(gw, {"requestType": "EMAIL_SIGNIN", "email": "eve@example.com", "canHandleCodeInApp": True,
                              "continueUrl": "https://app.example.com/finish"}))
    link = link_in(smtp_sink.wait_for("eve@example.com").text)
    redirect = follow(gw, link)
    assert redirect.status_code == 303
    landed = redirect.headers["Location"]
    assert landed.startswith("https://app.example.com/finish?mode=signIn&oobCode=")
    code = link_params(landed)["oobCode"]
    created = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithEmailLink", {"email": "eve@example.com", "oobCode": code}))
    assert created["isNewUser"] is True
    assert lookup(gw, created["idToken"])["emailLinkSignin"] is True

    anonymous = sign_up_anonymously(gw)
    ok_json(send_oob_raw(gw, {"requestType": "EMAIL_SIGNIN", "email": "anon@example.com"}))
    code = link_params(link_in(smtp_sink.wait_for("anon@example.com").text))["oobCode"]
    linked = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithEmailLink",
                               {"email": "anon@example.com", "oobCode": code, "idToken": anonymous["idToken"]}))
    assert linked["localId"] == anonymous["localId"]


def test_verify_and_change_email(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port))
    user = sign_up(gw, "old@example.com")
    ok_json(send_oob_raw(gw, {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"],
                              "newEmail": "new@example.com"}))
    mail = smtp_sink.wait_for("new@example.com")
    assert not smtp_sink.for_recipient("old@example.com")
    code = link_params(link_in(mail.text))["oobCode"]
    applied = ok_json(post_json(gw, IDENTITY + "/accounts:update", {"oobCode": code}))
    assert applied["email"] == "new@example.com" and applied["emailVerified"] is True
    assert ok_json(sign_in_raw(gw, "new@example.com", "secret123"))["localId"] == user["localId"]


def test_persian_template_for_firebase_locale_fa(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port))
    sign_up(gw, "sara@example.com")
    ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": "sara@example.com"},
                         headers={"X-Firebase-Locale": "fa-IR"}))
    mail = smtp_sink.wait_for("sara@example.com")
    assert mail.subject == "بازنشانی گذرواژه برای demo-blackbox"
    assert 'dir="rtl"' in mail.html and "گذرواژه" in mail.text
    link = link_in(mail.text)
    assert link_params(link)["lang"] == "fa-IR"
    page = follow(gw, link)
    assert 'dir="rtl"' in page.text


def test_smtp_down_the_request_is_answered_and_the_mail_arrives_later(make_gateway):
    from harness import free_loopback_port
    from smtp_sink import SmtpSink

    # The SMTP port is only reserved later (when the sink starts), so make sure the gateway did not get it.
    for _ in range(5):
        port = free_loopback_port()
        gw = make_gateway(config=email_config(port))
        if gw.port != port:
            break
        assert gw.stop() == 0
    assert gw.port != port
    sign_up(gw, "late@example.com")
    ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": "late@example.com"}))
    deadline = time.monotonic() + 10
    while "mail delivery failed; will retry" not in gw.log_text():
        assert time.monotonic() < deadline, "no failed delivery was logged"
        time.sleep(0.1)
    sink = SmtpSink(port).start()
    try:
        mail = sink.wait_for("late@example.com", timeout=20)
        assert link_params(link_in(mail.text))["mode"] == "resetPassword"
        assert len(sink.for_recipient("late@example.com")) == 1
    finally:
        sink.stop()


def test_send_limits_per_address(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port, limits={"sendsPerEmailPerHour": 2}))
    body = {"requestType": "EMAIL_SIGNIN", "email": "spam@example.com"}
    ok_json(send_oob_raw(gw, body))
    ok_json(send_oob_raw(gw, body))
    assert_business_error(send_oob_raw(gw, body), "TOO_MANY_ATTEMPTS_TRY_LATER")


def test_unauthorized_continue_url(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port))
    assert_business_error(send_oob_raw(gw, {"requestType": "EMAIL_SIGNIN", "email": "a@example.com",
                                            "continueUrl": "https://phish.example.net/"}), "UNAUTHORIZED_DOMAIN")


def test_privacy_on_hides_accounts(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port, improvedEmailPrivacy=True))
    sign_up(gw, "known@example.com")
    assert_business_error(sign_in_raw(gw, "known@example.com", "wrong-password"), "INVALID_LOGIN_CREDENTIALS")
    assert_business_error(sign_in_raw(gw, "unknown@example.com", "wrong-password"), "INVALID_LOGIN_CREDENTIALS")
    uri = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri",
                            {"identifier": "known@example.com", "continueUri": "http://localhost"}))
    assert "registered" not in uri and "signinMethods" not in uri
    ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": "unknown@example.com"}))
