"""The repository's nginx configuration in front of a real gateway: TLS and HTTP/2 at the edge, the client's
address reaching the gateway's logs and limits, `Bearer owner` never admin through the proxy, and the edge's
own refusals in Google's JSON error envelope."""

from __future__ import annotations

import http.client
import json
import ssl
import subprocess

import pytest

from harness import ADMIN_TOKEN
from nginx_front import SERVER_NAME, start_nginx
from verbs import API_KEY, IDENTITY

CLIENT_ADDRESS = "127.0.0.3"


@pytest.fixture
def fronted(make_gateway, tmp_path):
    """A gateway that trusts nginx (127.0.0.1) as its proxy and, to make the test meaningful, would take
    `Bearer owner` from loopback when sent directly; and nginx in front of it."""
    gw = make_gateway(config={"trustedProxies": ["127.0.0.1"], "trustedAdminNetworks": ["127.0.0.0/8"]})
    front = start_nginx(gw, tmp_path)
    yield gw, front
    front.stop()


def https_request(front, method: str, path: str, body: dict | bytes | None = None, headers: dict | None = None,
                  source: str = CLIENT_ADDRESS) -> tuple[int, dict, bytes]:
    context = ssl.create_default_context(cafile=str(front.ca_file))
    connection = http.client.HTTPSConnection("127.0.0.1", front.tls_port, context=context, timeout=20,
                                             source_address=(source, 0))
    payload = json.dumps(body).encode() if isinstance(body, dict) else body
    all_headers = {"Host": SERVER_NAME, **({"Content-Type": "application/json"} if payload is not None else {}),
                   **(headers or {})}
    try:
        connection.request(method, path, body=payload, headers=all_headers)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def log_entries(gw, path_suffix: str) -> list[dict]:
    entries = [json.loads(line) for line in gw.log_lines() if line.startswith("{")]
    return [e for e in entries if str(e.get("http.path", "")).endswith(path_suffix)]


def test_sign_up_and_sign_in_through_nginx_with_the_client_address_in_the_gateway_log(fronted):
    gw, front = fronted
    status, headers, body = https_request(front, "POST", f"{IDENTITY}/accounts:signUp?key={API_KEY}",
                                          {"email": "front@example.com", "password": "front-pass-1",
                                           "returnSecureToken": True},
                                          headers={"X-Forwarded-For": "198.51.100.7"})
    assert status == 200, body
    assert headers.get("Strict-Transport-Security") == "max-age=63072000"
    signed_up = json.loads(body)
    status, _, body = https_request(front, "POST", f"{IDENTITY}/accounts:signInWithPassword?key={API_KEY}",
                                    {"email": "front@example.com", "password": "front-pass-1",
                                     "returnSecureToken": True})
    assert status == 200, body
    assert json.loads(body)["localId"] == signed_up["localId"]

    sign_ups = log_entries(gw, "accounts:signUp")
    sign_ins = log_entries(gw, "accounts:signInWithPassword")
    assert [e["client.ip"] for e in sign_ups] == [CLIENT_ADDRESS], "a client-written X-Forwarded-For chose the address"
    assert [e["client.ip"] for e in sign_ins] == [CLIENT_ADDRESS]
    assert API_KEY not in front.access_log, "nginx logged the query string with the API key"
    assert f"{IDENTITY}/accounts:signUp" in front.access_log


def test_http2_is_offered_and_plain_http_redirects_to_https(fronted):
    _, front = fronted
    done = subprocess.run(
        ["curl", "-sS", "--http2", "--cacert", str(front.ca_file), "--resolve", f"{SERVER_NAME}:{front.tls_port}:127.0.0.1",
         "-o", "/dev/null", "-w", "%{http_version} %{http_code}", f"https://{SERVER_NAME}:{front.tls_port}/healthz"],
        capture_output=True, text=True, timeout=30)
    assert done.stdout == "2 200", done.stderr
    plain = http.client.HTTPConnection("127.0.0.1", front.http_port, timeout=10)
    plain.request("GET", "/healthz", headers={"Host": SERVER_NAME})
    response = plain.getresponse()
    assert response.status == 308 and response.getheader("Location") == f"https://{SERVER_NAME}/healthz"
    plain.close()


def test_bearer_owner_through_nginx_is_refused_while_an_admin_token_works(fronted):
    gw, front = fronted
    path = f"/identitytoolkit.googleapis.com/v1/projects/{gw.project_id}/accounts:lookup"
    body = {"localId": ["nobody"]}
    # The control comes from 127.0.0.2: the proxy's own address (127.0.0.1) is never taken for Bearer owner.
    direct = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10, source_address=("127.0.0.2", 0))
    direct.request("POST", path, body=json.dumps(body), headers={"Authorization": "Bearer owner",
                                                                "Content-Type": "application/json"})
    assert direct.getresponse().status == 200, "control: Bearer owner sent directly from a listed network is admin"
    direct.close()
    for source in (CLIENT_ADDRESS, "127.0.0.1"):
        status, _, answer = https_request(front, "POST", path, body, headers={"Authorization": "Bearer owner"},
                                          source=source)
        assert status == 401, answer
    status, _, answer = https_request(front, "POST", path, body, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 200, answer
    # /metrics needs no credential from loopback, but only directly: through nginx it is refused.
    assert https_request(front, "GET", "/metrics")[0] == 401


def test_the_edge_refuses_oversized_requests_in_googles_error_envelope(fronted):
    _, front = fronted
    status, headers, body = https_request(front, "POST", f"{IDENTITY}/accounts:signUp?key={API_KEY}",
                                          b"{" + b" " * (1024 * 1024 + 16) + b"}")
    assert status == 413 and headers.get("Content-Type") == "application/json", body
    assert json.loads(body)["error"]["code"] == 413
    status, headers, body = https_request(front, "GET", "/healthz", headers={"X-Big": "x" * 20000})
    assert status == 431 and json.loads(body)["error"]["message"].startswith("REQUEST_HEADER_FIELDS_TOO_LARGE")
