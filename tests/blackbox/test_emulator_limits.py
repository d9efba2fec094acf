"""Issue 19 item 1: the Firebase Auth Emulator never rate-limits, so with `--emulator` the per-client limits
(password and anonymous sign-ups, action mails, failed passwords) are off unless the operator sets them; an
explicit limit still holds, and production mode keeps its defaults."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from email_verbs import CHEAP_SCRYPT, send_oob_raw, sign_in_raw, sign_up
from idp_verbs import unique
from verbs import IDENTITY, assert_business_error, ok_json, post_json, sign_up_anonymously_raw

# Beyond every default: anonymous 300/h, password sign-ups 100/h, mails 5/h per address, 10 wrong passwords.
ANONYMOUS_DEFAULT = 300
PASSWORD_SIGN_UPS_DEFAULT = 100
SENDS_PER_EMAIL_DEFAULT = 5
FAILED_PASSWORDS_DEFAULT = 10


def emulator(make_gateway, **sections):
    return make_gateway(config={"emulator": True, "email": {"scrypt": CHEAP_SCRYPT, **sections.pop("email", {})},
                                **sections})


def test_emulator_mode_creates_hundreds_of_accounts_from_one_address(make_gateway):
    gw = emulator(make_gateway)
    with ThreadPoolExecutor(max_workers=8) as pool:
        anonymous = list(pool.map(lambda _: sign_up_anonymously_raw(gw).status_code, range(ANONYMOUS_DEFAULT + 20)))
        passwords = list(pool.map(lambda i: sign_up(gw, f"{unique('many')}-{i}@example.com")["localId"],
                                  range(PASSWORD_SIGN_UPS_DEFAULT + 10)))
    assert anonymous == [200] * (ANONYMOUS_DEFAULT + 20)
    assert len(set(passwords)) == PASSWORD_SIGN_UPS_DEFAULT + 10


def test_emulator_mode_sends_and_checks_passwords_without_limits(make_gateway):
    gw = emulator(make_gateway)
    address = f"{unique('mail')}@example.com"
    sign_up(gw, address)
    for _ in range(SENDS_PER_EMAIL_DEFAULT + 3):
        assert ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": address}))["email"] == address
    for _ in range(FAILED_PASSWORDS_DEFAULT + 3):
        assert_business_error(sign_in_raw(gw, address, "wrong-password"), "INVALID_PASSWORD")
    assert ok_json(sign_in_raw(gw, address, "secret123"))["email"] == address


def test_emulator_mode_keeps_limits_the_operator_set(make_gateway):
    gw = emulator(make_gateway, anonymous={"signUpsPerIPPerHour": 2},
                  email={"limits": {"sendsPerEmailPerHour": 1, "failedPasswordsPerAccount": 2, "signUpsPerIPPerHour": 3}})
    assert [sign_up_anonymously_raw(gw).status_code for _ in range(2)] == [200, 200]
    assert_business_error(sign_up_anonymously_raw(gw), "TOO_MANY_ATTEMPTS_TRY_LATER")
    address = f"{unique('set')}@example.com"
    sign_up(gw, address)
    sign_up(gw, "b-" + address)
    ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": address}))
    assert_business_error(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": address}),
                          "TOO_MANY_ATTEMPTS_TRY_LATER")
    for _ in range(2):
        assert_business_error(sign_in_raw(gw, address, "wrong-password"), "INVALID_PASSWORD")
    assert_business_error(sign_in_raw(gw, address, "wrong-password"), "TOO_MANY_ATTEMPTS_TRY_LATER")
    sign_up(gw, "c-" + address)
    fourth = post_json(gw, IDENTITY + "/accounts:signUp", {"email": "d-" + address, "password": "secret123"})
    assert_business_error(fourth, "TOO_MANY_ATTEMPTS_TRY_LATER")


def test_production_mode_keeps_the_default_limits(make_gateway):
    gw = make_gateway(config={"email": {"scrypt": CHEAP_SCRYPT}})
    address = f"{unique('prod')}@example.com"
    sign_up(gw, address)
    for _ in range(SENDS_PER_EMAIL_DEFAULT):
        ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": address}))
    assert_business_error(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": address}),
                          "TOO_MANY_ATTEMPTS_TRY_LATER")
    for _ in range(FAILED_PASSWORDS_DEFAULT):
        assert_business_error(sign_in_raw(gw, address, "wrong-password"), "INVALID_PASSWORD")
    assert_business_error(sign_in_raw(gw, address, "secret123"), "TOO_MANY_ATTEMPTS_TRY_LATER")
