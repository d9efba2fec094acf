#!/usr/bin/env python3
"""Half-load p99 of the endpoints bench/run.sh does not cover: issue 17 asks for p99 ≤ 5 ms at half the maximum
load on every endpoint that neither runs the KDF nor waits on a provider.

    bench/endpoints.py [--binary .build/release/gateway] [--seconds 8] [--only update,jwks]

For each endpoint: the best closed-loop rate at 64 connections (--seconds / 2), then half that rate offered by 32
connections pausing a random (exponential) time after every answer, as bench/run.sh's half-load rows do, for
--seconds; the p99 of that run is the figure. Also the server's CPU per request at saturation. Every request is a
fixed one that can be repeated (an ID token, a custom token and an admin credential made once at the start).
Prints a markdown table; a run with errors is marked, since its latency is not a valid figure.

The custom token is signed here with the key file `gateway service-accounts create` writes, so this script needs
the `cryptography` package (the test venv has it: `.venv/bin/python bench/endpoints.py`).
"""

import argparse
import base64
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402

ADMIN = "Bearer bench-admin-credential-0123456789"
V1 = "/identitytoolkit.googleapis.com/v1"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt_claims(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def post(gateway: compare.Gateway, path: str, body: dict) -> dict:
    request = urllib.request.Request(gateway.base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=30).read())


def custom_token(binary: str, gateway: compare.Gateway, project_id: str) -> str:
    """A custom token from a service account made with the gateway's CLI, valid for the hour."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding

    key_file = Path(gateway.data_dir) / "bench-sa.json"
    subprocess.run([binary, "service-accounts", "create", "bench-backend", "--key-file", str(key_file),
                    "--data-dir", str(Path(gateway.data_dir) / "data"), "--project-id", project_id,
                    "--gateway-url", gateway.base], check=True, capture_output=True)
    account = json.loads(key_file.read_text())
    key = serialization.load_pem_private_key(account["private_key"].encode(), password=None)
    now = int(time.time())
    header = {"alg": "RS256", "typ": "JWT", "kid": account["private_key_id"]}
    claims = {"iss": account["client_email"], "sub": account["client_email"], "uid": "bench-custom-user",
              "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
              "iat": now, "exp": now + 3600}
    signing_input = f"{b64url(json.dumps(header).encode())}.{b64url(json.dumps(claims).encode())}"
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{b64url(signature)}"


def endpoints(binary: str, gateway: compare.Gateway) -> dict[str, dict]:
    """name -> request (method, path, body, authorization) and what it costs, with its fixtures made."""
    account = post(gateway, f"{V1}/accounts:signUp?key=bench-key",
                   {"email": "bench@example.com", "password": "bench-password", "returnSecureToken": True})
    id_token, local_id = account["idToken"], account["localId"]
    project_id = jwt_claims(id_token)["aud"]
    return {
        "accounts:update (display name)": {
            "method": "POST", "path": f"{V1}/accounts:update?key=bench-key",
            "body": {"idToken": id_token, "displayName": "Bench User"},
            "cost": "verification (cached), read, write"},
        "accounts:createAuthUri": {
            "method": "POST", "path": f"{V1}/accounts:createAuthUri?key=bench-key",
            "body": {"identifier": "bench@example.com", "continueUri": "http://localhost/"},
            "cost": "read"},
        "accounts:signInWithCustomToken": {
            "method": "POST", "path": f"{V1}/accounts:signInWithCustomToken?key=bench-key",
            "body": {"token": custom_token(binary, gateway, project_id), "returnSecureToken": True},
            "cost": "RSA verification, write, RSA signature"},
        "admin accounts:lookup": {
            "method": "POST", "path": f"{V1}/projects/{project_id}/accounts:lookup",
            "body": {"localId": [local_id]}, "authorization": ADMIN, "cost": "read"},
        "admin getConfig": {
            "method": "GET", "path": f"/identitytoolkit.googleapis.com/v2/projects/{project_id}/config",
            "authorization": ADMIN, "cost": "read"},
        "getRecaptchaParams": {"method": "GET", "path": f"{V1}/recaptchaParams?key=bench-key", "cost": "none"},
        "public keys (x509)": {
            "method": "GET", "path": "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com",
            "cost": "none"},
        "public keys (JWKS)": {
            "method": "GET", "path": "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com",
            "cost": "none"},
        "openid-configuration": {
            "method": "GET", "path": f"/securetoken.google.com/{project_id}/.well-known/openid-configuration",
            "cost": "none"},
        "GET /metrics": {"method": "GET", "path": "/metrics", "cost": "renders every series"},
    }


def run(gateway: compare.Gateway, request: dict, connections: int, seconds: int, delay_ms: float = 0) -> dict:
    saved = gateway.env
    gateway.env = dict(saved, BENCH_METHOD=request["method"], BENCH_PATH=request["path"],
                       BENCH_BODY=json.dumps(request["body"]) if "body" in request else "",
                       BENCH_AUTHORIZATION=request.get("authorization", ""))
    try:
        return gateway.wrk("request", connections, seconds, delay_ms)
    finally:
        gateway.env = saved


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/gateway")
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--only", help="comma-separated names (substrings) of endpoints to run")
    args = parser.parse_args()

    compare.CONFIG["adminTokens"] = [ADMIN.split()[1]]
    gateway = compare.Gateway(os.path.abspath(args.binary))
    rows = []
    try:
        for name, request in endpoints(args.binary, gateway).items():
            if args.only and not any(part in name for part in args.only.split(",")):
                continue
            run(gateway, request, 16, 1)   # warm-up
            best = run(gateway, request, 64, max(2, args.seconds // 2))
            # 32 connections, each pausing after every answer so that together they offer half the best rate.
            delay_ms = max(1.0, 32 / (best["rps"] / 2) * 1000)
            half = run(gateway, request, 32, args.seconds, delay_ms)
            rows.append((name, request["cost"], best, half))
            print(f"{name}: best {best['rps']:,.0f} req/s, half {half['rps']:,.0f} req/s, p99 "
                  f"{half['p99_us'] / 1000:.2f} ms, errors {best['errors']} / {half['errors']}", file=sys.stderr)
    finally:
        gateway.stop()

    print(f"Half load: 32 connections with exponential pauses (mean from the best rate at 64 connections), "
          f"{args.seconds} s per endpoint; wrk with 1 thread on the same cores.\n")
    print("| endpoint | work per request | best req/s (64 conns) | server CPU per request | half load achieved | "
          "p50 | p99 | max | errors | p99 ≤ 5 ms |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, cost, best, half in rows:
        errors = best["errors"] + half["errors"]
        verdict = "not valid (errors)" if errors else ("yes" if half["p99_us"] <= 5000 else "**no**")
        print(f"| {name} | {cost} | {best['rps']:,.0f} | {1e6 * best['cpu_s'] / best['requests']:.0f} µs | "
              f"{half['rps']:,.0f} req/s | {half['p50_us'] / 1000:.2f} ms | {half['p99_us'] / 1000:.2f} ms | "
              f"{half['max_us'] / 1000:.1f} ms | {errors} | {verdict} |")


if __name__ == "__main__":
    main()
