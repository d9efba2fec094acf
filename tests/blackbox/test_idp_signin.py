"""Federated sign-in (`accounts:signInWithIdp` / legacy `verifyAssertion`) with fake emulator credentials."""

from __future__ import annotations

import json
from urllib.parse import quote

from idp_verbs import (
    REQUEST_URI, VERIFY_ASSERTION, assert_plain_success, claims, claims_of, emu, fake_credential, id_token_text,
    identities_of, post_body, provider_info, sign_in_with_idp, sign_in_with_idp_raw, unique, unique_email,
    users_with_email, users_with_identity,
)
from verbs import admin_post, assert_business_error, lookup, lookup_raw, ok_json, refresh

PICTURE = "https://example.com/ada.png"


def test_new_user_response_carries_every_documented_field(emu):
    email = unique_email()
    idp = claims(unique(), email, True, "Ada Lovelace", PICTURE)
    body = sign_in_with_idp(emu, "apple.com", idp, return_idp_credential=True)
    assert body["kind"] == "identitytoolkit#VerifyAssertionResponse"
    assert body["providerId"] == "apple.com"
    assert body["federatedId"] == idp["sub"]
    assert (body["email"], body["emailVerified"]) == (email, True)
    assert (body["displayName"], body["photoUrl"]) == ("Ada Lovelace", PICTURE)
    assert json.loads(body["rawUserInfo"]) == idp
    assert body["oauthIdToken"] == id_token_text(idp)
    assert isinstance(body["oauthAccessToken"], str) and body["oauthAccessToken"]
    assert body["refreshToken"] and body["expiresIn"] == "3600"
    assert_plain_success(body, new_user=True)


def test_id_token_names_the_provider_and_its_identities(emu):
    email = unique_email()
    idp = claims(unique(), email, True)
    body = sign_in_with_idp(emu, "apple.com", idp)
    token = claims_of(body["idToken"])
    assert token["user_id"] == token["sub"] == body["localId"]
    assert token["firebase"]["sign_in_provider"] == "apple.com"
    assert token["firebase"]["identities"] == {"apple.com": [idp["sub"]], "email": [email]}
    assert "provider_id" not in token


def test_identity_without_email_has_only_the_provider_identity(emu):
    idp = claims(unique())
    body = sign_in_with_idp(emu, "facebook.com", idp)
    assert identities_of(body["idToken"]) == {"facebook.com": [idp["sub"]]}
    assert "email" not in lookup(emu, body["idToken"])


def test_unsigned_jwt_credential_is_accepted_like_json_claims(emu):
    idp = claims(unique(), unique_email(), True, "Jo")
    body = sign_in_with_idp(emu, "apple.com", idp, as_jwt=True, return_idp_credential=True)
    assert body["federatedId"] == idp["sub"] and body["displayName"] == "Jo"
    assert body["oauthIdToken"] == id_token_text(idp, as_jwt=True)
    assert json.loads(body["rawUserInfo"])["sub"] == idp["sub"]


def test_same_provider_and_subject_signs_in_the_same_user(emu):
    sub = unique()
    first = sign_in_with_idp(emu, "apple.com", claims(sub))
    again = sign_in_with_idp(emu, "apple.com", claims(sub))
    assert again["localId"] == first["localId"]
    assert_plain_success(again, new_user=False)


def test_other_subject_or_other_provider_is_another_user(emu):
    sub = unique()
    first = sign_in_with_idp(emu, "apple.com", claims(sub))["localId"]
    other_sub = sign_in_with_idp(emu, "apple.com", claims(unique()))
    other_provider = sign_in_with_idp(emu, "facebook.com", claims(sub))
    assert len({first, other_sub["localId"], other_provider["localId"]}) == 3
    assert other_sub["isNewUser"] is True and other_provider["isNewUser"] is True


def test_profile_is_copied_to_the_new_user(emu):
    email = unique_email()
    idp = claims(unique(), email, True, "Grace Hopper", PICTURE)
    user = lookup(emu, sign_in_with_idp(emu, "apple.com", idp)["idToken"])
    assert (user["email"], user["emailVerified"]) == (email, True)
    assert (user["displayName"], user["photoUrl"]) == ("Grace Hopper", PICTURE)
    info = provider_info(user, "apple.com")
    assert info["rawId"] == idp["sub"] and info["federatedId"] == idp["sub"]
    assert info["email"] == email


def test_returning_user_with_a_changed_idp_email_keeps_the_account_email(emu):
    sub, email = unique(), unique_email()
    first = sign_in_with_idp(emu, "apple.com", claims(sub, email, True))
    again = sign_in_with_idp(emu, "apple.com", claims(sub, unique_email(), True))
    assert again["localId"] == first["localId"]
    assert lookup(emu, again["idToken"])["email"] == email
    assert users_with_email(emu, email)[0]["localId"] == first["localId"]


def test_unverified_idp_email_makes_an_unverified_account(emu):
    email = unique_email()
    body = sign_in_with_idp(emu, "facebook.com", claims(unique(), email, False))
    assert body["emailVerified"] is False
    assert lookup(emu, body["idToken"])["emailVerified"] is False


def test_credential_may_sit_in_the_request_uri_query(emu):
    idp = claims(unique())
    uri = f"{REQUEST_URI}/callback?{post_body('apple.com', idp)}"
    body = ok_json(sign_in_with_idp_raw(emu, request_uri=uri, return_idp_credential=True))
    assert (body["providerId"], body["federatedId"]) == ("apple.com", idp["sub"])


def test_credential_may_sit_in_the_request_uri_fragment(emu):
    idp = claims(unique())
    uri = f"{REQUEST_URI}/callback#{post_body('apple.com', idp)}"
    body = ok_json(sign_in_with_idp_raw(emu, request_uri=uri))
    assert (body["providerId"], body["federatedId"]) == ("apple.com", idp["sub"])


def test_post_body_overrides_query_and_fragment_overrides_post_body(emu):
    from_query, from_body, from_fragment = claims(unique()), claims(unique()), claims(unique())
    uri = f"{REQUEST_URI}/cb?providerId=facebook.com&id_token={quote(id_token_text(from_query))}"
    body = ok_json(sign_in_with_idp_raw(emu, "apple.com", from_body, request_uri=uri))
    assert (body["providerId"], body["federatedId"]) == ("apple.com", from_body["sub"])

    uri = f"{REQUEST_URI}/cb#id_token={quote(id_token_text(from_fragment))}"
    body = ok_json(sign_in_with_idp_raw(emu, "apple.com", from_body, request_uri=uri))
    assert body["federatedId"] == from_fragment["sub"]


def test_request_uri_is_required_and_absolute(emu):
    body_post = fake_credential("apple.com", unique(), unique_email(), True)
    assert_business_error(sign_in_with_idp_raw(emu, body_post=body_post, request_uri=None), "MISSING_REQUEST_URI")
    assert_business_error(sign_in_with_idp_raw(emu, body_post=body_post, request_uri="notAnAbsoluteUri"),
                          "INVALID_REQUEST_URI")


def test_missing_provider_id_is_an_invalid_credential(emu):
    response = sign_in_with_idp_raw(emu, None, claims(unique()))
    assert_business_error(response, "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    message = response.json()["error"]["message"]
    assert message.startswith(f"INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: {REQUEST_URI}")


def test_claims_without_a_string_sub_are_an_invalid_idp_response(emu):
    for bad in ({}, {"sub": 12345}, {"email": "a@example.com"}):
        assert_business_error(sign_in_with_idp_raw(emu, "apple.com", bad), "INVALID_IDP_RESPONSE")
    unparsable = "providerId=apple.com&id_token=" + quote("{not json")
    assert_business_error(sign_in_with_idp_raw(emu, body_post=unparsable), "INVALID_IDP_RESPONSE")


def test_legacy_verify_assertion_behaves_the_same(emu):
    idp = claims(unique(), unique_email(), True)
    first = ok_json(sign_in_with_idp_raw(emu, "apple.com", idp, path=VERIFY_ASSERTION))
    assert first["kind"] == "identitytoolkit#VerifyAssertionResponse" and first["isNewUser"] is True
    again = sign_in_with_idp(emu, "apple.com", idp)
    assert again["localId"] == first["localId"]
    assert_business_error(sign_in_with_idp_raw(emu, body_post=post_body("apple.com", idp), request_uri=None,
                                               path=VERIFY_ASSERTION), "MISSING_REQUEST_URI")


def test_refreshed_id_token_keeps_the_identities(emu):
    idp = claims(unique(), unique_email(), True)
    body = sign_in_with_idp(emu, "apple.com", idp)
    refreshed = refresh(emu, body["refreshToken"])["id_token"]
    assert identities_of(refreshed) == identities_of(body["idToken"])
    assert claims_of(refreshed)["firebase"]["sign_in_provider"] == "apple.com"


def test_disabled_user_cannot_sign_in_with_idp(emu):
    idp = claims(unique())
    local_id = sign_in_with_idp(emu, "apple.com", idp)["localId"]
    ok_json(admin_post(emu, "accounts:update", {"localId": local_id, "disableUser": True}))
    assert_business_error(sign_in_with_idp_raw(emu, "apple.com", idp), "USER_DISABLED")


# ---------------------------------------------------------------- reauthentication

def test_reauthentication_returns_the_owner_of_the_identity(emu):
    idp = claims(unique())
    current = sign_in_with_idp(emu, "apple.com", idp)
    reauth = sign_in_with_idp(emu, "apple.com", idp, auto_create=False)
    assert reauth["localId"] == current["localId"]
    assert claims_of(reauth["idToken"])["sub"] == current["localId"]
    assert ok_json(lookup_raw(emu, current["idToken"]))["users"][0]["localId"] == current["localId"]


def test_reauthentication_with_another_identity_reveals_a_mismatch(emu):
    other_sub = unique()
    current = sign_in_with_idp(emu, "apple.com", claims(unique()))
    other = sign_in_with_idp(emu, "apple.com", claims(other_sub))
    reauth = sign_in_with_idp(emu, "apple.com", claims(other_sub), auto_create=False)
    assert reauth["localId"] == other["localId"] != current["localId"]


def test_auto_create_false_never_creates_a_user(emu):
    idp = claims(unique(), unique_email(), True)
    response = sign_in_with_idp_raw(emu, "apple.com", idp, auto_create=False)
    assert response.status_code == 400, response.text
    assert "idToken" not in response.json()
    assert users_with_identity(emu, "apple.com", idp["sub"]) == []
    assert sign_in_with_idp(emu, "apple.com", idp)["isNewUser"] is True
