"""The JSON access log: one object per line, a request id on request lines, and no secrets."""

from __future__ import annotations

import base64
import json
import re
import secrets
from urllib.parse import urlencode

from harness import free_loopback_port
from verbs import IDENTITY, lookup, post_json, refresh, sign_up_anonymously

REQUEST_ID_KEY = re.compile(r"^(request[._-]?id|req[._-]?id|rid)$", re.IGNORECASE)


def master_key_spellings(data_dir) -> set[str]:
    raw = (data_dir / "master.key").read_bytes()
    spellings = {raw.hex(), base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode().rstrip("=")}
    try:
        text = raw.decode().strip()
        if text:
            spellings.add(text)
            if re.fullmatch(r"[0-9a-fA-F]{64}", text):
                key = bytes.fromhex(text)
                spellings |= {base64.b64encode(key).decode(), base64.urlsafe_b64encode(key).decode().rstrip("=")}
    except UnicodeDecodeError:
        pass
    return {s for s in spellings if len(s) >= 16}


def request_id_of(entry: dict):
    return next((value for key, value in entry.items() if REQUEST_ID_KEY.match(key)), None)


def test_logs_are_json_with_request_ids_and_no_secrets(make_gateway):
    gw = make_gateway()
    account = sign_up_anonymously(gw)
    refreshed = refresh(gw, account["refreshToken"])
    lookup(gw, refreshed["id_token"])
    assert gw.stop() == 0

    lines = gw.log_lines()
    entries = [json.loads(line) for line in lines]
    assert all(isinstance(entry, dict) for entry in entries)
    assert any(entry.get("msg") == "listening" for entry in entries)

    request_ids = [request_id_of(entry) for entry in entries if request_id_of(entry)]
    assert len(set(request_ids)) >= 3, lines

    log = gw.log_text()
    secrets = {account["idToken"], account["refreshToken"], refreshed["id_token"]}
    secrets |= {token.split(".")[2] for token in (account["idToken"], refreshed["id_token"])}
    secrets |= master_key_spellings(gw.data_dir)
    leaked = [secret[:12] + "…" for secret in secrets if secret in log]
    assert not leaked, f"secrets found in the log: {leaked}"


def test_listening_line_names_the_port(make_gateway):
    gw = make_gateway()
    listening = [json.loads(line) for line in gw.log_lines() if '"listening"' in line]
    assert listening and listening[0]["port"] == gw.port


def entries_with(gw, msg: str) -> list[dict]:
    return [entry for entry in map(json.loads, gw.log_lines()) if entry.get("msg") == msg]


def apple_sign_in(gw, token: str, raw_nonce: str):
    post_body = urlencode({"providerId": "apple.com", "id_token": token, "nonce": raw_nonce})
    return post_json(gw, IDENTITY + "/accounts:signInWithIdp",
                     {"requestUri": "http://localhost", "postBody": post_body, "returnSecureToken": True})


def test_refused_apple_credential_names_the_failed_check(make_gateway, apple, tmp_path):
    key_file = tmp_path / "AuthKey_KEY1234567.p8"
    key_file.write_text(apple.p8_pem())
    gw = make_gateway(config=apple.gateway_config(key_file=key_file))
    raw_nonce = "n-" + secrets.token_urlsafe(24)
    token = apple.id_token(nonce=raw_nonce, aud="com.other.app")
    response = apple_sign_in(gw, token, raw_nonce)
    # The client gets Firebase's error and nothing more.
    assert response.status_code == 400
    assert response.json() == {"error": {
        "code": 400, "message": "INVALID_IDP_RESPONSE : id_token audience is not a configured bundle ID or Services ID",
        "errors": [{"message": "INVALID_IDP_RESPONSE : id_token audience is not a configured bundle ID or Services ID",
                    "reason": "invalid", "domain": "global"}]}}
    refused = entries_with(gw, "credential refused")
    assert len(refused) == 1, gw.log_lines()
    assert refused[0]["level"] == "info"
    assert refused[0]["provider"] == "apple.com" and refused[0]["check"] == "audience"
    assert request_id_of(refused[0]) == response.headers["X-Request-Id"]
    log = gw.log_text()
    assert token.split(".")[1] not in log and token.split(".")[2] not in log and raw_nonce not in log


def test_start_up_names_each_enabled_provider_and_what_it_accepts(make_gateway, apple, tmp_path):
    key_file = tmp_path / "AuthKey_KEY1234567.p8"
    key_file.write_text(apple.p8_pem())
    gw = make_gateway(config=apple.gateway_config(key_file=key_file))
    lines = {entry["provider"]: entry for entry in entries_with(gw, "provider enabled")}
    assert set(lines) == {"anonymous", "apple.com", "password"}
    assert lines["apple.com"]["audiences"] == "com.example.app,com.example.web"
    assert lines["apple.com"]["code_exchange"] is True and lines["apple.com"]["revocation"] is True
    assert all(entry["level"] == "info" for entry in lines.values())
    assert apple.p8_pem().splitlines()[1] not in gw.log_text()

    keyless = make_gateway(config={**apple.gateway_config(), "anonymous": {"enabled": False}})
    lines = {entry["provider"]: entry for entry in entries_with(keyless, "provider enabled")}
    assert set(lines) == {"apple.com", "password"}
    assert lines["apple.com"]["code_exchange"] is False and lines["apple.com"]["revocation"] is False


def test_unreachable_apple_keys_are_a_warning_and_the_refusal_says_jwks_fetch(make_gateway, apple):
    gw = make_gateway(config=apple.gateway_config(baseUrl=f"http://127.0.0.1:{free_loopback_port()}"))
    raw_nonce = "n-" + secrets.token_urlsafe(24)
    response = apple_sign_in(gw, apple.id_token(nonce=raw_nonce), raw_nonce)
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "INVALID_IDP_RESPONSE : Apple's public keys could not be fetched; try again"
    warnings = entries_with(gw, "apple key fetch failed")
    assert len(warnings) == 1 and warnings[0]["level"] == "warning" and warnings[0]["cached_key_used"] is False
    assert [entry["check"] for entry in entries_with(gw, "credential refused")] == ["jwks_fetch"]
