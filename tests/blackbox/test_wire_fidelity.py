"""Issue 19 items 2-4: answers that must match the Firebase Auth Emulator's request by request (firebase-tools
`src/emulator/auth/{idp,rest,createAuthUri,signUp,deleteAccount,setAccountInfo}.spec.ts`)."""

from __future__ import annotations

import pytest

from idp_verbs import claims, emu, provider_info, sign_in_with_idp, unique, unique_email  # noqa: F401 (fixture)
from verbs import (
    IDENTITY, LEGACY, admin_post, assert_business_error, assert_invalid_json_payload, lookup, ok_json, post_json,
    sign_up_anonymously,
)

OWNER = {"Authorization": "Bearer owner"}
CREATE_AUTH_URI = IDENTITY + "/accounts:createAuthUri"


def owner_post(gw, path: str, body: dict):
    return post_json(gw, path, body, key=None, headers=OWNER)


# ---------------------------------------------------------------- item 2: federatedId

def test_google_federated_id_is_the_accounts_url_while_raw_id_stays_the_subject(emu):
    sub = unique("g")
    answer = sign_in_with_idp(emu, "google.com", claims(sub, unique_email(), True))
    assert answer["federatedId"] == f"https://accounts.google.com/{sub}"
    info = provider_info(lookup(emu, answer["idToken"]), "google.com")
    assert info["rawId"] == sub and info["federatedId"] == sub


@pytest.mark.parametrize("provider", ["apple.com", "facebook.com", "github.com", "oidc.example"])
def test_other_providers_answer_the_bare_subject(emu, provider):
    sub = unique("s")
    answer = sign_in_with_idp(emu, provider, claims(sub))
    assert answer["federatedId"] == sub
    assert provider_info(lookup(emu, answer["idToken"]), provider)["federatedId"] == sub


# ---------------------------------------------------------------- item 3: enums as numbers

@pytest.mark.parametrize("path", [IDENTITY + "/accounts:sendOobCode", LEGACY + "/getOobConfirmationCode"])
def test_request_type_as_its_proto_number_on_v1_and_legacy_paths(emu, path):
    # 6 is EMAIL_SIGNIN: what the Android SDK sends (rest.spec.ts "should handle integer values for enums").
    answer = ok_json(owner_post(emu, path, {"email": "bob@example.com", "requestType": 6, "returnOobLink": True}))
    assert "mode=signIn" in answer["oobLink"]
    reset = ok_json(owner_post(emu, path, {"email": "bob@example.com", "requestType": "EMAIL_SIGNIN", "returnOobLink": True}))
    assert "mode=signIn" in reset["oobLink"]


def test_request_type_zero_is_unspecified_and_unknown_numbers_are_invalid(emu):
    path = IDENTITY + "/accounts:sendOobCode"
    assert_business_error(owner_post(emu, path, {"email": "bob@example.com", "requestType": 0}), "MISSING_REQ_TYPE")
    assert_invalid_json_payload(owner_post(emu, path, {"email": "bob@example.com", "requestType": 99}))
    assert_invalid_json_payload(owner_post(emu, path, {"email": "bob@example.com", "requestType": -1}))


def test_delete_attribute_as_numbers(emu):
    user = sign_up_anonymously(emu)
    token = user["idToken"]
    ok_json(post_json(emu, IDENTITY + "/accounts:update", {"idToken": token, "displayName": "Ada",
                                                            "photoUrl": "https://example.com/a.png"}))
    # 2 is DISPLAY_NAME, 4 is PHOTO_URL.
    answer = ok_json(post_json(emu, IDENTITY + "/accounts:update", {"idToken": token, "deleteAttribute": [2, 4]}))
    assert "displayName" not in answer and "photoUrl" not in answer
    assert_invalid_json_payload(post_json(emu, IDENTITY + "/accounts:update", {"idToken": token, "deleteAttribute": [42]}))


def test_query_order_as_a_number(emu):
    ids = sorted(sign_up_anonymously(emu)["localId"] for _ in range(3))
    # 2 is DESC, 1 is USER_ID.
    answer = ok_json(owner_post(emu, f"/identitytoolkit.googleapis.com/v1/projects/{emu.project_id}/accounts:query",
                                {"order": 2, "sortBy": 1}))
    assert [user["localId"] for user in answer["userInfo"]] == sorted(ids, reverse=True)


def test_password_hash_order_as_a_number(emu):
    """`passwordHashOrder` 2 is PASSWORD_AND_SALT: an SHA256 hash of password then salt signs in with the password."""
    import base64
    import hashlib
    salt, password = b"salt-bytes", "order-password"
    digest = hashlib.sha256(password.encode() + salt).digest()
    email = unique_email()
    user = {"localId": unique("order"), "email": email, "passwordHash": base64.urlsafe_b64encode(digest).decode(),
            "salt": base64.urlsafe_b64encode(salt).decode()}
    path = f"/identitytoolkit.googleapis.com/v1/projects/{emu.project_id}/accounts:batchCreate"
    answer = ok_json(owner_post(emu, path, {"hashAlgorithm": "SHA256", "rounds": 1, "passwordHashOrder": 2, "users": [user]}))
    assert answer.get("error", []) == []
    ok_json(post_json(emu, IDENTITY + "/accounts:signInWithPassword", {"email": email, "password": password}))
    assert_invalid_json_payload(owner_post(emu, path, {"hashAlgorithm": "SHA256", "rounds": 1, "passwordHashOrder": 7,
                                                       "users": [{"localId": unique("order")}]}))


# ---------------------------------------------------------------- item 4: validation Firebase does

def test_create_auth_uri_needs_an_identifier_then_a_continue_uri(emu):
    assert_business_error(post_json(emu, CREATE_AUTH_URI, {"continueUri": "http://example.com/"}), "MISSING_IDENTIFIER")
    assert_business_error(post_json(emu, CREATE_AUTH_URI, {"identifier": "me@example.com"}), "MISSING_CONTINUE_URI")
    assert_business_error(post_json(emu, CREATE_AUTH_URI, {"identifier": "me@example.com", "continueUri": ""}),
                          "MISSING_CONTINUE_URI")


@pytest.mark.parametrize("continue_uri", ["invalid", "/relative/path", "://no-scheme", "1http://x/", "http:"])
def test_create_auth_uri_refuses_a_continue_uri_that_is_not_absolute(emu, continue_uri):
    response = post_json(emu, CREATE_AUTH_URI, {"identifier": "me@example.com", "continueUri": continue_uri})
    assert_business_error(response, "INVALID_CONTINUE_URI")


def test_create_auth_uri_checks_the_identifier_before_the_continue_uri(emu):
    response = post_json(emu, CREATE_AUTH_URI, {"identifier": "invalid", "continueUri": "invalid"})
    assert_business_error(response, "INVALID_IDENTIFIER")


@pytest.mark.parametrize("continue_uri", ["http://example.com/", "https://app.example/finish?x=1",
                                          "com.example.app:/callback", "http://localhost"])
def test_create_auth_uri_accepts_absolute_uris(emu, continue_uri):
    answer = ok_json(post_json(emu, CREATE_AUTH_URI, {"identifier": "me@example.com", "continueUri": continue_uri}))
    assert answer["registered"] is False and answer["sessionId"]


def test_admin_sign_up_with_an_invalid_phone_number(emu):
    response = owner_post(emu, IDENTITY + "/accounts:signUp", {"phoneNumber": "5555550100"})
    assert_business_error(response, "INVALID_PHONE_NUMBER : Invalid format.")


@pytest.mark.parametrize("path", [IDENTITY + "/accounts:signUp", LEGACY + "/signupNewUser",
                                  IDENTITY + "/accounts:lookup", IDENTITY + "/accounts:sendOobCode"])
def test_target_project_id_needs_an_admin_credential(emu, path):
    response = post_json(emu, path, {"targetProjectId": emu.project_id, "returnSecureToken": True})
    assert_business_error(response, "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")


def test_target_project_id_with_an_admin_credential_is_served(emu):
    answer = ok_json(owner_post(emu, IDENTITY + "/accounts:signUp", {"targetProjectId": emu.project_id}))
    assert answer["localId"] and "idToken" not in answer


def test_link_provider_user_info_needs_provider_and_raw_id(emu):
    local_id = sign_up_anonymously(emu)["localId"]
    path = IDENTITY + "/accounts:update"
    assert_business_error(owner_post(emu, path, {"localId": local_id, "linkProviderUserInfo": {"rawId": "x"}}),
                          "MISSING_PROVIDER_ID")
    assert_business_error(owner_post(emu, path, {"localId": local_id, "linkProviderUserInfo": {"providerId": "google.com"}}),
                          "MISSING_RAW_ID")


@pytest.mark.parametrize("path", [IDENTITY + "/accounts:delete", "/identitytoolkit.googleapis.com/v1/projects/{p}/accounts:delete"])
def test_admin_delete_without_local_id(emu, path):
    assert_business_error(owner_post(emu, path.format(p=emu.project_id), {}), "MISSING_LOCAL_ID")


def test_admin_delete_in_production_mode_without_local_id(gw):
    assert_business_error(admin_post(gw, "accounts:delete", {}), "MISSING_LOCAL_ID")


def test_screen_name_from_the_idp_is_kept(emu):
    sub = unique("octo")
    idp = {**claims(sub, unique_email(), True), "screen_name": "octocat"}
    answer = sign_in_with_idp(emu, "github.com", idp)
    assert answer["screenName"] == "octocat"
    assert provider_info(lookup(emu, answer["idToken"]), "github.com")["screenName"] == "octocat"
