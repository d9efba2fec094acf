"""Test verbs: what a client does to a gateway, in the words of the Firebase REST API.

Every HTTP response that goes through `send` is recorded, so a fixture can fail any test that saw a
5xx (clients such as firebase-admin retry 5xx answers, so the gateway must never use them for
expected errors).
"""

from __future__ import annotations

import base64
import json
import select
import socket
import time

import requests

from harness import ADMIN_TOKEN, Gateway

API_KEY = "blackbox-key"
IDENTITY = "/identitytoolkit.googleapis.com/v1"
LEGACY = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
TOKEN_PATH = "/securetoken.googleapis.com/v1/token"
X509_PATH = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
JWKS_PATH = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"

seen_statuses: list[tuple[str, str, int]] = []


def record(method: str, url: str, status: int) -> None:
    seen_statuses.append((method, url, status))


def send(gw: Gateway, method: str, path: str, *, key: str | None = API_KEY, **kwargs) -> requests.Response:
    """One request to the gateway; `key=None` sends no API key."""
    params = dict(kwargs.pop("params", {}) or {})
    if key is not None:
        params["key"] = key
    response = requests.request(method, gw.url(path), params=params, timeout=10, **kwargs)
    record(method, path, response.status_code)
    return response


def post_json(gw: Gateway, path: str, body, **kwargs) -> requests.Response:
    return send(gw, "POST", path, json=body, **kwargs)


def ok_json(response: requests.Response) -> dict:
    assert response.status_code == 200, f"{response.status_code}: {response.text}"
    return response.json()


# ---------------------------------------------------------------- end-user verbs

def sign_up_anonymously_raw(gw: Gateway, path: str = IDENTITY + "/accounts:signUp", **kwargs) -> requests.Response:
    return post_json(gw, path, {"returnSecureToken": True}, **kwargs)


def sign_up_anonymously(gw: Gateway) -> dict:
    return ok_json(sign_up_anonymously_raw(gw))


def lookup_raw(gw: Gateway, id_token, path: str = IDENTITY + "/accounts:lookup") -> requests.Response:
    return post_json(gw, path, {"idToken": id_token})


def lookup(gw: Gateway, id_token: str) -> dict:
    """The single user record the ID token belongs to."""
    body = ok_json(lookup_raw(gw, id_token))
    assert body["kind"] == "identitytoolkit#GetAccountInfoResponse"
    assert len(body["users"]) == 1
    return body["users"][0]


def update_raw(gw: Gateway, body: dict, path: str = IDENTITY + "/accounts:update") -> requests.Response:
    return post_json(gw, path, body)


def delete_account_raw(gw: Gateway, id_token: str, path: str = IDENTITY + "/accounts:delete") -> requests.Response:
    return post_json(gw, path, {"idToken": id_token})


def delete_account(gw: Gateway, id_token: str) -> None:
    assert ok_json(delete_account_raw(gw, id_token)) == {"kind": "identitytoolkit#DeleteAccountResponse"}


def refresh_raw(gw: Gateway, refresh_token: str | None, *, form: bool = False, grant_type="refresh_token"):
    if form:
        fields = {}
        if grant_type is not None:
            fields["grant_type"] = grant_type
        if refresh_token is not None:
            fields["refresh_token"] = refresh_token
        return send(gw, "POST", TOKEN_PATH, data=fields)
    body = {}
    if grant_type is not None:
        body["grantType"] = grant_type
    if refresh_token is not None:
        body["refreshToken"] = refresh_token
    return post_json(gw, TOKEN_PATH, body)


def refresh(gw: Gateway, refresh_token: str, *, form: bool = False) -> dict:
    return ok_json(refresh_raw(gw, refresh_token, form=form))


# ---------------------------------------------------------------- admin verbs

def admin_headers(token: str = ADMIN_TOKEN) -> dict:
    return {"Authorization": f"Bearer {token}"}


def admin_post(gw: Gateway, operation: str, body: dict, *, project: str | None = None, token: str = ADMIN_TOKEN):
    path = f"{IDENTITY}/projects/{project or gw.project_id}/{operation}"
    return post_json(gw, path, body, key=None, headers=admin_headers(token))


# ---------------------------------------------------------------- keys

def x509_certs(gw: Gateway) -> dict:
    return ok_json(send(gw, "GET", X509_PATH, key=None))


def jwks(gw: Gateway) -> dict:
    return ok_json(send(gw, "GET", JWKS_PATH, key=None))


def published_kids(gw: Gateway) -> tuple[set, set]:
    return set(x509_certs(gw)), {key["kid"] for key in jwks(gw)["keys"]}


# ---------------------------------------------------------------- JWT inspection

def b64url_decode(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def jwt_header(token: str) -> dict:
    return json.loads(b64url_decode(token.split(".")[0]))


def jwt_claims(token: str) -> dict:
    return json.loads(b64url_decode(token.split(".")[1]))


def with_claims(token: str, **changes) -> str:
    """The same token with edited claims and the original signature (so the signature no longer matches)."""
    header, _, signature = token.split(".")
    claims = jwt_claims(token)
    claims.update(changes)
    payload = b64url_encode(json.dumps(claims, separators=(",", ":")).encode())
    return f"{header}.{payload}.{signature}"


def unsigned_token(claims: dict) -> str:
    header = b64url_encode(json.dumps({"alg": "none", "typ": "JWT"}).encode())
    return f"{header}.{b64url_encode(json.dumps(claims).encode())}."


# ---------------------------------------------------------------- error assertions

def assert_business_error(response: requests.Response, code: str) -> None:
    """A 400 in the Identity Toolkit shape: message `CODE` or `CODE : detail`, no `status` key."""
    assert response.status_code == 400, f"{response.status_code}: {response.text}"
    error = response.json()["error"]
    message = error["message"]
    assert message == code or message.startswith(code + " : "), message
    assert response.json() == {
        "error": {"code": 400, "message": message, "errors": [{"message": message, "reason": "invalid", "domain": "global"}]}
    }


def assert_invalid_json_payload(response: requests.Response) -> None:
    assert response.status_code == 400, f"{response.status_code}: {response.text}"
    error = response.json()["error"]
    assert error["code"] == 400
    assert error["status"] == "INVALID_ARGUMENT"
    assert error["message"].startswith("Invalid JSON payload received.")
    assert len(error["errors"]) == 1
    item = error["errors"][0]
    assert item["message"] == error["message"]
    assert item["reason"] in ("invalid", "parseError")
    assert item["domain"] == "global"


def assert_alive(gw: Gateway) -> None:
    assert gw.is_alive(), "gateway process died"
    assert ok_json(send(gw, "GET", "/healthz", key=None)) == {"status": "ok"}


# ---------------------------------------------------------------- raw HTTP (for limits the client library hides)

def raw_http(gw: Gateway, head: bytes, body: bytes = b"", timeout: float = 10.0) -> int:
    """Sends a hand-built request and returns the status code.

    The body is only sent if the server has not answered within a second of the head (a server may
    reject an oversized Content-Length before reading the body); an early close is tolerated.
    """
    with socket.create_connection(("127.0.0.1", gw.port), timeout=timeout) as conn:
        try:
            conn.sendall(head)
            answered_early = bool(select.select([conn], [], [], 1.0)[0]) if body else True
            if not answered_early:
                for offset in range(0, len(body), 65536):
                    conn.sendall(body[offset:offset + 65536])
        except (BrokenPipeError, ConnectionResetError):
            pass
        received = b""
        deadline = time.monotonic() + timeout
        while b"\r\n" not in received and time.monotonic() < deadline:
            try:
                chunk = conn.recv(4096)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
    status_line = received.split(b"\r\n", 1)[0].decode(errors="replace")
    assert status_line.startswith("HTTP/1."), f"no HTTP status line, got {received[:200]!r}"
    status = int(status_line.split()[1])
    record("RAW", head.split(b"\r\n", 1)[0].decode(errors="replace"), status)
    return status
