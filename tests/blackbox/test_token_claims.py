"""What is inside the ID token, and how the signing keys and discovery document are published."""

from __future__ import annotations

import re

from verbs import (
    JWKS_PATH, X509_PATH, jwks, jwt_claims, jwt_header, ok_json, send, sign_up_anonymously, x509_certs,
)


def test_id_token_claims_of_an_anonymous_user(gw):
    account = sign_up_anonymously(gw)
    claims = jwt_claims(account["idToken"])
    assert claims["iss"] == f"https://securetoken.google.com/{gw.project_id}"
    assert claims["aud"] == gw.project_id
    assert claims["sub"] == claims["user_id"] == account["localId"]
    assert isinstance(claims["iat"], int) and isinstance(claims["exp"], int)
    assert claims["auth_time"] <= claims["iat"]
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["provider_id"] == "anonymous"
    assert claims["firebase"]["sign_in_provider"] == "anonymous"
    assert claims["firebase"]["identities"] == {}


def test_id_token_header_names_a_published_key(gw):
    header = jwt_header(sign_up_anonymously(gw)["idToken"])
    assert header["alg"] == "RS256"
    assert header["typ"] == "JWT"
    assert header["kid"] in x509_certs(gw)
    assert header["kid"] in {key["kid"] for key in jwks(gw)["keys"]}


def test_x509_map_holds_pem_certificates(gw):
    certs = x509_certs(gw)
    assert certs
    for pem in certs.values():
        assert pem.startswith("-----BEGIN CERTIFICATE-----")
        assert pem.rstrip().endswith("-----END CERTIFICATE-----")


def test_jwks_holds_rs256_signing_keys(gw):
    for key in jwks(gw)["keys"]:
        assert key["kty"] == "RSA"
        assert key["alg"] == "RS256"
        assert key["use"] == "sig"
        assert key["kid"] and key["n"] and key["e"]


def test_key_endpoints_are_cacheable_for_the_configured_max_age(gw):
    for path in (X509_PATH, JWKS_PATH):
        cache_control = send(gw, "GET", path, key=None).headers["Cache-Control"]
        assert "public" in cache_control
        assert re.search(r"max-age=3600\b", cache_control), cache_control


def test_openid_configuration(gw):
    path = f"/securetoken.google.com/{gw.project_id}/.well-known/openid-configuration"
    document = ok_json(send(gw, "GET", path, key=None))
    assert document["issuer"] == f"https://securetoken.google.com/{gw.project_id}"
    assert document["jwks_uri"].endswith("/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
    assert document["response_types_supported"] == ["id_token"]
    assert document["subject_types_supported"] == ["public"]
    assert document["id_token_signing_alg_values_supported"] == ["RS256"]


def test_openid_configuration_of_another_project_is_not_found(gw):
    response = send(gw, "GET", "/securetoken.google.com/not-this-project/.well-known/openid-configuration", key=None)
    assert response.status_code == 404
