"""A loopback HTTP server that answers every request with one fixed answer and records what it received: what a
client sends to something that is not the gateway (a front that redirects, a server that sets cookies, one that
answers late). Used by the Swift client tests through `stand_in_host.py`."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class RecorderStandIn:
    def __init__(self, status: int = 200, body: str = "{}", headers: dict[str, str] | None = None,
                 delay: float = 0.0, redirect_to: str | None = None) -> None:
        """`redirect_to`: a base URL; each answer's `Location` is it plus the request's path and query."""
        self.status, self.body, self.headers = status, body, headers or {}
        self.delay, self.redirect_to = delay, redirect_to
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> "RecorderStandIn":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def recorded(self) -> list[dict]:
        with self.lock:
            return list(self.requests)

    def _handler(self):
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode(errors="replace") if length else ""
                with stand_in.lock:
                    stand_in.requests.append({"method": self.command, "path": self.path, "body": body,
                                              "headers": {name.lower(): value for name, value in self.headers.items()}})
                if stand_in.delay:
                    time.sleep(stand_in.delay)
                data = stand_in.body.encode()
                self.send_response(stand_in.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if stand_in.redirect_to:
                    self.send_header("Location", stand_in.redirect_to + self.path)
                for name, value in stand_in.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

        return Handler
