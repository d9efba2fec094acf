"""firebase-admin (Python, the real package from PyPI) drives the admin API: unchanged against an emulator-mode
gateway (FIREBASE_AUTH_EMULATOR_HOST), and through the `gatehouse_admin` adapter against a production gateway
(service-account credential, signatures checked). Every scenario runs in both modes."""

from __future__ import annotations

import time

import firebase_admin
import pytest
from firebase_admin import auth, exceptions

from admin_sdk import emulator_app, production_app, sign_in_with_custom_token, sign_in_with_password
from verbs import X509_PATH, assert_business_error, jwt_claims, refresh, refresh_raw, sign_up_anonymously


@pytest.fixture(params=["emulator", "production"])
def admin(request, make_gateway, monkeypatch, tmp_path):
    setup = (emulator_app if request.param == "emulator" else
             lambda m, p: production_app(m, p, tmp_path))(make_gateway, monkeypatch)
    yield setup
    firebase_admin.delete_app(setup.app)


def test_create_get_update_delete(admin):
    app = admin.app
    user = auth.create_user(uid="fa-user-1", email="Ada@Example.com", password="secret-pass", phone_number="+15555550100",
                            display_name="Ada", photo_url="https://example.com/a.png", email_verified=True, app=app)
    assert (user.uid, user.email, user.phone_number, user.display_name) == ("fa-user-1", "ada@example.com", "+15555550100", "Ada")
    assert user.email_verified and not user.disabled
    assert [p.provider_id for p in user.provider_data] == ["password", "phone"]
    assert auth.get_user_by_email("ada@example.com", app=app).uid == "fa-user-1"
    assert auth.get_user_by_phone_number("+15555550100", app=app).uid == "fa-user-1"
    updated = auth.update_user("fa-user-1", display_name="Ada L.", disabled=True, phone_number=auth.DELETE_ATTRIBUTE, app=app)
    assert (updated.display_name, updated.disabled, updated.phone_number) == ("Ada L.", True, None)
    generated = auth.create_user(app=app)
    assert len(generated.uid) == 28
    auth.delete_user("fa-user-1", app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("fa-user-1", app=app)


def test_list_users_pages_through_everyone(admin):
    app = admin.app
    uids = [auth.create_user(uid=f"list-{n}", app=app).uid for n in range(5)]
    first = auth.list_users(max_results=2, app=app)
    assert [u.uid for u in first.users] == uids[:2]
    assert first.has_next_page
    seen = [u.uid for u in first.iterate_all()]
    assert seen == uids
    pages = 0
    page = first
    while page:
        pages += 1
        page = page.get_next_page()
    assert pages == 3


def test_delete_users_in_a_batch(admin):
    app = admin.app
    uids = [auth.create_user(uid=f"batch-{n}", app=app).uid for n in range(3)]
    result = auth.delete_users(uids + ["never-existed"], app=app)
    assert (result.success_count, result.failure_count) == (4, 0)
    found = auth.get_users([auth.UidIdentifier(uid) for uid in uids], app=app)
    assert found.users == [] and len(found.not_found) == 3


def test_errors_map_to_the_sdk_exception_classes(admin):
    app = admin.app
    auth.create_user(uid="taken-uid", email="taken@example.com", phone_number="+15555550111", app=app)
    with pytest.raises(auth.UidAlreadyExistsError):
        auth.create_user(uid="taken-uid", app=app)
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(email="TAKEN@example.com", app=app)
    with pytest.raises(auth.PhoneNumberAlreadyExistsError):
        auth.create_user(phone_number="+15555550111", app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.update_user("ghost", display_name="x", app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.delete_user("ghost", app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.generate_email_verification_link("nobody@example.com", app=app)
    with pytest.raises(auth.EmailNotFoundError):
        auth.generate_password_reset_link("nobody@example.com", app=app)
    with pytest.raises(exceptions.InvalidArgumentError):
        auth.create_user(phone_number="+1abc", app=app)
    with pytest.raises(auth.InvalidIdTokenError):
        auth.create_session_cookie("not.a.token", expires_in=3600, app=app)


def test_custom_claims_appear_in_the_next_token(admin):
    app, gw = admin.app, admin.gw
    auth.create_user(uid="claims-user", email="claims@example.com", password="secret-pass", app=app)
    session = sign_in_with_password(gw, "claims@example.com", "secret-pass")
    auth.set_custom_user_claims("claims-user", {"role": "editor", "level": 3}, app=app)
    assert auth.get_user("claims-user", app=app).custom_claims == {"role": "editor", "level": 3}
    refreshed = refresh(gw, session["refreshToken"])
    claims = auth.verify_id_token(refreshed["id_token"], app=app)
    assert (claims["role"], claims["level"]) == ("editor", 3)
    auth.set_custom_user_claims("claims-user", None, app=app)
    assert "role" not in jwt_claims(refresh(gw, session["refreshToken"])["id_token"])


def test_revoke_refresh_tokens_ends_sessions(admin):
    app, gw = admin.app, admin.gw
    auth.create_user(uid="revoked-user", email="revoked@example.com", password="secret-pass", app=app)
    session = sign_in_with_password(gw, "revoked@example.com", "secret-pass")
    assert auth.verify_id_token(session["idToken"], check_revoked=True, app=app)["uid"] == "revoked-user"
    # ID tokens are checked against validSince in whole seconds (as Firebase): revoke in a later second.
    time.sleep(1.1)
    auth.revoke_refresh_tokens("revoked-user", app=app)
    assert_business_error(refresh_raw(gw, session["refreshToken"]), "TOKEN_EXPIRED")
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(session["idToken"], check_revoked=True, app=app)
    time.sleep(1.1)
    fresh = sign_in_with_password(gw, "revoked@example.com", "secret-pass")
    assert auth.verify_id_token(fresh["idToken"], check_revoked=True, app=app)["uid"] == "revoked-user"


def test_revoke_refresh_tokens_ends_the_refresh_token_at_once(admin):
    app, gw = admin.app, admin.gw
    # Signed up and revoked within the same second on (nearly) every try: the refresh token must die anyway.
    for _ in range(3):
        account = sign_up_anonymously(gw)
        auth.revoke_refresh_tokens(account["localId"], app=app)
        assert_business_error(refresh_raw(gw, account["refreshToken"]), "TOKEN_EXPIRED")
        valid_after = auth.get_user(account["localId"], app=app).tokens_valid_after_timestamp
        assert valid_after // 1000 >= jwt_claims(account["idToken"])["iat"]


def test_custom_token_signs_in_with_provider_custom_and_claims(admin):
    app, gw = admin.app, admin.gw
    token = auth.create_custom_token("custom-uid", {"premium": True}, app=app)
    session = sign_in_with_custom_token(gw, token)
    assert session["isNewUser"] is True
    claims = auth.verify_id_token(session["idToken"], check_revoked=True, app=app)
    assert (claims["uid"], claims["premium"], claims["firebase"]["sign_in_provider"]) == ("custom-uid", True, "custom")
    again = sign_in_with_custom_token(gw, auth.create_custom_token("custom-uid", app=app), legacy=True)
    assert again["isNewUser"] is False
    assert auth.get_user("custom-uid", app=app).user_metadata.last_sign_in_timestamp is not None


def test_email_action_links(admin):
    app = admin.app
    auth.create_user(email="links@example.com", password="secret-pass", app=app)
    settings = auth.ActionCodeSettings(url="http://localhost/done", handle_code_in_app=True)
    for link in (auth.generate_password_reset_link("links@example.com", app=app),
                 auth.generate_email_verification_link("links@example.com", app=app),
                 auth.generate_sign_in_with_email_link("links@example.com", settings, app=app)):
        assert "oobCode=" in link


def test_session_cookie_round_trip(admin):
    app, gw = admin.app, admin.gw
    auth.create_user(uid="cookie-user", email="cookie@example.com", password="secret-pass", app=app)
    session = sign_in_with_password(gw, "cookie@example.com", "secret-pass")
    cookie = auth.create_session_cookie(session["idToken"], expires_in=3600, app=app)
    claims = auth.verify_session_cookie(cookie, check_revoked=True, app=app)
    assert claims["uid"] == "cookie-user"
    assert claims["iss"] == f"https://session.firebase.google.com/{gw.project_id}"
    assert claims["exp"] - claims["iat"] == 3600
    time.sleep(1.1)
    auth.revoke_refresh_tokens("cookie-user", app=app)
    with pytest.raises(auth.RevokedSessionCookieError):
        auth.verify_session_cookie(cookie, check_revoked=True, app=app)


def test_emulator_mode_sdk_checks_id_tokens_against_gateway_keys_once_the_variable_is_gone(make_gateway, monkeypatch):
    """In emulator mode tokens are still RS256: a verifier that does check signatures accepts them."""
    setup = emulator_app(make_gateway, monkeypatch)
    try:
        account = sign_up_anonymously(setup.gw)
        verifier = auth._get_client(setup.app)._token_verifier.id_token_verifier
        verifier.cert_url = setup.gw.url(X509_PATH)
        monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST")
        claims = auth.verify_id_token(account["idToken"], app=setup.app)
        assert claims["firebase"]["sign_in_provider"] == "anonymous"
        header, payload, signature = account["idToken"].split(".")
        forged_signature = ("A" if signature[0] != "A" else "B") + signature[1:]
        with pytest.raises(auth.InvalidIdTokenError):
            auth.verify_id_token(f"{header}.{payload}.{forged_signature}", app=setup.app)
    finally:
        firebase_admin.delete_app(setup.app)
