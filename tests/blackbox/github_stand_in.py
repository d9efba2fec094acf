"""A local stand-in for GitHub's OAuth endpoints and the three API calls sign-in makes: the authorization page
(consents at once), the code exchange (checks the client secret and the PKCE verifier), "check a token"
(answers only for tokens of the app that asks, as GitHub does) and the user's addresses."""

from __future__ import annotations

import base64
import json
import threading
import uuid
from urllib.parse import urlencode, urlparse

from oidc_stand_in import s256
from stand_in_server import StandInHandler, StandInServer, parse_fields

CLIENT_ID = "Ov23liBLACKBOX"
CLIENT_SECRET = "gh-blackbox-secret"


class GitHubStandIn(StandInServer):
    def __init__(self) -> None:
        self.tokens: dict[str, dict] = {}
        self.codes: dict[str, dict] = {}
        self.next_user = {"id": 1, "login": "web-user"}
        self.lock = threading.Lock()
        super().__init__(self._handler())

    def gateway_config(self) -> dict:
        return {"github": {"enabled": True, "clientId": CLIENT_ID, "baseUrl": self.base_url, "apiBaseUrl": self.base_url}}

    def issue(self, token: str, user: dict, emails: list | None = None, app: str = CLIENT_ID) -> None:
        with self.lock:
            self.tokens[token] = {"app": app, "user": user, "emails": emails}

    def _handler(self):
        stand_in = self

        class Handler(StandInHandler):
            def do_GET(self):
                url = urlparse(self.path)
                if url.path == "/login/oauth/authorize":
                    query = parse_fields(url.query)
                    code, token = "code-" + uuid.uuid4().hex, "gho_" + uuid.uuid4().hex
                    stand_in.issue(token, dict(stand_in.next_user))
                    with stand_in.lock:
                        stand_in.codes[code] = {"token": token, "challenge": query.get("code_challenge"),
                                                "redirect_uri": query["redirect_uri"]}
                    location = query["redirect_uri"] + "?" + urlencode({"code": code, "state": query["state"]})
                    return self._reply(302, {}, {"Location": location})
                if url.path == "/user/emails":
                    token = self.headers.get("Authorization", "").removeprefix("Bearer ")
                    issued = stand_in.tokens.get(token)
                    if issued is None or issued["emails"] is None:
                        return self._reply(404, {"message": "Not Found"})
                    return self._reply(200, issued["emails"])
                return self._reply(404, {"message": "Not Found"})

            def do_POST(self):
                url = urlparse(self.path)
                raw = self._body().decode()
                if url.path == f"/applications/{CLIENT_ID}/token":
                    expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
                    if self.headers.get("Authorization") != expected:
                        return self._reply(401, {"message": "Requires authentication"})
                    issued = stand_in.tokens.get(json.loads(raw or "{}").get("access_token", ""))
                    if issued is None or issued["app"] != CLIENT_ID:
                        return self._reply(404, {"message": "Not Found"})
                    return self._reply(200, {"app": {"client_id": CLIENT_ID}, "user": issued["user"]})
                if url.path == "/login/oauth/access_token":
                    form = parse_fields(raw)
                    with stand_in.lock:
                        issued = stand_in.codes.pop(form.get("code", ""), None)
                    if (form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET or issued is None
                            or s256(form.get("code_verifier", "")) != issued["challenge"]
                            or form.get("redirect_uri") != issued["redirect_uri"]):
                        return self._reply(200, {"error": "bad_verification_code"})
                    return self._reply(200, {"access_token": issued["token"], "token_type": "bearer"})
                return self._reply(404, {"message": "Not Found"})

        return Handler
