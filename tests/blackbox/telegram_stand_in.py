"""A local stand-in for Telegram's sign-in: the OpenID Connect issuer (oauth.telegram.org) and the signer of
Login Widget and Mini App data.

The issuer serves discovery, a JWKS, an authorize page that consents at once and redirects back with a code
(`response_mode=query`, as OAuth does by default), and a token endpoint that checks HTTP Basic client
authentication, the redirect URI and PKCE (S256) before returning an ID token signed with its own RSA key.
Widget and Mini App data are signed here exactly as Telegram does, with the bot tokens below; the published
Mini App vector (Telegram-Mini-Apps/init-data-golang#11) is kept verbatim, signed by Telegram itself.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from urllib.parse import quote, unquote_plus, urlencode, urlparse

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from stand_in_server import StandInHandler, StandInServer, parse_fields

ISSUER = "https://oauth.telegram.org"

# The reference's self-made widget vector: a bot that signs widget and Mini App data and is an OIDC client.
BOT_ID = "123456789"
BOT_TOKEN = "123456789:TEST-TOKEN-not-real"
CLIENT_SECRET = "web-login-secret/+="  # characters that need form-encoding in Basic auth

# The published Mini App vector and the token it was signed with.
VECTOR_BOT_ID = "7342037359"
VECTOR_BOT_TOKEN = "7342037359:AAHI25ES9xCOMPokpYoz-p8XVrZUdygo2J4"
VECTOR_AUTH_DATE = 1733509682
VECTOR_USER_ID = "279058397"
VECTOR_INIT_DATA = (
    "user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%20%2B%20-%20%3F%20%5C%2F%22%2C%22last_name%22%3A"
    "%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%2C"
    "%22allows_write_to_pm%22%3Atrue%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2Ft.me%5C%2Fi%5C%2Fuserpic%5C%2F320%5C%2F"
    "4FPEE4tmP3ATHa57u6MqTDih13LTOiMoKoLDRG4PnSA.svg%22%7D&chat_instance=8134722200314281151&chat_type=private"
    "&auth_date=1733509682&signature=TYJxVcisqbWjtodPepiJ6ghziUL94-KNpG8Pau-X7oNNLNBM72APCpi_RKiUlBvcqo5L-LAxIc3dnTzcZX_PDg"
    "&hash=a433d8f9847bd6addcc563bff7cc82c89e97ea0d90c11fe5729cae6796a36d73"
)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _data_check_string(fields: list[tuple[str, str]]) -> bytes:
    return "\n".join(f"{k}={v}" for k, v in sorted(fields, key=lambda kv: kv[0].encode())).encode()


def widget_data(fields: list[tuple[str, str]], token: str = BOT_TOKEN) -> str:
    """Login Widget data as its redirect sends it: the fields and their hash, form-encoded."""
    key = hashlib.sha256(token.encode()).digest()
    digest = hmac.new(key, _data_check_string(fields), hashlib.sha256).hexdigest()
    return urlencode(fields + [("hash", digest)])


def init_data(fields: list[tuple[str, str]], token: str = BOT_TOKEN) -> str:
    """Mini App initData as Telegram's clients build it: values percent-encoded (space %20, plus %2B)."""
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    digest = hmac.new(key, _data_check_string(fields), hashlib.sha256).hexdigest()
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in fields + [("hash", digest)])


def user_json(user_id: int, first_name: str, **extra) -> str:
    """A Mini App `user` object, compact as Telegram writes it (with its `\\/` escapes)."""
    return json.dumps({"id": user_id, "first_name": first_name, **extra}, separators=(",", ":")).replace("/", "\\/")


class TelegramStandIn(StandInServer):
    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.grants: dict[str, dict] = {}
        self.token_calls: list[dict] = []
        # Who consents on the authorize page next.
        self.next_user = {"id": 4242, "name": "Redirect User", "preferred_username": "redirect_user",
                          "phone_number": "989123456789"}
        self.lock = threading.Lock()
        super().__init__(self._handler())

    def gateway_config(self, *, vector_window: bool = False, **extra) -> dict:
        """The `telegram` section for a gateway using this stand-in. Tokens come from `gateway_env()`."""
        bots = [{"id": int(BOT_ID)}, {"id": VECTOR_BOT_ID, "loginWidget": False}]
        if vector_window:
            # The published vector is from December 2024: a window reaching back to it, for that bot only.
            bots[1]["authDateWindowSeconds"] = int(time.time()) - VECTOR_AUTH_DATE + 3600
        telegram = {"enabled": True, "bots": bots, "oidc": {"baseUrl": self.base_url}}
        telegram.update(extra)
        return {"telegram": telegram}

    @staticmethod
    def gateway_env() -> dict[str, str]:
        return {f"GATEHOUSE_TELEGRAM_BOT_TOKEN_{BOT_ID}": BOT_TOKEN,
                f"GATEHOUSE_TELEGRAM_BOT_TOKEN_{VECTOR_BOT_ID}": VECTOR_BOT_TOKEN,
                f"GATEHOUSE_TELEGRAM_CLIENT_SECRET_{BOT_ID}": CLIENT_SECRET}

    # -- tokens

    def id_token(self, *, user_id: int = 4242, nonce: str | None = None, hashed_nonce: str | None = None,
                 aud: str = BOT_ID, key=None, sub: str | None = None, **overrides) -> str:
        now = int(time.time())
        claims = {"iss": ISSUER, "aud": aud, "sub": sub or f"opaque-{user_id}-sub", "id": user_id, "iat": now,
                  "exp": now + 3600, "name": "Token User", "preferred_username": "token_user",
                  "picture": "https://t.me/i/userpic/320/token_user.jpg"}
        if nonce is not None:
            claims["nonce"] = sha256_hex(nonce)
        if hashed_nonce is not None:
            claims["nonce"] = hashed_nonce
        claims.update(overrides)
        claims = {k: v for k, v in claims.items() if v is not None}
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": "tg-1"})

    # -- HTTP

    def _client(self, headers, form: dict) -> str | None:
        """The client id if HTTP Basic authentication names it with its secret (RFC 6749 §2.3.1 encoding)."""
        value = headers.get("Authorization", "")
        if not value.startswith("Basic "):
            return None
        try:
            user, _, password = base64.b64decode(value[6:]).decode().partition(":")
        except Exception:
            return None
        user, password = unquote_plus(user), unquote_plus(password)
        if user == BOT_ID and password == CLIENT_SECRET and form.get("client_id", user) == user:
            return user
        return None

    def _handler(self):
        stand_in = self

        class Handler(StandInHandler):
            def do_GET(self):
                url = urlparse(self.path)
                if url.path == "/.well-known/openid-configuration":
                    base = stand_in.base_url
                    return self._reply(200, {
                        "issuer": ISSUER, "authorization_endpoint": base + "/auth", "token_endpoint": base + "/token",
                        "jwks_uri": base + "/.well-known/jwks.json", "response_types_supported": ["code"],
                        "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"],
                        "code_challenge_methods_supported": ["S256"],
                        "scopes_supported": ["openid", "profile", "phone", "telegram:bot_access"],
                        "token_endpoint_auth_methods_supported": ["client_secret_basic"]})
                if url.path == "/.well-known/jwks.json":
                    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(stand_in.key.public_key()))
                    return self._reply(200, {"keys": [{"kty": "RSA", "kid": "tg-1", "use": "sig", "alg": "RS256",
                                                       "n": jwk["n"], "e": jwk["e"]}]})
                if url.path == "/auth":
                    # The user consents at once; Telegram sends them back with the code in the query.
                    query = parse_fields(url.query)
                    if query.get("response_type") != "code" or query.get("code_challenge_method") != "S256" \
                            or "openid" not in query.get("scope", "").split():
                        return self._reply(400, {"error": "invalid_request"})
                    code = "tg-" + secrets.token_urlsafe(16)
                    with stand_in.lock:
                        stand_in.grants[code] = dict(query, user=dict(stand_in.next_user))
                    target = query["redirect_uri"] + "?" + urlencode({"code": code, "state": query["state"]})
                    return self._reply(302, headers={"Location": target})
                return self._reply(404, {"error": "not_found"})

            def do_POST(self):
                form = self._form()
                if self.path != "/token":
                    return self._reply(404, {"error": "not_found"})
                with stand_in.lock:
                    stand_in.token_calls.append({"form": form, "authorization": self.headers.get("Authorization")})
                    grant = stand_in.grants.pop(form.get("code", ""), None)
                client = stand_in._client(self.headers, form)
                if client is None:
                    return self._reply(401, {"error": "invalid_client"})
                verifier = form.get("code_verifier", "")
                challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
                if form.get("grant_type") != "authorization_code" or grant is None \
                        or grant["client_id"] != client or grant["redirect_uri"] != form.get("redirect_uri") \
                        or grant["code_challenge"] != challenge:
                    return self._reply(400, {"error": "invalid_grant"})
                user = grant["user"]
                claims = {"user_id": user["id"], "hashed_nonce": grant.get("nonce"), "aud": client,
                          "name": user["name"], "preferred_username": user["preferred_username"]}
                if "phone" in grant.get("scope", "").split():
                    claims["phone_number"] = user["phone_number"]
                return self._reply(200, {"access_token": "at-" + secrets.token_urlsafe(8), "token_type": "Bearer",
                                         "expires_in": 3600, "id_token": stand_in.id_token(**claims)})

        return Handler
