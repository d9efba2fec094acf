"""GitHub sign-in, the worked example plugin, against the real binary and a stand-in for GitHub."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import requests

from github_stand_in import CLIENT_SECRET
from test_oidc import sign_in_raw
from verbs import IDENTITY, assert_business_error, ok_json, post_json

SECRET = {"GATEHOUSE_GITHUB_CLIENT_SECRET": CLIENT_SECRET}


def test_access_token_of_this_app_signs_in_and_another_apps_does_not(make_gateway, github):
    gw = make_gateway(config=github.gateway_config(), env=SECRET)
    github.issue("gho_mine", {"id": 583231, "login": "octocat", "name": "The Octocat"},
                 emails=[{"email": "octo@example.com", "primary": True, "verified": True}])
    user = ok_json(sign_in_raw(gw, "github.com", access_token="gho_mine"))
    assert user["providerId"] == "github.com" and user["federatedId"] == "583231" and user["screenName"] == "octocat"
    assert user["displayName"] == "The Octocat" and user["email"] == "octo@example.com" and user["emailVerified"] is True
    github.issue("gho_theirs", {"id": 7, "login": "someone"}, app="AnotherApp")
    assert_business_error(sign_in_raw(gw, "github.com", access_token="gho_theirs"),
                          "INVALID_IDP_RESPONSE : access_token was not issued to this app's GitHub client id")


def test_a_verified_github_address_never_links(make_gateway, github, oidc_idp):
    gw = make_gateway(config={**github.gateway_config(), "oidc": {"providers": [oidc_idp.provider_entry("oidc.corp")]}},
                      env=SECRET)
    owner = ok_json(sign_in_raw(gw, "oidc.corp", id_token=oidc_idp.id_token(sub="corp", email="dev@example.com")))
    github.issue("gho_dev", {"id": 9, "login": "dev"}, emails=[{"email": "dev@example.com", "primary": True, "verified": True}])
    attempt = ok_json(sign_in_raw(gw, "github.com", access_token="gho_dev"))
    assert attempt["needConfirmation"] is True and attempt["localId"] == owner["localId"]


def test_redirect_flow_with_pkce(make_gateway, github):
    gw = make_gateway(config=github.gateway_config(), env=SECRET)
    github.next_user = {"id": 4242, "login": "web-user"}
    started = ok_json(post_json(gw, IDENTITY + "/accounts:createAuthUri",
                                {"providerId": "github.com", "continueUri": "http://localhost/finish"}))
    assert parse_qs(urlparse(started["authUri"]).query)["code_challenge_method"] == ["S256"]
    consent = requests.get(started["authUri"], allow_redirects=False, timeout=5)
    handed = requests.get(consent.headers["Location"], allow_redirects=False, timeout=5)
    assert handed.status_code == 303
    user = ok_json(post_json(gw, IDENTITY + "/accounts:signInWithIdp", {
        "requestUri": handed.headers["Location"], "sessionId": started["sessionId"], "returnSecureToken": True}))
    assert user["federatedId"] == "4242" and user["providerId"] == "github.com"


def test_switched_off_by_default(make_gateway, github):
    gw = make_gateway()
    assert_business_error(sign_in_raw(gw, "github.com", access_token="gho_x"), "OPERATION_NOT_ALLOWED")
