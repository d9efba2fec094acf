"""The repository's nginx configuration in front of a real gateway: TLS and HTTP/2 at the edge, the client's
address reaching the gateway's logs and limits, `Bearer owner` never admin through the proxy, and the edge's
own refusals in Google's JSON error envelope."""

from __future__ import annotations

import http.client
import os
import signal
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


def test_firebase_admin_through_the_adapter_over_https(fronted, tmp_path, monkeypatch):
    """The production way for a backend: `gatehouse_admin` with a service account, over HTTPS through nginx
    (the adapter refuses plain HTTP to anything but loopback). Access tokens, admin calls and the keys that
    `verify_id_token` checks signatures with all travel over TLS, trusted through the test's CA."""
    import firebase_admin
    from firebase_admin import auth

    import gatehouse_admin
    from admin_sdk import create_service_account

    gw, front = fronted
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(front.ca_file))
    key_file = tmp_path / "backend.json"
    create_service_account(gw, "https-backend", key_file)
    base = f"https://127.0.0.1:{front.tls_port}"
    app = gatehouse_admin.initialize_app(base, key_file, name="https-backend")
    try:
        user = auth.create_user(email="tls@example.com", password="tls-password-1", app=app)
        status, _, body = https_request(front, "POST", f"{IDENTITY}/accounts:signInWithPassword?key={API_KEY}",
                                        {"email": "tls@example.com", "password": "tls-password-1",
                                         "returnSecureToken": True})
        assert status == 200, body
        claims = auth.verify_id_token(json.loads(body)["idToken"], app=app, check_revoked=True)
        assert claims["uid"] == user.uid
        assert auth.get_user(user.uid, app=app).email == "tls@example.com"
    finally:
        firebase_admin.delete_app(app)


def test_an_admin_import_larger_than_the_default_limit_passes_the_edge(fronted):
    """The import routes get the gateway's own larger limit at nginx too (2 MB here, the default limit is 1 MiB)."""
    gw, front = fronted
    users = [{"localId": f"edge{n}", "displayName": "d" * 1000, "photoUrl": "https://example.com/" + "p" * 1000}
             for n in range(1000)]
    body = json.dumps({"users": users}).encode()
    assert len(body) > 2_000_000
    path = f"{IDENTITY}/projects/{gw.project_id}/accounts:batchCreate"
    status, _, answer = https_request(front, "POST", path, body, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert status == 200, answer[:300]
    assert json.loads(answer) == {"kind": "identitytoolkit#UploadAccountResponse", "error": []}


def test_the_per_client_key_is_an_ipv4_address_or_an_ipv6_64(tmp_path):
    """nginx's `limit_conn` key, computed by the shipped `map` in a real nginx for addresses given as a query
    parameter (the test machine has only loopback addresses to connect from): every address of one /64 gets
    the /64's key, whatever the compressed spelling nginx gives it, and different /64s get different keys."""
    import ipaddress
    import random
    import re
    import shutil
    import socket
    import time
    import urllib.request

    from harness import free_loopback_port
    from nginx_front import DEPLOYED_CONFIG

    deployed = DEPLOYED_CONFIG.read_text()
    block = re.search(r"^map \$remote_addr \$gatehouse_client \{\n.*?^\}\n", deployed, re.S | re.M)
    assert block, "deploy/nginx/gatehouse.conf no longer maps $remote_addr to $gatehouse_client"
    assert "limit_conn_zone $gatehouse_client " in deployed
    probe_map = block.group(0).replace("map $remote_addr", "map $arg_ip").replace("default $remote_addr", "default $arg_ip")
    port = free_loopback_port()
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(f"    {name}_temp_path {tmp_path / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {tmp_path / 'nginx.pid'};\nerror_log {tmp_path / 'error.log'};\n"
        f"events {{ worker_connections 64; }}\nhttp {{\n    access_log off;\n{temp}\n{probe_map}"
        f"    server {{ listen 127.0.0.1:{port}; location / {{ return 200 \"$gatehouse_client\"; }} }}\n}}\n")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, (tmp_path / "error.log").read_text()
                time.sleep(0.05)

        def key(address: str) -> str:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/?ip={address}", timeout=5) as answer:
                return answer.read().decode()

        def expected(address: str) -> str:
            parsed = ipaddress.ip_address(address)
            if parsed.version == 4:
                return address
            return ":".join(format(int(group, 16), "x") for group in parsed.exploded.split(":")[:4])

        rng = random.Random(64)
        # Prefixes with zero groups in every position, and interface ids that are zero, partly zero or full, so
        # that "::" falls before, inside and after the /64 boundary.
        prefixes = [(0x2001, 0xdb8, 0, 0), (0x2001, 0, 0, 5), (0, 0, 0, 0), (0x2a02, 0x1234, 0x5678, 0x9abc),
                    (0xfe80, 0, 0, 0), (0x2001, 0xdb8, 0, 1), (0, 0, 0, 1), (0x2001, 0, 7, 0), (0, 0, 5, 6)]
        interface_ids = [(0, 0, 0, 1), (0, 0, 0, 0), (1, 2, 3, 4), (0, 0, 5, 6), (7, 0, 0, 8), (0xffff, 0, 0, 0)]
        addresses = []
        for prefix in prefixes:
            for iid in interface_ids + [tuple(rng.choice([0, rng.randrange(1, 1 << 16)]) for _ in range(4))]:
                value = 0
                for group in prefix + iid:
                    value = (value << 16) | group
                addresses.append(ipaddress.IPv6Address(value).compressed)
        addresses += ["198.51.100.7", "127.0.0.1"]
        keys = {address: key(address) for address in addresses}
        for address, found in keys.items():
            assert found == expected(address), (address, found)
        by_prefix = {}
        for address in addresses:
            by_prefix.setdefault(expected(address), set()).add(keys[address])
        assert all(len(found) == 1 for found in by_prefix.values())
        assert len(by_prefix) == len(set(prefixes)) + 2
    finally:
        process.send_signal(signal.SIGQUIT)
        process.wait(timeout=10)
