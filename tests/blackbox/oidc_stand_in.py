"""A local stand-in for an OpenID Connect provider: discovery, a JWKS with rotation, an authorization endpoint
that consents at once, a token endpoint that checks the client secret and the PKCE verifier, UserInfo, and
Google's token-info endpoint.

It signs ID tokens with its own keys and counts every request by path, so tests can assert what the gateway
fetched (a key rotation costs one JWKS fetch, forged key ids none) without looking at clocks.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
import uuid
from collections import Counter
from urllib.parse import urlencode, urlparse

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from stand_in_server import StandInHandler, StandInServer, parse_fields

GOOGLE_ISSUER = "https://accounts.google.com"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class OIDCStandIn(StandInServer):
    def __init__(self, client_id: str = "bb-client", client_secret: str = "bb-secret", issuer: str | None = None) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self._issuer = issuer
        self.rsa_keys = {"k1": rsa.generate_private_key(public_exponent=65537, key_size=2048)}
        self.ec_keys: dict = {}
        self.codes: dict[str, dict] = {}
        self.user_info: dict[str, dict] = {}
        self.token_info: dict[str, dict] = {}
        self.fetches: Counter = Counter()
        self.token_calls: list[dict] = []
        self.next_user = {"sub": "web-user"}
        self.lock = threading.Lock()
        super().__init__(self._handler())

    @property
    def issuer(self) -> str:
        return self._issuer or self.base_url

    # -- gateway configuration

    def provider_entry(self, provider_id: str, **extra) -> dict:
        """An `oidc.providers` entry for this issuer (discovery finds every endpoint)."""
        entry = {"providerId": provider_id, "issuer": self.issuer, "clientIds": [self.client_id]}
        entry.update(extra)
        return entry

    def google_section(self, **extra) -> dict:
        """The `google` section with Google's endpoints pointed here (its issuer stays Google's)."""
        section = {"enabled": True, "clientIds": [self.client_id], "endpoints": {
            "jwks": self.base_url + "/jwks", "authorization": self.base_url + "/authorize",
            "token": self.base_url + "/token", "userInfo": self.base_url + "/userinfo",
            "tokenInfo": self.base_url + "/tokeninfo"}}
        section.update(extra)
        return section

    def resource(self, **extra) -> dict:
        """An oauthIdpConfigs resource for this issuer (what create_oidc_provider_config sends)."""
        body = {"clientId": self.client_id, "issuer": self.issuer, "enabled": True}
        body.update(extra)
        return body

    # -- tokens

    def id_token(self, *, sub="user-1", nonce: str | None = None, hashed_nonce: str | None = None, aud=None,
                 kid="k1", email=None, email_verified=True, alg="RS256", **overrides) -> str:
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": aud or self.client_id, "iat": now, "exp": now + 600, "sub": sub}
        if nonce is not None:
            claims["nonce"] = sha256_hex(nonce)
        if hashed_nonce is not None:
            claims["nonce"] = hashed_nonce
        if email is not None:
            claims["email"] = email
            claims["email_verified"] = email_verified
        claims.update(overrides)
        claims = {k: v for k, v in claims.items() if v is not None}
        key = self.ec_keys[kid] if alg == "ES256" else self.rsa_keys[kid]
        return jwt.encode(claims, key, algorithm=alg, headers={"kid": kid})

    def rotate(self) -> str:
        """Publishes a new key (providers publish the next key before signing with it) and returns its kid."""
        kid = f"k{len(self.rsa_keys) + 1}"
        with self.lock:
            self.rsa_keys[kid] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        return kid

    def add_ec_key(self, kid="e1") -> str:
        with self.lock:
            self.ec_keys[kid] = ec.generate_private_key(ec.SECP256R1())
        return kid

    def grant_access_token(self, token: str, user_info: dict, token_info: dict | None = None) -> None:
        with self.lock:
            self.user_info[token] = user_info
            if token_info is not None:
                self.token_info[token] = token_info

    # -- HTTP

    def _jwks(self) -> dict:
        keys = []
        with self.lock:
            rsa_keys, ec_keys = dict(self.rsa_keys), dict(self.ec_keys)
        for kid, key in rsa_keys.items():
            jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
            keys.append({"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": jwk["n"], "e": jwk["e"]})
        for kid, key in ec_keys.items():
            jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
            keys.append({"kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256", "x": jwk["x"], "y": jwk["y"]})
        return {"keys": keys}

    def _client_authenticated(self, headers, form: dict) -> bool:
        expected = "Basic " + base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
        if headers.get("Authorization") == expected:
            return True
        return form.get("client_id") == self.client_id and form.get("client_secret") == self.client_secret

    def _handler(self):
        stand_in = self

        class Handler(StandInHandler):
            def do_GET(self):
                url = urlparse(self.path)
                stand_in.fetches[url.path] += 1
                if url.path == "/.well-known/openid-configuration":
                    base = stand_in.base_url
                    return self._reply(200, {
                        "issuer": stand_in.issuer, "jwks_uri": base + "/jwks", "authorization_endpoint": base + "/authorize",
                        "token_endpoint": base + "/token", "userinfo_endpoint": base + "/userinfo",
                        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"]})
                if url.path == "/jwks":
                    return self._reply(200, stand_in._jwks())
                if url.path == "/authorize":
                    # The user consents at once: a code bound to the PKCE challenge (or, without PKCE, nothing
                    # the token endpoint would accept), sent back in the query as the code flow does.
                    query = parse_fields(url.query)
                    code = "code-" + uuid.uuid4().hex
                    token = stand_in.id_token(sub=stand_in.next_user["sub"], email=stand_in.next_user.get("email"),
                                              aud=query["client_id"], hashed_nonce=query.get("nonce"))
                    with stand_in.lock:
                        stand_in.codes[code] = {"challenge": query.get("code_challenge"),
                                                "method": query.get("code_challenge_method"),
                                                "redirect_uri": query["redirect_uri"], "id_token": token}
                    location = query["redirect_uri"] + "?" + urlencode({"code": code, "state": query["state"]})
                    return self._reply(302, {}, {"Location": location})
                if url.path == "/userinfo":
                    auth = self.headers.get("Authorization", "")
                    claims = stand_in.user_info.get(auth[len("Bearer "):]) if auth.startswith("Bearer ") else None
                    if claims is None:
                        return self._reply(401, {"error": "invalid_token"})
                    return self._reply(200, claims)
                return self._reply(404, {"error": "not_found"})

            def do_POST(self):
                url = urlparse(self.path)
                stand_in.fetches[url.path] += 1
                form = self._form()
                if url.path == "/tokeninfo":
                    info = stand_in.token_info.get(form.get("access_token", ""))
                    return self._reply(200, info) if info is not None else self._reply(400, {"error": "invalid_token"})
                if url.path != "/token":
                    return self._reply(404, {"error": "not_found"})
                with stand_in.lock:
                    stand_in.token_calls.append(form)
                if not stand_in._client_authenticated(self.headers, form):
                    return self._reply(401, {"error": "invalid_client"})
                with stand_in.lock:
                    issued = stand_in.codes.pop(form.get("code", ""), None)
                if form.get("grant_type") != "authorization_code" or issued is None:
                    return self._reply(400, {"error": "invalid_grant"})
                # RFC 7636 §4.6: the verifier must hash to the challenge the code was issued under.
                if issued["method"] != "S256" or s256(form.get("code_verifier", "")) != issued["challenge"]:
                    return self._reply(400, {"error": "invalid_grant", "error_description": "PKCE verification failed"})
                if form.get("redirect_uri") != issued["redirect_uri"]:
                    return self._reply(400, {"error": "invalid_grant"})
                return self._reply(200, {"access_token": "at-" + form["code"], "token_type": "Bearer",
                                         "expires_in": 3600, "id_token": issued["id_token"]})

        return Handler
