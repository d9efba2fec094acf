"""pyrebase4's email/password flows, unchanged, against the gateway (through the same URL-rewriting shim)."""

from __future__ import annotations

import pyrebase
import pyrebase.pyrebase as pyrebase_module
import pytest
import requests

from email_verbs import email_config, link_in, link_params
from test_pyrebase import RewritingRequests, server_error_code
from verbs import jwt_claims


@pytest.fixture
def pb_email(make_gateway, smtp_sink, monkeypatch):
    gw = make_gateway(config=email_config(smtp_sink.port))
    monkeypatch.setattr(pyrebase_module, "requests", RewritingRequests(gw.base_url))
    app = pyrebase.initialize_app({
        "apiKey": "pyrebase-key", "authDomain": f"{gw.project_id}.firebaseapp.com",
        "databaseURL": f"https://{gw.project_id}.firebaseio.com", "storageBucket": f"{gw.project_id}.appspot.com",
    })
    return app.auth(), smtp_sink


def test_create_sign_in_verify_and_reset(pb_email):
    auth, sink = pb_email
    created = auth.create_user_with_email_and_password("py@example.com", "secret123")
    assert created["email"] == "py@example.com"
    user = auth.sign_in_with_email_and_password("py@example.com", "secret123")
    assert user["localId"] == created["localId"]
    assert auth.current_user["localId"] == created["localId"]
    assert jwt_claims(user["idToken"])["firebase"]["sign_in_provider"] == "password"

    auth.send_email_verification(user["idToken"])
    assert link_params(link_in(sink.wait_for("py@example.com").text))["mode"] == "verifyEmail"

    auth.send_password_reset_email("py@example.com")
    code = link_params(link_in(sink.wait_for("py@example.com", count=2).text))["oobCode"]
    auth.verify_password_reset_code(code, "changed123")
    assert auth.sign_in_with_email_and_password("py@example.com", "changed123")["localId"] == created["localId"]

    with pytest.raises(requests.HTTPError) as raised:
        auth.sign_in_with_email_and_password("py@example.com", "secret123")
    assert server_error_code(raised.value) == "INVALID_PASSWORD"
    with pytest.raises(requests.HTTPError) as raised:
        auth.create_user_with_email_and_password("py@example.com", "another1")
    assert server_error_code(raised.value) == "EMAIL_EXISTS"
