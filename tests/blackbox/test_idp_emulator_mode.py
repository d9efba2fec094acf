"""Emulator mode is the only mode that takes fake IdP credentials; its extra endpoints."""

from __future__ import annotations

from idp_verbs import (
    VERIFY_ASSERTION, claims, emu, sign_in_with_idp, sign_in_with_idp_raw, unique, unique_email, users_with_identity,
)
from verbs import assert_business_error, lookup_raw, ok_json, send


def emulator_path(gw, tail: str) -> str:
    return f"/emulator/v1/projects/{gw.project_id}/{tail}"


# An unregistered provider id has no verifier outside emulator mode; a registered one that is switched off
# (Apple, unless configured) answers OPERATION_NOT_ALLOWED. Neither ever accepts a fake credential.
UNREGISTERED = "oidc.never-configured"


def test_gateway_outside_emulator_mode_refuses_fake_json_claims(gw):
    idp = claims(unique(), unique_email(), True)
    assert_business_error(sign_in_with_idp_raw(gw, UNREGISTERED, idp), "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    assert_business_error(sign_in_with_idp_raw(gw, UNREGISTERED, idp, return_idp_credential=True),
                          "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    for switched_off in ("apple.com", "google.com", "github.com"):
        assert_business_error(sign_in_with_idp_raw(gw, switched_off, idp), "OPERATION_NOT_ALLOWED")
        assert users_with_identity(gw, switched_off, idp["sub"]) == []
    assert users_with_identity(gw, UNREGISTERED, idp["sub"]) == []


def test_gateway_outside_emulator_mode_refuses_unsigned_jwts_on_both_paths(gw):
    idp = claims(unique())
    for path in (VERIFY_ASSERTION, "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp"):
        response = sign_in_with_idp_raw(gw, UNREGISTERED, idp, as_jwt=True, path=path)
        assert_business_error(response, "INVALID_CREDENTIAL_OR_PROVIDER_ID")
    assert users_with_identity(gw, UNREGISTERED, idp["sub"]) == []


def test_emulator_endpoints_exist_only_in_emulator_mode(gw):
    assert send(gw, "GET", emulator_path(gw, "config"), key=None).status_code == 404
    assert send(gw, "DELETE", emulator_path(gw, "accounts"), key=None).status_code == 404


def test_emulator_mode_says_so_loudly_at_start(emu):
    warnings = [line for line in emu.log_lines() if '"level":"warning"' in line and "EMULATOR" in line.upper()]
    assert warnings, emu.log_text()[:2000]


def test_same_request_succeeds_in_emulator_mode(emu):
    idp = claims(unique(), unique_email(), True)
    assert sign_in_with_idp(emu, "apple.com", idp)["isNewUser"] is True
    assert len(users_with_identity(emu, "apple.com", idp["sub"])) == 1


def test_delete_all_accounts_empties_the_project(emu):
    idp = claims(unique())
    first = sign_in_with_idp(emu, "apple.com", idp)
    response = send(emu, "DELETE", emulator_path(emu, "accounts"), key=None)
    assert response.status_code == 200, response.text
    assert users_with_identity(emu, "apple.com", idp["sub"]) == []
    assert_business_error(lookup_raw(emu, first["idToken"]), "USER_NOT_FOUND")
    again = sign_in_with_idp(emu, "apple.com", idp)
    assert again["isNewUser"] is True and again["localId"] != first["localId"]


def test_emulator_config_answers_with_the_sign_in_settings(emu):
    body = ok_json(send(emu, "GET", emulator_path(emu, "config"), key=None))
    assert body["signIn"] == {"allowDuplicateEmails": False}
