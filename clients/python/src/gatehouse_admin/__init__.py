"""Use firebase-admin (Python) against a Gatehouse gateway in production.

firebase-admin talks only to Google's hosts unless ``FIREBASE_AUTH_EMULATOR_HOST`` is set, and with that variable
set it stops checking the signatures of ID tokens and session cookies: ``verify_id_token`` then accepts an unsigned
token naming any uid. This adapter is the production alternative. It configures an unmodified firebase-admin app

* to call the gateway's admin API (``/identitytoolkit.googleapis.com/...``) over HTTPS,
* authenticated with a service-account key file, whose access tokens come from the gateway's OAuth2 token
  endpoint (the JWT-bearer grant; the key file's ``token_uri`` is pointed there),
* to verify ID tokens and session cookies against the keys the gateway publishes, with signatures, ``kid``,
  ``alg``, issuer, audience and expiry checked exactly as firebase-admin checks Google's tokens,
* and to sign custom tokens locally with that service account's key.

Usage::

    import gatehouse_admin
    from firebase_admin import auth

    app = gatehouse_admin.initialize_app("https://auth.example.com", "service-account.json")
    uid = auth.create_user(email="a@example.com", app=app).uid
    claims = auth.verify_id_token(id_token, app=app, check_revoked=True)
"""

from __future__ import annotations

import copy
import ipaddress
import json
import os
from typing import Any, Mapping, Optional, Union
from urllib.parse import urlsplit

import firebase_admin
from firebase_admin import auth, credentials

__all__ = ["initialize_app", "configure", "token_uri", "GatewayConfigurationError"]

TOKEN_PATH = "/oauth2.googleapis.com/token"
IDENTITY_TOOLKIT_PATH = "/identitytoolkit.googleapis.com"
ID_TOKEN_KEYS_PATH = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
SESSION_COOKIE_KEYS_PATH = "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"
EMULATOR_VARIABLE = "FIREBASE_AUTH_EMULATOR_HOST"


class GatewayConfigurationError(RuntimeError):
    """The app cannot be pointed at the gateway safely (emulator variable set, plain HTTP, unknown firebase-admin)."""


def token_uri(gateway_url: str) -> str:
    """The gateway's OAuth2 token endpoint (a key file's ``token_uri``)."""
    return _base(gateway_url) + TOKEN_PATH


def initialize_app(
    gateway_url: str,
    service_account: Union[str, os.PathLike, Mapping[str, Any]],
    *,
    name: str = firebase_admin._DEFAULT_APP_NAME,
    options: Optional[Mapping[str, Any]] = None,
    allow_http: bool = False,
) -> firebase_admin.App:
    """Creates a firebase-admin app that uses the gateway at ``gateway_url`` for everything ``auth`` does.

    ``service_account`` is a key file (path or parsed dict) from ``gateway service-accounts create``, or the key
    file of a Google service account registered with ``gateway service-accounts register``; its ``token_uri`` is
    replaced by the gateway's either way. ``gateway_url`` must be ``https://`` unless the host is a loopback
    address or ``allow_http`` is set: access tokens and ID tokens travel in the clear over plain HTTP.
    """
    _refuse_emulator_variable()
    base = _checked_base(gateway_url, allow_http)
    info = _load_key_file(service_account)
    info["token_uri"] = base + TOKEN_PATH
    app_options = dict(options or {})
    app_options.setdefault("projectId", info.get("project_id"))
    app = firebase_admin.initialize_app(credentials.Certificate(info), options=app_options, name=name)
    try:
        configure(app, base, allow_http=allow_http)
    except Exception:
        firebase_admin.delete_app(app)
        raise
    return app


def configure(app: firebase_admin.App, gateway_url: str, *, allow_http: bool = False) -> None:
    """Points the ``auth`` client of an existing app at the gateway (what ``initialize_app`` does after creating
    the app). The app's credential must obtain its access tokens from the gateway (see ``token_uri``)."""
    _refuse_emulator_variable()
    base = _checked_base(gateway_url, allow_http)
    client = auth._get_client(app)
    try:
        user_manager = client._user_manager
        token_generator = client._token_generator
        provider_manager = client._provider_manager
        verifiers = (client._token_verifier.id_token_verifier, client._token_verifier.cookie_verifier)
        for part in (user_manager, token_generator, provider_manager):
            getattr(part, "base_url")
        for verifier in verifiers:
            getattr(verifier, "cert_url")
    except AttributeError as missing:
        raise GatewayConfigurationError(
            f"firebase-admin {firebase_admin.__version__} is not supported by gatehouse-admin "
            f"(its auth client lacks {missing.name}); use firebase-admin 6 or 7"
        ) from missing
    if getattr(client, "emulated", False):
        raise GatewayConfigurationError("the auth client was created in emulator mode; create a new app")
    project = app.project_id
    user_manager.base_url = f"{base}{IDENTITY_TOOLKIT_PATH}/v1/projects/{project}"
    token_generator.base_url = f"{base}{IDENTITY_TOOLKIT_PATH}/v1/projects/{project}"
    provider_manager.base_url = f"{base}{IDENTITY_TOOLKIT_PATH}/v2/projects/{project}"
    verifiers[0].cert_url = base + ID_TOKEN_KEYS_PATH
    verifiers[1].cert_url = base + SESSION_COOKIE_KEYS_PATH


def _refuse_emulator_variable() -> None:
    # firebase-admin re-reads the variable on every verification: with it set, signatures are never checked.
    if os.environ.get(EMULATOR_VARIABLE):
        raise GatewayConfigurationError(
            f"{EMULATOR_VARIABLE} is set: firebase-admin would not check token signatures. "
            "Unset it in production; it is only for test suites against `gateway serve --emulator`."
        )


def _base(gateway_url: str) -> str:
    return gateway_url[:-1] if gateway_url.endswith("/") else gateway_url


def _checked_base(gateway_url: str, allow_http: bool) -> str:
    parts = urlsplit(gateway_url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise GatewayConfigurationError(f"gateway_url must be an absolute https:// URL, got {gateway_url!r}")
    if parts.scheme == "http" and not allow_http and not _is_loopback(parts.hostname):
        raise GatewayConfigurationError(
            "gateway_url uses plain HTTP to a non-loopback host: tokens would travel in the clear. "
            "Use https:// (e.g. nginx in front of the gateway) or pass allow_http=True."
        )
    return _base(gateway_url)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _load_key_file(service_account: Union[str, os.PathLike, Mapping[str, Any]]) -> dict:
    if isinstance(service_account, Mapping):
        return copy.deepcopy(dict(service_account))
    with open(service_account, encoding="utf-8") as key_file:
        return json.load(key_file)
