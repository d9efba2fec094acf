"""The JSON access log: one object per line, a request id on request lines, and no secrets."""

from __future__ import annotations

import base64
import json
import re

from verbs import lookup, refresh, sign_up_anonymously

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
