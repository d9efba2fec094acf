"""pyrebase4 against the gateway through the URL-rewriting shim (pyrebase hard-codes Google's hosts)."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pyrebase
import pyrebase.pyrebase as pyrebase_module
import pytest
import requests

from verbs import jwt_claims, lookup_raw, assert_business_error, record


class RewritingRequests:
    """Stands in for the `requests` module inside pyrebase: `https://<host>/<path>` → `<gateway>/<host>/<path>`."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.Session = requests.Session
        self.exceptions = requests.exceptions

    def _rewrite(self, url: str) -> str:
        parts = urlsplit(url)
        assert parts.scheme == "https", url
        rewritten = f"{self.base_url}/{parts.netloc}{parts.path}"
        return rewritten + (f"?{parts.query}" if parts.query else "")

    def post(self, url, *args, **kwargs):
        response = requests.post(self._rewrite(url), *args, timeout=10, **kwargs)
        record("POST", url, response.status_code)
        return response

    def get(self, url, *args, **kwargs):
        response = requests.get(self._rewrite(url), *args, timeout=10, **kwargs)
        record("GET", url, response.status_code)
        return response


@pytest.fixture
def pb_auth(gw, monkeypatch):
    monkeypatch.setattr(pyrebase_module, "requests", RewritingRequests(gw.base_url))
    app = pyrebase.initialize_app({
        "apiKey": "pyrebase-key",
        "authDomain": f"{gw.project_id}.firebaseapp.com",
        "databaseURL": f"https://{gw.project_id}.firebaseio.com",
        "storageBucket": f"{gw.project_id}.appspot.com",
    })
    return app.auth()


def server_error_code(error: requests.HTTPError) -> str:
    return json.loads(error.args[1])["error"]["message"]


def test_sign_in_anonymous_and_refresh(pb_auth):
    user = pb_auth.sign_in_anonymous()
    assert pb_auth.current_user["localId"] == user["localId"]
    refreshed = pb_auth.refresh(user["refreshToken"])
    assert refreshed["userId"] == user["localId"]
    assert refreshed["refreshToken"] == user["refreshToken"]
    assert jwt_claims(refreshed["idToken"])["sub"] == user["localId"]


def test_account_info_profile_update_and_delete(pb_auth, gw):
    user = pb_auth.sign_in_anonymous()
    token = user["idToken"]
    info = pb_auth.get_account_info(token)
    assert [u["localId"] for u in info["users"]] == [user["localId"]]

    updated = pb_auth.update_profile(token, display_name="Bob")
    assert updated["localId"] == user["localId"]
    assert updated["displayName"] == "Bob"
    assert pb_auth.get_account_info(token)["users"][0]["displayName"] == "Bob"

    pb_auth.update_profile(token, display_name="Bob", photo_url="https://example.com/bob.png")
    assert pb_auth.get_account_info(token)["users"][0]["photoUrl"] == "https://example.com/bob.png"

    pb_auth.delete_user_account(token)
    with pytest.raises(requests.HTTPError) as raised:
        pb_auth.get_account_info(token)
    assert server_error_code(raised.value) == "USER_NOT_FOUND"
    assert_business_error(lookup_raw(gw, token), "USER_NOT_FOUND")


def test_refresh_with_garbage_reports_invalid_refresh_token(pb_auth):
    with pytest.raises(requests.HTTPError) as raised:
        pb_auth.refresh("not-a-refresh-token")
    assert server_error_code(raised.value).startswith("INVALID_REFRESH_TOKEN")
