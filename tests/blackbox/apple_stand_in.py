"""A local stand-in for Sign in with Apple's endpoints (JWKS, /auth/token, /auth/revoke, /auth/authorize).

It signs identity tokens and notifications with its own RSA keys, checks the gateway's ES256 client secret
against the test .p8 key, and records every token and revoke call so tests can assert what the gateway did.
"""

from __future__ import annotations

import hashlib
import html
import json
import threading
import time
import uuid
from urllib.parse import urlparse

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from stand_in_server import StandInHandler, StandInServer, parse_fields

BUNDLE_ID = "com.example.app"
SERVICES_ID = "com.example.web"
TEAM_ID = "TEAM123456"
KEY_ID = "KEY1234567"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class AppleStandIn(StandInServer):
    def __init__(self) -> None:
        self.rsa_keys = {"k1": rsa.generate_private_key(public_exponent=65537, key_size=2048)}
        self.client_key = ec.generate_private_key(ec.SECP256R1())
        self.codes: dict[str, str | None] = {}
        self.token_calls: list[dict] = []
        self.revoked: list[str] = []
        self.failing = False
        self.lock = threading.Lock()
        super().__init__(self._handler())

    def p8_pem(self) -> str:
        return self.client_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode()

    def gateway_config(self, key_file=None, **extra) -> dict:
        apple = {"enabled": True, "bundleIds": [BUNDLE_ID], "servicesIds": [SERVICES_ID], "baseUrl": self.base_url}
        if key_file is not None:
            apple.update({"teamId": TEAM_ID, "keyId": KEY_ID, "privateKeyFile": str(key_file)})
        apple.update(extra)
        return {"apple": apple}

    # -- tokens

    def id_token(self, *, sub="apple-user-1", nonce: str | None = None, hashed_nonce: str | None = None,
                 aud=BUNDLE_ID, kid="k1", email=None, email_verified="true", is_private_email=None, **overrides) -> str:
        now = int(time.time())
        claims = {"iss": "https://appleid.apple.com", "aud": aud, "iat": now, "exp": now + 600, "sub": sub,
                  "auth_time": now, "nonce_supported": True}
        if nonce is not None:
            claims["nonce"] = sha256_hex(nonce)
        if hashed_nonce is not None:
            claims["nonce"] = hashed_nonce
        if email is not None:
            claims["email"] = email
            claims["email_verified"] = email_verified
        if is_private_email is not None:
            claims["is_private_email"] = is_private_email
        claims.update(overrides)
        claims = {k: v for k, v in claims.items() if v is not None}
        return jwt.encode(claims, self.rsa_keys[kid], algorithm="RS256", headers={"kid": kid})

    def notification(self, event_type: str, sub: str, *, jti: str | None = None) -> str:
        now = int(time.time())
        events = json.dumps({"type": event_type, "sub": sub, "event_time": now * 1000})
        claims = {"iss": "https://appleid.apple.com", "aud": BUNDLE_ID, "iat": now, "exp": now + 300,
                  "jti": jti or uuid.uuid4().hex, "events": events}
        return jwt.encode(claims, self.rsa_keys["k1"], algorithm="RS256", headers={"kid": "k1"})

    def accept_code(self, code: str, id_token: str | None = None) -> None:
        with self.lock:
            self.codes[code] = id_token

    def rotate(self) -> str:
        """Adds a new key (Apple publishes the next key before signing with it) and returns its kid."""
        kid = f"k{len(self.rsa_keys) + 1}"
        self.rsa_keys[kid] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        return kid

    # -- HTTP

    def _client_ok(self, form: dict) -> bool:
        try:
            public = self.client_key.public_key()
            claims = jwt.decode(form.get("client_secret", ""), public, algorithms=["ES256"],
                                audience="https://appleid.apple.com", issuer=TEAM_ID)
            header = jwt.get_unverified_header(form["client_secret"])
        except Exception:
            return False
        return header.get("kid") == KEY_ID and claims.get("sub") == form.get("client_id") and \
            form.get("client_id") in (BUNDLE_ID, SERVICES_ID)

    def _handler(self):
        stand_in = self

        class Handler(StandInHandler):
            def do_GET(self):
                url = urlparse(self.path)
                if url.path == "/auth/keys":
                    keys = []
                    for kid, key in stand_in.rsa_keys.items():
                        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
                        keys.append({"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": jwk["n"], "e": jwk["e"]})
                    return self._reply(200, {"keys": keys})
                if url.path == "/auth/authorize":
                    # The user consents at once: a code and a token bound to the request's nonce, to be
                    # form-posted to redirect_uri (returned as JSON so the test can post it like a browser).
                    query = parse_fields(url.query)
                    code = "web-" + uuid.uuid4().hex
                    token = stand_in.id_token(sub="web-user", aud=query["client_id"], hashed_nonce=query["nonce"])
                    stand_in.accept_code(code, token)
                    fields = {"state": query["state"], "code": code, "id_token": token,
                              "user": json.dumps({"name": {"firstName": "Web", "lastName": "User"}})}
                    if "text/html" in self.headers.get("Accept", ""):
                        # A browser: the page posts the form itself, as Apple's does (response_mode=form_post).
                        inputs = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                                         for k, v in fields.items())
                        page = (f'<form method="post" action="{html.escape(query["redirect_uri"])}">{inputs}</form>'
                                "<script>document.forms[0].submit()</script>")
                        return self._send(200, page.encode(), "text/html; charset=utf-8")
                    return self._reply(200, {"action": query["redirect_uri"], "fields": fields})
                return self._reply(404, {"error": "not_found"})

            def do_POST(self):
                form = self._form()
                if not self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
                    return self._reply(400, {"error": "invalid_client"})
                if stand_in.failing:
                    return self._reply(503, {"error": "temporarily_unavailable"})
                if not stand_in._client_ok(form):
                    return self._reply(400, {"error": "invalid_client"})
                if self.path == "/auth/token":
                    with stand_in.lock:
                        stand_in.token_calls.append(form)
                        known = form.get("code") in stand_in.codes
                        id_token = stand_in.codes.pop(form.get("code"), None)
                    if form.get("grant_type") != "authorization_code" or not known:
                        return self._reply(400, {"error": "invalid_grant"})
                    body = {"access_token": "at-" + form["code"], "token_type": "Bearer", "expires_in": 3600,
                            "refresh_token": "rt-" + form["code"]}
                    if id_token:
                        body["id_token"] = id_token
                    return self._reply(200, body)
                if self.path == "/auth/revoke":
                    with stand_in.lock:
                        stand_in.revoked.append(form.get("token"))
                    return self._reply(200)
                return self._reply(404, {"error": "not_found"})

        return Handler
