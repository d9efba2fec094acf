"""What every provider stand-in's loopback HTTP server shares: the lifecycle (a threaded server on a free loopback
port, served from a daemon thread) and a request handler that keeps quiet and answers JSON.

A stand-in subclasses `StandInServer` and, at the end of its `__init__`, calls `super().__init__(handler_class)`
with a subclass of `StandInHandler` (usually built in a `_handler()` method, closing over the stand-in).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self
from urllib.parse import parse_qs


def parse_fields(encoded: str) -> dict[str, str]:
    """A query string or form body as a dict: the first value of each field."""
    return {k: v[0] for k, v in parse_qs(encoded).items()}


class StandInServer:
    def __init__(self, handler_class: type[BaseHTTPRequestHandler]) -> None:
        # ThreadingHTTPServer answers on daemon threads, so `stop()` does not wait for a connection a client left
        # open (a browser's spare connection) and nothing outlives the test process.
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler_class)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> Self:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class StandInHandler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _form(self) -> dict[str, str]:
        return parse_fields(self._body().decode())

    def _send(self, status: int, data: bytes = b"", content_type: str | None = "application/json",
              headers: dict | None = None) -> None:
        """An answer with `data` as its body; no Content-Type header when `content_type` is None."""
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _reply(self, status: int, body=None, headers: dict | None = None) -> None:
        """A JSON answer (an empty body when `body` is None)."""
        self._send(status, b"" if body is None else json.dumps(body).encode(), headers=headers)
