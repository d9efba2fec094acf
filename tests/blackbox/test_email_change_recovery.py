"""Issue 19 item 6: the email-change side of OOB codes. After a change of address the previous address gets a
RECOVER_EMAIL mail (English or Persian, through the outbox) whose code restores it, on the action page and through
`accounts:update`; the emulator's `/emulator/v1/projects/{p}/oobCodes` lists codes as the emulator does (used
ones disappear, a change of address is listed under the old address). Firebase-tools: setAccountInfo.spec.ts
("should set email and send a recover-email OOB"), oob.spec.ts ("oobCode is removed after redeemed")."""

from __future__ import annotations

import time

from email_verbs import email_config, follow, link_in, link_params, read_form, send_oob_raw, sign_in_raw, sign_up
from verbs import (
    IDENTITY, assert_business_error, lookup, lookup_raw, ok_json, post_json, refresh_raw, send, sign_up_anonymously,
)

UPDATE = IDENTITY + "/accounts:update"


def emulator_with_mail(make_gateway, smtp_sink):
    return make_gateway(config={"emulator": True, **email_config(smtp_sink.port)})


def oob_codes(gw) -> list[dict]:
    return ok_json(send(gw, "GET", f"/emulator/v1/projects/{gw.project_id}/oobCodes", key=None))["oobCodes"]


def change_email(gw, id_token: str, new_email: str, **headers) -> dict:
    return ok_json(post_json(gw, UPDATE, {"idToken": id_token, "email": new_email, "returnSecureToken": True},
                             headers=headers))


def test_changing_the_email_mails_a_recovery_link_that_restores_the_old_address(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    user = sign_up(gw, "old@example.com")
    changed = change_email(gw, user["idToken"], "new@example.com")
    assert changed["email"] == "new@example.com"
    assert ok_json(sign_in_raw(gw, "new@example.com", "secret123"))["localId"] == user["localId"]
    assert_business_error(sign_in_raw(gw, "old@example.com", "secret123"), "EMAIL_NOT_FOUND")

    mail = smtp_sink.wait_for("old@example.com")
    assert "was changed" in mail.subject and "new@example.com" in mail.text
    link = link_in(mail.text)
    assert link_params(link)["mode"] == "recoverEmail"
    assert [(c["email"], c["requestType"], c.get("newEmail")) for c in oob_codes(gw)] == [
        ("old@example.com", "RECOVER_EMAIL", "new@example.com")]
    # checkActionCode: the restored address is `email`, the one it replaces `newEmail` (the JS SDK's previousEmail).
    code = link_params(link)["oobCode"]
    peek = ok_json(post_json(gw, IDENTITY + "/accounts:resetPassword", {"oobCode": code}))
    assert peek == {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": "RECOVER_EMAIL",
                    "email": "old@example.com", "newEmail": "new@example.com"}

    time.sleep(1.1)  # ID tokens are revoked by the second (validSince), as Firebase's are
    page = follow(gw, link)  # opening the link only shows the button
    assert page.status_code == 200 and "old@example.com" in page.text
    form = read_form(page.text)
    done = send(gw, "POST", form.action, key=None, data=form.fields)
    assert done.status_code == 200 and "restored" in done.text
    assert ok_json(sign_in_raw(gw, "old@example.com", "secret123"))["localId"] == user["localId"]
    assert_business_error(sign_in_raw(gw, "new@example.com", "secret123"), "EMAIL_NOT_FOUND")
    restored = lookup(gw, ok_json(sign_in_raw(gw, "old@example.com", "secret123"))["idToken"])
    assert restored["email"] == "old@example.com" and restored["emailVerified"] is True
    # Whoever changed the address is signed out: the sessions from before the restore are over.
    assert_business_error(refresh_raw(gw, changed["refreshToken"]), "TOKEN_EXPIRED")
    assert_business_error(lookup_raw(gw, changed["idToken"]), "TOKEN_EXPIRED")
    # Used codes disappear from the emulator's list; the link is spent.
    assert oob_codes(gw) == []
    assert follow(gw, link).status_code == 400


def test_apply_action_code_restores_the_address(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    user = sign_up(gw, "first@example.com")
    change_email(gw, user["idToken"], "second@example.com")
    [recovery] = oob_codes(gw)
    answer = ok_json(post_json(gw, UPDATE, {"oobCode": recovery["oobCode"]}))
    assert answer["email"] == "first@example.com" and answer["emailVerified"] is True
    assert_business_error(post_json(gw, UPDATE, {"oobCode": recovery["oobCode"]}), "INVALID_OOB_CODE")


def test_recovery_is_refused_when_another_account_took_the_old_address(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    user = sign_up(gw, "taken@example.com")
    change_email(gw, user["idToken"], "moved@example.com")
    [recovery] = oob_codes(gw)
    sign_up(gw, "taken@example.com")
    assert_business_error(post_json(gw, UPDATE, {"oobCode": recovery["oobCode"]}), "EMAIL_EXISTS")
    assert ok_json(sign_in_raw(gw, "moved@example.com", "secret123"))["localId"] == user["localId"]


def test_initial_email_is_the_address_before_the_first_change_and_is_kept(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    user = sign_up(gw, "one@example.com")
    assert "initialEmail" not in lookup(gw, user["idToken"])
    second = change_email(gw, user["idToken"], "two@example.com")
    assert lookup(gw, second["idToken"])["initialEmail"] == "one@example.com"
    third = change_email(gw, second["idToken"], "three@example.com")
    assert lookup(gw, third["idToken"])["initialEmail"] == "one@example.com"
    # The latest recovery restores the address just left (two@), and initialEmail stays the first one.
    recovery = [c for c in oob_codes(gw) if c["newEmail"] == "three@example.com"][0]
    assert recovery["email"] == "two@example.com"
    ok_json(post_json(gw, UPDATE, {"oobCode": recovery["oobCode"]}))
    signed_in = ok_json(sign_in_raw(gw, "two@example.com", "secret123"))
    restored = lookup(gw, signed_in["idToken"])
    assert (restored["email"], restored["initialEmail"]) == ("two@example.com", "one@example.com")


def test_persian_recovery_mail(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    user = sign_up(gw, "sara@example.com")
    change_email(gw, user["idToken"], "sara.new@example.com", **{"X-Firebase-Locale": "fa"})
    mail = smtp_sink.wait_for("sara@example.com")
    assert "تغییر کرد" in mail.subject and 'dir="rtl"' in mail.html
    assert link_params(link_in(mail.text))["lang"] == "fa"


def test_verify_and_change_is_listed_under_the_old_address_and_then_sends_a_recovery(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    user = sign_up(gw, "alice@example.com")
    ok_json(send_oob_raw(gw, {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": user["idToken"],
                              "newEmail": "bob@example.com"}))
    [change] = oob_codes(gw)
    assert (change["email"], change["newEmail"], change["requestType"]) == (
        "alice@example.com", "bob@example.com", "VERIFY_AND_CHANGE_EMAIL")
    assert link_in(smtp_sink.wait_for("bob@example.com").text)  # the change link goes to the new mailbox
    ok_json(post_json(gw, UPDATE, {"oobCode": change["oobCode"]}))
    [recovery] = oob_codes(gw)
    assert (recovery["email"], recovery["newEmail"], recovery["requestType"]) == (
        "alice@example.com", "bob@example.com", "RECOVER_EMAIL")
    assert "recoverEmail" in link_in(smtp_sink.wait_for("alice@example.com").text)


def test_no_recovery_for_a_first_address_or_an_admin_change(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    anonymous = sign_up_anonymously(gw)
    change_email(gw, anonymous["idToken"], "first@example.com")
    user = sign_up(gw, "kept@example.com")
    ok_json(post_json(gw, UPDATE, {"localId": user["localId"], "email": "admin-set@example.com"},
                      key=None, headers={"Authorization": "Bearer owner"}))
    assert oob_codes(gw) == []


def test_recover_email_cannot_be_asked_for(make_gateway, smtp_sink):
    gw = emulator_with_mail(make_gateway, smtp_sink)
    user = sign_up(gw, "ask@example.com")
    response = send_oob_raw(gw, {"requestType": "RECOVER_EMAIL", "idToken": user["idToken"], "email": "ask@example.com"})
    assert_business_error(response, "OPERATION_NOT_ALLOWED")
    assert oob_codes(gw) == []


def test_production_mode_sends_the_recovery_mail_too(make_gateway, smtp_sink):
    gw = make_gateway(config=email_config(smtp_sink.port))
    user = sign_up(gw, "prod-old@example.com")
    change_email(gw, user["idToken"], "prod-new@example.com")
    link = link_in(smtp_sink.wait_for("prod-old@example.com").text)
    ok_json(post_json(gw, UPDATE, {"oobCode": link_params(link)["oobCode"]}))
    assert ok_json(sign_in_raw(gw, "prod-old@example.com", "secret123"))["localId"] == user["localId"]
