"""Issue 19 item 8: requests the HTTP layer refuses before routing (malformed, too large, too slow) answer with
Google's JSON error envelope, so an SDK shows a real message instead of failing to parse text/plain."""

from __future__ import annotations

import json
import socket
import time

from verbs import IDENTITY, assert_alive

SIGN_UP = IDENTITY + "/accounts:signUp"


def raw_exchange(gw, head: bytes, body: bytes = b"", *, timeout: float = 30.0, pause: float = 0.0):
    """Sends a hand-built request (the body after `pause` seconds, if the server has not closed) and reads the
    whole answer until the server closes; returns (status, headers, parsed JSON body)."""
    received = b""
    with socket.create_connection(("127.0.0.1", gw.port), timeout=timeout) as conn:
        try:
            conn.sendall(head)
            if pause:
                time.sleep(pause)
            for offset in range(0, len(body), 65536):
                conn.sendall(body[offset:offset + 65536])
        except (BrokenPipeError, ConnectionResetError):
            pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = conn.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
    head_text, _, payload = received.partition(b"\r\n\r\n")
    lines = head_text.decode(errors="replace").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", len(payload)))
    return status, headers, json.loads(payload[:length])


def assert_envelope(status: int, headers: dict, body: dict, code: int, google_status: str, message: str) -> None:
    assert status == code
    assert headers["content-type"].startswith("application/json")
    assert headers.get("access-control-allow-origin") == "*"
    assert body == {"error": {"code": code, "message": message,
                              "errors": [{"message": message, "reason": "invalid", "domain": "global"}],
                              "status": google_status}}


def test_malformed_request_is_a_400_envelope(gw):
    status, headers, body = raw_exchange(gw, b"POST /x y z HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert_envelope(status, headers, body, 400, "INVALID_ARGUMENT", "Malformed request line.")
    assert_alive(gw)


def test_body_over_the_limit_is_a_413_envelope_naming_the_limit(gw):
    body = b'{"returnSecureToken":true,"pad":"' + b"a" * (2 * 1024 * 1024) + b'"}'
    head = (f"POST {SIGN_UP}?key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    status, headers, answer = raw_exchange(gw, head, body)
    assert_envelope(status, headers, answer, 413, "INVALID_ARGUMENT",
                    f"Request payload size exceeds the limit: {1 << 20} bytes.")
    assert_alive(gw)


def test_configured_body_limit_is_the_one_named(make_gateway):
    gw = make_gateway(config={"http": {"maxBodyBytes": 1000}})
    body = b'{"pad":"' + b"a" * 2000 + b'"}'
    head = (f"POST {SIGN_UP}?key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    status, headers, answer = raw_exchange(gw, head, body)
    assert_envelope(status, headers, answer, 413, "INVALID_ARGUMENT", "Request payload size exceeds the limit: 1000 bytes.")


def test_headers_over_the_limit_are_a_431_envelope(gw):
    head = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: {'p' * 20000}\r\n\r\n".encode()
    status, headers, body = raw_exchange(gw, head)
    assert_envelope(status, headers, body, 431, "INVALID_ARGUMENT", "Request header block is too large.")
    assert_alive(gw)


def test_request_not_completed_in_time_is_a_408_envelope(make_gateway):
    gw = make_gateway(config={"http": {"requestTimeoutSeconds": 1}})
    head = (f"POST {SIGN_UP}?key=k HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: 100\r\n\r\n").encode()
    status, headers, body = raw_exchange(gw, head, b'{"returnSecureToken"', timeout=20)
    assert_envelope(status, headers, body, 408, "DEADLINE_EXCEEDED", "Request was not completed in time.")
    assert_alive(gw)


def test_import_route_names_its_own_limit(make_gateway):
    """An admin import over `http.maxImportBodyBytes` is told that limit, not the default one it was allowed past."""
    from harness import ADMIN_TOKEN
    gw = make_gateway(config={"http": {"maxBodyBytes": 1000, "maxImportBodyBytes": 4000}})
    body = b'{"users":[],"pad":"' + b"a" * 5000 + b'"}'
    path = f"/identitytoolkit.googleapis.com/v1/projects/{gw.project_id}/accounts:batchCreate"
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {ADMIN_TOKEN}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    status, headers, answer = raw_exchange(gw, head, body)
    assert_envelope(status, headers, answer, 413, "INVALID_ARGUMENT", "Request payload size exceeds the limit: 4000 bytes.")
