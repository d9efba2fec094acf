"""A local stand-in for Facebook's endpoints: Graph's debug_token, /me, oauth/access_token, the OAuth dialog,
and Limited Login's JWKS, all on one loopback server.

It issues user access tokens (and what debug_token says about each), checks the app access token on
debug_token, the appsecret_proof on /me (as with "Require App Secret" on) and the PKCE verifier on the code
exchange, signs Limited Login tokens with its own RSA key, builds signed_requests for the callbacks, and
records the calls so tests can assert what the gateway sent.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import uuid
from urllib.parse import urlencode, urlparse

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from stand_in_server import StandInHandler, StandInServer, parse_fields

APP_ID = "1234567890"
APP_SECRET = "fb-app-secret-not-real"
VERSION = "v25.0"
KID = "ll-key-1"


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def appsecret_proof(token: str, secret: str = APP_SECRET) -> str:
    return hmac.new(secret.encode(), token.encode(), hashlib.sha256).hexdigest()


class FacebookStandIn(StandInServer):
    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.tokens: dict[str, dict] = {}
        self.profiles: dict[str, dict] = {}
        self.codes: dict[str, dict] = {}
        self.me_calls: list[dict] = []
        self.exchanges: list[dict] = []
        self.mode = "normal"  # "normal", "down" (503), "rate_limited" (Graph error 4), "slow"
        self.slow_seconds = 3.0
        self.dialog_user = "web-user-1"
        self.lock = threading.Lock()
        super().__init__(self._handler())

    def gateway_config(self, **extra) -> dict:
        facebook = {"enabled": True, "appId": APP_ID, "graphBaseUrl": self.base_url, "dialogBaseUrl": self.base_url,
                    "limitedLoginBaseUrl": self.base_url, "requestTimeoutSeconds": 2}
        facebook.update(extra)
        return {"facebook": facebook}

    @staticmethod
    def gateway_env(secret: str = APP_SECRET) -> dict:
        return {"GATEHOUSE_FACEBOOK_APP_SECRET": secret}

    # -- classic tokens

    def issue(self, *, user_id: str = "fb-user-1", app_id: str = APP_ID, token_type: str = "USER", is_valid: bool = True,
              expires_at: int | None = None, email: str | None = "ada@example.com", name: str = "Ada Lovelace",
              profile_id: str | None = None, error_subcode: int | None = None) -> str:
        """A new user access token and what Graph says about it and its user."""
        token = "EAAB" + uuid.uuid4().hex
        data = {"app_id": app_id, "type": token_type, "application": "Stand-in", "is_valid": is_valid,
                "issued_at": int(time.time()), "expires_at": int(time.time()) + 5_000_000 if expires_at is None else expires_at,
                "data_access_expires_at": int(time.time()) + 7_776_000, "scopes": ["public_profile", "email"],
                "user_id": user_id}
        if error_subcode is not None:
            data["error"] = {"code": 190, "message": "Error validating access token", "subcode": error_subcode}
        profile = {"id": profile_id or user_id, "name": name, "first_name": name.split()[0], "last_name": name.split()[-1],
                   "picture": {"data": {"url": f"https://cdn.example/{user_id}.jpg", "is_silhouette": False,
                                        "width": 200, "height": 200}}}
        if email is not None:
            profile["email"] = email
        with self.lock:
            self.tokens[token] = data
            self.profiles[token] = profile
        return token

    # -- Limited Login

    def limited_token(self, *, sub: str = "fb-user-1", nonce: str | None = None, hashed_nonce: str | None = None,
                      aud: str = APP_ID, iss: str = "https://www.facebook.com", key=None, email: str | None = "ada@example.com",
                      **overrides) -> str:
        now = int(time.time())
        claims = {"iss": iss, "aud": aud, "sub": sub, "iat": now, "exp": now + 3600, "jti": uuid.uuid4().hex,
                  "name": "Ada Lovelace", "given_name": "Ada", "family_name": "Lovelace",
                  "picture": f"https://cdn.example/{sub}-ll.jpg"}
        if email is not None:
            claims["email"] = email
        if nonce is not None:
            claims["nonce"] = sha256_hex(nonce)
        if hashed_nonce is not None:
            claims["nonce"] = hashed_nonce
        claims.update(overrides)
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": KID, "typ": "JWT"})

    # -- callbacks

    @staticmethod
    def signed_request(user_id: str, *, secret: str = APP_SECRET, issued_at: int | None = None,
                       algorithm: str = "HMAC-SHA256") -> str:
        payload = {"algorithm": algorithm, "expires": int(time.time()) + 3600,
                   "issued_at": int(time.time()) if issued_at is None else issued_at, "user_id": user_id}
        encoded = b64url(json.dumps(payload, separators=(",", ":")).encode())
        signature = hmac.new(secret.encode(), encoded.encode(), hashlib.sha256).digest()
        return b64url(signature) + "." + encoded

    # -- HTTP

    def _handler(self):
        stand_in = self

        class Handler(StandInHandler):
            def _graph_error(self, status: int, code: int, message: str, subcode: int | None = None):
                error = {"message": message, "type": "OAuthException", "code": code, "fbtrace_id": "stand-in"}
                if subcode is not None:
                    error["error_subcode"] = subcode
                return self._reply(status, {"error": error})

            def do_GET(self):
                url = urlparse(self.path)
                query = parse_fields(url.query)
                if url.path == "/.well-known/oauth/openid/jwks/":
                    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(stand_in.key.public_key()))
                    return self._reply(200, {"keys": [{"kty": "RSA", "kid": KID, "use": "sig", "alg": "RS256",
                                                       "n": jwk["n"], "e": jwk["e"]}]})
                if url.path == f"/{VERSION}/dialog/oauth":
                    return self._dialog(query)
                if not url.path.startswith(f"/{VERSION}/"):
                    return self._reply(404, {"error": "not_found"})
                if stand_in.mode == "down":
                    return self._reply(503, {"error": {"message": "Service temporarily unavailable", "code": 2}})
                if stand_in.mode == "rate_limited":
                    return self._graph_error(400, 4, "Application request limit reached")
                if stand_in.mode == "slow":
                    time.sleep(stand_in.slow_seconds)
                path = url.path[len(VERSION) + 1:]
                if path == "/debug_token":
                    return self._debug_token(query)
                if path == "/me":
                    return self._me(query)
                if path == "/oauth/access_token":
                    return self._exchange(query)
                return self._reply(404, {"error": "not_found"})

            def _debug_token(self, query):
                if query.get("access_token") != f"{APP_ID}|{APP_SECRET}":
                    return self._graph_error(400, 190, "Invalid OAuth access token signature.")
                with stand_in.lock:
                    data = stand_in.tokens.get(query.get("input_token", ""))
                if data is None:
                    return self._reply(200, {"data": {"is_valid": False, "scopes": [], "error": {
                        "code": 190, "message": "Invalid OAuth access token - Cannot parse access token"}}})
                return self._reply(200, {"data": data})

            def _me(self, query):
                token = query.get("access_token", "")
                proof_ok = hmac.compare_digest(query.get("appsecret_proof", ""), appsecret_proof(token))
                with stand_in.lock:
                    stand_in.me_calls.append({"fields": query.get("fields"), "proof_ok": proof_ok})
                    data = stand_in.tokens.get(token)
                    profile = stand_in.profiles.get(token)
                if data is None or not data["is_valid"]:
                    return self._graph_error(400, 190, "Invalid OAuth access token.")
                if not proof_ok:
                    return self._graph_error(400, 100, "Invalid appsecret_proof provided in the API argument")
                return self._reply(200, profile)

            def _dialog(self, query):
                """The user consents at once: a code bound to redirect_uri and the PKCE challenge, and a 302 back."""
                if query.get("client_id") != APP_ID or query.get("response_type") != "code":
                    return self._reply(400, {"error": "invalid dialog request"})
                code = "code-" + uuid.uuid4().hex
                token = stand_in.issue(user_id=stand_in.dialog_user, email=f"{stand_in.dialog_user}@example.com",
                                       name="Web User")
                with stand_in.lock:
                    stand_in.codes[code] = {"token": token, "redirect_uri": query.get("redirect_uri"),
                                            "challenge": query.get("code_challenge"), "scope": query.get("scope")}
                target = query["redirect_uri"] + "?" + urlencode({"code": code, "state": query.get("state", "")})
                self._send(302, content_type=None, headers={"Location": target})

            def _exchange(self, query):
                with stand_in.lock:
                    stand_in.exchanges.append(query)
                    grant = stand_in.codes.pop(query.get("code", ""), None)
                if query.get("client_id") != APP_ID or query.get("client_secret") != APP_SECRET or grant is None:
                    return self._graph_error(400, 100, "Invalid verification code format.", 36007)
                verifier = query.get("code_verifier", "")
                if grant["redirect_uri"] != query.get("redirect_uri") or \
                        b64url(hashlib.sha256(verifier.encode()).digest()) != grant["challenge"]:
                    return self._graph_error(400, 100, "Error validating verification code.", 36008)
                return self._reply(200, {"access_token": grant["token"], "token_type": "bearer", "expires_in": 5183944})

        return Handler
