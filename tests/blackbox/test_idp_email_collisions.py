"""Email collisions under "one account per email" (default) and with duplicate emails allowed."""

from __future__ import annotations

import time

from idp_verbs import (
    assert_error_with_credential, assert_plain_success, claims, claims_of, emu, link_idp, link_idp_raw, provider_ids,
    provider_info, set_allow_duplicate_emails, sign_in_with_idp, sign_in_with_idp_raw, unique, unique_email,
    users_with_email, users_with_identity,
)
from verbs import (
    admin_headers, assert_business_error, lookup, lookup_raw, ok_json, refresh, refresh_raw, send, sign_up_anonymously,
)

PICTURE = "https://example.com/old.png"


def owner_with_email(gw, email: str, *, verified: bool = True, provider: str = "apple.com", **profile) -> dict:
    return sign_in_with_idp(gw, provider, claims(unique(), email, verified, **profile))


def admin_config_path(gw) -> str:
    return f"/identitytoolkit.googleapis.com/v2/projects/{gw.project_id}/config"


# ---------------------------------------------------------------- one account per email (default)

def test_linking_another_users_email_is_email_exists(emu):
    email = unique_email()
    owner_with_email(emu, email)
    other = sign_up_anonymously(emu)
    idp = claims(unique(), email, True)
    assert_business_error(link_idp_raw(emu, other["idToken"], "facebook.com", idp), "EMAIL_EXISTS")
    assert provider_ids(lookup(emu, other["idToken"])) == set()
    assert users_with_identity(emu, "facebook.com", idp["sub"]) == []


def test_email_exists_with_return_idp_credential_is_a_200_with_pending_token(emu):
    email = unique_email()
    owner_with_email(emu, email)
    other = sign_up_anonymously(emu)
    idp = claims(unique(), email, True)
    body = ok_json(link_idp_raw(emu, other["idToken"], "facebook.com", idp, return_idp_credential=True))
    assert_error_with_credential(body, "EMAIL_EXISTS", "facebook.com", idp["sub"])
    assert body["email"] == email


def test_unverified_idp_email_of_an_existing_account_needs_confirmation(emu):
    email = unique_email()
    owner = owner_with_email(emu, email, verified=False, name="Original")
    idp = claims(unique(), email, False, "Intruder", "https://example.com/x.png")
    body = ok_json(sign_in_with_idp_raw(emu, "facebook.com", idp, return_idp_credential=True))
    assert body["needConfirmation"] is True
    assert body["localId"] == owner["localId"]
    assert body["verifiedProvider"] == ["apple.com"]
    assert isinstance(body.get("pendingToken"), str) and body["pendingToken"]
    assert (body["providerId"], body["federatedId"]) == ("facebook.com", idp["sub"])
    for key in ("idToken", "refreshToken", "errorMessage", "isNewUser"):
        assert key not in body, (key, body)
    user = lookup(emu, owner["idToken"])
    assert provider_ids(user) == {"apple.com"}
    assert (user["displayName"], user["emailVerified"]) == ("Original", False)
    assert "photoUrl" not in user
    assert users_with_identity(emu, "facebook.com", idp["sub"]) == []


def test_unverified_idp_email_without_return_idp_credential_still_needs_confirmation(emu):
    email = unique_email()
    owner = owner_with_email(emu, email)
    body = ok_json(sign_in_with_idp_raw(emu, "facebook.com", claims(unique(), email, False)))
    assert body["needConfirmation"] is True and body["localId"] == owner["localId"]
    assert "idToken" not in body


def test_verified_idp_email_signs_in_to_the_existing_account_and_links(emu):
    email = unique_email()
    owner = owner_with_email(emu, email)
    idp = claims(unique(), email, True)
    body = sign_in_with_idp(emu, "facebook.com", idp)
    assert body["localId"] == owner["localId"]
    assert_plain_success(body, new_user=False)
    assert provider_ids(lookup(emu, body["idToken"])) == {"apple.com", "facebook.com"}
    assert claims_of(body["idToken"])["firebase"]["sign_in_provider"] == "facebook.com"
    assert sign_in_with_idp(emu, "facebook.com", idp)["localId"] == owner["localId"]


def test_verified_idp_email_takes_over_an_unverified_account(emu):
    email = unique_email()
    owner = owner_with_email(emu, email, verified=False)
    time.sleep(1.1)  # validSince has one-second granularity; the old token must predate the takeover
    body = sign_in_with_idp(emu, "facebook.com", claims(unique(), email, True))
    assert body["localId"] == owner["localId"]
    user = lookup(emu, body["idToken"])
    assert user["emailVerified"] is True and user["email"] == email
    assert "facebook.com" in provider_ids(user)
    assert_business_error(lookup_raw(emu, owner["idToken"]), "TOKEN_EXPIRED")
    assert_business_error(refresh_raw(emu, owner["refreshToken"]), "TOKEN_EXPIRED")
    assert lookup(emu, refresh(emu, body["refreshToken"])["id_token"])["localId"] == owner["localId"]


def test_takeover_replaces_profile_fields_only_with_non_empty_provider_values(emu):
    email = unique_email()
    owner_with_email(emu, email, verified=False, name="Old Name", picture=PICTURE)
    body = sign_in_with_idp(emu, "facebook.com", claims(unique(), email, True, "New Name"))
    user = lookup(emu, body["idToken"])
    assert user["displayName"] == "New Name"
    assert user["photoUrl"] == PICTURE


def test_linking_a_verified_idp_with_the_users_own_email_verifies_it(emu):
    email = unique_email()
    owner = owner_with_email(emu, email, verified=False)
    body = link_idp(emu, owner["idToken"], "facebook.com", claims(unique(), email, True))
    assert body["localId"] == owner["localId"]
    assert lookup(emu, body["idToken"])["emailVerified"] is True


def test_linking_keeps_the_users_own_top_level_email(emu):
    email = unique_email()
    owner = owner_with_email(emu, email)
    other_email = unique_email()
    body = link_idp(emu, owner["idToken"], "facebook.com", claims(unique(), other_email, True))
    user = lookup(emu, body["idToken"])
    assert user["email"] == email
    assert provider_info(user, "facebook.com")["email"] == other_email


# ---------------------------------------------------------------- duplicates allowed

def test_emulator_config_switches_duplicate_emails(emu):
    path = f"/emulator/v1/projects/{emu.project_id}/config"
    assert ok_json(send(emu, "GET", path, key=None))["signIn"]["allowDuplicateEmails"] is False
    assert set_allow_duplicate_emails(emu, True)["signIn"]["allowDuplicateEmails"] is True
    assert ok_json(send(emu, "GET", path, key=None))["signIn"]["allowDuplicateEmails"] is True


def test_with_duplicates_allowed_same_email_makes_a_separate_user_without_top_level_email(emu):
    set_allow_duplicate_emails(emu, True)
    email = unique_email()
    first = owner_with_email(emu, email)
    second = sign_in_with_idp(emu, "facebook.com", claims(unique(), email, True))
    assert second["localId"] != first["localId"] and second["isNewUser"] is True
    user = lookup(emu, second["idToken"])
    assert "email" not in user
    assert provider_info(user, "facebook.com")["email"] == email
    assert "email" not in claims_of(second["idToken"])["firebase"]["identities"]


def test_with_duplicates_allowed_unverified_email_is_no_collision(emu):
    set_allow_duplicate_emails(emu, True)
    email = unique_email()
    first = owner_with_email(emu, email)
    body = sign_in_with_idp(emu, "facebook.com", claims(unique(), email, False))
    assert body["localId"] != first["localId"]
    assert_plain_success(body, new_user=True)


def test_with_duplicates_allowed_linking_another_users_email_succeeds(emu):
    set_allow_duplicate_emails(emu, True)
    email = unique_email()
    owner_with_email(emu, email)
    other = sign_up_anonymously(emu)
    body = link_idp(emu, other["idToken"], "facebook.com", claims(unique(), email, True))
    assert body["localId"] == other["localId"]


def test_admin_v2_config_switches_duplicate_emails(emu):
    path = admin_config_path(emu)
    answer = ok_json(send(emu, "PATCH", path, key=None, headers=admin_headers(),
                          json={"signIn": {"allowDuplicateEmails": True}}))
    assert answer["signIn"]["allowDuplicateEmails"] is True
    current = ok_json(send(emu, "GET", path, key=None, headers=admin_headers()))
    assert current["name"] == f"projects/{emu.project_id}/config"
    assert current["signIn"]["allowDuplicateEmails"] is True
    email = unique_email()
    first = owner_with_email(emu, email)
    assert sign_in_with_idp(emu, "facebook.com", claims(unique(), email, True))["localId"] != first["localId"]


def test_admin_v2_config_needs_an_admin(emu):
    path = admin_config_path(emu)
    response = send(emu, "PATCH", path, key=None, headers=admin_headers("not-an-admin"),
                    json={"signIn": {"allowDuplicateEmails": True}})
    assert response.status_code in (401, 403), response.text
    assert ok_json(send(emu, "GET", path, key=None, headers=admin_headers()))["signIn"]["allowDuplicateEmails"] is False


def test_config_file_can_allow_duplicate_emails(make_gateway):
    gw = make_gateway(config={"emulator": True, "signIn": {"allowDuplicateEmails": True}})
    email = unique_email()
    first = owner_with_email(gw, email)
    second = sign_in_with_idp(gw, "facebook.com", claims(unique(), email, True))
    assert second["localId"] != first["localId"]
    assert "email" not in lookup(gw, first["idToken"])
    assert users_with_email(gw, email) == []
