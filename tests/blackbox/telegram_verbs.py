"""Verbs for Telegram sign-in against a real gateway: what Firebase clients send for `telegram.org`.

A Firebase SDK's generic OAuth credential carries Login Widget data or Mini App initData in `access_token`, and
an OpenID Connect ID token in `id_token` with the raw nonce in `nonce`; `signInWithIdp` gets them in `postBody`.
"""

from __future__ import annotations

import json
import secrets
import time
from urllib.parse import urlencode

from telegram_stand_in import BOT_TOKEN, init_data, user_json, widget_data
from verbs import IDENTITY, ok_json, post_json

SIGN_IN = IDENTITY + "/accounts:signInWithIdp"
DUPLICATE = "INVALID_IDP_RESPONSE : Duplicate credential received. Please try again with a new credential."
NONCE_DUPLICATE = "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential."

def fresh_user_id() -> int:
    """A random 10-digit Telegram user id (no two tests share one in practice)."""
    return 1_000_000_000 + secrets.randbelow(9_000_000_000)


def nonce() -> str:
    return "tg-" + secrets.token_urlsafe(24)


def widget_for(user_id: int, *, auth_date: int | None = None, first_name: str = "Ada", token: str = BOT_TOKEN,
               **extra) -> str:
    fields = [("id", str(user_id)), ("first_name", first_name), ("last_name", "Lovelace"), ("username", f"ada{user_id}"),
              ("photo_url", f"https://t.me/i/userpic/320/{user_id}.jpg"),
              ("auth_date", str(auth_date if auth_date is not None else int(time.time())))]
    return widget_data(fields + list(extra.items()), token)


def init_data_for(user_id: int, *, auth_date: int | None = None, first_name: str = "Sara", token: str = BOT_TOKEN,
                  signature: bool = True) -> str:
    fields = [("query_id", "AAH" + secrets.token_hex(6)),
              ("user", user_json(user_id, first_name, last_name="Ahmadi", username=f"sara{user_id}",
                                 photo_url=f"https://t.me/i/userpic/320/{user_id}.svg")),
              ("auth_date", str(auth_date if auth_date is not None else int(time.time())))]
    if signature:
        fields.append(("signature", secrets.token_urlsafe(64)[:86]))
    return init_data(fields, token)


def sign_in_raw(gw, *, link_to: str | None = None, pending_token: str | None = None, **post):
    """signInWithIdp for telegram.org with `post` as the credential (`access_token=…` or `id_token=…&nonce=…`);
    `link_to` is the Firebase ID token of a user to link the credential to."""
    body = {"requestUri": "http://localhost", "postBody": urlencode({"providerId": "telegram.org", **post}),
            "returnSecureToken": True, "returnIdpCredential": True}
    if link_to is not None:
        body["idToken"] = link_to
    if pending_token is not None:
        body["pendingToken"] = pending_token
    return post_json(gw, SIGN_IN, body)


def sign_in(gw, **post) -> dict:
    body = ok_json(sign_in_raw(gw, **post))
    assert "errorMessage" not in body and body.get("idToken"), body
    return body


def raw_user_info(body: dict) -> dict:
    return json.loads(body["rawUserInfo"])
