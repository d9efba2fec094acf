"""A configuration file written for the release before the provider platform (every documented key, secrets in
files and environment variables) still starts the gateway unchanged, and every plugin reads its own section."""

from __future__ import annotations

import json
import secrets

from email_verbs import CHEAP_SCRYPT, sign_up
from harness import run_cli
from test_logs import apple_sign_in, entries_with
from verbs import IDENTITY, ok_json, post_json


def release_config(apple, smtp_port: int, key_file, password_file, templates_dir) -> dict:
    return {
        "projectId": "release-check", "projectNumber": "123456", "logLevel": "info", "emulator": False,
        "apiKeys": [], "adminTokens": ["a-long-enough-admin-token"], "trustedAdminNetworks": ["127.0.0.0/8", "::1/128"],
        "trustedProxies": [], "authorizedDomains": ["localhost", "app.example.com"],
        "tokens": {"idTokenLifetimeSeconds": 3600, "keyCacheMaxAgeSeconds": 3600, "clockSkewSeconds": 60},
        "signIn": {"allowDuplicateEmails": False},
        "http": {"maxBodyBytes": 1048576, "maxHeaderBytes": 16384, "maxHeaderCount": 100, "requestTimeoutSeconds": 10,
                 "idleTimeoutSeconds": 30, "maxConnections": 1000, "eventLoops": 1},
        "anonymous": {"enabled": True, "signUpsPerIPPerHour": 300,
                      "cleanup": {"enabled": True, "maxAgeDays": 30, "intervalSeconds": 3600}},
        "apple": {"enabled": True, "bundleIds": ["com.example.app"], "servicesIds": ["com.example.web"],
                  "teamId": "TEAM123456", "keyId": "KEY1234567", "privateKeyFile": str(key_file),
                  "baseUrl": apple.base_url, "clockSkewSeconds": 60, "keyRefreshIntervalSeconds": 60},
        "email": {"enabled": True, "emailLinkEnabled": True, "improvedEmailPrivacy": False, "recentSignInSeconds": 300,
                  "scrypt": CHEAP_SCRYPT, "kdfWorkers": 1, "kdfMaxQueued": 8, "appName": "Release Check",
                  "actionUrl": "http://127.0.0.1/__/auth/action", "templatesDir": str(templates_dir),
                  "passwordPolicy": {"minLength": 6, "maxLength": 4096, "requireLowercase": False,
                                     "requireUppercase": False, "requireDigit": False, "requireNonAlphanumeric": False},
                  "limits": {"signUpsPerIPPerHour": 100, "sendsPerIPPerHour": 60, "sendsPerEmailPerHour": 5,
                             "failedPasswordsPerAccount": 10, "failedPasswordWindowSeconds": 900},
                  "smtp": {"url": f"smtp://127.0.0.1:{smtp_port}", "username": "mailer", "passwordFile": str(password_file),
                           "from": "noreply@example.com", "fromName": "Release Check", "security": "none",
                           "timeoutSeconds": 5, "initialBackoffSeconds": 1, "maxBackoffSeconds": 60, "pollSeconds": 0.2}},
    }


def test_a_configuration_file_of_the_previous_release_starts_unchanged(make_gateway, apple, smtp_sink, tmp_path):
    key_file = tmp_path / "AuthKey_KEY1234567.p8"
    key_file.write_text(apple.p8_pem())
    password_file = tmp_path / "smtp-password"
    password_file.write_text("not-checked-by-the-sink\n")
    templates = tmp_path / "templates"
    templates.mkdir()
    config = release_config(apple, smtp_sink.port, key_file, password_file, templates)
    gw = make_gateway(config=config, env={"GATEHOUSE_SMTP_PASSWORD": "from-the-environment"})

    enabled = {entry["provider"]: entry for entry in entries_with(gw, "provider enabled")}
    assert set(enabled) == {"anonymous", "apple.com", "password"}, gw.log_lines()
    assert enabled["apple.com"]["audiences"] == "com.example.app,com.example.web"
    assert enabled["apple.com"]["code_exchange"] is True

    # Each plugin does its job from its own section: Apple verifies against the stand-in, email signs users up.
    raw_nonce = "n-" + secrets.token_urlsafe(24)
    assert ok_json(apple_sign_in(gw, apple.id_token(nonce=raw_nonce, aud="com.example.app"), raw_nonce))["localId"]
    assert sign_up(gw, "release@example.com", "secret123")["localId"]
    anonymous = ok_json(post_json(gw, IDENTITY + "/accounts:signUp", {"returnSecureToken": True}))
    assert anonymous["idToken"]


def test_the_apple_private_key_from_the_previous_releases_environment_variable(make_gateway, apple, smtp_sink, tmp_path):
    """The release documented `GATEHOUSE_APPLE_PRIVATE_KEY` as the other way to give Apple's key: it still enables
    code exchange, and with neither the gateway refuses to start, naming both."""
    password_file = tmp_path / "smtp-password"
    password_file.write_text("not-checked-by-the-sink\n")
    templates = tmp_path / "templates"
    templates.mkdir()
    config = release_config(apple, smtp_sink.port, tmp_path / "unused.p8", password_file, templates)
    del config["apple"]["privateKeyFile"]
    with_env = make_gateway(config=config, env={"GATEHOUSE_APPLE_PRIVATE_KEY": apple.p8_pem()})
    assert {e["provider"]: e for e in entries_with(with_env, "provider enabled")}["apple.com"]["code_exchange"] is True
    assert apple.p8_pem().split("\n")[1] not in "\n".join(with_env.log_lines())
    config_file = tmp_path / "without-key.json"
    config_file.write_text(json.dumps(config))
    without = run_cli("serve", "--config", str(config_file), "--data-dir", str(tmp_path / "data"), "--port", "0")
    assert without.returncode != 0
    assert "apple.privateKeyFile or GATEHOUSE_APPLE_PRIVATE_KEY" in without.stderr


def test_a_misspelt_key_in_a_plugins_section_is_named_at_start(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"email": {"limits": {"sendsPerIPPerHuor": 1}}}))
    result = run_cli("serve", "--config", str(config), "--data-dir", str(tmp_path / "data"), "--port", "0")
    assert result.returncode != 0
    assert 'unknown config key \"email.limits.sendsPerIPPerHuor\"' in result.stderr
