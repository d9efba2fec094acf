"""Pre-hijacking: a squatter registers the victim's address with a password and links a federated identity;
when the victim proves the mailbox with an email link, everything the squatter attached goes (issue 9).

Runs in emulator mode for the fake federated credential; the takeover rule is the same in production mode.
"""

from __future__ import annotations

from email_verbs import sign_in_raw, sign_up
from idp_verbs import claims, emu, link_idp, sign_in_with_idp, unique, unique_email  # noqa: F401 (emu is a fixture)
from verbs import IDENTITY, admin_post, assert_business_error, lookup, ok_json, post_json, refresh_raw

__all__ = ["emu"]


def email_link_code(gw, address: str) -> str:
    reply = ok_json(admin_post(gw, "accounts:sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": address, "returnOobLink": True}))
    return reply["oobCode"]


def test_email_link_takeover_removes_the_squatters_password_and_identity(emu):
    victim_address = unique_email()
    squatter = sign_up(emu, victim_address, "squatter-password")
    facebook_sub = unique("fb")
    link_idp(emu, squatter["idToken"], "facebook.com", claims(facebook_sub))
    assert {p["providerId"] for p in lookup(emu, squatter["idToken"])["providerUserInfo"]} >= {"facebook.com"}

    signed_in = ok_json(post_json(emu, IDENTITY + "/accounts:signInWithEmailLink",
                                  {"email": victim_address, "oobCode": email_link_code(emu, victim_address)}))
    assert signed_in["localId"] == squatter["localId"], "the address's account is the victim's now"
    account = lookup(emu, signed_in["idToken"])
    assert account["emailVerified"] is True
    assert "passwordHash" not in account and "facebook.com" not in {p["providerId"] for p in account.get("providerUserInfo", [])}

    # Nothing the squatter holds reaches the account any more.
    assert_business_error(sign_in_raw(emu, victim_address, "squatter-password"), "INVALID_PASSWORD")
    by_facebook = sign_in_with_idp(emu, "facebook.com", claims(facebook_sub))
    assert by_facebook["localId"] != squatter["localId"], "the squatter's identity signs in to a new account, not the victim's"
    assert_business_error(refresh_raw(emu, squatter["refreshToken"]), "TOKEN_EXPIRED")
