"""Verbs for the email provider: gateway configs wired to an SMTP sink, links out of received mail."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

from verbs import IDENTITY, ok_json, post_json, send

# A cheap scrypt so tests do not spend their time hashing (the known-answer tests use real costs).
CHEAP_SCRYPT = {"n": 1024, "r": 8, "p": 1}


def email_config(smtp_port: int, **email_overrides) -> dict:
    email = {
        "scrypt": CHEAP_SCRYPT,
        "smtp": {"url": f"smtp://127.0.0.1:{smtp_port}", "security": "none", "from": "noreply@example.com",
                 "fromName": "Gatehouse Tests", "timeoutSeconds": 5, "initialBackoffSeconds": 1, "pollSeconds": 0.2},
    }
    email.update(email_overrides)
    return {"email": email, "authorizedDomains": ["localhost", "127.0.0.1", "app.example.com"]}


def sign_up(gw, address: str, password: str = "secret123") -> dict:
    return ok_json(post_json(gw, IDENTITY + "/accounts:signUp",
                             {"email": address, "password": password, "returnSecureToken": True}))


def sign_in_raw(gw, address: str, password: str):
    return post_json(gw, IDENTITY + "/accounts:signInWithPassword",
                     {"email": address, "password": password, "returnSecureToken": True})


def send_oob_raw(gw, body: dict, headers: dict | None = None):
    return post_json(gw, IDENTITY + "/accounts:sendOobCode", body, headers=headers or {})


def link_in(text: str) -> str:
    match = re.search(r"https?://\S+/__/auth/action\?\S+", text)
    assert match, f"no action link in: {text!r}"
    return match.group(0)


def link_params(link: str) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlsplit(link).query).items()}


def follow(gw, link: str, **kwargs):
    """GETs an action link on the gateway (its path and query), without following redirects."""
    parts = urlsplit(link)
    return send(gw, "GET", parts.path + "?" + parts.query, key=None, allow_redirects=False, **kwargs)


class FormReader(HTMLParser):
    """The fields and action of the first form on a page."""

    def __init__(self):
        super().__init__()
        self.action = None
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and self.action is None:
            self.action = attributes.get("action")
        if tag == "input" and attributes.get("name"):
            self.fields[attributes["name"]] = attributes.get("value") or ""


def read_form(html: str) -> FormReader:
    reader = FormReader()
    reader.feed(html)
    assert reader.action, "page has no form"
    return reader
