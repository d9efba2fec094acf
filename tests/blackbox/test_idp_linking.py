"""Linking IdP identities to the current user: upgrade, conflicts and the updated credential, unlink."""

from __future__ import annotations

from idp_verbs import (
    VERIFY_ASSERTION, assert_error_with_credential, assert_plain_success, assert_token_matches_account, claims,
    claims_of, emu, identities_of,
    link_idp, link_idp_raw, provider_ids, sign_in_with_idp, sign_in_with_idp_raw, sign_in_with_pending_token_raw,
    unique, unique_email, unlink, users_with_identity,
)
from verbs import admin_post, assert_business_error, lookup, ok_json, refresh, sign_up_anonymously


def test_anonymous_upgrade_keeps_the_local_id(emu):
    anonymous = sign_up_anonymously(emu)
    assert claims_of(anonymous["idToken"])["provider_id"] == "anonymous"
    idp = claims(unique())
    body = link_idp(emu, anonymous["idToken"], "apple.com", idp)
    assert body["localId"] == anonymous["localId"]
    assert_plain_success(body, new_user=False)
    token = claims_of(body["idToken"])
    assert token["firebase"]["sign_in_provider"] == "apple.com"
    assert token["firebase"]["identities"] == {"apple.com": [idp["sub"]]}
    assert "provider_id" not in token
    assert provider_ids(lookup(emu, body["idToken"])) == {"apple.com"}


def test_upgraded_anonymous_user_signs_in_with_the_identity(emu):
    anonymous = sign_up_anonymously(emu)
    idp = claims(unique())
    link_idp(emu, anonymous["idToken"], "apple.com", idp)
    again = sign_in_with_idp(emu, "apple.com", idp)
    assert again["localId"] == anonymous["localId"]
    assert_plain_success(again, new_user=False)


def test_linking_copies_the_idp_email_to_a_user_without_email(emu):
    anonymous = sign_up_anonymously(emu)
    email = unique_email()
    body = link_idp(emu, anonymous["idToken"], "apple.com", claims(unique(), email, True))
    user = lookup(emu, body["idToken"])
    assert (user["email"], user["emailVerified"]) == (email, True)
    assert identities_of(body["idToken"])["email"] == [email]


def test_two_providers_on_one_user_both_sign_in_to_it(emu):
    apple, facebook = claims(unique()), claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", apple)
    linked = link_idp(emu, owner["idToken"], "facebook.com", facebook)
    assert linked["localId"] == owner["localId"]
    assert identities_of(linked["idToken"]) == {"apple.com": [apple["sub"]], "facebook.com": [facebook["sub"]]}
    assert provider_ids(lookup(emu, linked["idToken"])) == {"apple.com", "facebook.com"}
    assert_token_matches_account(emu, linked["idToken"])
    assert sign_in_with_idp(emu, "facebook.com", facebook)["localId"] == owner["localId"]


def test_linking_another_users_identity_is_refused_and_changes_nothing(emu):
    idp = claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    assert_business_error(link_idp_raw(emu, other["idToken"], "apple.com", idp), "FEDERATED_USER_ID_ALREADY_LINKED")
    assert provider_ids(lookup(emu, other["idToken"])) == set()
    assert [u["localId"] for u in users_with_identity(emu, "apple.com", idp["sub"])] == [owner["localId"]]


def test_conflict_with_return_idp_credential_is_a_200_with_updated_credential(emu):
    idp = claims(unique(), None, None, "Owner")
    sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    body = ok_json(link_idp_raw(emu, other["idToken"], "apple.com", idp, return_idp_credential=True))
    assert_error_with_credential(body, "FEDERATED_USER_ID_ALREADY_LINKED", "apple.com", idp["sub"])
    assert "needConfirmation" not in body and "isNewUser" not in body


def test_full_conflict_flow_signs_in_once_with_the_pending_token(emu):
    idp = claims(unique())
    user_a = sign_up_anonymously(emu)
    link_idp(emu, user_a["idToken"], "apple.com", idp)
    user_b = sign_up_anonymously(emu)
    conflict = ok_json(link_idp_raw(emu, user_b["idToken"], "apple.com", idp, return_idp_credential=True))
    assert_error_with_credential(conflict, "FEDERATED_USER_ID_ALREADY_LINKED", "apple.com", idp["sub"])

    signed_in = ok_json(sign_in_with_pending_token_raw(emu, conflict["pendingToken"]))
    assert signed_in["localId"] == user_a["localId"]
    assert claims_of(signed_in["idToken"])["firebase"]["sign_in_provider"] == "apple.com"
    assert_plain_success(signed_in, new_user=False)

    assert_business_error(sign_in_with_pending_token_raw(emu, conflict["pendingToken"]), "INVALID_PENDING_TOKEN")
    assert provider_ids(lookup(emu, user_b["idToken"])) == set()


def test_pending_token_with_provider_id_in_post_body_works_as_ios_sends_it(emu):
    idp = claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    conflict = ok_json(link_idp_raw(emu, other["idToken"], "apple.com", idp, return_idp_credential=True))
    signed_in = ok_json(sign_in_with_pending_token_raw(emu, conflict["pendingToken"], provider="apple.com"))
    assert signed_in["localId"] == owner["localId"]


def test_forged_pending_tokens_are_invalid(emu):
    idp = claims(unique())
    sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    real = ok_json(link_idp_raw(emu, other["idToken"], "apple.com", idp, return_idp_credential=True))["pendingToken"]
    tampered = real[:-4] + ("AAAA" if not real.endswith("AAAA") else "BBBB")
    for forged in ("garbage", "x" * 64, tampered):
        assert_business_error(sign_in_with_pending_token_raw(emu, forged), "INVALID_PENDING_TOKEN")
    assert ok_json(sign_in_with_pending_token_raw(emu, real))["localId"]


def test_pending_token_for_another_provider_is_invalid(emu):
    idp = claims(unique())
    sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    conflict = ok_json(link_idp_raw(emu, other["idToken"], "apple.com", idp, return_idp_credential=True))
    response = sign_in_with_pending_token_raw(emu, conflict["pendingToken"], provider="facebook.com")
    assert_business_error(response, "INVALID_PENDING_TOKEN")


def test_pending_token_from_another_gateway_is_invalid(emu, make_gateway):
    idp = claims(unique())
    sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    conflict = ok_json(link_idp_raw(emu, other["idToken"], "apple.com", idp, return_idp_credential=True))
    elsewhere = make_gateway(config={"emulator": True})
    sign_in_with_idp(elsewhere, "apple.com", idp)
    assert_business_error(sign_in_with_pending_token_raw(elsewhere, conflict["pendingToken"]), "INVALID_PENDING_TOKEN")


def test_retrying_the_link_with_the_updated_credential_conflicts_again_with_a_fresh_one(emu):
    idp = claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    first = ok_json(link_idp_raw(emu, other["idToken"], "apple.com", idp, return_idp_credential=True))
    retry = ok_json(sign_in_with_idp_raw(emu, pending_token=first["pendingToken"], id_token=other["idToken"],
                                         return_idp_credential=True))
    assert retry["errorMessage"] == "FEDERATED_USER_ID_ALREADY_LINKED"
    assert retry["pendingToken"] and retry["pendingToken"] != first["pendingToken"]
    assert "localId" not in retry and "idToken" not in retry
    assert ok_json(sign_in_with_pending_token_raw(emu, retry["pendingToken"]))["localId"] == owner["localId"]


def test_second_identity_of_a_linked_provider_is_refused(emu):
    first = claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", first)
    second = claims(unique())
    assert_business_error(link_idp_raw(emu, owner["idToken"], "apple.com", second), "PROVIDER_ALREADY_LINKED")
    assert identities_of(refresh(emu, owner["refreshToken"])["id_token"]) == {"apple.com": [first["sub"]]}
    assert users_with_identity(emu, "apple.com", second["sub"]) == []


def test_relinking_the_identity_the_user_has_changes_nothing(emu):
    idp = claims(unique(), unique_email(), True, "Same")
    owner = sign_in_with_idp(emu, "apple.com", idp)
    before = lookup(emu, owner["idToken"])
    body = link_idp(emu, owner["idToken"], "apple.com", idp)
    assert body["localId"] == owner["localId"]
    assert_plain_success(body, new_user=False)
    after = lookup(emu, body["idToken"])
    assert after["providerUserInfo"] == before["providerUserInfo"]
    assert (after["email"], after["displayName"]) == (before["email"], before["displayName"])
    as_ios_sends_it = ok_json(link_idp_raw(emu, owner["idToken"], "apple.com", idp, return_idp_credential=True))
    assert as_ios_sends_it["localId"] == owner["localId"]
    assert_plain_success(as_ios_sends_it, new_user=False)


def test_disabled_user_cannot_link(emu):
    anonymous = sign_up_anonymously(emu)
    ok_json(admin_post(emu, "accounts:update", {"localId": anonymous["localId"], "disableUser": True}))
    idp = claims(unique())
    assert_business_error(link_idp_raw(emu, anonymous["idToken"], "apple.com", idp), "USER_DISABLED")
    assert users_with_identity(emu, "apple.com", idp["sub"]) == []


def test_link_with_an_invalid_id_token_is_refused(emu):
    response = link_idp_raw(emu, "not.a.token", "apple.com", claims(unique()))
    assert_business_error(response, "INVALID_ID_TOKEN")


def test_legacy_verify_assertion_links_too(emu):
    anonymous = sign_up_anonymously(emu)
    body = ok_json(link_idp_raw(emu, anonymous["idToken"], "apple.com", claims(unique()), path=VERIFY_ASSERTION))
    assert body["localId"] == anonymous["localId"]


# ---------------------------------------------------------------- unlink

def test_unlink_removes_the_provider_everywhere_but_keeps_the_email(emu):
    email = unique_email()
    owner = sign_in_with_idp(emu, "apple.com", claims(unique(), email, True))
    linked = link_idp(emu, owner["idToken"], "facebook.com", claims(unique()))
    body = unlink(emu, linked["idToken"], "apple.com")
    assert {info["providerId"] for info in body["providerUserInfo"]} == {"facebook.com"}
    user = lookup(emu, linked["idToken"])
    assert provider_ids(user) == {"facebook.com"}
    assert user["email"] == email
    refreshed = refresh(emu, linked["refreshToken"])["id_token"]
    assert "apple.com" not in identities_of(refreshed)
    assert set(identities_of(refreshed)) == {"facebook.com", "email"}
    assert_token_matches_account(emu, refreshed)


def test_unlink_ignores_an_unknown_provider(emu):
    idp = claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", idp)
    body = unlink(emu, owner["idToken"], "github.com")
    assert {info["providerId"] for info in body["providerUserInfo"]} == {"apple.com"}
    assert provider_ids(lookup(emu, owner["idToken"])) == {"apple.com"}


def test_unlinked_identity_is_free_again(emu):
    idp = claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", idp)
    unlink(emu, owner["idToken"], "apple.com")
    assert users_with_identity(emu, "apple.com", idp["sub"]) == []
    fresh = sign_in_with_idp(emu, "apple.com", idp)
    assert fresh["localId"] != owner["localId"] and fresh["isNewUser"] is True


def test_unlinked_provider_can_take_another_identity(emu):
    owner = sign_in_with_idp(emu, "apple.com", claims(unique()))
    link_idp(emu, owner["idToken"], "facebook.com", claims(unique()))
    unlink(emu, owner["idToken"], "facebook.com")
    replacement = claims(unique())
    body = link_idp(emu, owner["idToken"], "facebook.com", replacement)
    assert identities_of(body["idToken"])["facebook.com"] == [replacement["sub"]]


def test_plain_link_success_has_no_pending_token_even_with_return_idp_credential(emu):
    anonymous = sign_up_anonymously(emu)
    body = link_idp(emu, anonymous["idToken"], "apple.com", claims(unique()), return_idp_credential=True)
    assert_plain_success(body, new_user=False)
