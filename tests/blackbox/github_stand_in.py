"""A local stand-in for GitHub's OAuth endpoints and the three API calls sign-in makes: the authorization page
(consents at once), the code exchange (checks the client secret and the PKCE verifier), "check a token"
(answers only for tokens of the app that asks, as GitHub does) and the user's addresses."""

from __future__ import annotations

import base64
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

from oidc_stand_in import s256

CLIENT_ID = "Ov23liBLACKBOX"
CLIENT_SECRET = "gh-blackbox-secret"


class GitHubStandIn:
    def __init__(self) -> None:
        self.tokens: dict[str, dict] = {}
        self.codes: dict[str, dict] = {}
        self.next_user = {"id": 1, "login": "web-user"}
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> "GitHubStandIn":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def gateway_config(self) -> dict:
        return {"github": {"enabled": True, "clientId": CLIENT_ID, "baseUrl": self.base_url, "apiBaseUrl": self.base_url}}

    def issue(self, token: str, user: dict, emails: list | None = None, app: str = CLIENT_ID) -> None:
        with self.lock:
            self.tokens[token] = {"app": app, "user": user, "emails": emails}

    def _handler(self):
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, status: int, body=None, headers: dict | None = None):
                data = b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                url = urlparse(self.path)
                if url.path == "/login/oauth/authorize":
                    query = {k: v[0] for k, v in parse_qs(url.query).items()}
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
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                if url.path == f"/applications/{CLIENT_ID}/token":
                    expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
                    if self.headers.get("Authorization") != expected:
                        return self._reply(401, {"message": "Requires authentication"})
                    issued = stand_in.tokens.get(json.loads(raw or "{}").get("access_token", ""))
                    if issued is None or issued["app"] != CLIENT_ID:
                        return self._reply(404, {"message": "Not Found"})
                    return self._reply(200, {"app": {"client_id": CLIENT_ID}, "user": issued["user"]})
                if url.path == "/login/oauth/access_token":
                    form = {k: v[0] for k, v in parse_qs(raw).items()}
                    with stand_in.lock:
                        issued = stand_in.codes.pop(form.get("code", ""), None)
                    if (form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET or issued is None
                            or s256(form.get("code_verifier", "")) != issued["challenge"]
                            or form.get("redirect_uri") != issued["redirect_uri"]):
                        return self._reply(200, {"error": "bad_verification_code"})
                    return self._reply(200, {"access_token": issued["token"], "token_type": "bearer"})
                return self._reply(404, {"message": "Not Found"})

        return Handler
